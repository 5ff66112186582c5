"""Nicknames, fourth round (red team F6, F10, F11): look-alikes that differ by letter case, a mark doubled
after a letter that has a precomposed form, one grapheme cluster drawn as a hundred glyphs.

The oracles are ICU's own answers, not the code under test: ``SpoofChecker.areConfusable`` (two strings
whose skeletons, in the case they were typed, are equal) and the ``INVISIBLE`` check (the same non-spacing
mark twice in one run), and a reader's model of which glyphs look alike on a projector.
"""
from __future__ import annotations

import unicodedata

import icu
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select, text

from classroom import db
from classroom.models import students
from classroom.nicknames import (
    MAX_CLUSTER_POINTS,
    MAX_WIDTH,
    clean_nickname,
    graphemes,
    problem,
    skeleton,
    skeletons,
    typed_skeleton,
)
from classroom.store import Store
from classroom.tasks import practice_task
from tests.classroom.test_store import Clock, kind_of


@pytest.fixture
def clock():
    return Clock()


def _confusable(a: str, b: str) -> bool:
    return icu.SpoofChecker().areConfusable(a, b) != 0


# ------------------------------------------------------------------------------------------------- F6
# The red team's pairs: ICU says each is confusable (capital I / small l, digit 0 / capital O).
CASE_PAIRS = [("Bill", "BiII"), ("OLGA", "0LGA"), ("lan", "Ian"), ("Al", "AI"), ("Ivan", "lvan"), ("Paul", "PauI")]
# Refused before this change, and still: Cyrillic А, rn/m, case, a dot below, fullwidth, a space, joiners.
STILL_REFUSED = ["\u0410da", "ADA", "Ad\u1ea1", "\uff21\uff44\uff41", "A da", "Ada\u200d", "Ada\u00ad", "Ada\ufe0f"]


def test_the_red_teams_pairs_are_confusable_for_icu():
    assert all(_confusable(a, b) for a, b in CASE_PAIRS)  # the oracle agrees with the report


def test_lookalikes_that_differ_by_case_are_refused(db_url, clock):
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    for first, _ in CASE_PAIRS:
        store.join(info.code, first)
    for _, second in CASE_PAIRS:
        assert kind_of(lambda second=second: store.join(info.code, second)) == "nickname_taken", second
    store.join(info.code, "Ada")
    for name in STILL_REFUSED:
        assert kind_of(lambda name=name: store.join(info.code, name)) == "nickname_taken", name
    # names that only share letters stay apart: nothing too strict
    for name in ("Bil", "Olga Z", "Ian Z", "Eli", "Ell"):
        assert store.join(info.code, name)[0].nickname == name


def test_a_removed_student_cannot_come_back_under_a_capital_i(db_url, clock):
    store = Store(db_url, clock=clock)
    info, token = store.create(practice_task(1))
    seat, _ = store.join(info.code, "Mallory")
    assert store.teacher(info.code, token).remove(seat.id)
    for name in ("Mallory", "MaIlory", "Mal1ory", "\uff2dallory", "MALLORY"):
        assert kind_of(lambda name=name: store.join(info.code, name)) == "nickname_removed", name


# A reader's model: glyphs that look the same in the app's sans-serif font, each group one look.
LOOKS = [("l", "I", "1", "|", "\u0406", "\u04c0"), ("O", "0", "\u041e", "\u039f"), ("o", "\u043e", "\u03bf"),
         ("a", "\u0430"), ("e", "\u0435"), ("m", "rn"), ("B", "\u0412", "\u0392"), ("p", "\u0440"), ("c", "\u0441"),
         ("x", "\u0445"), ("i", "\u0456"), ("A", "\u0410", "\u0391"), ("E", "\u0415"), ("K", "\u041a"),
         ("b",), ("d",), ("n",), ("u",), ("L",), ("G",)]


@st.composite
def lookalike_pairs(draw):
    groups = draw(st.lists(st.sampled_from(LOOKS), min_size=1, max_size=6))
    first = "".join(draw(st.sampled_from(g)) for g in groups)
    second = "".join(draw(st.sampled_from(g)) for g in groups)
    return first, second


