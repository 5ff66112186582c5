"""ir_measures' names and measures against ir_measures 0.4.3 itself (its default pipeline: pytrec_eval,
cwl_eval, compat, pyndeval, judged, msmarco, gdeval, accuracy, ranx -- the real providers, installed from the
package index), per query and mean, to 1e-9, on random qrels and runs with tied scores, negative grades,
documents and queries missing on either side, graded and subtopic judgements; the provider named by each
plan is the one ir_measures picks; gdeval, which prints 5 decimals, is also run with its print raised to
17 significant digits (the same Perl code, a wider printf)."""
from __future__ import annotations

import logging
import math
import pkgutil
import subprocess
from collections.abc import Sequence

import ir_measures
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ir_measures import Qrel, ScoredDoc

from metrics.runfiles import evaluate_runs, measure_names, parse_measures, read_qrels, read_run
from metrics.runfiles.engine import evaluate_block
from metrics.runfiles.measures.irm import ALIASES, IR_MEASURES, plan
from metrics.runfiles.subtopics import read_subtopic_qrels
from tests.metrics.conftest import PROPERTY
from tests.metrics.runfiles.reference import generate, tables
from tests.metrics.runfiles.test_engine import frames, key

logging.getLogger("ir_measures").setLevel("ERROR")
logging.getLogger("ir_measures.cwl_eval").setLevel("ERROR")

#: Every measure ir_measures 0.4.3 computes (some with several parameter choices); the diversity family is
#: checked on subtopic qrels below.
SPECS = [
    "nDCG@10", "nDCG", "nDCG@3", "nDCG(judged_only=True)@10", "nDCG(gains={0:0,1:1,2:3,3:7,4:15})@10",
    "nDCG(dcg='exp-log2')@10", "NDCG@5", "P@5", "P(rel=2)@5", "P(judged_only=True)@10", "Precision@3",
    "R@20", "R(rel=2)@1000", "Recall@5", "AP", "AP(rel=2)", "AP@10", "MAP(judged_only=True)", "RR", "RR(rel=2)",
    "MRR@10", "RR(rel=2)@10", "Rprec(rel=1)", "RPrec(rel=2)", "Bpref(rel=1)", "BPref(rel=2)", "infAP(rel=1)",
    "Success@5", "Success(rel=2)@1", "IPrec@0.3", "IPrec(rel=2)@0.5", "SetP", "SetP(rel=2)", "SetRelP",
    "SetP(relative=True,judged_only=True)", "SetR", "SetF", "SetF(beta=0.5)", "SetAP", "NumQ", "NumRel",
    "NumRet", "NumRelRet", "NumRet(rel=2)", "Judged@10", "Judged@100", "Judged", "Compat",
    "Compat(p=0.8,normalize=False)", "Accuracy@10", "Accuracy(rel=2)", "RBP(rel=1)", "RBP(rel=2,p=0.5)",
    "BPM(max_rel=4)@10", "BPM(T=2.0,min_rel=1,max_rel=4)@5", "SDCG(max_rel=4)@10", "NERR8(max_rel=4)@10",
    "NERR9(max_rel=4)@5", "NERR10(max_rel=4)", "NERR10(p=0.5,max_rel=3)", "NERR11(max_rel=4)",
    "NERR11(T=2.0,max_rel=4)", "INST(max_rel=4)", "INST(T=3.0,max_rel=4)", "INSQ(max_rel=4)",
    "INSQ(T=2.0,max_rel=4)", "ERR@10", "ERR@3",
]
DIVERSITY = ["alpha_nDCG@20", "alpha_nDCG(alpha=0.2)@5", "α_nDCG@1", "alpha_DCG@10", "alpha_DCG(alpha=1.0)@20",
             "ERR_IA@20", "ERR_IA(rel=2)@5", "nERR_IA@10", "NRBP", "NRBP(alpha=0.3,beta=0.8)", "nNRBP",
             "nNRBP(beta=0.9)", "AP_IA", "MAP_IA(rel=2)", "P_IA@10", "StRecall@20", "StRecall(rel=2)@3"]


