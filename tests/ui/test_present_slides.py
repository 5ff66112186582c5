"""ui.pages.present without Streamlit: the live region's sentence for each step (its numbers from metrics/), the
themes' contrast (text 7:1, chart marks and the focus ring 3:1), the charts' second cue besides colour, and the
key listener's presses applied one step each.

Expected numbers come from metrics.ndcg (breakdown, cg, dcg, idcg, ndcg), shown with the lecture's rounding.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.lessons.examples import EXAMPLES, FORMULAS
from metrics.ndcg import all_variants, breakdown, cg, dcg, idcg, ndcg
from ui.charts.present import discount_curve, gain_bars
from ui.components.keys import MAX_PRESSES, read_presses
from ui.i18n import labelled, t
from ui.pages.present import link, markup, navigation, slides

EX = EXAMPLES["000-graded"]  # 3, 2, 1, 3, 2 under Järvelin's discount, log base 2
OPTS = FORMULAS[EX.implied].variant.options
BD = breakdown(list(EX.relevances), **OPTS)
LECTURE = link.lecture_from_example(EX.key)


def expected_numbers(step: slides.Step) -> list[str]:
    """The numbers a step's sentence must say, from metrics/ (document 000's example)."""
    rels = list(EX.relevances)
    if step.kind == "ranking":
        return [slides.shown(x) for x in rels]
    if step.kind == "gains":
        return [slides.shown(cg(rels))] + [slides.shown(x) for x in BD["gain"]]
    if step.kind == "term":
        i = step.position - 1
        return [slides.shown(BD["discounted_gain"].iloc[i]), slides.shown(BD["dcg"].iloc[i]),
                slides.shown(BD["discount"].iloc[i])]
    if step.kind == "dcg":
        return [slides.shown(dcg(rels, **OPTS))]
    if step.kind == "ideal":
        return [slides.shown(x) for x in sorted(rels, reverse=True)]
    if step.kind == "idcg":
        return [slides.shown(idcg(rels, **OPTS)), slides.shown(dcg(rels, **OPTS))]
    if step.kind in ("ndcg", "variants"):
        return [slides.shown(ndcg(rels, **OPTS))]
    return []


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_every_step_is_announced_with_its_title_and_numbers(lang):
    all_steps = slides.steps(LECTURE)
    said = []
    for i, step in enumerate(all_steps, start=1):
        s = slides.slide(LECTURE, i, lang)
        text = slides.announcement(s, lang)
        assert text.startswith(t("present.step_of", lang=lang, index=i, total=len(all_steps)))
        assert s.title in text and s.sentence.strip().rstrip(".。") in text
        for number in expected_numbers(step):
            assert number in text, (i, step, number, text)
        if s.number is not None:
            assert labelled(s.number_label, slides.shown(s.number), lang) in text
        said.append(text)
    assert len(set(said)) == len(said)  # every step says something new: each one is announced
    # the variants step names the range of every variant's NDCG
    values = all_variants(list(EX.relevances))
    values = values[values["idcg_source"] == "list"]["ndcg"]
    assert slides.shown(values.min()) in said[-1] and slides.shown(values.max()) in said[-1]


def test_printed_numbers_are_announced_beside_the_exact_ones():
    ndcg_step = next(i for i, s in enumerate(slides.steps(LECTURE), start=1) if s.kind == "ndcg")
    text = slides.announcement(slides.slide(LECTURE, ndcg_step, "en"), "en")
    # document 000 prints 0.91 for 0.9194 (a truncation): both are said, never "fixed"
    assert "0.91," in text and slides.shown(ndcg(list(EX.relevances), **OPTS)) in text and "Truncation" in text


def test_long_lists_say_how_many_cards_are_left_out():
    lecture = link.lecture_from_values({"present_rels": tuple(float(i % 4) for i in range(40))})[0]
    text = slides.announcement(slides.slide(lecture, 1, "en"), "en")
    assert t("present.more_cards", m=40 - slides.CARD_CAP) in text


@pytest.mark.parametrize("theme", markup.PALETTES)
def test_theme_contrast(theme):
    p = markup.PALETTES[theme]
    for name in markup.TEXTS:  # text: 7:1 on the page and on a card
        assert markup.contrast(p[name], p["bg"]) >= 7 and markup.contrast(p[name], p["card"]) >= 7, name
    for name in markup.MARKS:  # chart marks, the focus ring, card borders: 3:1 on the page
        assert markup.contrast(p[name], p["bg"]) >= 3, name
    css = markup.page_css(theme)
    assert f"--nl-focus: {p['focus']}" in css and f"--nl-focus-halo: {p['bg']}" in css
    assert ":focus-visible" in css and "outline: 3px solid var(--nl-focus)" in css


@pytest.mark.parametrize("theme", markup.PALETTES)
def test_the_bars_differ_by_shape_as_well_as_colour(theme):
    p = markup.PALETTES[theme]
    spec = gain_bars(BD, p, "en").to_dict()
    fill, stroke = spec["encoding"]["fill"]["scale"]["range"], spec["encoding"]["stroke"]["scale"]["range"]
    assert fill == [p["actual"], p["bg"]]  # the ranking filled, the ideal order hollow
    assert stroke == [p["actual"], p["ideal"]] and spec["mark"]["strokeWidth"] >= 2
    for colour in stroke:
        assert markup.contrast(colour, p["bg"]) >= 3
    curve = discount_curve(BD, len(BD), 2, p, "en").to_dict()
    marked = [layer for layer in curve["layer"] if layer["mark"].get("type") == "text"]
    assert marked  # the marked position is labelled with its weight, not only coloured


# ---- the key listener's presses --------------------------------------------------------------------

@given(start=st.integers(1, 13), deltas=st.lists(st.sampled_from([1, -1]), max_size=MAX_PRESSES),
       taken=st.integers(0, MAX_PRESSES))
def test_presses_move_one_step_each_in_order_and_only_once(start, deltas, taken):
    """However the presses arrive (all at once, or some already taken), each moves one step from where the
    previous one left the lecture, clamped to 1..13, and a value sent again changes nothing."""
    session = {navigation.TOKEN_KEY: "t", link.STEP_KEY: start}
    taken = min(taken, len(deltas))
    sent = [[i, d] for i, d in enumerate(deltas, start=1)]
    # the first ``taken`` presses arrive in one run, the rest (with the earlier ones still listed) in the next
    for upto in (taken, len(sent)):
        session[navigation.KEYS_KEY] = {"go": {"token": "t", "presses": sent[:upto]}}
        navigation.take_keys(session, 13)
    expected = start
    for d in deltas:
        expected = max(1, min(13, expected + d))
    assert session[link.STEP_KEY] == expected
    assert session.get(navigation.SEEN_KEY, 0) == len(deltas)
    assert navigation.take_keys(session, 13) == 0 and session[link.STEP_KEY] == expected


def test_read_presses_keeps_only_the_newest_presses_of_this_session():
    presses = [[i, 1] for i in range(1, 200)]
    got = read_presses({"go": {"token": "t", "presses": presses}}, "t", 0)
    assert len(got) == MAX_PRESSES and got[-1] == (199, 1)
    assert read_presses({"go": {"token": "u", "presses": presses}}, "t", 0) == []


def test_a_slow_server_hook_is_off_unless_the_environment_sets_it(monkeypatch):
    monkeypatch.delenv(navigation.SLOW_ENV, raising=False)
    assert navigation.slow_rerun() == 0
    for bad in ("x", "-3", "nan"):
        monkeypatch.setenv(navigation.SLOW_ENV, bad)
        assert navigation.slow_rerun() == 0
