"""The one engine: blocks of queries give the single-machine rows bit for bit, the summary of all blocks'
rows is the single-machine summary (with and without -c), the nDCG measure of the measure table is the
NDCG-variants API and trec_eval's ndcg/ndcg_cut, and -c counts every qrels query in num_q and num_rel
(trec_eval 9.0.8 m_num_q.c, m_num_rel.c), checked by hand and against pytrec_eval."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES, VARIANT_CHOICES
from metrics.runfiles import evaluate_measures, evaluate_runs, make_variants, measure_names, read_qrels, read_run
from metrics.runfiles.batch import evaluate  # the variants table (a view of the one Result)
from metrics.runfiles.engine import (
    QrelsCounts,
    evaluate_block,
    qrels_counts,
    summarize,
    summary_value,
    table_from_frame,
)
from metrics.runfiles.measures import parse_variant
from tests.metrics.runfiles.reference import generate, tables

# every trec_eval measure, the extras and NDCG variants of every tie rule (file order matters for two)
MEASURES = ["all_trec", "extras", "nDCG@5", "nDCG(gain=exponential,ties=average)@10",
            "nDCG(ties=stable,idcg=list)", "nDCG(ties=ranx,discount=jarvelin,base=10)@3",
            "nDCG(ties=optimistic,level=2)@5", "nDCG(ties=pessimistic,gain=binary)"]


def frames(qrels: dict, run: dict, *, name: str = "run"):
    """The qrels and the run as the frames a cluster hands a block (the run's ``line`` = file order)."""
    q = pd.DataFrame([(qid, d, g) for qid, docs in qrels.items() for d, g in docs.items()],
                     columns=["qid", "docno", "rel"])
    r = pd.DataFrame([(qid, d, s) for qid, docs in run.items() for d, s in docs.items()],
                     columns=["qid", "docno", "score"])
    r.insert(0, "run", name)
    r["tag"] = "tag"
    r["line"] = np.arange(len(r))
    return q, r


def in_blocks(qf: pd.DataFrame, rf: pd.DataFrame, assign: dict, measures, **options) -> pd.DataFrame:
    """evaluate_block over the blocks of ``assign`` (query -> block), each block's rows shuffled."""
    parts = []
    for b in sorted(set(assign.values())):
        qids = {q for q, x in assign.items() if x == b}
        qb = qf[qf.qid.isin(qids)].sample(frac=1.0, random_state=b)
        rb = rf[rf.qid.isin(qids)].sample(frac=1.0, random_state=b)
        parts.append(evaluate_block(qb, rb, measures, **options))
    return pd.concat(parts, ignore_index=True)


def key(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["run", "measure", "qid"], kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("options", [{}, {"relevance_level": 2}, {"judged_only": True}, {"max_docs": 7}])
def test_blocks_give_the_single_machine_rows_and_summary(seed, options):
    qrels, run = generate(seed, ties=True)
    qt, rt = tables(qrels, run)
    gmax = float(max(g for docs in qrels.values() for g in docs.values()))
    whole = evaluate_runs(qt, [rt], MEASURES, err_gmax=gmax, **options)
    single = whole.per_query()
    qf, rf = frames(qrels, run)
    queries = sorted(set(qrels) | set(run))
    rng = np.random.default_rng(seed)
    for assign in ({q: 0 for q in queries}, {q: i for i, q in enumerate(queries)},
                   {q: int(rng.integers(0, 3)) for q in queries}):
        got = in_blocks(qf, rf, assign, MEASURES, err_gmax=gmax, **options)
        pd.testing.assert_frame_equal(key(got), key(single), check_exact=True)  # bit for bit
        counts = sum((qrels_counts(qf[qf.qid.isin({q for q, b in assign.items() if b == x})])
                      for x in set(assign.values())), QrelsCounts(0, 0))
        for complete in (False, True):
            summary = summarize(got, MEASURES, complete=complete, counts=counts)
            frame = evaluate_measures(qt, [rt], MEASURES, err_gmax=gmax, complete=complete, **options)
            want = frame[frame.qid == "all"].reset_index(drop=True)
            pd.testing.assert_frame_equal(summary, want, check_exact=True)


@settings(deadline=None)
@given(seed=st.integers(0, 2**16), blocks=st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_any_partition_gives_the_same_rows(seed, blocks):
    qrels, run = generate(seed, n_queries=10, max_ret=12, missing_every=4)
    measures = ["map", "P.5", "ndcg_cut.5", "bpref", "nDCG(ties=average)@5", "nDCG(ties=ranx)"]
    qt, rt = tables(qrels, run)
    single = evaluate_runs(qt, [rt], measures).per_query()
    qf, rf = frames(qrels, run)
    queries = sorted(set(qrels) | set(run))
    got = in_blocks(qf, rf, dict(zip(queries, blocks)), measures)
    pd.testing.assert_frame_equal(key(got), key(single), check_exact=True)


def test_block_refuses_what_a_block_cannot_know_and_bad_frames():
    qf, rf = frames({"q": {"a": 1}}, {"q": {"a": 1.0}})
    with pytest.raises(ValueError, match="err needs err_gmax"):
        evaluate_block(qf, rf, ["err.5"])
    with pytest.raises(ValueError, match="lacks the column"):
        evaluate_block(qf.drop(columns="rel"), rf, ["map"])
    with pytest.raises(ValueError, match="score at row 1 is nan"):
        evaluate_block(qf, rf.assign(score=np.nan), ["map"])
    with pytest.raises(ValueError, match="document 'a' twice for query 'q'"):
        evaluate_block(qf, pd.concat([rf, rf]), ["map"])
    with pytest.raises(ValueError, match="max_docs must be a whole number >= 1"):
        evaluate_block(qf, rf, ["map"], max_docs=0)
    with pytest.raises(ValueError, match="complete=True needs counts"):
        summarize(evaluate_block(qf, rf, ["map"]), ["map"], complete=True)
    with pytest.raises(ValueError, match="kind must be 'qrels' or 'run'"):
        table_from_frame(qf, "judgments")


def test_block_with_two_runs_and_a_query_no_run_answered():
    qrels = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}}
    qf, _ = frames(qrels, {})
    rf = pd.DataFrame({"run": ["A", "A", "B"], "qid": ["q1", "q1", "q1"], "docno": ["a", "b", "b"],
                       "score": [2.0, 1.0, 1.0]})
    rows = evaluate_block(qf, rf, ["recip_rank", "num_rel"])
    # A: a (relevant) first -> 1; B: b first -> 1; q2 answered by neither: no rows
    assert rows.values.tolist() == [["A", "num_rel", "q1", 2.0], ["A", "recip_rank", "q1", 1.0],
                                    ["B", "num_rel", "q1", 2.0], ["B", "recip_rank", "q1", 1.0]]
    # -c: 2 qrels queries, 3 lines graded > 0 (q2's c included); recip_rank's mean halves
    summary = summarize(rows, ["recip_rank", "num_rel", "num_q"], complete=True, counts=qrels_counts(qf))
    assert summary[summary.run == "A"].set_index("measure").value.to_dict() == {
        "num_q": 2.0, "num_rel": 3.0, "recip_rank": 0.5}


# ------------------------------------------------------------------------------------------ -c counts
def test_complete_counts_every_qrels_query_by_hand():
    # q1: a=2, b=0, c=1; q2: d=3 (not answered); q3: e=-1, f=0.7 (not answered; -1 pooled unjudged, 0.7 reads
    # as 0).  Lines graded > 0 as trec_eval reads them (atol): a, c, d = 3.  -l 2: per query, q1 has 1
    # relevant (a), but -c's num_rel still counts grades > 0 (m_num_rel.c's te_calc_avg_num_rel): 3.
    qt, rt = tables({"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"d": 3}, "q3": {"e": -1, "f": 0.7}},
                    {"q1": {"a": 1.0, "x": 0.5}})
    for level, per_q1 in ((1, 2), (2, 1)):
        plain = evaluate_measures(qt, [rt], ["num_q", "num_rel", "num_ret"], relevance_level=level)
        complete = evaluate_measures(qt, [rt], ["num_q", "num_rel", "num_ret"], relevance_level=level,
                                     complete=True)
        assert plain[plain.qid == "all"].set_index("measure").value.to_dict() == {
            "num_q": 1.0, "num_ret": 2.0, "num_rel": float(per_q1)}
        assert complete[complete.qid == "all"].set_index("measure").value.to_dict() == {
            "num_q": 3.0, "num_ret": 2.0, "num_rel": 3.0}


@pytest.mark.parametrize("seed", [0, 3])
def test_complete_num_rel_equals_pytrec_eval_over_every_qrels_query(seed):
    # pytrec_eval evaluates only queries with results: give every qrels query one unjudged document, and its
    # num_rel per query (grade >= 1) summed over all queries is what -c prints (whole grades: >= 1 is > 0).
    qrels, run = generate(seed)
    qt, rt = tables(qrels, run)
    result = evaluate_runs(qt, [rt], ["num_q", "num_rel"], complete=True)
    every = pytrec_eval.RelevanceEvaluator(qrels, {"num_rel"}).evaluate(
        {q: {"zz-not-judged": 1.0} for q in qrels})
    assert result.summary(result.runs[0]) == {"num_q": float(len(qrels)),
                                              "num_rel": float(sum(v["num_rel"] for v in every.values()))}
    assert len(every) == len(qrels) > int(result.runs[0].present.sum())  # the run skips some queries


def test_summary_value_kinds():
    v = np.array([math.log(0.5), math.log(0.00001)])
    assert summary_value("gm", "gm_map", v, n=2) == pytest.approx(math.sqrt(0.5 * 0.00001), rel=1e-12)
    # -c with 4 qrels queries: two more 0.00001 factors
    assert summary_value("gm", "gm_map", v, n=2, complete=True, counts=QrelsCounts(4, 0)) == pytest.approx(
        (0.5 * 0.00001 ** 3) ** 0.25, rel=1e-12)
    assert summary_value("sum", "num_ret", np.array([3.0, 4.0]), n=2) == 7.0
    with pytest.raises(ValueError, match="unknown summary kind"):
        summary_value("median", "x", v, n=2)


# ------------------------------------------------------------------------------------------ the nDCG measure
def test_ndcg_measure_is_the_variants_api_and_trec_eval_ndcg():
    qrels, run = generate(5, ties=True)
    qt, rt = tables(qrels, run)
    variants = make_variants()
    ev = evaluate(qt, [rt], k=10, variants=variants)
    specs = [v.with_(k=10).format() for v in variants]
    frame = evaluate_measures(qt, [rt], [*specs, "ndcg_cut.10", "ndcg"])
    per = frame[frame.qid != "all"].pivot(index="qid", columns="measure", values="value")
    table = ev.per_query().set_index("qid")
    for v, spec in zip(variants, specs):
        np.testing.assert_array_equal(per[spec].to_numpy(), table.loc[per.index, v.label].to_numpy())
    # trec_eval's ndcg_cut.10 is the linear / standard / judged / trec_eval variant; its ndcg the uncut one
    np.testing.assert_allclose(per["nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@10"],
                               per["ndcg_cut_10"], rtol=1e-12, atol=0)
    whole = evaluate_measures(qt, [rt], ["nDCG(gain=linear)", "ndcg", "nDCG"])
    whole = whole[whole.qid != "all"].pivot(index="qid", columns="measure", values="value")
    np.testing.assert_allclose(whole["nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)"],
                               whole["ndcg"], rtol=1e-12, atol=0)
    # ir_measures' nDCG (pytrec_eval's ndcg) is trec_eval's ndcg
    np.testing.assert_array_equal(whole["nDCG"], whole["ndcg"])


def test_variant_specs_name_every_choice_of_the_registry():
    assert VARIANT_CHOICES == {"gain": GAINS, "discount": DISCOUNTS, "idcg": IDCG_SOURCES, "ties": TIES}
    for kind, choices in VARIANT_CHOICES.items():
        for name in choices:
            assert f"{kind}={name}" in parse_variant(f"nDCG({kind}={name})")[0].format()
    assert measure_names(["nDCG(level=1,base=2.5)@10,5"]) == [
        "nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=2.5,level=1.0)@5",
        "nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=2.5,level=1.0)@10"]
    # the same variant twice is computed once; trec_eval's measures keep their order before the variants;
    # nDCG@5 without a variant key is ir_measures' name, printed as written
    assert measure_names(["nDCG(ties=trec_eval)@5", "map", "nDCG(gain=linear)@5", "nDCG@5"]) == [
        "map", "nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@5", "nDCG@5"]


def test_zero_idcg_policy_of_the_ndcg_measure():
    """q1 has a relevant document, q2 only a judged 0: its IDCG is 0, so the policy decides its value."""
    qt = read_qrels(b"q1 0 a 1\nq2 0 b 0\n", name="qrels").table
    rt = read_run(b"q1 Q0 x 1 2 r\nq1 Q0 a 2 1 r\nq2 Q0 b 1 2 r\n", name="r").table
    frame = evaluate_measures(qt, [rt], ["nDCG(idcg=list)", "nDCG(idcg=list,zero=one)"])
    values = frame.set_index(["qid", "measure"])["value"]
    plain = "nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)".replace("judged", "list")
    one = plain[:-1] + ",zero=one)"
    # q1: a at rank 2 -> 1/log2(3) over the list's ideal 1
    assert values[("q1", plain)] == pytest.approx(1 / math.log2(3), rel=1e-12)
    assert values[("q1", one)] == values[("q1", plain)]
    assert (values[("q2", plain)], values[("q2", one)]) == (0.0, 1.0)
    assert values[("all", one)] == pytest.approx((1 / math.log2(3) + 1) / 2, rel=1e-12)


@pytest.mark.parametrize("spec, message", [
    ("nDCG(gain=cubic)", "unknown gain 'cubic'"),
    ("nDCG(gain=linear,gain=binary)", "gain is given twice"),
    ("nDCG(base=1)", "base 1 must be > 0 and != 1"),
    ("nDCG(base=x)", "base 'x' is not a finite number"),
    ("nDCG(level=inf)", "level 'inf' is not a finite number"),
    ("nDCG(color=red)", "unknown key 'color'"),
    ("nDCG(gain)", "'gain' is not key=value"),
    ("nDCG@0", "cutoff '0' is not a whole number"),
    ("nDCG@5,5", "cutoff 5 is given twice"),
    ("nDCG(gain=linear", "write it as nDCG("),
    ("nDCG(zero=nan)", "zero=nan would leave a run's mean undefined"),
    ("nDCG(gain=map(1=3))", "takes no gain map; trec_eval's ndcg.L=G"),
])
def test_variant_spec_errors_name_the_spec_and_the_problem(spec, message):
    with pytest.raises(ValueError, match="measure 'nDCG") as exc:
        parse_variant(spec)
    assert message in str(exc.value)


# ------------------------------------------------------------------------------------------ numba optional
_NO_NUMBA = """
import json, sys
sys.modules["numba"] = None  # as if numba were not installed: `import numba` raises ImportError
import metrics.runfiles._kernels as kernels
import metrics.runfiles.read as read
kernels.NUMBA_MIN_ROWS = 0  # every input asks for numba, and gets the numpy path
read._PACK_MIN_ROWS = 0
from metrics.runfiles import evaluate_runs, make_variants, read_qrels, read_run
from metrics.runfiles.batch import evaluate
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes
qrels, run = generate(11, ties=True, n_queries=40)
qt = read_qrels(qrels_bytes(qrels), name="qrels").table
rt = read_run(run_bytes(run), name="run").table
per = evaluate_runs(qt, [rt], ["all_trec", "extras"], err_gmax=3.0).per_query()
ev = evaluate(qt, [rt], k=10, variants=make_variants(ties=["trec_eval", "average", "ranx"]))
print(json.dumps({"numba_loaded": kernels._numba_module() is not None, "per": per.value.map(float.hex).tolist(),
                  "ev": [float.hex(float(x)) for x in ev.values.ravel()]}))
"""


def test_without_numba_the_engine_gives_the_same_values(monkeypatch):
    import json
    import subprocess
    import sys
    from pathlib import Path

    import metrics.runfiles._kernels as kernels
    import metrics.runfiles.read as read
    from metrics.runfiles import read_qrels, read_run
    from tests.metrics.runfiles.reference import qrels_bytes, run_bytes

    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run([sys.executable, "-c", _NO_NUMBA], cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    without = json.loads(proc.stdout)
    assert without["numba_loaded"] is False
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)  # here: numba's kernels for every input
    monkeypatch.setattr(read, "_PACK_MIN_ROWS", 0)
    assert kernels.use_numba(1)
    qrels, run = generate(11, ties=True, n_queries=40)
    qt = read_qrels(qrels_bytes(qrels), name="qrels").table
    rt = read_run(run_bytes(run), name="run").table
    per = evaluate_runs(qt, [rt], ["all_trec", "extras"], err_gmax=3.0).per_query()
    ev = evaluate(qt, [rt], k=10, variants=make_variants(ties=["trec_eval", "average", "ranx"]))
    assert without["per"] == per.value.map(float.hex).tolist()  # bit for bit
    assert without["ev"] == [float.hex(float(x)) for x in ev.values.ravel()]


def test_the_app_and_the_engine_import_without_numba():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; sys.modules['numba'] = None\n"
            "import metrics, metrics.runfiles, metrics.runfiles.cli, ui.pages.run_files.view\n"
            "from metrics.runfiles.cli import main\n"
            "sys.exit(main(['-m', 'map', 'data/samples/qrels.txt', 'data/samples/bm25.run']))")
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("map                   \tall\t")


def test_blocks_with_one_side_empty_give_no_rows():
    """A cluster's cogroup hands over blocks with qrels and no run rows, or run rows of queries the qrels
    lack: no rows, no error; the qrels-only block still counts for -c."""
    qf, rf = frames({"q1": {"a": 1, "b": 2}}, {"q1": {"a": 1.0}})
    no_run = rf.iloc[:0]
    assert evaluate_block(qf, no_run, ["map", "nDCG@5"]).empty
    assert evaluate_block(qf, no_run.drop(columns="run"), ["map"]).empty
    assert evaluate_block(qf.iloc[:0], rf.assign(qid="q9"), ["map"]).empty
    assert qrels_counts(qf) == QrelsCounts(1, 2) and qrels_counts(qf.iloc[:0]) == QrelsCounts(0, 0)
