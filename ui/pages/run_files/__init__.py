"""Page logic of Run files (``pages/run_files.py`` lays it out): :mod:`~ui.pages.run_files.view` (files, caching,
names, flips, the fields), :mod:`~ui.pages.run_files.sections` (the sections the page draws),
:mod:`~ui.pages.run_files.match` (which convention a run file's numbers follow) and
:mod:`~ui.pages.run_files.significance` (significance tests and intervals, and their lesson).
"""
