"""Every page offers its complete address in a copy-able code box, and opening that address
reproduces the same link (the view's state round-trips through the link)."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.conftest import no_exceptions, open_page
from tests.pages.test_fuzz import app_pages

# The classroom pages show their own links (join link, private teacher link): tested in test_classroom.
PAGES = [(script, path) for script, path in app_pages() if path not in ("class", "join")]


def _shown_link(at, path: str) -> str:
    codes = [c.value for c in at.code if str(c.value).split("?")[0].rstrip("/").endswith(path)]
    assert codes, f"no code box with the address of /{path}"
    return codes[-1]


@pytest.mark.parametrize("script,path", PAGES, ids=[p for _, p in PAGES])
def test_every_page_shows_its_link_and_the_link_reproduces_itself(script, path):
    at = open_page(script, lang="zh", query={"lang": "zh"})
    no_exceptions(at)
    link = _shown_link(at, path)  # (Present's sits in a closed expander: it is drawn all the same)
    assert "lang=zh" in link  # a copied link opens in the visitor's language
    query = dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))
    again = open_page(script, lang="zh", query=query)
    no_exceptions(again)
    assert not again.warning or all("default" not in w.value.lower() for w in again.warning)
    assert _shown_link(again, path) == link
