"""The cards component's arithmetic in Chromium against metrics/ and ui.numbers, to the last bit.

While a card moves, ``ui/components/cards/cards.js`` computes CG, DCG, IDCG and NDCG itself (from the
gains and discounts ``ui.components.cards.payload`` sends) and formats them as ``ui.numbers.show``
does.  Here its exported functions run in a blank page (no server) over thousands of seeded random
cases and hand-picked edge cases: ``fsum`` equals :func:`math.fsum`, ``show`` equals
:func:`ui.numbers.show` character for character, and ``headline`` equals :func:`metrics.ndcg.cg`,
``dcg``, ``idcg`` and ``ndcg`` bit for bit, for every variant the playground offers.  The page test
(``test_playground_cards.py``) checks the same through real drags.
"""
from __future__ import annotations

import math
import random
import struct

import pytest

from metrics.ndcg import cg, dcg, idcg, ndcg
from ui.components.cards import HERE, payload
from ui.numbers import show
from ui.ranking import Ranking


@pytest.fixture(scope="module")
def js(browser):
    context = browser.new_context()
    pg = context.new_page()
    pg.set_content("<!doctype html><html><body></body></html>")
    source = (HERE / "cards.js").read_text(encoding="utf-8")
    pg.add_script_tag(content=source + "\nwindow.__cards = { fsum, headline, show };", type="module")
    pg.wait_for_function("() => window.__cards !== undefined")
    yield pg
    context.close()