@given(lookalike_pairs())
def test_what_icu_calls_confusable_shares_a_key(pair):
    a, b = pair
    if _confusable(a, b):
        ka, kb = skeletons(a), skeletons(b)
        assert ka[0] == kb[0] or ka[1] == kb[1], (a, b)
    if a.casefold() == b.casefold():  # what folding made one stays one (Ada / ADA)
        assert skeleton(a) == skeleton(b)


def test_the_typed_key_keeps_case_apart_where_folding_would_merge_it():
    # "Il" (capital i, small L) looks like "ll", not like "il": folding merges it with "il" (one key), the
    # typed key with "ll" (the other).
    assert skeleton("Il") == skeleton("il") and typed_skeleton("Il") == typed_skeleton("ll")


# ------------------------------------------------------------------------------------------------ F10
_latin = st.characters(categories=("Lu", "Ll"), max_codepoint=0x24F)


@given(_latin, st.integers(0x300, 0x36F), st.booleans())
def test_a_mark_twice_after_any_letter_is_refused(letter, mark, compose):
    # e + U+0301 + U+0301 became é + U+0301 under NFC and passed; x + U+0301 + U+0301 was refused.
    typed = letter + chr(mark) * 2
    if compose:
        typed = unicodedata.normalize("NFC", typed)  # as a keyboard sends it: the first mark precomposed
    checker = icu.SpoofChecker()
    checker.setChecks(icu.USpoofChecks.INVISIBLE)
    assert checker.check(typed) & icu.USpoofChecks.INVISIBLE  # ICU agrees it is one mark stacked twice
    assert problem(clean_nickname(typed)) == "marks", ascii(typed)


def test_doubled_accents_are_refused_by_the_store(db_url, clock):
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    for name in ("e\u0301\u0301", "a\u0300\u0300", "o\u0308\u0308", "n\u0303\u0303", "Bo\u0301\u0301b",
                 "\u00e9\u0301", "x\u0344\u0344"):
        assert kind_of(lambda name=name: store.join(info.code, name)) == "nickname_marks", ascii(name)
    for name in ("Zo\u00eb", "Nguy\u1ec5n", "\u1f00\u0345"):  # one mark each, two different marks, ᾀ
        assert store.join(info.code, name)[0].nickname == unicodedata.normalize("NFC", name)


