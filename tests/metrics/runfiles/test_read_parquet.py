"""Parquet input for the single-machine engine: named columns, integer ids, every bad row reported with its
row, and the same numbers as the TREC files it was written from."""
from __future__ import annotations

import contextlib
import io
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.runfiles import cli
from metrics.runfiles.read import column_roles, id_strings, read_files, read_parquet, read_qrels, read_run, read_table
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.conftest import PROPERTY

SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"


def parquet_bytes(table: pa.Table | dict) -> bytes:
    if isinstance(table, dict):
        table = pa.table(table)
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def as_lists(table):
    return (table.qid.dictionary_decode().to_pylist(), id_strings(table.docno).to_pylist(), table.value.tolist())


def trec_to_parquet(path: Path, kind: str, out: Path) -> Path:
    """The TREC file's columns as a Parquet file (qid, docno, rel / score, tag)."""
    parsed = read_qrels(path) if kind == "qrels" else read_run(path)
    t = parsed.table
    cols = {"qid": t.qid.dictionary_decode(), "docno": id_strings(t.docno)}
    if kind == "qrels":
        cols["rel"] = pa.array(t.value)
    else:
        cols["score"] = pa.array(t.value)
        cols["tag"] = pa.array([t.tag] * t.n_rows)
    pq.write_table(pa.table(cols), out)
    return out


def test_sample_files_as_parquet_give_the_same_values_for_every_measure(tmp_path):
    qrels = trec_to_parquet(SAMPLES / "qrels.txt", "qrels", tmp_path / "qrels.parquet")
    runs = [trec_to_parquet(SAMPLES / f"{n}.run", "run", tmp_path / f"{n}.parquet") for n in ("bm25", "dense")]
    pq_q, pq_runs = read_files(qrels, runs)
    assert pq_q.ok and pq_q.format == "parquet" and all(r.ok and r.format == "parquet" for r in pq_runs)
    assert [r.table.tag for r in pq_runs] == ["bm25", "dense"]
    tq, truns = read_files(SAMPLES / "qrels.txt", [SAMPLES / "bm25.run", SAMPLES / "dense.run"])
    measures = ["all_trec", "judged.5,10", "err.5,10", "rbp.p=0.8", "ndcg.0=0,1=1,2=5"]
    for opts in ({}, {"complete": True}, {"judged_only": True, "max_docs": 5, "relevance_level": 2}):
        a = evaluate_runs(pq_q.table, [r.table for r in pq_runs], measures, **opts)
        b = evaluate_runs(tq.table, [r.table for r in truns], measures, **opts)
        # The run names differ (bm25.parquet vs bm25.run), nothing else: trec_eval's text is the same.
        assert a.text(per_query=True).replace(".parquet", ".run") == b.text(per_query=True)
        fa, fb = a.frame(), b.frame()
        assert fa["value"].tolist() == fb["value"].tolist() and len(fa) > 100


def test_named_columns_integer_ids_and_numeric_types():
    data = parquet_bytes({"user": pa.array([7, 7, 12], pa.int64()), "item": pa.array([100, 5, 100], pa.int32()),
                          "pred": pa.array([0.5, 2.0, 1.0], pa.float32())})
    p = read_parquet(data, kind="run", name="als.parquet", columns={"qid": "user", "docno": "item", "score": "pred"})
    assert p.ok and p.format == "parquet" and p.encoding is None and p.n_lines == 3
    assert as_lists(p.table) == (["7", "7", "12"], ["100", "5", "100"], [0.5, 2.0, 1.0])
    assert p.table.tag is None and p.table.line_of(2) == 3
    # read_table / read_run recognise the magic bytes; names compared ignoring case
    r = read_run(data, columns={"qid": "USER", "docno": "Item", "score": "pred"})
    assert r.ok and as_lists(r.table) == as_lists(p.table)
    q = read_qrels(parquet_bytes({"query_id": ["a", "a"], "doc_id": ["x", "y"],
                                  "relevance": pa.array([2, 0], pa.int8())}))
    assert q.ok and as_lists(q.table) == (["a", "a"], ["x", "y"], [2.0, 0.0])
    # decimal grades and a rank-only run (ordered by rank: score = -rank)
    grade = pa.array([Decimal("1.50")], pa.decimal128(4, 2))
    q = read_qrels(parquet_bytes({"qid": ["a"], "docno": ["x"], "rel": grade}))
    assert q.table.value.tolist() == [1.5]
    r = read_run(parquet_bytes({"qid": ["a", "a"], "docno": ["x", "y"], "rank": [1, 2]}))
    assert r.table.value.tolist() == [-1.0, -2.0]


def test_the_tag_column_names_the_run_as_the_last_line_of_a_trec_run():
    r = read_run(parquet_bytes({"qid": ["a", "a"], "docno": ["x", "y"], "score": [1.0, 0.5], "run": ["s1", "s2"]}))
    assert r.ok and r.table.tag == "s2"


def test_missing_column_and_wrong_types_are_fatal_problems_naming_them():
    p = read_run(parquet_bytes({"qid": ["a"], "docno": ["x"]}), name="r.parquet")
    assert p.fatal and p.problems[0].kind == "header" and "no column for score" in p.problems[0].message
    p = read_run(parquet_bytes({"qid": ["a"], "docno": ["x"], "score": [1.0]}), columns={"score": "prediction"})
    assert p.fatal and "'prediction' (given for score)" in p.problems[0].message
    p = read_run(parquet_bytes({"qid": [1.5], "docno": ["x"], "score": [1.0]}), name="f.parquet")
    assert p.fatal and p.problems[0].message == ("f.parquet: column 'qid' (qid) is of type double; "
                                                 "accepted: strings or integers")
    p = read_run(parquet_bytes({"qid": ["a"], "docno": ["x"], "score": ["high"]}), name="f.parquet")
    assert p.fatal and p.problems[0].kind == "column_type" and "(score) is of type string" in p.problems[0].message
    empty = pa.table({"qid": pa.array([], pa.string()), "docno": pa.array([], pa.string()),
                      "score": pa.array([], pa.float64())})
    p = read_run(parquet_bytes(empty))
    assert p.fatal and p.problems[0].kind == "empty"