def same(a: float, b: float) -> bool:
    """Equal to the bit (NaN equals NaN; 0.0 and -0.0 are told apart)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return struct.pack("<d", a) == struct.pack("<d", b)


def random_double(rng: random.Random) -> float:
    """Any finite double: random bits (subnormals, huge and tiny values included)."""
    while True:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(x):
            return x


def test_fsum_is_math_fsum(js):
    rng = random.Random(20261125)
    cases = [[], [0.0], [-0.0], [1e308, 1e308 * -1, 1.0], [1e16, 1.0, -1e16], [0.1] * 10, [1e-320, 1e-320],
             [2.0 ** 53, 1.0, 1.0], [1.0, 2.0 ** -53, 2.0 ** -106], [1.5, 2.0 ** -53, -(2.0 ** -106)]]
    for _ in range(1500):
        n = rng.randint(1, 40)
        kind = rng.random()
        if kind < 0.3:  # playground-like terms: gains over discounts
            xs = [rng.choice([0, 1, 2, 3, 2.5, 7, 1000]) / math.log2(i + 2) for i in range(n)]
        elif kind < 0.6:  # cancellation
            xs = [rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20) for _ in range(n)]
            xs += [-x for x in xs[: n // 2]]
        else:
            xs = [random_double(rng) / 2 ** 12 for _ in range(n)]  # no overflow to inf on the way
        cases.append(xs)
    got = js.evaluate("(cases) => cases.map((xs) => window.__cards.fsum(xs))", cases)
    bad = [(xs, g, math.fsum(xs)) for xs, g in zip(cases, got) if not same(g, math.fsum(xs))]
    assert not bad, bad[:3]


def test_show_is_ui_numbers_show(js):
    rng = random.Random(7)
    values = [0.0, -0.0, 0.5, 0.03125, 0.00005, 0.00015, -0.00005, 0.99995, 1.00005, 0.9999500000000001,
              1e15, 1e15 - 0.0625, 999999999999999.9, -1e15, 1.5e300, 9.99995e20, 9.99985e20, 1e308, 5e-324,
              float("nan"), float("inf"), float("-inf"), 0.125, 2.5, 0.0625, 1 / 3, 2 / 3, 6.861126688593502]
    values += [k / 20000 for k in range(0, 400, 5)]  # exact decimal ties at the fifth digit where dyadic
    values += [k / 2 ** 13 for k in range(300)]
    values += [random_double(rng) for _ in range(1500)]
    values += [rng.uniform(-1000, 1000) for _ in range(1500)] + [rng.random() for _ in range(1500)]
    for digits in (4, 3, 2, 0):
        got = js.evaluate("([xs, d]) => xs.map((x) => window.__cards.show(x, d))", [values, digits])
        bad = [(x, g, show(x, digits)) for x, g in zip(values, got) if g != show(x, digits)]
        assert not bad, (digits, bad[:5])


def variant(rng: random.Random) -> dict:
    """A random playground state: grades (whole and fractional, zeros), items not retrieved, gain (linear,
    2^rel - 1 or a trec_eval gain map that may reorder or go negative), discount, base, k, IDCG source and
    zero-IDCG policy."""
    n = rng.randint(1, 12)
    pick = [0, 0, 1, 2, 3, 2.5, 0.75, 4, 10, 1000] if rng.random() < 0.8 else [0]
    rels = [rng.choice(pick) for _ in range(n)]
    unret = [rng.choice(pick) for _ in range(rng.randint(0, 4))]
    gain = rng.choice(["linear", "exponential", "map"])
    gain_map = {}
    if gain == "map":
        for level in sorted(set(rels + unret)):
            if rng.random() < 0.8 or not gain_map:  # a map names one level at least
                gain_map[level] = rng.choice([0, 1, 3, 7, 9, 4.5, -1, 2.5, 1e6, 1e295])
    return {
        "rels": rels, "unret": unret, "gain": gain_map if gain == "map" else gain,
        "discount": rng.choice(["standard", "jarvelin"]),
        "base": rng.choice([2.0, math.e, 10.0, 1.5, 0.5, 3.0, 1e-100, 1e100, 1.0000001]),
        "k": rng.choice([None, None, 1, 2, 3, 5, 8, 20]),
        "idcg": rng.choice(["judged", "list"]), "zero": rng.choice(["zero", "one", "nan"]),
    }


def expected(v: dict, rels: list, unret: list) -> list[float]:
    pool = rels + unret if v["idcg"] == "judged" else None
    shape = {"k": v["k"], "gain": v["gain"]}
    disc = {"discount": v["discount"], "log_base": v["base"]}
    return [cg(rels, **shape), dcg(rels, **shape, **disc), idcg(rels, **shape, **disc, pool=pool),
            ndcg(rels, **shape, **disc, pool=pool, zero_idcg=v["zero"])]


def test_headline_is_metrics_for_every_variant(js):
    rng = random.Random(26)
    cases, wanted = [], []
    for _ in range(600):
        v = variant(rng)
        ranking = Ranking.from_fields(v["rels"], v["unret"])
        cap = rng.choice([40, 3])  # 3: items past the cards' cap enter as fixed gains
        data = payload(ranking, cap=cap, k=v["k"], gain=v["gain"], discount=v["discount"], base=v["base"],
                       idcg=v["idcg"], zero=v["zero"], numbers={}, texts={}, seq=0)
        # a random move of one card (anywhere, either area), as a drag would make before the drop
        ranked, unretrieved = [c[0] for c in data["ranked"]], [c[0] for c in data["unretrieved"]]
        moved = rng.choice(ranked + unretrieved)
        (ranked if moved in ranked else unretrieved).remove(moved)
        target = ranked if (rng.random() < 0.7 or not ranked) else unretrieved
        target.insert(rng.randint(0, len(target)), moved)
        by_label = {it.label: it.grade for it in ranking.ranked + ranking.unretrieved}
        rels = [by_label[x] for x in ranked] + [it.grade for it in ranking.ranked[cap:]]
        unret = [by_label[x] for x in unretrieved] + [it.grade for it in ranking.unretrieved[cap:]]
        cases.append([data, ranked, unretrieved])
        wanted.append(expected(v, rels, unret))
    got = js.evaluate("""(cases) => cases.map(([data, ranked, unretrieved]) => {
        const gain = new Map([...data.ranked, ...data.unretrieved].map(([label, , g]) => [label, g]));
        const model = { divisors: data.divisors, k: data.k, idcg: data.idcg, zero: data.zero };
        const h = window.__cards.headline(model, ranked.map((l) => gain.get(l)).concat(data.tail.ranked),
                                          unretrieved.map((l) => gain.get(l)).concat(data.tail.unretrieved));
        return [h.cg, h.dcg, h.idcg, h.ndcg];
    })""", cases)
    bad = [(c[0], g, w) for c, g, w in zip(cases, got, wanted) if not all(same(a, b) for a, b in zip(g, w))]
    assert not bad, bad[:2]
    # and what a student reads: ui.numbers.show of metrics' values, character for character
    texts = js.evaluate("(rows) => rows.map((r) => r.map((x) => window.__cards.show(x)))", got)
    assert texts == [[show(x) for x in w] for w in wanted]
