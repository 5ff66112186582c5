"""Reading qrels and run files: TREC and CSV/TSV formats, encodings, and every kind of bad input
reported with file and line number (never an exception for a bad file)."""
from __future__ import annotations

import codecs
from pathlib import Path

import numba  # noqa: F401  (pinned: a broken install must fail, not skip)
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.runfiles.read import (
    COLUMN_NAMES,
    MAX_LISTED,
    PROBLEM_MESSAGES,
    decode,
    id_strings,
    read_qrels,
    read_run,
    read_table,
)
from tests.metrics.conftest import PROPERTY

SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"

QRELS = b"q1 0 d1 2\nq1 0 d2 0\nq2 0 d1 1\n"
RUN = b"q1 Q0 d1 1 2.5 bm25\nq1 Q0 d3 2 1.5 bm25\nq2 Q0 d1 1 0.5 bm25\n"


def as_lists(table):
    return (table.qid.dictionary_decode().to_pylist(), id_strings(table.docno).to_pylist(),
            table.value.tolist())


def test_trec_qrels_and_run():
    q = read_qrels(QRELS, name="qrels.txt")
    assert q.ok and q.format == "trec" and q.encoding == "utf-8" and q.n_lines == 3
    assert as_lists(q.table) == (["q1", "q1", "q2"], ["d1", "d2", "d1"], [2.0, 0.0, 1.0])
    r = read_run(RUN, name="bm25.run")
    assert r.ok and r.table.tag == "bm25"
    assert as_lists(r.table) == (["q1", "q1", "q2"], ["d1", "d3", "d1"], [2.5, 1.5, 0.5])
    assert r.table.line_of(2) == 3


def test_path_input_and_tabs_and_crlf(tmp_path):
    p = tmp_path / "run.tsv"
    p.write_bytes(RUN.replace(b" ", b"\t").replace(b"\n", b"\r\n"))
    r = read_run(p)
    assert r.ok and r.name == "run.tsv"
    assert as_lists(r.table) == (["q1", "q1", "q2"], ["d1", "d3", "d1"], [2.5, 1.5, 0.5])


def test_irregular_whitespace_is_read_line_by_line_without_problems():
    # several spaces / mixed tabs: valid for trec_eval (it splits on any whitespace)
    r = read_run(b"q1  Q0\td1 1 2.5 x\n\nq1 Q0 d2 2   1.5 x  \n")
    assert r.ok and r.problems == []
    assert as_lists(r.table) == (["q1", "q1"], ["d1", "d2"], [2.5, 1.5])
    assert r.table.line_of(1) == 3  # the blank line 2 is counted


@pytest.mark.parametrize("delim", [",", "\t", ";"])
def test_csv_tsv_with_named_columns(delim):
    head = delim.join(["Query_ID", "doc_id", "relevance"])
    body = "\n".join(delim.join(x) for x in [("q1", "d1", "2"), ("q1", "d2", "0")])
    q = read_qrels(f"{head}\n{body}\n".encode(), name="q.csv")
    assert q.ok and q.format == {",": "csv", "\t": "tsv", ";": "csv"}[delim]
    assert as_lists(q.table) == (["q1", "q1"], ["d1", "d2"], [2.0, 0.0])
    assert q.table.line_of(0) == 2  # the header is line 1


def test_csv_run_by_rank_and_quoted_fields_and_extra_columns():
    r = read_run(b'user_id,item_id,rank,comment\nu1,"i,1",1,"good, really"\nu1,i2,2,x\n', name="recs.csv")
    assert r.ok
    # no score column: ordered by rank (score = -rank)
    assert as_lists(r.table) == (["u1", "u1"], ["i,1", "i2"], [-1.0, -2.0])


def test_csv_missing_column_is_fatal_with_accepted_names():
    r = read_run(b"qid,docno,comment\nq1,d1,x\n", name="r.csv")
    assert r.fatal and r.problems[0].kind == "header"
    assert "score" in r.problems[0].message and COLUMN_NAMES["score"][1] in r.problems[0].message


