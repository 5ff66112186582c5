"""Nicknames: one clean line, something visible, and never confusable with one already in the class.

* :func:`clean_nickname` — NFKC, control and format characters dropped (except the joiners inside a word
  or an emoji sequence, and the tags of a flag), spaces folded, cut to whole grapheme clusters
  (:func:`graphemes`: ICU's ``BreakIterator``, Unicode's UAX #29), so a family emoji, a flag or a Persian
  word with its zero-width non-joiner stays whole.
* :func:`problem` — why a cleaned nickname is refused: ``"invisible"`` (nothing a reader can see: only
  default-ignorable code points such as the Hangul fillers, the braille blank, marks without a base) or
  ``"marks"`` (stacked combining marks: more than :data:`MAX_MARKS` in a row, or the same mark twice in a
  row — UTS #39 §5.4's "excessive combining marks" and ICU's ``INVISIBLE`` check).
* :func:`skeleton` — the key that decides "the same name": Unicode's confusable skeleton (UTS #39 §4,
  computed by ICU's ``SpoofChecker.getSkeleton`` through PyICU, with the data of the ICU Debian ships)
  of the case-folded name without its inherited combining marks.  Two nicknames with the same skeleton
  would look alike on the teacher's projector (Cyrillic ``Аda`` and Latin ``Ada``, ``rn`` and ``m``,
  ``Ada`` and ``ADA``, and ``Adạ`` — a dot below — and ``Ada``), so the second is refused.

>>> skeleton("Ada") == skeleton("\\u0410da") == skeleton("ADA") == skeleton("Ad\\u1ea1")  # Cyrillic А, ạ
True
>>> skeleton("modern") == skeleton("rnodern")
True
>>> [problem(clean_nickname(x)) for x in ("Ada", "\\u3164", "\\u2800\\u2800", "x\\u0301\\u0301", "李雷")]
[None, 'invisible', 'invisible', 'marks', None]
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import icu

__all__ = ["MAX_MARKS", "MAX_CODE_POINTS", "clean_nickname", "graphemes", "problem", "skeleton"]

#: At most this many combining marks in a row (UTS #39 §5.4 suggests flagging more than four).
MAX_MARKS = 4
#: A nickname's code points at most (24 graphemes of emoji ZWJ sequences are ~170; the column holds 400).
MAX_CODE_POINTS = 240

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


def clean_nickname(text, limit: int = 24) -> str:
    """A nickname on one line, without control or format characters, at most ``limit`` grapheme clusters
    (and :data:`MAX_CODE_POINTS` code points), never cut inside one.

    The text itself is kept (pages escape it where they show it).

    >>> clean_nickname("  Bo\\u202e\\t b  ")
    'Bo b'
    >>> clean_nickname("x" * 40, 5)
    'xxxxx'
    >>> family = "\\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467"
    >>> clean_nickname("ab" + family, 3) == "ab" + family  # three clusters: the family stays whole
    True
    >>> clean_nickname("ab" + family, 2)
    'ab'
    """
    text = unicodedata.normalize("NFKC", str(text)[:400])
    text = " ".join(_keep_format(text).split())
    text = _STRAY_JOINER.sub("", text)
    kept, points = [], 0
    for cluster in graphemes(text)[:max(0, int(limit))]:
        points += len(cluster)
        if points > MAX_CODE_POINTS:
            break
        kept.append(cluster)
    return "".join(kept).strip()


def problem(name: str) -> str | None:
    """Why a cleaned nickname cannot be used (``"invisible"``, ``"marks"``), or None.

    Visible means at least one character that is not blank (above) and not a combining mark.
    """
    visible = [ch for ch in name if not _BLANK.contains(ch) and not _MARK.contains(ch)]
    if not visible:
        return "invisible"
    run, previous = 0, None
    for ch in name:
        if _MARK.contains(ch):
            run += 1
            if run > MAX_MARKS or ch == previous:
                return "marks"
        else:
            run = 0
        previous = ch
    return None


@lru_cache(maxsize=1)
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """UTS #39 skeleton of the NFKC case-folded ``name``, blank characters and inherited combining marks
    (accents, dots below) dropped first and from the result.

    >>> skeleton("Jos\\u00e9") == skeleton("Jose"), skeleton("Ada") == skeleton("Ida")
    (True, False)
    """
    folded = unicodedata.normalize("NFKC", "".join(ch for ch in name if not _BLANK.contains(ch)).casefold())
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if not _ACCENT.contains(ch))
    skel = _checker().getSkeleton(0, bare)
    return "".join(ch for ch in unicodedata.normalize("NFD", skel) if not _ACCENT.contains(ch))
