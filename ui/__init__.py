"""Shared Streamlit UI pieces: translations, charts, widgets and links.  Pages import from here."""