def test_bom_and_gbk_and_undecodable():
    r = read_run(codecs.BOM_UTF8 + RUN, name="bom.run")
    assert r.ok and r.encoding == "utf-8-sig" and as_lists(r.table)[0][0] == "q1"
    g = read_run("q1 Q0 文档一 1 2.5 系统\nq1 Q0 文档二 2 1.5 系统\n".encode("gbk"), name="gbk.run")
    assert g.ok and g.encoding == "gbk"
    assert as_lists(g.table)[1] == ["文档一", "文档二"] and g.table.tag == "系统"
    bad = read_run(RUN + b"q3 Q0 d\xff\xff 1 1.0 x\n", name="bad.run")
    assert bad.fatal and bad.problems[0].kind == "encoding" and bad.problems[0].line == 4
    assert "neither UTF-8 nor GBK" in bad.problems[0].message
    u16 = read_run(codecs.BOM_UTF16_LE + RUN.decode().encode("utf-16-le"), name="u16.run")
    assert u16.fatal and u16.problems[0].kind == "encoding"


def test_decode_reports_the_line_of_the_first_bad_byte():
    text, enc, problem = decode(b"ok\nok\n\x80\x80\xff\n", name="f")
    assert text is None and problem.line == 3


def test_malformed_lines_reported_with_line_numbers_rest_kept():
    data = b"q1 Q0 d1 1 2.5 x\nq1 Q0 d2 2 abc x\nq1 Q0 d3 3\nq1 Q0 d4 4 inf x\nq1 Q0 d5 5 0.5 x\n"
    r = read_run(data, name="r.run")
    assert not r.ok and not r.fatal
    got = [(p.line, p.kind) for p in r.problems]
    assert got == [(2, "number"), (3, "fields"), (4, "number")]
    assert as_lists(r.table)[1] == ["d1", "d5"]
    assert r.table.line_of(1) == 5
    assert r.problems[1].message == "r.run line 3: 4 fields where a TREC run line has 6; the line is skipped"


def test_duplicates_in_run_and_qrels():
    r = read_run(b"q1 Q0 d1 1 2.5 x\nq1 Q0 d2 2 1.5 x\nq1 Q0 d1 3 0.5 x\nq2 Q0 d1 1 1 x\n", name="r")
    assert [(p.kind, p.line, p.params["first"]) for p in r.problems] == [("duplicate", 3, 1)]
    assert as_lists(r.table)[1] == ["d1", "d2", "d1"]  # the first d1 of q1 and d1 of q2 kept
    q = read_qrels(b"q1 0 d1 2\nq1 0 d1 1\n", name="q")
    assert [(p.kind, p.line) for p in q.problems] == [("duplicate", 2)]
    assert q.table.value.tolist() == [2.0]


def test_negative_grades_are_a_warning():
    q = read_qrels(b"q1 0 d1 2\nq1 0 spam -2\n", name="q")
    assert q.ok and [(p.kind, p.severity, p.params["line"]) for p in q.problems] == [("negative", "warning", 2)]
    assert q.table.value.tolist() == [2.0, -2.0]  # kept; counted as 0 by metrics.runfiles.batch


def test_wrong_kind_empty_and_size_cap(tmp_path):
    wrong = read_run(QRELS, name="qrels.txt")
    assert wrong.fatal and wrong.problems[0].kind == "wrong_kind"
    assert "looks like a qrels file" in wrong.problems[0].message
    assert read_qrels(RUN, name="r").problems[0].kind == "wrong_kind"
    assert read_run(b"  \n\n", name="e").problems[0].kind == "empty"
    big = read_run(RUN, name="big.run", max_bytes=10)
    assert big.fatal and big.problems[0].kind == "too_large" and "limit" in big.problems[0].message
    p = tmp_path / "big.run"
    p.write_bytes(RUN)
    assert read_run(p, max_bytes=10).problems[0].kind == "too_large"
    nothing = read_run(b"garbage\nmore garbage\n", name="g")
    assert nothing.fatal and nothing.problems[-1].kind == "no_valid_lines"


def test_many_problems_are_capped_and_counted():
    data = b"q0 Q0 d 1 1.0 t\n" + b"".join(b"q1 Q0 d%d 1 x%d t\n" % (i, i) for i in range(MAX_LISTED + 50))
    r = read_run(data, name="r")
    assert r.table.n_rows == 1
    assert r.n_problems == MAX_LISTED + 50
    assert len(r.problems) == MAX_LISTED + 1 and r.problems[-1].kind == "more"
    assert r.problems[-1].params["count"] == 50


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="unknown kind 'runs'; valid kinds are 'qrels', 'run'"):
        read_table(RUN, kind="runs")
    with pytest.raises(ValueError, match="max_bytes"):
        read_run(RUN, max_bytes=0)
    with pytest.raises(ValueError, match="source must be a path or bytes"):
        read_run(123)
    with pytest.raises(ValueError, match="not a readable file"):
        read_run("/nonexistent/run.txt")


