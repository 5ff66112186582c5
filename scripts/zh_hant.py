"""Write the Traditional Chinese (Taiwan) catalogues from the Simplified ones: ``python scripts/zh_hant.py``.

Every ``ui/locales/zh/*.toml`` is converted with OpenCC's phrase-level Simplified → Taiwan profile (``s2twp``:
characters, then Taiwan's words — 文件 → 檔案, 默认 → 預設, 数据 → 資料), then the few Taiwan terms the
profile leaves alone (:data:`TAIWAN`) are put in, curly quotes become Taiwan's corner brackets (:data:`QUOTES`),
and the result is written to ``ui/locales/zh-Hant/``. Run it after every change to a Chinese catalogue;
``tests/ui/test_zh_hant.py`` fails while the two disagree. Comments and keys are ASCII or converted alike;
``{placeholders}`` are left as they are.
"""
from __future__ import annotations

import sys
from pathlib import Path

import opencc

LOCALES = Path(__file__).resolve().parent.parent / "ui" / "locales"
#: Taiwan usage that s2twp does not produce, applied after it (checked by the glossary test).
TAIWAN = {"舍入": "捨入", "示例": "範例", "投影儀": "投影機", "實驗臺": "實驗台", "文本框": "文字方塊",
          "文本": "純文字"}
#: Taiwan quotes with corner brackets: 「自動識別」, a quote inside a quote 『…』 (the mainland's curly quotes).
QUOTES = str.maketrans({"“": "「", "”": "」", "‘": "『", "’": "』"})


def convert(text: str) -> str:
    out = opencc.OpenCC("s2twp").convert(text)
    for mainland, taiwan in TAIWAN.items():
        out = out.replace(mainland, taiwan)
    return out.translate(QUOTES)


def generated() -> dict[str, str]:
    """file name -> the Traditional catalogue's text."""
    return {path.name: convert(path.read_text(encoding="utf-8")) for path in sorted((LOCALES / "zh").glob("*.toml"))}


def main() -> int:
    target = LOCALES / "zh-Hant"
    target.mkdir(exist_ok=True)
    files = generated()
    for stale in set(p.name for p in target.glob("*.toml")) - set(files):
        (target / stale).unlink()
    for name, text in files.items():
        (target / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
