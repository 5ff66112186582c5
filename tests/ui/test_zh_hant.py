"""Traditional Chinese (Taiwan): the catalogues are OpenCC's conversion of the Simplified ones, in Taiwan's words."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ui.i18n import LOCALES, catalogue, language

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "zh_hant.py"


def _script():
    spec = importlib.util.spec_from_file_location("zh_hant", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_catalogues_are_the_conversion_of_the_simplified_ones():
    want = _script().generated()
    have = {p.name: p.read_text(encoding="utf-8") for p in sorted((LOCALES / "zh-Hant").glob("*.toml"))}
    stale = sorted(name for name in want if have.get(name) != want[name])
    assert (stale, sorted(set(have) - set(want))) == ([], []), "run: python scripts/zh_hant.py"


# Mainland words a reader in Taiwan would notice (each: the Taiwan word the catalogue uses instead).
MAINLAND = {"默認": "預設", "數據": "資料", "信息": "資訊", "視頻": "影片", "鼠標": "滑鼠", "屏幕": "螢幕",
            "軟件": "軟體", "網絡": "網路", "用戶": "使用者", "文檔": "文件", "鏈接": "連結", "示例": "範例",
            "文本": "文字", "投影儀": "投影機", "菜單": "選單", "服務器": "伺服器",
            "舍入": "捨入"}


@pytest.mark.parametrize("word", MAINLAND)
def test_taiwan_words(word):
    assert {k for k, v in catalogue("zh-Hant").items() if word in v} == set()


def test_taiwan_quotes_are_corner_brackets():
    # 保持「自動識別」: a reader in Taiwan quotes with corner brackets, not the mainland's curly quotes.
    cat = catalogue("zh-Hant")
    assert {k for k, v in cat.items() if any(q in v for q in "“”‘’")} == set()
    assert "「" in cat["check.formula_help"] and "「" not in catalogue("zh")["check.formula_help"]


def test_taiwan_terms_of_the_app():
    cat = catalogue("zh-Hant")
    assert cat["common.nav.playground"] == "實驗台"
    assert cat["common.nav.check"] == "核對我的手算"
    assert cat["common.nav.run_files"].startswith("run 檔案")
    assert language("zh-Hant").html == "zh-Hant" and language("zh-Hant").face == "TC"
