"""ui.shell: the page-opening helper's pieces (title, language script) and the app's style sheet."""
from __future__ import annotations

import re

import pytest

from tests.browser.a11y import contrast
from ui.i18n import LANGUAGES, catalogue
from ui.shell import APP_CSS, FOCUS_DARK, HTML_LANG, lang_script, page_title


def test_every_interface_language_has_an_html_language_tag():
    assert set(HTML_LANG) == set(LANGUAGES)
    assert HTML_LANG == {"en": "en", "zh": "zh-Hans", "zh-Hant": "zh-Hant", "ko": "ko"}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_page_title_is_the_translated_page_name_and_the_app(lang, monkeypatch):
    monkeypatch.setattr("ui.i18n.current_language", lambda: lang)
    assert page_title("playground") == f"{catalogue(lang)['common.nav.playground']} · NDCG Lab"
    assert page_title("roc").endswith(" · NDCG Lab")


def test_the_language_script_is_fixed_markup():
    assert lang_script("ko").startswith('<script>document.documentElement.lang = "ko";')
    # anything that is not an interface language gives English, never the text itself
    for hostile in ('"; alert(1); "', "</script><img src=x>", "zh-Hans"):
        script = lang_script(hostile)
        assert script.startswith('<script>document.documentElement.lang = "en";')
        assert hostile not in script
    assert lang_script("en").count("<script>") == 1 and lang_script("en").endswith("</script>")


def test_the_style_sheet_survives_streamlits_sanitizer():
    # DOMPurify drops a <style> element whose text holds "<" followed by a letter or "/" (a tag-like token):
    # the whole sheet would silently vanish (it did, with "<input>" in a comment).
    body = APP_CSS.split("<style>", 1)[1].rsplit("</style>", 1)[0]
    assert not re.search(r"<[/\w]", body)
    assert APP_CSS.count("<style>") == 1


def _var(css: str, name: str) -> str:
    return re.search(rf"{name}:\s*(#[0-9a-fA-F]{{6}})", css).group(1)


@pytest.mark.parametrize("css, page", [(APP_CSS, "#ffffff"), (FOCUS_DARK, "#0b1220")])
def test_focus_ring_and_muted_text_contrast_in_both_themes(css, page):
    ring, halo, muted = _var(css, "--nl-focus"), _var(css, "--nl-focus-halo"), _var(css, "--nl-muted-text")
    assert contrast(ring, page) >= 3.0      # the ring against the page
    assert contrast(ring, halo) >= 3.0      # ... and against its halo (what surrounds it on any control)
    assert contrast(muted, page) >= 4.5     # captions and quotes as text
    assert contrast(muted, "#f0f2f6" if page == "#ffffff" else page) >= 4.5  # also on the sidebar's grey


def test_selected_pills_text_contrast():
    # Streamlit draws a selected pill on a 10 % tint of the primary colour (#2563eb -> #e9effd)
    assert contrast("#1d4ed8", "#e9effd") >= 4.5
    assert contrast("#2563eb", "#e9effd") < 4.5  # why the override exists