def random_data(seed: int, *, n_queries: int = 14, subtopics: int = 0, grades=(-1, 5)):
    """Qrels (numeric query ids, as gdeval needs) and one run in file order: tied scores, negative grades,
    unjudged and judged-unretrieved documents, qrels queries the run lacks and a run query the qrels lack."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for i in range(n_queries):
        q = str(101 + i)
        docs = rng.choice(50, size=int(rng.integers(1, 22)), replace=False)
        for d in docs:
            if subtopics:
                for s in rng.choice(subtopics, size=int(rng.integers(1, subtopics + 1)), replace=False):
                    qrels.append(Qrel(q, f"d{d:03d}", int(rng.integers(*grades)), f"s{s}"))
            else:
                qrels.append(Qrel(q, f"d{d:03d}", int(rng.integers(*grades))))
        if i % 5 == 2:
            continue
        for d in rng.choice(50, size=int(rng.integers(1, 40)), replace=False):
            run.append(ScoredDoc(q, f"d{d:03d}", float(rng.integers(0, 6)) / 2))
    run.append(ScoredDoc("999", "d001", 1.0))
    return qrels, run


def ours(qrels: Sequence[Qrel], run: Sequence[ScoredDoc], specs, *, subtopics: bool = False):
    if subtopics:
        qt = read_subtopic_qrels("".join(f"{x.query_id} {x.iteration} {x.doc_id} {x.relevance}\n"
                                         for x in qrels).encode(), name="qrels").table
    else:
        qt = read_qrels("".join(f"{x.query_id} 0 {x.doc_id} {x.relevance}\n" for x in qrels).encode()).table
    rt = read_run("".join(f"{x.query_id} Q0 {x.doc_id} 1 {x.score!r} r\n" for x in run).encode(), name="r").table
    frame = evaluate_runs(qt, [rt], specs).frame()
    return {spec: frame[frame.measure == spec] for spec in specs}


def theirs(qrels, run, spec):
    m = ir_measures.parse_measure(spec)
    per = {x.query_id: x.value for x in ir_measures.iter_calc([m], qrels, run)}
    return per, ir_measures.calc_aggregate([m], qrels, run)[m]


def provider_of(spec: str) -> str:
    """The provider ir_measures' default pipeline uses for a measure (the first that supports it)."""
    m = ir_measures.parse_measure(spec)
    for p in ir_measures.DefaultPipeline.providers:
        if p.supports(m) and p.is_available():
            return p.NAME
    raise AssertionError(f"no provider for {spec}")


def check(qrels, run, specs, *, subtopics=False, gdeval_digits=False):
    mine = ours(qrels, run, specs, subtopics=subtopics)
    for spec in specs:
        try:
            per, mean = theirs(qrels, run, spec)
        except ZeroDivisionError:  # Accuracy's provider divides by 0 when a query's top k are all relevant
            assert spec.startswith("Accuracy"), spec
            undefined = set(mine[spec][mine[spec].value.isna()].qid)
            assert undefined, spec  # here such a query is NaN (left out of the mean)
            rest = [x for x in qrels if x.query_id not in undefined]
            if rest:  # the other queries agree
                check(rest, [x for x in run if x.query_id not in undefined], [spec])
            continue
        frame = mine[spec]
        rows = frame[frame.qid != "all"]
        tol = 5e-6 + 1e-12 if gdeval_digits and provider_of(spec) == "gdeval" else 1e-9
        for r in rows.itertuples():
            if math.isnan(r.value) and r.qid not in per:  # Accuracy: undefined here, not reported there
                continue
            assert r.value == pytest.approx(per[r.qid], abs=tol, nan_ok=True), (spec, r.qid)
        for qid, value in per.items():  # the queries the run lacks: the default, 0
            if qid not in set(rows.qid):
                assert value == 0.0, (spec, qid)
        all_value = float(frame[frame.qid == "all"].value.iloc[0])
        assert all_value == pytest.approx(mean, abs=tol, nan_ok=True), spec


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_measure_matches_ir_measures_default_provider(seed):
    qrels, run = random_data(seed)
    check(qrels, run, SPECS, gdeval_digits=True)


