"""Page logic, one place per page: ``pages/<key>.py`` lays a page out, ``ui/pages/<key>.py`` (or the package
``ui/pages/<key>/`` when it needs several modules) holds what the layout calls — its fields for
:mod:`ui.state`, parsers and caps, the text, tables and formulas it shows.  ``<key>`` is the page's key in
app.py's PAGES (its URL path).  The two classroom pages (``class``, the teacher; ``join``, the student) are
two sides of one feature and share :mod:`ui.pages.classroom`.

What several pages share stays in ``ui/`` itself (state and links, translations, escaping, numbers, widgets,
tables, formulas, charts by family, components, the diagnosis of a hand calculation).
"""