def test_every_problem_kind_has_a_message_and_severity():
    from metrics.runfiles.read import _SEVERITY

    assert set(PROBLEM_MESSAGES) == set(_SEVERITY)


def test_sample_data_reads_cleanly():
    q = read_qrels(SAMPLES / "qrels.txt")
    assert q.ok and q.table.n_rows > 0
    for p in sorted(SAMPLES.glob("*.run")):
        r = read_run(p)
        assert r.ok, [x.message for x in r.problems]
    broken = read_run(SAMPLES / "broken_gbk.txt")
    assert broken.encoding == "gbk" and not broken.fatal
    assert sorted(p.kind for p in broken.errors) == ["duplicate", "fields", "number"]


@PROPERTY
@given(
    rows=st.lists(st.tuples(st.sampled_from(["q1", "q2", "中文"]), st.text("abcXYZ019_-", min_size=1, max_size=6),
                            st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=30,
                  unique_by=lambda r: (r[0], r[1])),
    blank=st.booleans(),
    bom=st.booleans(),
)
def test_fast_and_line_by_line_paths_agree(rows, blank, bom):
    lines = [f"{q} Q0 {d} {i} {s!r} tag" for i, (q, d, s) in enumerate(rows, start=1)]
    fast = "\n".join(lines) + "\n"
    slow = "\n\n".join(lines) + "\n" if blank else "\n".join(lines) + "  \n"
    prefix = codecs.BOM_UTF8 if bom else b""
    a = read_run(prefix + fast.encode(), name="a")
    b = read_run(prefix + slow.encode(), name="b")
    assert a.ok and b.ok
    assert as_lists(a.table) == as_lists(b.table)
    assert [a.table.line_of(i) for i in range(a.table.n_rows)] == list(range(1, len(rows) + 1))
    want = [2 * i + 1 for i in range(len(rows))] if blank else list(range(1, len(rows) + 1))
    assert [b.table.line_of(i) for i in range(b.table.n_rows)] == want
    np.testing.assert_array_equal(a.table.value, [s for _, _, s in rows])


def test_integer_packing_of_short_ids_matches_the_string_dictionary(monkeypatch):
    import metrics.runfiles.read as runs

    lines = [f"q{i % 7} Q0 {'x' * (1 + i % 8)}{i} {i} {i * 0.5} t" for i in range(400)]
    lines = [ln for ln in lines if len(ln.split()[2]) <= 8] + ["q1 Q0 é€ 1 1.0 t"]
    data = ("\n".join(lines) + "\n").encode()
    plain = read_run(data, name="r").table
    monkeypatch.setattr(runs, "_PACK_MIN_ROWS", 0)
    packed = read_run(data, name="r").table
    assert as_lists(plain) == as_lists(packed)
    assert runs.pack8(pa.array(["abcdefghi"])) is None  # 9 bytes: string dictionary
    assert runs.pack8(pa.array(["a\x00"])) is None  # NUL: padding would be ambiguous
    assert runs.pack8(pa.array(["b", "ab", "a"])).argsort().tolist() == [2, 1, 0]  # byte order kept


@pytest.mark.parametrize("threads", [1, 3])
def test_read_files_concurrently_equals_one_after_another(threads):
    from metrics.runfiles.read import read_files

    runs = sorted(SAMPLES.glob("*.run")) + [SAMPLES / "broken_gbk.txt"]
    q, parsed = read_files(SAMPLES / "qrels.txt", runs, threads=threads)
    want_q, want_runs = read_qrels(SAMPLES / "qrels.txt"), [read_run(p) for p in runs]
    assert as_lists(q.table) == as_lists(want_q.table)
    assert [p.name for p in parsed] == [p.name for p in runs]
    for got, want in zip(parsed, want_runs):
        assert as_lists(got.table) == as_lists(want.table)
        assert [x.message for x in got.problems] == [x.message for x in want.problems]
    assert parsed[-1].encoding == "gbk" and parsed[-1].errors  # the broken file's problems, unchanged
    capped, (too_big,) = read_files(QRELS, [RUN], max_bytes=10, threads=threads)
    assert [p.kind for p in capped.problems] == ["too_large"] and too_big.fatal


def test_read_files_bad_arguments():
    from metrics.runfiles.read import read_files

    with pytest.raises(ValueError, match="list of paths"):
        read_files(QRELS, RUN)
    with pytest.raises(ValueError, match="threads must be"):
        read_files(QRELS, [RUN], threads=0)
    with pytest.raises(ValueError, match="max_bytes"):
        read_files(QRELS, [RUN], max_bytes=-1)
    with pytest.raises(ValueError, match="source must be a path or bytes"):
        read_files(QRELS, [RUN, 3])  # raised in a worker thread, re-raised here


# ------------------------------------------------------------------------------------------ ids kept as strings
# Ids that share long prefixes, cross the 8-byte word boundary, are empty-adjacent or multi-byte UTF-8.
_ids = st.sampled_from(["a", "b", "ab", "ba", "abcdefgh", "abcdefgi", "abcdefgh1", "abcdefgh2", "x" * 17,
                        "x" * 16 + "y", "é", "é€", "中文", "D0000001", "D0000010", "Z"])


@PROPERTY
@given(st.lists(st.lists(_ids, min_size=1, max_size=12), min_size=1, max_size=8))
def test_first_duplicate_string_finds_the_first_repeat_within_a_block(blocks):
    from metrics.runfiles._kernels import first_duplicate_string
    from metrics.runfiles.read import string_buffers

    flat = [d for block in blocks for d in block]
    starts = np.cumsum([0] + [len(b) for b in blocks]).astype(np.int64)
    want, row = -1, 0
    for block in blocks:
        seen = set()
        for d in block:
            if d in seen and want < 0:
                want = row
            seen.add(d)
            row += 1
    data, offsets = string_buffers(pa.array(flat, pa.string()))
    assert first_duplicate_string(starts, data, offsets) == want


@PROPERTY
@given(st.lists(st.tuples(st.integers(-1, 4), _ids), min_size=1, max_size=40),
       st.dictionaries(st.tuples(st.integers(0, 4), _ids), st.integers(1, 3), max_size=30))
def test_lookup_grades_by_string_equals_a_dictionary_lookup(rows, judged):
    from metrics.runfiles._kernels import lookup_grades_by_string
    from metrics.runfiles.read import string_buffers

    q = np.array([r[0] for r in rows], np.int64)  # -1: a query not in the qrels; blocks may repeat a query
    rdata, roffsets = string_buffers(pa.array([r[1] for r in rows], pa.string()))
    pairs = list(judged.items())
    jq = np.array([p[0][0] for p in pairs], np.int64)
    jdata, joffsets = string_buffers(pa.array([p[0][1] for p in pairs], pa.string()))
    jgrade = np.array([p[1] for p in pairs], np.float64)
    got = lookup_grades_by_string(q, rdata, roffsets, jq, jdata, joffsets, jgrade, 5)
    want = [float(judged.get((qq, d), 0)) if qq >= 0 else 0.0 for qq, d in rows]
    assert got.tolist() == want


def test_string_buffers_and_query_blocks(monkeypatch):
    import metrics.runfiles._kernels as kernels
    from metrics.runfiles._kernels import query_blocks
    from metrics.runfiles.read import string_buffers

    data, offsets = string_buffers(pa.array(["x", "é€", "yz"]).slice(1))  # a slice keeps absolute offsets
    assert bytes(data[offsets[0]:offsets[1]]).decode() == "é€" and offsets.size == 3
    with pytest.raises(ValueError, match="string array"):
        string_buffers(pa.array([1, 2]))
    # Always read-only views, the array type warm_up compiles: numba would otherwise load or compile a
    # second version inside the first evaluation (pyarrow's file buffers are writable, bytes are not).
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)  # files keep plain-string ids (with numba)
    for ids in (read_run(SAMPLES / "bm25.run").table.docno, read_run(RUN).table.docno, pa.array(["a", "b"]),
                pa.array(["a"]).dictionary_encode()):
        data, offsets = string_buffers(id_strings(ids))
        assert not data.flags.writeable and not offsets.flags.writeable
    assert query_blocks(np.array([0, 0, 1, 1, 1, 2])).tolist() == [0, 2, 5, 6]
    assert query_blocks(np.array([0, 1, 0])) is None  # query 0 in two blocks
    assert query_blocks(np.zeros(0, np.int64)).tolist() == [0]