@pytest.mark.parametrize("seed", [3, 4])
def test_diversity_measures_match_pyndeval_through_ir_measures(seed):
    qrels, run = random_data(seed, subtopics=4, grades=(0, 3))
    check(qrels, run, DIVERSITY, subtopics=True)


def test_diversity_judged_only_is_pyndeval_on_the_judged_documents():
    """ir_measures' pyndeval provider fails with judged_only=True (it indexes the run, a generator, by query:
    TypeError in 0.4.3); what it means to do -- keep the documents the qrels list, then evaluate -- is checked
    with pyndeval itself."""
    import pyndeval

    qrels, run = random_data(8, subtopics=3, grades=(0, 3))
    with pytest.raises(TypeError):
        ir_measures.calc_aggregate([ir_measures.parse_measure("P_IA(judged_only=True)@5")], qrels, run)
    judged = {(x.query_id, x.doc_id) for x in qrels}
    kept = [x for x in run if (x.query_id, x.doc_id) in judged]
    specs = {"P_IA(judged_only=True)@5": "P-IA@5", "alpha_nDCG(judged_only=True)@10": "alpha-nDCG@10",
             "AP_IA(judged_only=True)": "MAP-IA", "nERR_IA(rel=2,judged_only=True)@20": "nERR-IA@20"}
    mine = ours(qrels, run, list(specs), subtopics=True)
    for spec, name in specs.items():
        rel = 2 if "rel=2" in spec else 1
        ev = pyndeval.RelevanceEvaluator([pyndeval.SubtopicQrel(x.query_id, x.iteration, x.doc_id, x.relevance)
                                          for x in qrels], [name], relevance_level=rel)
        want = {q: v[name] for q, v in ev.evaluate(kept).items()}
        rows = mine[spec][mine[spec].qid != "all"]
        for r in rows.itertuples():
            assert r.value == pytest.approx(want.get(r.qid, 0.0), abs=1e-12), (spec, r.qid)


@PROPERTY
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 8))
def test_property_random_files(seed, n):
    """Hypothesis draws the files; a sample of measures from every provider."""
    qrels, run = random_data(seed, n_queries=n)
    check(qrels, run, ["nDCG@5", "P(rel=2)@3", "RR(rel=2)@5", "Judged@5", "Compat", "Accuracy@5", "RBP(rel=1)",
                       "INST(max_rel=4)", "NERR10(max_rel=4)", "BPM(max_rel=4)@5"])


@pytest.mark.parametrize("spec", SPECS + DIVERSITY)
def test_each_plan_names_the_provider_ir_measures_uses(spec):
    name = spec.split("(")[0].split("@")[0]
    args = {} if "(" not in spec else None
    assert parse_measures([spec])[0].params.provider == provider_of(spec)
    if args is not None:
        assert name in IR_MEASURES or name in ALIASES


def _precise_gdeval(tmp_path, qrels, run, k: int) -> dict:
    """gdeval.pl as ir_measures bundles it, with its printf widened from %.5f to %.17g."""
    script = pkgutil.get_data("ir_measures", "bin/gdeval.pl").decode().replace("%.5f,%.5f", "%.17g,%.17g")
    assert "%.17g,%.17g" in script
    (tmp_path / "gdeval.pl").write_text(script)
    (tmp_path / "qrels").write_text("".join(f"{x.query_id} 0 {x.doc_id} {x.relevance}\n" for x in qrels))
    (tmp_path / "run").write_text("".join(f"{x.query_id} Q0 {x.doc_id} {i} {x.score!r} run\n"
                                          for i, x in enumerate(run)))
    out = subprocess.run(["perl", str(tmp_path / "gdeval.pl"), str(tmp_path / "qrels"), str(tmp_path / "run"),
                          str(k)], capture_output=True, text=True, check=True).stdout
    rows = [line.split(",") for line in out.splitlines()[1:] if line]
    return {qid: (float(ndcg), float(err)) for _run, qid, ndcg, err in rows}


