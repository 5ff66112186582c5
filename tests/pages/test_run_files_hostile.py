"""Hostile uploads on the Run files page (AppTest through app.py): a Parquet "bomb", damaged Parquet, ids of a
million characters.  Each gets a message naming the file in the page's language, never "This app has
encountered an error"; the other files are still evaluated.  And the read stops when its visitor leaves."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.conftest import no_exceptions, one_language_each, open_page, said_in
from ui import runfiles_view

PAGE = "pages/run_files.py"
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
QRELS = (SAMPLES / "qrels.txt").read_bytes()
BM25 = (SAMPLES / "bm25.run").read_bytes()


def uploaded(runs: dict[str, bytes], *, qrels=("qrels.txt", QRELS), lang="en"):
    files = {"qrels": qrels, "runs": list(runs.items())}
    return open_page(PAGE, lang=lang, query={"data": "upload"}, state={"rf_files": files})


def parquet(table: pa.Table, **kw) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf, **kw)
    return buf.getvalue()


def bomb(rows: int) -> bytes:
    """``rows`` rows of one pair, dictionary-encoded and compressed (~10 bytes per 1,000 rows)."""
    zeros = pa.array(np.zeros(rows, np.int32))
    same = pa.DictionaryArray.from_arrays(zeros, pa.array(["x"]))
    return parquet(pa.table({"qid": same, "docno": same, "score": np.zeros(rows)}), compression="zstd",
                   row_group_size=1 << 22)


def problem_messages(at) -> str:
    """The problems tables' messages and the page's errors, as one text."""
    tables = [d.value for d in at.dataframe]
    cells = " ".join(str(v) for t in tables for c in t.columns for v in t[c].tolist())
    return cells + " " + " ".join(e.value for e in at.error) + " " + " ".join(w.value for w in at.warning)


GOOD = parquet(pa.table({"qid": ["q1"] * 3, "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]}))
TRUNCATED = GOOD[: len(GOOD) // 2] + b"PAR1"
DUPLICATE = parquet(pa.Table.from_arrays([pa.array(["q"]), pa.array(["d"]), pa.array([1.0]), pa.array([2.0])],
                                         names=["qid", "docno", "score", "score"]))
FLIPPED = bytearray(parquet(pa.table({"qid": [f"q{i}" for i in range(500)], "docno": [f"d{i}" for i in range(500)],
                                      "score": np.arange(500.0)}), compression="snappy"))
for _i in range(120, 300):
    FLIPPED[_i] ^= 0x5A
FLIPPED = bytes(FLIPPED)

# (file name, bytes, what the message says in en / zh / ko)
CASES = [
    ("bomb.parquet", bomb(20_000_000), {"en": "bomb.parquet has 20,000,000 rows; the limit here is 13,107,200",
                                        "zh": "bomb.parquet 有 20,000,000 行；此处上限为 13,107,200 行",
                                        "ko": "bomb.parquet: 20,000,000행입니다. 여기서는 13,107,200행까지만"}),
    ("truncated.parquet", TRUNCATED, {"en": "truncated.parquet cannot be read as Parquet: its footer",
                                      "zh": "truncated.parquet 无法作为 Parquet 读取：文件末尾的页脚",
                                      "ko": "truncated.parquet: Parquet으로 읽을 수 없습니다. 파일 끝의 푸터"}),
    ("dup.parquet", DUPLICATE, {"en": "dup.parquet: 2 columns are named 'score'",
                                "zh": "dup.parquet：有 2 列都叫“score”",
                                "ko": "dup.parquet: 이름이 'score'인 열이 2개 있습니다"}),
    ("corrupt.parquet", FLIPPED, {"en": "corrupt.parquet cannot be read as Parquet: its data is damaged",
                                  "zh": "corrupt.parquet 无法作为 Parquet 读取：数据已损坏",
                                  "ko": "corrupt.parquet: Parquet으로 읽을 수 없습니다. 데이터가 손상되었거나"}),
]


@one_language_each("name, data, said", CASES, ids=[c[0] for c in CASES])
def test_a_bad_parquet_upload_is_named_and_the_other_runs_are_evaluated(lang, name, data, said):
    # Before: the bomb took the server to gigabytes; the others gave "This app has encountered an error".
    at = uploaded({"bm25.run": BM25, name: data}, lang=lang)
    no_exceptions(at)
    assert said_in(said, lang) in problem_messages(at)
    # said whole in the error box too (the problems table cuts long messages to its column's width)
    assert any(e.value.replace("\\", "").startswith(said_in(said, lang)) for e in at.error)
    assert any("bm25.run" in d.value.columns for d in at.dataframe)  # the good run is still evaluated


def test_the_page_limits_follow_from_its_cap():
    cap = runfiles_view.UPLOAD_CAP_BYTES
    limits = runfiles_view.UPLOAD_LIMITS
    assert limits.max_rows == cap // 8  # the most "1 0 1 1" lines (8 bytes each) a text upload can hold
    assert limits.max_memory == 3 * cap and limits.max_ratio == 100
    # the largest text file the page takes is never refused for its rows
    assert (cap // len(b"1 0 1 1\n")) <= limits.max_rows


def test_a_query_id_of_a_million_characters_is_shown_shortened():
    long_q = "Q" * 1_000_000
    run = BM25 + f"{long_q} Q0 D1 1 1.0 x\n".encode()
    at = uploaded({"long.run": run})
    no_exceptions(at)
    shown = " ".join(c.value for c in at.caption) + problem_messages(at)
    assert "Q" * 59 + "…" in shown and "Q" * 200 not in shown


def test_reading_stops_once_the_visitor_has_left(monkeypatch):
    # A server's session that is no longer active (its tab closed): the callback handed to the reader raises
    # Streamlit's stop at the next block, and the reader stops there.
    import streamlit.runtime as st_runtime
    import streamlit.runtime.scriptrunner_utils.script_run_context as ctx_module

    class Runtime:
        active = True

        def is_active_session(self, session_id):
            assert session_id == "session-1"
            return self.active

    rt = Runtime()
    monkeypatch.setattr(st_runtime, "exists", lambda: True)
    monkeypatch.setattr(st_runtime, "get_instance", lambda: rt)
    monkeypatch.setattr(ctx_module, "get_script_run_ctx", lambda suppress_warning=False: type("C", (), {
        "session_id": "session-1"})())
    check = runfiles_view.stop_when_visitor_leaves("big.run")
    calls = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) == 3:
            rt.active = False  # the tab is closed while the file is read
        check(fraction)

    data = bomb(500_000)  # 8 batches of 65,536 rows; within the page's limits (50 MB of memory at the least)
    with pytest.raises(runfiles_view.VisitorLeft):
        runfiles_view.read_source("run", "big.parquet", "digest", data, on_progress=progress)
    assert len(calls) == 3
    from streamlit.runtime.scriptrunner import StopException

    assert issubclass(runfiles_view.VisitorLeft, StopException)  # Streamlit ends the run quietly
    # outside a server the callback never stops anything
    monkeypatch.setattr(st_runtime, "exists", lambda: False)
    runfiles_view.stop_when_visitor_leaves("x")(0.5)
