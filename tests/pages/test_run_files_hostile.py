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

from metrics.runfiles.read import MAX_ID_CHARS
from tests.conftest import no_exceptions, one_language_each, open_page, said_in
from ui.pages.run_files import view as runfiles_view

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
    # A million characters: not an id, its line is a bad line ("long_id"), the id shown as its first 59.
    long_q = "Q" * 1_000_000
    run = BM25 + f"{long_q} Q0 D1 1 1.0 x\n".encode()
    at = uploaded({"long.run": run})
    no_exceptions(at)
    shown = " ".join(c.value for c in at.caption) + problem_messages(at)
    assert "Q" * 59 + "…" in shown and "Q" * 200 not in shown


def test_a_query_id_at_the_length_limit_is_shown_shortened_everywhere_it_is_named():
    # An id of MAX_ID_CHARS characters is read; every place that names it shortens it: the warning that it is not
    # in the qrels, and "Where did this number come from?", whose gdeval libraries refuse query ids that are not
    # numbers and named this one whole (before: 10,000 characters in the means table's "No number because it").
    long_q = "Q" * MAX_ID_CHARS
    run = BM25 + f"{long_q} Q0 D1 1 1.0 x\n".encode()
    at = uploaded({"long.run": run})
    no_exceptions(at)
    messages = [c.value for c in at.caption] + [m.value for m in at.markdown] + [e.value for e in at.error] + [
        w.value for w in at.warning]
    assert any("Q" * 59 + "…" in m for m in messages) and not any("Q" * 200 in m for m in messages)
    [refusals] = [d.value["No number because it"] for d in at.dataframe if "No number because it" in d.value]
    said = [r for r in refusals if "needs numeric topic ids" in r]
    assert said and all(r.endswith("(" + "Q" * 59 + "…)") for r in said)
    # (a per-query table lists the query by its id, whole: it is the data, downloadable as such)


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


# ------------------------------------------------------------------------------------------- the red team's files
def forged_parquet() -> bytes:
    """One row whose query id is one PLAIN page of 30,000,000 NUL characters (zstd), its footer forged to say the
    pages decompress to 100 bytes (F3)."""
    import tempfile

    from tests.metrics.runfiles.test_read_redteam import forged_footer

    with tempfile.TemporaryDirectory() as folder:
        table = pa.table({"qid": pa.array([b"\0" * 30_000_000], pa.binary()).cast(pa.string()), "docno": ["d1"],
                          "score": [1.0]})
        pq.write_table(table, Path(folder, "page.parquet"), compression="zstd", use_dictionary=False,
                       write_statistics=False)
        del table
        return forged_footer(Path(folder, "page.parquet"), Path(folder, "forged.parquet")).read_bytes()


def many_row_groups() -> bytes:
    """20,000 row groups of one row (F4)."""
    n = 20_000
    table = pa.table({"qid": ["q1"] * n, "docno": [f"D{i}" for i in range(n)], "score": np.arange(n * 1.0)})
    return parquet(table, row_group_size=1, compression="none", write_statistics=False)


RED_TEAM = {  # file name -> (its bytes, built when the test runs; what the message says in en / zh / ko)
    # its page: 30,000,000 characters and a 4-byte length, at QID_TEXT_BYTES (5) a byte: 150.0 MB at the least
    "forged.parquet": (forged_parquet, {
        "en": "forged.parquet is 0.00 MB but needs at least 150.0 MB of memory",
        "zh": "forged.parquet 只有 0.00 MB，读取时却至少需要 150.0 MB 内存",
        "ko": "forged.parquet: 파일은 0.00 MB이지만 읽으려면 메모리가 적어도 150.0 MB"}),
    "many_rg.parquet": (many_row_groups, {"en": "many_rg.parquet is split into more than 4,096 pages",
                                          "zh": "many_rg.parquet 在要读取的列中被切成了超过 4,096 个页",
                                          "ko": "many_rg.parquet: 읽을 열이 4,096개가 넘는 페이지"}),
    # F13: a column of an unusable type was said in English on every page
    "t_struct.parquet": (lambda: parquet(pa.table({"qid": [{"a": 1}], "docno": ["d1"], "score": [1.0]})), {
        "en": "t_struct.parquet: column 'qid' (qid) is of type struct<a: int64>; accepted: strings or integers",
        "zh": "t_struct.parquet：列“qid”（qid）的类型是 struct<a: int64>，可接受的是字符串或整数",
        "ko": "t_struct.parquet: 'qid' 열(qid)의 자료형이 struct<a: int64>입니다. 받을 수 있는 것은 문자열이나 정수"}),
    "q1.csv": (lambda: b'qid,docno,score\n101,"' + b"x" * 200_000 + b'",1.0\n101,D101\n',
               {"en": "q1.csv, line 2: a field of more than 131,072 characters",
                "zh": "q1.csv 第 2 行：有一个字段超过 131,072 个字符",
                "ko": "q1.csv, 2행: 131,072자를 넘는 필드가 있습니다"}),
}