def test_bad_rows_are_skipped_with_their_row_number_and_the_first_duplicate_kept():
    data = parquet_bytes({
        "qid": ["q1", None, "q1", "q2", "q1", "", "q2"],
        "docno": ["d1", "d2", "d3", "d1", "d1", "d9", "d1"],
        "score": [3.0, 2.0, float("nan"), None, 1.0, 0.5, float("inf")],
    })
    p = read_run(data, name="r.parquet")
    assert not p.ok and not p.fatal
    assert [(x.kind, x.line) for x in p.problems] == [
        ("blank_id", 2), ("number", 3), ("number", 4), ("duplicate", 5), ("blank_id", 6), ("number", 7)]
    assert p.problems[3].message == ("r.parquet line 5: document 'd1' appears again for query 'q1' (first at line 1); "
                                     "the later line is skipped")
    assert p.problems[2].message == "r.parquet line 4: score 'null' is not a finite number; the line is skipped"
    assert as_lists(p.table) == (["q1"], ["d1"], [3.0])
    assert p.table.line_of(0) == 1


def test_negative_grades_warn_and_many_problems_are_counted_not_listed():
    q = read_qrels(parquet_bytes({"qid": ["a", "a"], "docno": ["x", "y"], "rel": [1, -1]}), name="q.parquet")
    assert q.ok and [x.kind for x in q.problems] == ["negative"] and q.problems[0].params["line"] == 2
    n = 450
    r = read_run(parquet_bytes({"qid": ["a"] * n, "docno": ["x"] * n, "score": np.arange(n, dtype=float)}))
    assert r.n_problems == n - 1 and r.problems[-1].kind == "more" and r.table.n_rows == 1


def test_column_roles_refuses_unknown_roles_and_bad_names():
    with pytest.raises(ValueError, match="unknown role 'query'"):
        column_roles(["a"], "run", {"query": "a"})
    with pytest.raises(ValueError, match="column for qid must be a non-empty name"):
        column_roles(["a"], "run", {"qid": " "})
    assert column_roles(["q", "d", "score"], "qrels", {"qid": "q", "docno": "d"}) == {
        "qid": "q", "docno": "d", "rel": "score"}


def test_bytes_that_are_not_parquet_but_start_with_the_magic_are_refused_with_a_message():
    # a bad file is a fatal problem naming it (it raised, and the page showed "This app has encountered an error")
    p = read_table(b"PAR1 not really a parquet file", kind="run", name="x")
    assert p.fatal and p.table is None and [x.kind for x in p.problems] == ["parquet_footer"]
    assert p.problems[0].message.startswith("x cannot be read as Parquet: its footer")


def test_csv_columns_can_be_named_too():
    text = b"u,i,p\nq1,d1,0.5\nq1,d2,0.7\n"
    r = read_run(text, columns={"qid": "u", "docno": "i", "score": "p"})
    assert r.ok and as_lists(r.table) == (["q1", "q1"], ["d1", "d2"], [0.5, 0.7])


ids = st.text(alphabet="abcxyz0123456789", min_size=1, max_size=6)


@PROPERTY
@given(st.lists(st.tuples(ids, ids, st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=40,
                unique_by=lambda r: (r[0], r[1])))
def test_parquet_reads_the_same_rows_as_csv(rows):
    frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    from_csv = read_run(frame.to_csv(index=False).encode())
    from_parquet = read_run(parquet_bytes(pa.Table.from_pandas(frame, preserve_index=False)))
    assert from_parquet.ok and as_lists(from_parquet.table) == as_lists(from_csv.table)


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def test_cli_reads_parquet_with_named_columns_like_the_trec_files(tmp_path):
    q = read_qrels(SAMPLES / "qrels.txt").table
    r = read_run(SAMPLES / "bm25.run").table
    pq.write_table(pa.table({"user": q.qid.dictionary_decode(), "item": id_strings(q.docno),
                             "rating": pa.array(q.value)}), tmp_path / "qrels.parquet")
    pq.write_table(pa.table({"user": r.qid.dictionary_decode(), "item": id_strings(r.docno),
                             "pred": pa.array(r.value), "tag": pa.array([r.tag] * r.n_rows)}),
                   tmp_path / "bm25.run")  # same file name as the TREC run: same output, byte for byte
    args = ["-q", "-m", "all_trec", "-c"]
    code, text, _ = run_cli(args + ["--qrels-columns", "qid=user,docno=item", "--run-columns",
                                    "qid=user,docno=item,score=pred", str(tmp_path / "qrels.parquet"),
                                    str(tmp_path / "bm25.run")])
    code_trec, text_trec, _ = run_cli(args + [str(SAMPLES / "qrels.txt"), str(SAMPLES / "bm25.run")])
    assert code == code_trec == 0 and text == text_trec and "runid" in text


def test_cli_refuses_a_malformed_columns_option(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--run-columns", "query=user", str(SAMPLES / "qrels.txt"), str(SAMPLES / "bm25.run")])
    assert exc.value.code == 2
    assert "argument --run-columns: must be ROLE=NAME pairs" in capsys.readouterr().err
