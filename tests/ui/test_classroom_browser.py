"""The address the limits count (classroom.throttle's proxy chain, read by ui.pages.classroom.browser) and what a
cookie may hold (ui.components.cookies)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom.throttle import client_address, trusted_proxies
from ui.components import cookies
from ui.pages.classroom.browser import cookie_name

NGINX_HERE = trusted_proxies("127.0.0.1, ::1")


def test_the_address_is_the_one_the_nearest_trusted_proxy_saw():
    # nginx on this machine (a loopback peer, which Streamlit reports as None) appends the address it saw;
    # whatever the client sent stays on the left.
    assert client_address(None, ["evil, 198.51.100.4"], NGINX_HERE) == "198.51.100.4"
    assert client_address("127.0.0.1", ["198.51.100.4"], NGINX_HERE) == "198.51.100.4"
    assert client_address("::1", ["2001:db8::7"], NGINX_HERE) == "2001:db8::7"
    assert client_address("::ffff:127.0.0.1", ["198.51.100.4"], NGINX_HERE) == "198.51.100.4"  # IPv4-mapped
    # a CDN in 10/8, then nginx: walked from the right through both trusted hops
    two = trusted_proxies("127.0.0.1, 10.0.0.0/8")
    assert client_address(None, ["spoofed, 203.0.113.9, 10.0.0.5"], two) == "203.0.113.9"
    assert client_address(None, ["10.0.0.5"], two) == "10.0.0.5"  # every hop trusted: the furthest one
    assert client_address(None, [], two) == "localhost"  # a local visitor with no header
    # an entry that is no address (a proxy's "unknown"): the last hop that can be vouched for
    assert client_address(None, ["6.6.6.6, unknown"], two) == "localhost"
    assert client_address(None, ["198.51.100.4:5123"], NGINX_HERE) == "198.51.100.4"  # a port is dropped
    assert client_address(None, ["[2001:db8::7]:443"], NGINX_HERE) == "2001:db8::7"


def test_a_peer_that_is_not_a_trusted_proxy_cannot_choose_its_address():
    # Issue 37: with the variable set, a client reaching an app port directly sent a new forged header each
    # time and was never held.  Only a peer the variable names is believed.
    assert client_address("203.0.113.9", ["198.51.100.4"], NGINX_HERE) == "203.0.113.9"
    assert client_address(None, ["198.51.100.4"], trusted_proxies("10.0.0.0/8")) == "localhost"
    assert client_address(None, ["198.51.100.4"], ()) == "localhost"
    assert client_address("2001:db8::9", ["198.51.100.4"], trusted_proxies("127.0.0.1")) == "2001:db8::9"


_ipv4 = st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: ".".join(map(str, t)))
_untrusted = _ipv4.filter(lambda a: not a.startswith(("127.", "10.")))


@given(st.lists(st.text(max_size=60), max_size=4), _untrusted, st.lists(st.sampled_from(["10.1.1.1", "10.2.3.4"]),
       max_size=3), st.sampled_from([None, "127.0.0.1", "10.9.9.9"]))
def test_behind_trusted_hops_the_client_is_the_first_untrusted_address_from_the_right(claimed, seen, hops, peer):
    # Whatever the client writes into X-Forwarded-For (left of the entry the first trusted proxy appended),
    # the address is the one that proxy saw.
    header = ", ".join([*claimed, seen, *hops])
    assert client_address(peer, [header], trusted_proxies("127.0.0.0/8, 10.0.0.0/8")) == seen


@given(st.lists(st.text(max_size=60), max_size=4), _untrusted)
def test_a_direct_client_is_its_own_address_whatever_it_claims(claimed, peer):
    assert client_address(peer, [", ".join(claimed)], trusted_proxies("127.0.0.1, 10.0.0.0/8")) == peer


def test_the_variable_names_addresses_and_a_count_is_refused():
    assert [str(n) for n in trusted_proxies(" 127.0.0.1 ,10.0.0.0/8,::1, fd00::/8")] == [
        "127.0.0.1/32", "10.0.0.0/8", "::1/128", "fd00::/8"]
    assert trusted_proxies(None) == trusted_proxies(" , ") == ()
    # the old meaning ("1": one proxy in front) trusted any peer: refused, saying which and why
    with pytest.raises(ValueError, match=r"NDCG_LAB_TRUSTED_PROXIES lists the proxies' addresses .* got the count '1'"):
        trusted_proxies("1")
    for bad in ("nginx", "10.0.0.0/33", "1.2.3", "127.0.0.1;rm"):
        with pytest.raises(ValueError, match=f"NDCG_LAB_TRUSTED_PROXIES lists addresses .* got '{bad[:5]}"):
            trusted_proxies(bad)


def test_cookie_values_are_tokens_only():
    assert cookie_name("t", "ACD347") == "ndcglab_t_ACD347"
    assert cookies.stored({"stored": "abc"}, "abc") and not cookies.stored({"stored": "abc"}, "")
    for bad in ("a;b", "x=1", "a b", "", "ü", "a" * 201):
        assert not cookies.SAFE.fullmatch(bad)
        with pytest.raises(ValueError, match="cookie names and values must match"):
            cookies.write(key="k", set_=[("ndcglab_t_X", bad, 60)], nonce="n")