@one_language_each("name", sorted(RED_TEAM), ids=sorted(RED_TEAM))
def test_the_red_team_s_files_are_named_and_the_other_runs_evaluated(lang, name):
    # Before: the forged footer took the server to 2.5 GB before its refusal, the row groups to 600 MB and 25 s,
    # the CSV field gave "This app has encountered an error".
    build, said = RED_TEAM[name]
    at = uploaded({"bm25.run": BM25, name: build()}, lang=lang)
    no_exceptions(at)
    assert said_in(said, lang) in problem_messages(at)
    assert any(e.value.replace("\\", "").startswith(said_in(said, lang)) for e in at.error)
    assert any("bm25.run" in d.value.columns for d in at.dataframe)


def test_the_parse_cache_holds_at_most_its_bytes(monkeypatch):
    # F2: before, the cache was bounded by its entries only (16): 12 tiny files holding one huge id each kept 3 GB.
    # Four runs of about 30 KB of tables each, the budget two of them: the ones used longest ago are dropped, and a
    # dropped one is read again (the same table) when it is asked for.
    runs = [BM25 + "".join(f"q{i} Q0 extra{j} 1 0.5 x\n" for j in range(400)).encode() for i in range(4)]
    sources = [runfiles_view.Source("run", f"r{i}.run", len(r), runfiles_view.digest_of(r), r)
               for i, r in enumerate(runs)]
    runfiles_view._read_cached.clear()
    try:
        sizes = [runfiles_view.parsed_bytes(runfiles_view.read_source("run", s.name, s.digest, s.data))
                 for s in sources]
        monkeypatch.setattr(runfiles_view, "CACHE_BYTES", sizes[0] + sizes[1] + sizes[2] // 2)
        first = runfiles_view.read_cached(sources[0]).table
        for s in sources[1:]:
            runfiles_view.read_cached(s)
        held = [h for h in runfiles_view._HELD.values() if h.parsed is not None]
        assert len(held) == 2 and sum(h.size for h in held) <= runfiles_view.CACHE_BYTES
        assert [h.parsed.name for h in held] == ["r2.run", "r3.run"]
        again = runfiles_view.read_cached(sources[0]).table
        assert again is not first and again.docno.to_pylist() == first.docno.to_pylist()
    finally:
        runfiles_view._read_cached.clear()
    assert not runfiles_view._HELD  # Streamlit's clear releases every entry


@pytest.mark.parametrize("lang", ["en", "zh", "zh-Hant", "ko"])
def test_type_refusals_and_the_evaluation_s_warnings_are_in_the_page_s_language(lang):
    # F13: the column-type refusal (and the evaluation's own warnings: a grade too large for the exponential gain,
    # grades that are not whole numbers) were in English on the Chinese and Korean pages.
    struct = parquet(pa.table({"qid": [{"a": 1}], "docno": ["d1"], "score": [1.0]}))
    # D900's grade 2000 overflows 2^g - 1 (float64 ends near 2^1024); D901's 1.5 is read by trec_eval as 1
    qrels = QRELS + b"101 0 D900 2000\n101 0 D901 1.5\n"
    at = uploaded({"bm25.run": BM25, "t_struct.parquet": struct}, qrels=("qrels.txt", qrels), lang=lang)
    no_exceptions(at)
    shown = problem_messages(at) + " ".join(c.value for c in at.caption)
    said = {"en": ["accepted: strings or integers", "grade 2000 is too large for the Exponential gain",
                   "1 grade(s) are not whole numbers (the first, 1.5, on line"],
            "zh": ["可接受的是字符串或整数", "等级 2000 对指数增益来说太大", "有 1 个等级不是整数（第一个是第"],
            "ko": ["받을 수 있는 것은 문자열이나 정수", "등급 2000은 지수 이득에 너무 큽니다",  # 이천: 은
                   "등급 1개가 정수가 아닙니다(첫 번째는"]}
    for i in range(3):
        text = said_in({k: v[i] for k, v in said.items()}, lang)
        assert text in shown, (text, shown[:2000])
    if lang != "en":
        assert "accepted:" not in shown and "too large for" not in shown and "whole numbers" not in shown


def test_every_problem_the_page_can_meet_has_its_text_in_every_language():
    # F13's cause: a kind without a translation fell back to the reader's English sentence.  Each language's
    # sentence uses only fields the problem has (the English sentence's, and "accepted" put in words by the page).
    import string
    import tomllib

    from metrics.runfiles.read import PROBLEM_MESSAGES

    spark_only = {"bad_lines", "fractional_grades", "not_in_qrels"}  # raised by --spark only (the command line)
    locales = ROOT / "ui" / "locales"
    for lang in ("en", "zh", "zh-Hant", "ko"):
        texts = tomllib.loads((locales / lang / "run_files.toml").read_text("utf-8"))["problem"]
        for kind, english in PROBLEM_MESSAGES.items():
            if kind in spark_only:
                continue
            assert kind in texts, (lang, kind)
            has = {"file", "line"} | {f for _, f, _, _ in string.Formatter().parse(english) if f}
            used = {f for _, f, _, _ in string.Formatter().parse(texts[kind]) if f}
            assert used <= has, (lang, kind, used - has)
