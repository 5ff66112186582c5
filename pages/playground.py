"""Playground: type, edit or drag a ranking and see every NDCG variant step by step.

The page is one fragment, laid out in ui/pages/playground/view.py (a page script defines no function, and a
fragment is one): a widget inside it reruns the page without app.py.  Fields and edits: ui/pages/playground/;
every number comes from metrics/.
"""
from __future__ import annotations

from ui.pages.playground.view import playground
from ui.shell import open_page

open_page("playground")  # outside the fragment: the tab's title and <html lang> (the sidebar is not the fragment's)
playground()
