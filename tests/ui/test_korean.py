"""Korean particles: chosen for the word or number actually shown, in every Korean template.

The expected reading of each test value is written out by hand below (how a Korean teacher reads it aloud),
independently of ``ui.korean``'s rules.
"""
from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.i18n import catalogue, t
from ui.korean import PARTICLES, alternatives_left, final_sound, format_resolved, resolve

V, C, L = "vowel", "consonant", "rieul"

# value -> how it ends when read aloud (hand-written: the reading, then its last syllable).
READINGS = {
    "0.3562": V,  # 영점삼오육이 (이)
    "6.82": V,  # 육점팔이
    "4.4165": V,  # 사점사일육오 (오)
    "1.5850": C,  # 일점오팔오영 (영: ㅇ)
    "7.00": C,  # 칠점영영
    "0.91": L,  # 영점구일 (일: ㄹ)
    "0.9133": C,  # 영점구일삼삼 (삼: ㅁ)
    "0.8184": V,  # 영점팔일팔사
    "0.8197": L,  # …칠
    "0.8178": L,  # …팔
    "0.8189": V,  # …구
    "0.8186": C,  # …육 (ㄱ)
    "8.38": L,  # 팔점삼팔
    "3": C,  # 삼
    "2": V,  # 이
    "10": C,  # 십
    "20": C,  # 이십
    "100": C,  # 백
    "300": C,  # 삼백
    "1000": C,  # 천
    "1,000": C,  # 천
    "10000": C,  # 만
    "500000": C,  # 오십만
    "100000000": C,  # 일억 (ㄱ)
    "1000000000000": V,  # 일조
    "0": C,  # 영
    "82%": V,  # 팔십이 퍼센트
    "81.96%": V,  # …퍼센트
    "100%": V,
    "NDCG": V,  # 엔디씨지
    "DCG": V,
    "IDCG": V,
    "MRR": L,  # 엠알알
    "AUC": V,  # 에이유씨
    "RMSE": V,  # 알엠에스이
    "HR": L,  # 에이치알
    "MAP": V,  # 엠에이피
    "LightGBM": C,  # 라이트지비엠
    "Spark": V,  # 스파크
    "scikit-learn": C,  # 사이킷런
    "trec_eval": L,  # 트렉 이발
    "ranx": V,  # 랭스
    "log": V,  # 로그
    "k": V,  # 케이
    "이득": C,
    "할인": C,
    "목록만": C,
    "물": L,
    "사과": V,
    "“0.91”": L,
    "(0.3562)": V,
}

# The form after each kind of ending, for each particle written as alternatives (what a Korean grammar says).
EXPECTED = {
    "은(는)": {C: "은", L: "은", V: "는"}, "이(가)": {C: "이", L: "이", V: "가"},
    "을(를)": {C: "을", L: "을", V: "를"}, "과(와)": {C: "과", L: "과", V: "와"},
    "(으)로": {C: "으로", L: "로", V: "로"}, "(이)어야": {C: "이어야", L: "이어야", V: "여야"},
    "(이)라고": {C: "이라고", L: "이라고", V: "라고"},
}


@pytest.mark.parametrize("value,sound", READINGS.items())
def test_final_sound_reads_as_a_teacher_reads(value, sound):
    assert final_sound(value) == sound


@pytest.mark.parametrize("particle", EXPECTED)
@pytest.mark.parametrize("value", READINGS)
def test_each_particle_after_each_reading(particle, value):
    want = f"값 {value}{EXPECTED[particle][READINGS[value]]} 끝"
    assert format_resolved("값 {v}" + particle + " 끝", v=value) == want


@given(whole=st.integers(min_value=0, max_value=10**16), decimals=st.integers(min_value=0, max_value=6),
       percent=st.booleans())
def test_numbers_of_any_shape(whole, decimals, percent):
    # Read by hand: a % is 퍼센트; decimals read digit by digit; a whole number by its last non-zero digit
    # and the unit its trailing zeros make (십 백 천 만 … 억 … 조 … 경).
    frac = str(whole % 10**decimals).zfill(decimals) if decimals else ""
    text = f"{whole}" + (f".{frac}" if frac else "") + ("%" if percent else "")
    digit = {"0": C, "1": L, "2": V, "3": C, "4": V, "5": V, "6": C, "7": L, "8": L, "9": V}
    if percent:
        want = V
    elif frac:
        want = digit[frac[-1]]
    elif whole == 0:
        want = C
    else:
        s = str(whole)
        zeros = len(s) - len(s.rstrip("0"))
        unit = {0: None, 1: C, 2: C, 3: C}.get(zeros, C if zeros < 12 else V if zeros < 16 else C)
        want = digit[s.rstrip("0")[-1]] if zeros == 0 else unit
    assert final_sound(text) == want
    assert alternatives_left(format_resolved("{x}을(를) {x}(으)로", x=text)) == []


def _fields(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


# A particle written in one fixed form right after a placeholder: wrong for half the values it can hold.
_FIXED = re.compile(r"\}[)”’\"'」]*(은|는|이|가|을|를|과|와|으로|로|이어야|여야|이라고|라고|이라는|라는|이며|이고|"
                    r"이지만|이므로|이나|이란)(?![가-힣(])")
# Words after a placeholder that start like a particle but are not one (counters, nouns).
_NOT_PARTICLE = re.compile(r"\}(가지|개|번째|위|이상|이하|이내|이후|이전|까지|부터|에서|에게|의|에|도|만|보다|"
                           r"처럼|마다)")


def test_no_fixed_particle_after_a_placeholder():
    bad = {key: m.group(0) for key, text in catalogue("ko").items()
           for m in [_FIXED.search(text)] if m and not _NOT_PARTICLE.match(text[m.start():])}
    assert bad == {}, "write these particles as alternatives (을(를), (으)로, (이)어야 …): ui.korean chooses"


SAMPLE_VALUES = ["0.3562", "1.5850", "10", "81.96%", "NDCG", "물", "사과", "7.00", "0.91", "1000"]


@pytest.mark.parametrize("value", SAMPLE_VALUES)
def test_every_korean_template_rendered_has_no_alternatives(value):
    left = {}
    for key, text in catalogue("ko").items():
        rendered = t(key, lang="ko", **{name: value for name in _fields(text)})
        if alternatives_left(rendered):
            left[key] = rendered
    assert left == {}


def test_a_value_is_never_changed():
    nickname = "철수(으)로"
    assert format_resolved("{name}(으)로 보냈습니다", name=nickname) == "철수(으)로로 보냈습니다"
    assert resolve("물(으)로") == "물로"


def test_particles_table_is_complete_for_the_expected_cases():
    assert set(EXPECTED) <= set(PARTICLES)
