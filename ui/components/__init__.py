"""Small custom components (``st.components.v2``: no iframe, the script runs in the app's page)."""
from __future__ import annotations

from collections.abc import Callable


def lazy_component(name: str, js: Callable[[], str], css: Callable[[], str] | None = None) -> Callable:
    """A function returning the component ``name``, registered with Streamlit on its first call (so importing
    a component module imports neither Streamlit's component machinery nor reads its files)."""
    registered = []

    def mount():
        if not registered:
            import streamlit as st

            kwargs = {"js": js()}
            if css is not None:
                kwargs["css"] = css()
            registered.append(st.components.v2.component(name, **kwargs))
        return registered[0]

    return mount
