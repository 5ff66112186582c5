"""Nicknames: one clean line, something visible, and never confusable with one already in the class.

* :func:`clean_nickname` — the name as typed (NFC: only canonically equivalent spellings are merged; a
  compatibility character such as ``ﷺ`` or ``Ａ`` is kept as it is, never expanded), control and format
  characters dropped (except the joiners inside a word or an emoji sequence, and the tags of a flag),
  spaces folded, cut to whole grapheme clusters (:func:`graphemes`: ICU's ``BreakIterator``, Unicode's
  UAX #29), so a family emoji, a flag or a Persian word with its zero-width non-joiner stays whole; at most
  ``limit`` clusters, :data:`MAX_CODE_POINTS` code points and :data:`MAX_WIDTH` columns (:func:`width`).
* :func:`problem` — why a cleaned nickname is refused: ``"invisible"`` (nothing a reader can see: only
  default-ignorable code points such as the Hangul fillers, the braille blank, marks without a base),
  ``"marks"`` (stacked combining marks, counted on the canonical decomposition so that ``é`` + U+0301 is
  ``e`` + two U+0301: more than :data:`MAX_MARKS` in a row — UTS #39 §5.4's "excessive combining marks" —
  or the same non-spacing mark twice in one run of marks — ICU's ``INVISIBLE`` check) or ``"cluster"``
  (one user-perceived character built from more than :data:`MAX_CLUSTER_POINTS` code points: a chain of
  emoji joined by ZWJ, a run of Hangul jamo — one cluster for the cut, a hundred glyphs on screen).
* :func:`skeletons` — the keys that decide "the same name": Unicode's confusable skeleton (UTS #39 §4,
  computed by ICU's ``SpoofChecker.getSkeleton`` through PyICU, with the data of the ICU Debian ships)
  of the name without its inherited combining marks, once case-folded (:func:`skeleton`: ``Ada`` and
  ``ADA``) and once in the case as typed (:func:`typed_skeleton`: ``BiII`` — capital i — and ``Bill``,
  ``0LGA`` and ``OLGA``, which ICU's ``areConfusable`` calls confusable but folding hides: ``biii``,
  ``0lga``).  A nickname sharing either key with one already in the class would look alike on the teacher's
  projector (Cyrillic ``Аda`` and Latin ``Ada``, ``rn`` and ``m``, ``Adạ`` — a dot below — and ``Ada``),
  so it is refused.

>>> skeleton("Ada") == skeleton("\\u0410da") == skeleton("ADA") == skeleton("Ad\\u1ea1")  # Cyrillic А, ạ
True
>>> skeleton("modern") == skeleton("rnodern")
True
>>> skeleton("BiII") == skeleton("Bill"), typed_skeleton("BiII") == typed_skeleton("Bill")
(False, True)
>>> [problem(clean_nickname(x)) for x in ("Ada", "\\u3164", "\\u2800\\u2800", "x\\u0301\\u0301", "\\xe9\\u0301", "李")]
[None, 'invisible', 'invisible', 'marks', 'marks', None]
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import icu

__all__ = ["MAX_MARKS", "MAX_CODE_POINTS", "MAX_CLUSTER_POINTS", "MAX_WIDTH", "clean_nickname", "graphemes",
           "problem", "skeleton", "typed_skeleton", "skeletons", "width"]

#: At most this many combining marks in a row (UTS #39 §5.4 suggests flagging more than four).
MAX_MARKS = 4
#: A nickname's code points at most (24 graphemes of emoji ZWJ sequences are ~170; the column holds 400).
MAX_CODE_POINTS = 240
#: One grapheme cluster's code points at most: the longest emoji sequences Unicode recommends (a kiss with two
#: skin tones, a family) have 10, a flag of England 7, an Indic conjunct a handful.  A longer cluster (a ZWJ
#: chain of 100 emoji, a run of 3,000 Hangul jamo) is one "character" to the cut but draws as many glyphs.
MAX_CLUSTER_POINTS = 16
#: A nickname's width at most, in columns (:func:`width`): 24 CJK characters take 48; an emoji family counts
#: each member (8), as a font without that sequence draws it, so 5 families and 5 flags fit (53), and no
#: nickname draws more than 32 emoji or wide glyphs.
MAX_WIDTH = 64

# Characters that draw nothing although Unicode gives them a letter or symbol category: the default
# ignorable code points (Unicode's own property: U+115F/U+1160/U+3164/U+FFA0 Hangul fillers, U+180B..,
# variation selectors, ...) and U+2800 BRAILLE PATTERN BLANK (a pattern of no dots; not default-ignorable).
_BLANK = icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:][:White_Space:]\u2800]")
_MARK = icu.UnicodeSet(r"[:M:]")
# Accents and other marks shared by every script (Script=Inherited: U+0300..U+036F, U+1AB0.., U+1DC0..,
# U+20D0.., U+FE20.., the Arabic harakat...): on a projector "Adạ" is "Ada".  Marks of one script (Devanagari
# vowel signs, Thai vowels) are letters of their words and stay.
_ACCENT = icu.UnicodeSet(r"[[:Mn:]&[:Script=Inherited:]]")
# Format characters kept: the zero-width non-joiner and joiner (Persian and Indic words, emoji ZWJ
# sequences) between two visible characters, and the tags of an emoji tag sequence (the flags of England,
# Scotland, Wales: U+1F3F4, tags U+E0020..U+E007E, U+E007F).  Every other one (bidi controls, zero-width
# space, stray tags that could carry hidden text) becomes a space.
_JOINER = "\u200c\u200d"
_TAG_SEQUENCE = re.compile("\U0001F3F4[\U000E0020-\U000E007E]{1,30}\U000E007F")
# What draws no column of its own inside a cluster: joiners, variation selectors, emoji skin-tone modifiers, tags.
_NO_COLUMN = icu.UnicodeSet(r"[[:M:][:Default_Ignorable_Code_Point:][:Emoji_Modifier:]\U000E0020-\U000E007F]")
# Compatibility ligatures whose glyph is a whole phrase but which Unicode does not decompose (so NFKC cannot
# tell their width): U+FDFD ARABIC LIGATURE BISMILLAH AR-RAHMAN AR-RAHEEM, the letters of its phrase.
_PHRASE_WIDTH = {"\ufdfd": 19}
_STRAY_JOINER = re.compile(f"(?:(?<=\\s)|^)[{_JOINER}]+|[{_JOINER}]+(?=\\s|$)")


def graphemes(text: str) -> list[str]:
    """``text`` cut into user-perceived characters (extended grapheme clusters, UAX #29, by ICU).

    >>> [len(g) for g in graphemes("Bo\\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467")]  # a family: one cluster
    [1, 1, 5]
    >>> len(graphemes("\\U0001F1EB\\U0001F1F7\\U0001F1E9\\U0001F1EA"))  # two flags
    2
    """
    u = icu.UnicodeString(text)  # ICU counts UTF-16 units; slicing the UnicodeString keeps pairs together
    breaks = icu.BreakIterator.createCharacterInstance(icu.Locale.getRoot())
    breaks.setText(u)
    out, start = [], 0
    for end in breaks:
        out.append(str(u[start:end]))
        start = end
    return out


def _keep_format(text: str) -> str:
    tags = {m.start(): m.group() for m in _TAG_SEQUENCE.finditer(text)}
    out, i = [], 0
    while i < len(text):
        if i in tags:
            out.append(tags[i])
            i += len(tags[i])
            continue
        ch = text[i]
        category = unicodedata.category(ch)
        out.append(ch if category[0] != "C" or ch in _JOINER else " ")
        i += 1
    return "".join(out)


def _cluster_width(cluster: str) -> int:
    if cluster in _PHRASE_WIDTH:
        return _PHRASE_WIDTH[cluster]
    cols = 0
    for ch in unicodedata.normalize("NFKC", cluster):  # a compatibility ligature counts as what it spells
        if not _NO_COLUMN.contains(ch) and not unicodedata.category(ch).startswith("Z"):
            cols += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return max(1, cols)


def width(text: str) -> int:
    """Columns ``text`` takes at most: a wide (East Asian Wide or Fullwidth) character 2, any other 1; a
    cluster counts each character it draws (a ZWJ chain of 5 emoji: 10; joiners, variation selectors,
    skin tones and marks nothing), a compatibility ligature what it spells (``ﷺ``: 15 letters).

    >>> width("Ada"), width("李雷"), width("\\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467"), width("\\ufdfa")
    (3, 4, 6, 15)
    """
    return sum(_cluster_width(c) for c in graphemes(text))


def clean_nickname(text, limit: int = 24) -> str:
    """A nickname on one line, without control or format characters, at most ``limit`` grapheme clusters,
    :data:`MAX_CODE_POINTS` code points and :data:`MAX_WIDTH` columns, never cut inside a cluster.

    The text itself is kept as typed, in NFC (pages escape it where they show it).  A first cluster longer
    than :data:`MAX_CLUSTER_POINTS` is kept whole for :func:`problem` to refuse; the cut stops at a later one.

    >>> clean_nickname("  Bo\\u202e\\t b  ")
    'Bo b'
    >>> clean_nickname("x" * 40, 5)
    'xxxxx'
    >>> family = "\\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467"
    >>> clean_nickname("ab" + family, 3) == "ab" + family  # three clusters: the family stays whole
    True
    >>> clean_nickname("ab" + family, 2)
    'ab'
    >>> clean_nickname("\\ufdfa" * 24) == "\\ufdfa" * 4  # 15 columns each: kept as typed, cut at 64 columns
    True
    """
    text = unicodedata.normalize("NFC", str(text)[:400])
    text = " ".join(_keep_format(text).split())
    text = _STRAY_JOINER.sub("", text)
    kept, points, cols = [], 0, 0
    for cluster in graphemes(text)[:max(0, int(limit))]:
        if len(cluster) > MAX_CLUSTER_POINTS:
            if not "".join(kept).strip():
                kept.append(cluster)  # nothing before it: kept for problem() to name
            break
        points += len(cluster)
        cols += _cluster_width(cluster)
        if points > MAX_CODE_POINTS or cols > MAX_WIDTH:
            break
        kept.append(cluster)
    return "".join(kept).strip()


def problem(name: str) -> str | None:
    """Why a cleaned nickname cannot be used (``"invisible"``, ``"marks"``, ``"cluster"``), or None.

    Visible means at least one character that is not blank (above) and not a combining mark.  Marks are
    counted on the canonical decomposition (NFD): ``é`` followed by U+0301 stacks two acute accents.

    >>> problem("e\\u0301\\u0301"), problem("\\u1100" * 20 + "\\u1161"), problem("\\u1100\\u1161")
    ('marks', 'cluster', None)
    """
    visible = [ch for ch in name if not _BLANK.contains(ch) and not _MARK.contains(ch)]
    if not visible:
        return "invisible"
    if any(len(c) > MAX_CLUSTER_POINTS for c in graphemes(name)):
        return "cluster"
    run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if _MARK.contains(ch) else 0
        if run > MAX_MARKS:
            return "marks"
    # The same non-spacing mark twice in one run of marks (after NFD, so é + U+0301 is e + two U+0301):
    # ICU's own INVISIBLE check.
    if _invisible_checker().check(name) & icu.USpoofChecks.INVISIBLE:
        return "marks"
    return None


@lru_cache(maxsize=1)
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


@lru_cache(maxsize=1)
def _invisible_checker() -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    checker.setChecks(icu.USpoofChecks.INVISIBLE)
    return checker


def _bare(text: str) -> str:
    """``text`` in NFKD without its inherited combining marks (accents)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not _ACCENT.contains(ch))


