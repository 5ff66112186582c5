"""Korean particles chosen for the word they follow, never written as alternatives.

A Korean particle has two forms, chosen by the sound the word before it ends in: ``은``/``는``, ``이``/``가``,
``을``/``를``, ``과``/``와`` after a final consonant / a vowel; ``으로``/``로`` (``로`` after a vowel *and* after
ㄹ); the copula's ``이어야``/``여야``, ``이라고``/``라고``, ``이라는``/``라는``, ``이나``/``나``, ``이란``/``란``
after a consonant / a vowel.  A catalogue cannot know what a placeholder will hold (``0.3562``, ``6.82``,
``81.96%``, ``NDCG``, a translated gain name), so the Korean templates write both forms the way Korean
dictionaries do — ``{value}을(를)``, ``{name}은(는)``, ``{value}(으)로``, ``{value}(이)라고`` — and
:func:`resolve` picks one for the text that was actually put there.  ``ui.i18n.t`` calls it on every Korean
string, so a visitor never reads an alternative.

How a word ends when read aloud (:func:`final_sound`):

* Hangul: its last syllable's final consonant (none, ㄹ, or another).
* A number as Koreans read it: digits after a decimal point one by one (``0.3562`` ends in 이, ``1.5850``
  in 영 → ``1.5850으로``, ``7.00`` → ``7.00이라고``); a whole number by its last non-zero digit and the power
  of ten after it (``10`` 십, ``100`` 백, ``1000`` 천, ``10000`` 만, ``10^8`` 억, ``10^12`` 조);
  ``%`` is read 퍼센트 (``81.96%를``).
* Latin letters: an acronym by its letters' names (``NDCG`` 엔디씨지 → ``NDCG는``, ``MRR`` … 알 → ``MRR로``,
  ``AUC``, ``RMSE``), a few words the app uses by their usual reading (``log`` 로그), other words by how
  their last letters sound in a loanword (``-ng``/``-m``/``-n`` a consonant, ``-l`` ㄹ, anything else a
  vowel: ``Spark`` 스파크, ``scikit-learn`` …런, ``trec_eval`` …발).
* Closing brackets, quotes and marks after the word are skipped: ``“0.91”은`` follows 0.91.

>>> resolve("DCG은(는) 6.82이(가) 나옵니다. 0.3562을(를) 더하면 4.4165(이)어야 합니다.")
'DCG는 6.82가 나옵니다. 0.3562를 더하면 4.4165여야 합니다.'
>>> resolve("1.5850(으)로 나누고 7.00(이)라고 적었습니다; 목록만(으)로, 물(으)로, 81.96%을(를)")
'1.5850으로 나누고 7.00이라고 적었습니다; 목록만으로, 물로, 81.96%를'
>>> resolve("선형 이득이(가) 아니라 지수 이득을(를) 따릅니다")
'선형 이득이 아니라 지수 이득을 따릅니다'
"""
from __future__ import annotations

import re
import string

__all__ = ["PARTICLES", "final_sound", "resolve", "format_resolved", "alternatives_left"]

#: Each particle written with both forms in a template -> (after a final consonant, after a vowel, after ㄹ).
PARTICLES: dict[str, tuple[str, str, str]] = {
    "은(는)": ("은", "는", "은"),
    "는(은)": ("은", "는", "은"),
    "이(가)": ("이", "가", "이"),
    "가(이)": ("이", "가", "이"),
    "을(를)": ("을", "를", "을"),
    "를(을)": ("을", "를", "을"),
    "과(와)": ("과", "와", "과"),
    "와(과)": ("과", "와", "과"),
    "(으)로": ("으로", "로", "로"),
    "(이)어야": ("이어야", "여야", "이어야"),
    "(이)라고": ("이라고", "라고", "이라고"),
    "(이)라는": ("이라는", "라는", "이라는"),
    "(이)라면": ("이라면", "라면", "이라면"),
    "(이)나": ("이나", "나", "이나"),
    "(이)란": ("이란", "란", "이란"),
    "(이)며": ("이며", "며", "이며"),
    "(이)고": ("이고", "고", "이고"),
    "(이)지만": ("이지만", "지만", "이지만"),
    "(이)므로": ("이므로", "므로", "이므로"),
}
_PATTERN = re.compile("|".join(re.escape(p) for p in sorted(PARTICLES, key=len, reverse=True)))

VOWEL, CONSONANT, RIEUL = "vowel", "consonant", "rieul"

# Sino-Korean digits: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGIT = {"0": CONSONANT, "1": RIEUL, "2": VOWEL, "3": CONSONANT, "4": VOWEL, "5": VOWEL, "6": CONSONANT,
          "7": RIEUL, "8": RIEUL, "9": VOWEL}
