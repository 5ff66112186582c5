"""Shared Streamlit UI pieces: translations, charts, widgets and links.  Pages import from here."""
from ui.reruns import keep_fragment_reruns

keep_fragment_reruns()  # first: a page back on a restarted server may send a fragment's rerun at once

from ui.config_sections import index_config_sections  # noqa: E402

index_config_sections()  # every run's theme message reads six config sections (ui/config_sections.py)

from ui.shell import leave_legacy_pages_mode  # noqa: E402

# Every page imports ui, so this runs before any page draws anything (see ui/shell.py).
leave_legacy_pages_mode()