# ------------------------------------------------------------------------------------------------ F11
def test_one_cluster_cannot_draw_a_hundred_glyphs(db_url, clock):
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    chain = "\u200d".join(["\U0001F468"] * 100)  # 100 men joined by ZWJ: one extended grapheme cluster
    jamo = "\u1100" * 3000 + "\u1161"  # 3,000 leading consonants and a vowel: one cluster
    assert len(graphemes(chain)) == 1 and len(graphemes(jamo[:400])) == 1
    for name in (chain, jamo):
        assert kind_of(lambda name=name: store.join(info.code, name)) == "nickname_cluster", ascii(name[:8])
    # after a first readable part the cut stops before the long cluster instead, as it does at 24 clusters
    assert clean_nickname("Bo " + chain) == "Bo"
    assert store.join(info.code, "Bo" + jamo)[0].nickname == "Bo"
    # real sequences stay whole: a family with skin tones, a kiss, England's flag, a Korean syllable
    for name in ("\U0001F468\U0001F3FD\u200d\U0001F469\U0001F3FD\u200d\U0001F467\U0001F3FD",
                 "\U0001F469\U0001F3FB\u200d\u2764\ufe0f\u200d\U0001F48B\u200d\U0001F468\U0001F3FC",
                 "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "\u1100\u1161\u11a8"):
        assert max(len(c) for c in graphemes(name)) <= MAX_CLUSTER_POINTS
        assert store.join(info.code, name)[0].nickname == unicodedata.normalize("NFC", name)


def test_wide_ligatures_are_cut_by_width_and_kept_as_typed(db_url, clock):
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    # U+FDFA (15 letters once expanded) x 24 was stored NFKC-expanded; it is kept as typed and cut by width.
    seat, _ = store.join(info.code, "\ufdfa" * 24)
    assert set(seat.nickname) == {"\ufdfa"} and 1 <= len(seat.nickname) <= MAX_WIDTH // 15
    seat, _ = store.join(info.code, "\ufdfd" * 24)  # the bismillah ligature, one very wide glyph
    assert set(seat.nickname) == {"\ufdfd"} and len(seat.nickname) <= MAX_WIDTH // 19
    seat, _ = store.join(info.code, "\u674e" * 30)  # 30 CJK characters: 24 of them (the 24-cluster cut)
    assert seat.nickname == "\u674e" * 24
    men = "\u200d".join(["\U0001F468"] * 8)  # 8 men joined (15 code points, one cluster): 8 glyphs, 16 columns
    seat, _ = store.join(info.code, men * 24)
    assert seat.nickname == men * (MAX_WIDTH // 16)  # at most 32 emoji drawn, not 192
    seat, _ = store.join(info.code, "\uff2a\uff4f")  # fullwidth letters: shown as typed, compared as "Jo"
    assert seat.nickname == "\uff2a\uff4f"
    assert kind_of(lambda: store.join(info.code, "Jo")) == "nickname_taken"


# ----------------------------------------------------------------------------------------------- U+0345
def test_the_iota_subscript_is_an_accent():
    # Hypothesis found A + U+0345 keyed as "ai": case folding turns U+0345 COMBINING GREEK YPOGEGRAMMENI
    # into the letter ι.  It is written under a vowel like a cedilla (ᾳ, ῳ): an accent, dropped as the others.
    assert unicodedata.category("\u0345") == "Mn" and "A\u0345".casefold() == "a\u03b9"
    assert skeleton("A\u0345") == skeleton("A") and skeleton("\u1fb3") == skeleton("\u03b1")


# ------------------------------------------------------------------------------------------------ schema
def test_migrating_from_0003_adds_the_typed_key_without_losing_a_row(db_url):
    from alembic import command
    from alembic.config import Config

    engine = db.new_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0003")
            sid = conn.execute(text("INSERT INTO class_sessions (code, teacher_hash, steps, round_no, created_at, "
                                    "expires_at) VALUES ('ACDEFH', 'x', 'dcg', 1, 0, 1e10) RETURNING id")).scalar_one()
            for i, name in enumerate(["Bill", "BiII", "Bo"], start=1):  # 0003 seated both look-alikes
                conn.execute(text(
                    "INSERT INTO class_students (session_id, number, nickname, nickname_key, token_hash, joined_at) "
                    "VALUES (:s, :n, :name, :key, 't', 0)"), {"s": sid, "n": i, "name": name, "key": skeleton(name)})
        db.upgrade(engine)
        with engine.connect() as conn:
            rows = conn.execute(select(students.c.nickname, students.c.nickname_key, students.c.nickname_typed_key)
                                .order_by(students.c.number)).all()
        assert [r.nickname for r in rows] == ["Bill", "BiII", "Bo"]
        assert rows[0].nickname_typed_key == typed_skeleton("Bill") and rows[1].nickname_typed_key.startswith(
            typed_skeleton("Bill") + "#")  # the later look-alike keeps its row, its key made unique
        assert [r.nickname_key for r in rows] == [skeleton(n) for n in ("Bill", "BiII", "Bo")]
    finally:
        engine.dispose()


@pytest.mark.parametrize("limit", [1, 5, 24])
@given(st.lists(st.sampled_from(["a", "\u674e", "\ufdfa", "\U0001F468\u200d\U0001F469", " b"]), max_size=40))
def test_every_cut_fits_every_bound(limit, parts):
    from classroom.nicknames import MAX_CODE_POINTS, width

    name = clean_nickname("".join(parts), limit)
    assert len(graphemes(name)) <= limit and len(name) <= MAX_CODE_POINTS and width(name) <= MAX_WIDTH
    assert unicodedata.is_normalized("NFC", name)  # kept as typed: a prefix of the typed text, spaces folded
    assert name == "".join(parts)[:len(name)].strip() or name == " ".join("".join(parts).split())[:len(name)]