@pytest.mark.parametrize("seed", [5, 6])
def test_gdeval_to_seventeen_digits(tmp_path, seed):
    qrels, run = random_data(seed)
    for k in (1, 5, 20):
        exact = _precise_gdeval(tmp_path, qrels, run, k)
        mine = ours(qrels, run, [f"nDCG(dcg='exp-log2')@{k}", f"ERR@{k}"])
        for spec, col in ((f"nDCG(dcg='exp-log2')@{k}", 0), (f"ERR@{k}", 1)):
            rows = mine[spec][mine[spec].qid != "all"]
            got = {r.qid: r.value for r in rows.itertuples()}
            for qid, values in exact.items():
                assert got[qid] == pytest.approx(values[col], rel=1e-12, abs=1e-15), (spec, qid)
            for qid in set(got) - set(exact):  # gdeval prints nothing for a query without relevant documents
                assert got[qid] == 0.0


@pytest.mark.ranx
@pytest.mark.slow
def test_whole_list_exponential_ndcg_is_ranx():
    """nDCG(dcg='exp-log2') without a cutoff: ir_measures' only provider is ranx, whose provider fails under
    pandas 3 (ranx asserts object-dtype ids; ir_measures builds a string-dtype frame), so ranx's ndcg_burges
    is called as the provider calls it, with Qrels and Run from dicts."""
    from ranx import Qrels, Run, evaluate

    from tests.metrics.conftest import ranx_ids

    qrels, run = random_data(7)
    queries = {x.query_id for x in run} & {x.query_id for x in qrels}
    qrels = [x for x in qrels if x.query_id in queries]
    run = [x for x in run if x.query_id in queries]
    assert provider_of("nDCG(dcg='exp-log2')") == "ranx"
    qd, rd = {}, {}
    for x in qrels:
        qd.setdefault(x.query_id, {})[x.doc_id] = x.relevance
    for x in run:
        rd.setdefault(x.query_id, {})[x.doc_id] = x.score
    qd, rd = ranx_ids(qd, rd)
    r = Run(rd)
    evaluate(Qrels(qd), r, ["ndcg_burges"])
    mine = ours(qrels, run, ["nDCG(dcg='exp-log2')"])["nDCG(dcg='exp-log2')"]
    got = {x.qid: x.value for x in mine.itertuples() if x.qid != "all"}
    assert got == pytest.approx(dict(r.scores["ndcg_burges"]), abs=1e-12)


def test_names_print_as_written_beside_trec_eval_names():
    assert measure_names(["nDCG@10", "ndcg_cut.10", "P(rel=2)@5", "P.5", "alpha_nDCG(alpha=0.5)@20",
                          "nDCG(gain=exponential)@10"]) == [
        "P_5", "ndcg_cut_10", "nDCG@10", "P(rel=2)@5", "alpha_nDCG(alpha=0.5)@20",
        "nDCG(gain=exponential,discount=standard,idcg=judged,ties=trec_eval)@10"]
    # the same name twice is computed once
    assert measure_names(["P@5", "P@5", "R@10"]) == ["P@5", "R@10"]