# The unit a whole number ends in, by its trailing zeros: 십 백 천 만 (to 천만) 억 (to 천억) 조 (to 천조) 경.
_UNIT = [CONSONANT] * 11 + [VOWEL] * 4 + [CONSONANT]
# Letter names: 에이 비 씨 디 이 에프 지 에이치 아이 제이 케이 엘 엠 엔 오 피 큐 알 에스 티 유 브이 더블유 엑스
# 와이 제트.
_LETTER = {c: VOWEL for c in "abcdefghijkopqstuvwxyz"} | {"l": RIEUL, "m": CONSONANT, "n": CONSONANT, "r": RIEUL}
# Lower-case words read otherwise than their last letter's sound rules would guess.
_WORDS = {"log": VOWEL, "ln": CONSONANT, "rel": RIEUL, "max": VOWEL, "min": CONSONANT, "cut": CONSONANT,
          "map": CONSONANT, "k": VOWEL, "n": CONSONANT, "i": VOWEL, "p": VOWEL, "x": VOWEL}
_SKIP = set(")]}〉》」』】”’\"'`*_~.…·") | {" "}
_NUMBER = re.compile(r"(\d[\d,]*)(?:\.(\d+))?(%?)$")


def _hangul(ch: str) -> str | None:
    code = ord(ch) - 0xAC00
    if not 0 <= code < 11172:
        return None
    final = code % 28
    return VOWEL if final == 0 else RIEUL if final == 8 else CONSONANT


def _number(whole: str, fraction: str | None) -> str:
    if fraction:
        return _DIGIT[fraction[-1]]
    digits = whole.replace(",", "").lstrip("0")
    if not digits:
        return CONSONANT  # 영
    stripped = digits.rstrip("0")
    zeros = len(digits) - len(stripped)
    if zeros == 0:
        return _DIGIT[stripped[-1]]
    return _UNIT[min(zeros, len(_UNIT)) - 1]


def final_sound(text: str) -> str | None:
    """How ``text`` ends when read aloud: ``"vowel"``, ``"rieul"`` (ㄹ) or ``"consonant"``; None if unknown.

    >>> [final_sound(w) for w in ("0.3562", "1.5850", "10", "1000", "81.96%", "NDCG", "MRR", "물", "집", "사과")]
    ['vowel', 'consonant', 'consonant', 'consonant', 'vowel', 'vowel', 'rieul', 'rieul', 'consonant', 'vowel']
    """
    end = len(text)
    while end and text[end - 1] in _SKIP:
        end -= 1
    if not end:
        return None
    ch = text[end - 1]
    sound = _hangul(ch)
    if sound:
        return sound
    if ch == "%":
        return VOWEL  # 퍼센트
    if ch.isdigit() and ch.isascii():
        m = _NUMBER.search(text[:end])
        return _number(m.group(1), m.group(2)) if m else _DIGIT[ch]
    if ch.isascii() and ch.isalpha():
        start = end
        while start and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        word = text[start:end]
        if word.isupper():  # an acronym or a capital letter: read letter by letter
            return _LETTER[word[-1].lower()]
        lower = word.lower()
        if lower in _WORDS:
            return _WORDS[lower]
        if len(word) == 1:
            return _LETTER[lower]
        if word[-1].isupper():  # LightGBM, XGBoost's last capitals
            return _LETTER[lower[-1]]
        if lower.endswith(("ng", "m", "n")):
            return CONSONANT
        if lower.endswith("l"):
            return RIEUL
        return VOWEL
    return None


def _resolve(text: str, before: str = "") -> str:
    if "(" not in text:
        return text
    out: list[str] = []
    last = 0
    for m in _PATTERN.finditer(text):
        out.append(text[last:m.start()])
        forms = PARTICLES[m.group(0)]
        sound = final_sound(before + "".join(out))
        out.append(forms[1] if sound == VOWEL else forms[2] if sound == RIEUL else forms[0])
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def resolve(text: str) -> str:
    """``text`` with every particle written as alternatives (:data:`PARTICLES`) chosen for the word before it.

    Where nothing readable comes before (a particle at the start, after a symbol), the consonant form is kept
    without its alternative, as Korean writing does after a name it cannot sound out.
    """
    return _resolve(text)


_FORMATTER = string.Formatter()


def format_resolved(template: str, /, **values) -> str:
    """``template.format(**values)`` with the template's own particles chosen for what precedes them.

    Only the template's words are changed: a value (a nickname, a quoted number) is put in as it is, even if it
    happens to contain ``(으)로``.

    >>> format_resolved("{v}(으)로 나눈 값은 {w}이(가) 아니라 {x}입니다", v="1.5850", w="0.3562", x="이(가)")
    '1.5850으로 나눈 값은 0.3562가 아니라 이(가)입니다'
    """
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        if literal:
            out.append(_resolve(literal, "".join(out)))
        if field is not None:
            value, _ = _FORMATTER.get_field(field, (), values)
            value = _FORMATTER.convert_field(value, conversion)
            spec = _FORMATTER.vformat(spec, (), values) if spec else ""
            out.append(_FORMATTER.format_field(value, spec))
    return "".join(out)


def alternatives_left(text: str) -> list[str]:
    """The particles still written as alternatives in ``text`` (a resolved text has none).

    >>> alternatives_left(resolve("값은(는) 3")), alternatives_left("값은(는) 3")
    ([], ['은(는)'])
    """
    return _PATTERN.findall(text)
