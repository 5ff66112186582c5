"""Nicknames: one clean line, something visible, and never confusable with one already in the class.

* :func:`clean_nickname` — NFKC, control and format characters dropped, spaces folded, capped.
* :func:`problem` — why a cleaned nickname is refused: ``"invisible"`` (nothing a reader can see: only
  default-ignorable code points such as the Hangul fillers, the braille blank, marks without a base) or
  ``"marks"`` (stacked combining marks: more than :data:`MAX_MARKS` in a row, or the same mark twice in a
  row — UTS #39 §5.4's "excessive combining marks" and ICU's ``INVISIBLE`` check).
* :func:`skeleton` — the key that decides "the same name": Unicode's confusable skeleton (UTS #39 §4,
  computed by ICU's ``SpoofChecker.getSkeleton`` through PyICU, with the data of the ICU Debian ships)
  of the case-folded name.  Two nicknames with the same skeleton would look alike on the teacher's
  projector (Cyrillic ``Аda`` and Latin ``Ada``, ``rn`` and ``m``, ``Ada`` and ``ADA``), so the second
  is refused.

>>> skeleton("Ada") == skeleton("\\u0410da") == skeleton("ADA")  # Latin, Cyrillic А, capitals
True
>>> skeleton("modern") == skeleton("rnodern")
True
>>> [problem(clean_nickname(x)) for x in ("Ada", "\\u3164", "\\u2800\\u2800", "x\\u0301\\u0301", "李雷")]
[None, 'invisible', 'invisible', 'marks', None]
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu

__all__ = ["MAX_MARKS", "clean_nickname", "problem", "skeleton"]

#: At most this many combining marks in a row (UTS #39 §5.4 suggests flagging more than four).
MAX_MARKS = 4

# Characters that draw nothing although Unicode gives them a letter or symbol category: the default
# ignorable code points (Unicode's own property: U+115F/U+1160/U+3164/U+FFA0 Hangul fillers, U+180B..,
# variation selectors, ...) and U+2800 BRAILLE PATTERN BLANK (a pattern of no dots; not default-ignorable).
_BLANK = icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:][:White_Space:]\u2800]")
_MARK = icu.UnicodeSet(r"[:M:]")


def clean_nickname(text, limit: int = 24) -> str:
    """A nickname on one line, without control or format characters, at most ``limit`` characters.

    The text itself is kept (pages escape it where they show it).

    >>> clean_nickname("  Bo\\u202e\\t b  ")
    'Bo b'
    >>> clean_nickname("x" * 40, 5)
    'xxxxx'
    """
    text = unicodedata.normalize("NFKC", str(text)[:400])
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(text.split())[:limit].strip()


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
    """UTS #39 skeleton of the NFKC case-folded ``name`` (blank characters dropped first)."""
    folded = unicodedata.normalize("NFKC", "".join(ch for ch in name if not _BLANK.contains(ch)).casefold())
    return _checker().getSkeleton(0, folded)