@pytest.mark.parametrize("spec, message", [
    ("P@x", "expected a number at character 3"),
    ("P(rel=2.5)@5", "P's rel must be int, got 2.5"),
    ("P(rel=-1)@5", "P's rel must be >= 0, got -1"),
    ("P@0", "P's cutoff must be >= 1, got 0"),
    ("nDCG(dcg=foo)@5", "nDCG's dcg must be one of 'log2', 'exp-log2', got 'foo'"),
    ("P@5,10", "one value after @"),
    ("P(cutoff=5)@10", "cutoff is given twice"),
    ("P(rel=1,rel=2)@5", "rel is given twice"),
    ("P(color=1)@5", "P takes no parameter 'color'"),
    ("R", "R needs cutoff (write R@...)"),
    ("alpha_nDCG@30", "cutoff must be at most 20"),
    ("alpha_nDCG", "alpha_nDCG needs a cutoff"),
    ("RBP", "write RBP(rel=1)"),
    ("RR(judged_only=True)@10", "no provider for RR with a cutoff and judged_only=True"),
    ("nDCG(dcg='exp-log2',judged_only=True)@10", "no provider for nDCG(dcg='exp-log2')"),
    ("NumRel(rel=2)", "no provider for NumRel"),
    ("SDCG@10", "SDCG needs max_rel"),
    ("INST(min_rel=3,max_rel=3)", "min_rel must be below max_rel"),
    ("NERR10(p=1.5,max_rel=2)", "p must be between 0 and 1"),
    ("nDCG(gains={0:0.5})@10", "gains must map whole grades to whole gains"),
    ("NRBP(alpha=2.0)", "alpha must be between 0 and 1"),
    ("P(rel=2", "expected ',' or ')' at character 8"),
    ("Foo@3", "unknown measure 'Foo@3'"),
    ("SetRelP(relative=False)", "SetRelP is SetP with relative=True"),
    ("NumQ@5", "NumQ takes no @ value"),
])
def test_bad_names_are_refused_naming_the_spec_and_the_problem(spec, message):
    with pytest.raises(ValueError) as exc:
        parse_measures([spec])
    assert message in str(exc.value) and spec[:20] in str(exc.value)


def test_plans_and_their_conventions():
    # the provider's tie order and mean
    assert plan("Judged", {"cutoff": 10}).ties == ("docno",)
    assert plan("Accuracy", {}).summary == "defined_mean" and plan("NumQ", {}).summary == "sum"
    assert plan("RBP", {"rel": 1}).ties == ("stable",) and plan("Compat", {}).scores
    # IPrec@0.125: pytrec_eval reads the recall as trec_eval's text iprec_at_recall_0.12
    assert plan("IPrec", {"recall": 0.125}).provider == "pytrec_eval"


def test_no_query_answered_gives_nan_means_like_ir_measures():
    qrels = [Qrel("1", "a", 1)]
    run = [ScoredDoc("2", "a", 1.0)]
    mine = ours(qrels, run, ["P@5", "P.5"])
    assert mine["P_5"].empty if "P_5" in mine else True
    _per, mean = theirs(qrels, run, "P@5")
    assert mean == 0.0  # ir_measures counts the missing query as 0, and so do its names here
    assert mine["P@5"].value.tolist() == [0.0] and mine["P@5"].qid.tolist() == ["all"]


@PROPERTY
@given(seed=st.integers(0, 2**16), blocks=st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_property_blocks_of_queries_give_the_same_bits(seed, blocks):
    """A query's values depend on its own rows only (what Spark relies on): evaluate_block over any partition
    of the queries gives the single machine's per-query rows, bit for bit."""
    qrels, run = generate(seed, n_queries=10, max_ret=30, missing_every=4)
    names = ["nDCG@5", "P(rel=2)@3", "RR(rel=2)@5", "Judged@5", "Compat", "Accuracy@5", "RBP(rel=1)",
             "INST(max_rel=4)", "NERR10(max_rel=4)", "NERR8(max_rel=4)@5", "BPM(max_rel=4)@5", "SDCG(max_rel=4)@5",
             "INSQ(max_rel=4)", "ERR@5", "nDCG(dcg='exp-log2')@5", "nDCG(gains={0:0,1:2,2:5})@5"]
    qt, rt = tables(qrels, run)
    single = evaluate_runs(qt, [rt], names).per_query()
    qf, rf = frames(qrels, run)
    queries = sorted(set(qrels) | set(run))
    parts = []
    for b in sorted(set(blocks)):
        chosen = {q for q, x in zip(queries, blocks) if x == b}
        parts.append(evaluate_block(qf[qf.qid.isin(chosen)], rf[rf.qid.isin(chosen)], names))
    got = pd.concat(parts, ignore_index=True)
    pd.testing.assert_frame_equal(key(got), key(single), check_exact=True)