def _key(name: str, fold: bool) -> str:
    # Accents go before case folding: folding turns U+0345 COMBINING GREEK YPOGEGRAMMENI (the iota written
    # under a vowel, an accent on a projector: ᾳ is α) into the letter ι, which the skeleton reads as i.
    bare = _bare("".join(ch for ch in name if not _BLANK.contains(ch)))
    if fold:
        bare = _bare(bare.casefold())
    return "".join(ch for ch in unicodedata.normalize("NFD", _checker().getSkeleton(0, bare))
                   if not _ACCENT.contains(ch))


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """UTS #39 skeleton of the case-folded ``name`` (compatibility-decomposed), blank characters and
    inherited combining marks (accents, dots below, the Greek iota subscript) dropped first and from the
    result.

    >>> skeleton("Jos\\u00e9") == skeleton("Jose"), skeleton("Ada") == skeleton("Ida")
    (True, False)
    >>> skeleton("A\\u0345") == skeleton("A")  # U+0345, the iota subscript, is an accent
    True
    """
    return _key(name, True)


@lru_cache(maxsize=4096)
def typed_skeleton(name: str) -> str:
    """:func:`skeleton` without the case folding: the skeleton of ``name`` in the case it was typed, where
    capital ``I`` is confusable with ``l`` and ``0`` with ``O`` (ICU's ``areConfusable``).

    >>> typed_skeleton("MaIlory") == typed_skeleton("Mallory"), typed_skeleton("0LGA") == typed_skeleton("OLGA")
    (True, True)
    """
    return _key(name, False)


def skeletons(name: str) -> tuple[str, str]:
    """(:func:`skeleton`, :func:`typed_skeleton`) of ``name``: two nicknames sharing either look alike."""
    return skeleton(name), typed_skeleton(name)
