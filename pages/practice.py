"""Placeholder until the page's owner replaces it."""
import streamlit as st

from ui.i18n import t

st.title(t("common.nav.practice"))
