"""Shared Streamlit UI pieces: translations, charts, widgets and links.  Pages import from here."""
from ui.shell import leave_legacy_pages_mode

# Every page imports ui, so this runs before any page draws anything (see ui/shell.py).
leave_legacy_pages_mode()
