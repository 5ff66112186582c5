"""ui.classroom.browser and ui.components.cookies: the address the limits count, and what a cookie may hold."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.classroom.browser import cookie_name, forwarded_for
from ui.components import cookies


def test_the_address_is_the_one_the_nearest_trusted_proxy_saw():
    # nginx (one trusted proxy) appends the peer address; whatever the client sent stays on the left.
    assert forwarded_for(["evil, 198.51.100.4"], 1) == "198.51.100.4"
    assert forwarded_for(["198.51.100.4"], 1) == "198.51.100.4"
    # two proxies (a CDN, then nginx): the CDN's entry is the client's address
    assert forwarded_for(["spoofed, 203.0.113.9, 10.0.0.5"], 2) == "203.0.113.9"
    assert forwarded_for(["10.0.0.5"], 2) is None  # fewer entries than proxies: not trusted
    assert forwarded_for(["1.2.3.4"], 0) is None


@given(st.lists(st.text(max_size=60), max_size=4), st.text(alphabet="0123456789.", min_size=1, max_size=15))
def test_a_client_cannot_choose_its_address_behind_one_proxy(claimed, peer):
    # Whatever the client writes into X-Forwarded-For, the last entry is the one nginx appends.
    header = ", ".join([*claimed, peer])
    assert forwarded_for([header], 1) == peer


def test_cookie_values_are_tokens_only():
    assert cookie_name("t", "ACD347") == "ndcglab_t_ACD347"
    assert cookies.stored({"stored": "abc"}, "abc") and not cookies.stored({"stored": "abc"}, "")
    for bad in ("a;b", "x=1", "a b", "", "ü", "a" * 201):
        assert not cookies.SAFE.fullmatch(bad)
        with pytest.raises(ValueError, match="cookie names and values must match"):
            cookies.write(key="k", set_=[("ndcglab_t_X", bad, 60)], nonce="n")