def test_large_files_keep_document_ids_as_strings_with_the_same_problems(monkeypatch):
    """Above NUMBA_MIN_ROWS document ids stay plain strings; duplicates are found all the same."""
    import metrics.runfiles._kernels as kernels

    clean = b"q1 Q0 d1 1 2.5 x\nq1 Q0 d2 2 1.5 x\nq2 Q0 d1 1 1 x\n"
    dup = b"q1 Q0 d1 1 2.5 x\nq1 Q0 d2 2 1.5 x\nq1 Q0 d1 3 0.5 x\nq2 Q0 d1 1 1 x\n"
    split = b"q1 Q0 d1 1 2.5 x\nq2 Q0 d1 1 1 x\nq1 Q0 d1 3 0.5 x\n"  # q1 in two blocks, d1 twice
    want = {name: read_run(data, name="r") for name, data in (("clean", clean), ("dup", dup), ("split", split))}
    assert isinstance(want["clean"].table.docno, pa.DictionaryArray)
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)
    for name, data in (("clean", clean), ("dup", dup), ("split", split)):
        got = read_run(data, name="r")
        assert as_lists(got.table) == as_lists(want[name].table)
        assert [p.message for p in got.problems] == [p.message for p in want[name].problems]
    assert pa.types.is_string(read_run(clean, name="r").table.docno.type)
    assert [p.line for p in read_run(split, name="r").problems] == [3]


