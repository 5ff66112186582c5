"""Small custom components (``st.components.v2``: no iframe, the script runs in the app's page)."""