# ------------------------------------------------------------------------------------------ trec_eval 10 input
def test_comment_lines_and_extra_run_fields_as_trec_eval_10(tmp_path):
    text = "# ir_metadata:\n#   run: x\nq1 Q0 d1 1 2.5 first more fields\nq1 Q0 d2 2 1.5 last more fields\n"
    for source in (text.encode(), tmp_path / "run.txt"):
        if isinstance(source, type(tmp_path)):
            source.write_text(text)
        r = read_run(source, name="r")
        assert r.ok and r.format == "trec" and r.problems == []
        assert as_lists(r.table) == (["q1", "q1"], ["d1", "d2"], [2.5, 1.5])
        assert r.table.tag == "last"  # trec_eval reports the last line's tag
        assert r.table.line_of(0) == 3
    # a comment further down goes line by line, with the same rows and line numbers
    r = read_run(b"q1 Q0 d1 1 2.5 a\n# a comment with six fields x\nq1 Q0 d2 2 1.5 b\n", name="r")
    assert r.ok and as_lists(r.table)[1] == ["d1", "d2"] and r.table.line_of(1) == 3
    q = read_qrels(b"# judged by x\nq1 0 d1 2\n   # indented comment\nq1 0 d2 0\n", name="q")
    assert q.ok and as_lists(q.table) == (["q1", "q1"], ["d1", "d2"], [2.0, 0.0])
    # a qrels line keeps exactly 4 fields; a run line needs at least 6
    assert read_qrels(b"q1 0 d1 2 extra\n", name="q").problems[0].kind == "fields"
    assert read_run(b"q1 Q0 d1 1 2.5\nq1 Q0 d2 1 2.5 x\n", name="r").problems[0].kind == "fields"


def test_large_file_with_a_metadata_header_stays_on_the_fast_path(tmp_path, monkeypatch):
    import metrics.runfiles.read as read

    calls = []
    monkeypatch.setattr(read, "_slow_read", lambda *a, **k: calls.append(a) or None)
    lines = "#h1\n# h2\n" + "".join(f"q{i // 10} Q0 d{i} {i} {1e6 - i} t{i} extra\n" for i in range(5000))
    (tmp_path / "r.txt").write_text(lines)
    r = read_run(tmp_path / "r.txt")
    assert not calls and r.ok and r.table.n_rows == 5000 and r.table.tag == "t4999" and r.table.line_of(0) == 3


def test_negative_grade_message_names_its_line():
    p = read_qrels(b"q1 0 a 1\nq1 0 b -1\nq1 0 c -2\n", name="q")
    (problem,) = p.problems
    assert problem.message == "q: 2 negative grade(s), first at line 2; they count as 0, as in trec_eval"
