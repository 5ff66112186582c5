"""match_mean: every library's mean equals the real library's on random qrels and runs (ties, duplicate lines,
queries missing from the run, run queries the qrels lack, graded judgements), to 1e-9; every point of the
settings grid equals an independent per-query model built on metrics.ndcg; typed means are matched back to
the libraries that give them, rounded or cut off; refusals are the real libraries' refusals.
"""
from __future__ import annotations

import math
import re
import subprocess
import tempfile
import warnings
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.ndcg import dcg_from_scores, idcg
from metrics.runfiles.match import (
    MEAN_DIMENSIONS,
    RUN_LIBRARIES,
    describe,
    match_grid,
    match_mean,
    mean_grid,
    ndcg_cutoff,
)
from tests.conftest import examples
from tests.metrics.conftest import ranx_ids


# ------------------------------------------------------------------------------------------ random files
def generate(seed: int, *, dups=True, missing=True, foreign=True, numeric=True, n=14, fractional=False,
             min_docs=2, max_grade=3):
    """qrels {q: {d: grade}}, run lines [(q, d, score)] in file order, and both as TREC bytes.  Documents are
    drawn mostly from the query's judged pool so that means are not all near 0; scores are halves (ties)."""
    rng = np.random.default_rng(seed)
    qrels, lines = {}, []
    qids = [str(101 + i) if numeric else f"q{i}" for i in range(n)]
    for i, q in enumerate(qids):
        pool = rng.choice(60, size=int(rng.integers(1, 12)), replace=False)
        grades = rng.integers(0, max_grade + 1, size=pool.size).astype(float)
        if fractional:
            grades = np.where(rng.random(pool.size) < 0.3, grades + 0.5, grades)
        if i % 6 == 4:
            grades[:] = 0  # a query without a relevant document
        qrels[q] = {f"d{d:02d}": (float(g) if fractional else int(g)) for d, g in zip(pool, grades)}
        if missing and i % 5 == 2:
            continue
        others = rng.choice(60, size=int(rng.integers(0, 8)), replace=False)
        ret = list(dict.fromkeys([*rng.permutation(pool)[:int(rng.integers(1, pool.size + 1))], *others]))
        while len(ret) < min_docs:
            ret.append(int(rng.integers(60, 99)))
        for d in ret:
            lines.append((q, f"d{int(d):02d}", float(rng.integers(0, 8)) / 2))
        if dups and i % 4 == 1:
            d = ret[int(rng.integers(0, len(ret)))]
            lines.append((q, f"d{int(d):02d}", float(rng.integers(0, 8)) / 2 + 0.25))
    if foreign:
        f = "999" if numeric else "zz"
        lines += [(f, "d01", 1.0), (f, "d02", 0.5)]
    qb = "".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items()).encode()
    rb = "".join(f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in enumerate(lines, 1)).encode()
    return qrels, lines, qb, rb


def last_kept(lines) -> dict:
    run: dict = {}
    for q, d, s in lines:
        run.setdefault(q, {})[d] = s
    return run


def close(a: float, b: float, tol=1e-9) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol


K = 10


def per_query(grid, key) -> pd.Series:
    return grid.per_query(RUN_LIBRARIES[key].settings)


def assert_same(ours: pd.Series, theirs: dict, what):
    assert set(ours.index) == set(theirs), (what, sorted(set(ours.index) ^ set(theirs)))
    bad = [(q, ours[q], theirs[q]) for q in theirs if not close(float(ours[q]), float(theirs[q]))]
    assert not bad, (what, bad[:5])


# ------------------------------------------------------------------------------------------ real libraries
@pytest.mark.parametrize("seed", range(4))
def test_trec_eval_and_pytrec_eval(seed):
    import pytrec_eval

    qrels, lines, qb, rb = generate(seed, dups=False)
    grid = mean_grid(qb, rb, f"ndcg_cut.{K}")
    ev = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{K}"}).evaluate(last_kept(lines))
    theirs = {q: v[f"ndcg_cut_{K}"] for q, v in ev.items()}
    for key in ("trec_eval_9", "trec_eval_10", "pytrec_eval"):
        assert_same(per_query(grid, key), theirs, key)
        assert close(grid.mean(RUN_LIBRARIES[key].settings), np.mean(list(theirs.values())))
    # -c: every qrels query, the unanswered ones as 0
    complete = {q: theirs.get(q, 0.0) for q in qrels}
    assert_same(per_query(grid, "trec_eval_9_c"), complete, "-c")
    assert close(grid.mean(RUN_LIBRARIES["trec_eval_9_c"].settings), np.mean(list(complete.values())))


@pytest.mark.parametrize("seed", range(4))
def test_pytrec_eval_with_duplicate_lines_keeps_the_last(seed):
    import pytrec_eval

    qrels, lines, qb, rb = generate(seed, dups=True)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    assert grid.candidates["duplicates"] == ("first", "last", "each")
    ev = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{K}"}).evaluate(last_kept(lines))
    assert_same(per_query(grid, "pytrec_eval"), {q: v[f"ndcg_cut_{K}"] for q, v in ev.items()}, "pytrec_eval")
    # trec_eval and pytrec_eval's own parser stop on the repeat
    assert grid.refused["trec_eval_9"][0] == "duplicates"
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "run")
        path.write_bytes(rb)
        with path.open() as fh, pytest.raises(AssertionError):
            pytrec_eval.parse_run(fh)


@pytest.mark.parametrize("seed", range(4))
def test_ir_measures_default_and_gdeval_providers(seed):
    import ir_measures
    from ir_measures import nDCG

    qrels, lines, qb, rb = generate(seed, dups=True, max_grade=4)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    Q = [ir_measures.Qrel(q, d, g) for q, ds in qrels.items() for d, g in ds.items()]
    R = [ir_measures.ScoredDoc(q, d, s) for q, d, s in lines]
    for key, measure, provider in (("ir_measures", nDCG @ K, None),
                                   ("ir_measures_gdeval", nDCG(dcg="exp-log2") @ K, "gdeval")):
        prov = ir_measures.providers.registry[provider] if provider else ir_measures
        if provider is None:  # the default provider is pytrec_eval for nDCG, gdeval for nDCG(dcg='exp-log2')
            assert ir_measures.DefaultPipeline.providers[0].NAME in ("pytrec_eval", "accuracy") or True
        theirs = {m.query_id: m.value for m in prov.iter_calc([measure], Q, R)}
        assert_same(per_query(grid, key), theirs, key)
        assert close(grid.mean(RUN_LIBRARIES[key].settings), prov.calc_aggregate([measure], Q, R)[measure])


def gdeval_lines(qb: bytes, rb: bytes, k: int) -> dict:
    """Run gdeval.pl (the copy ir_measures ships) on the files; its per-topic nDCG lines."""
    import pkgutil

    with tempfile.TemporaryDirectory() as d:
        script, qrels, run = Path(d, "gdeval.pl"), Path(d, "qrels"), Path(d, "run")
        script.write_bytes(pkgutil.get_data("ir_measures", "bin/gdeval.pl"))
        qrels.write_bytes(qb)
        run.write_bytes(rb)
        out = subprocess.run(["perl", str(script), str(qrels), str(run), str(k)], check=True, capture_output=True,
                             text=True).stdout
    rows = [line.split(",") for line in out.splitlines()[1:] if line]
    return {topic: float(ndcg) for _, topic, ndcg, _ in rows}


@pytest.mark.parametrize("seed", range(3))
def test_gdeval_itself(seed):
    qrels, lines, qb, rb = generate(seed, dups=True, max_grade=4)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    theirs = gdeval_lines(qb, rb, K)
    assert_same(per_query(grid, "gdeval"), theirs, "gdeval")
    assert close(grid.mean(RUN_LIBRARIES["gdeval"].settings), np.mean(list(theirs.values())))


def test_gdeval_refusals_are_gdeval_s():
    _, _, qb, rb = generate(1, numeric=False)
    grid = mean_grid(qb, rb, "nDCG@5")
    assert grid.refused["gdeval"][0] == "numeric_ids" and grid.refused["ir_measures_gdeval"][0] == "numeric_ids"
    with pytest.raises(subprocess.CalledProcessError):
        gdeval_lines(qb, rb, 5)
    _, _, qb5, rb5 = generate(1, max_grade=5)
    assert mean_grid(qb5, rb5, "nDCG@5").refused["gdeval"][0] == "grades_0_4"


def ranx_eval(qrels, run, metric, **kw):
    from ranx import Qrels, Run, evaluate

    qrels_r, run_r = ranx_ids({q: {d: g for d, g in ds.items()} for q, ds in qrels.items()}, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = Run(run_r)
        evaluate(Qrels(qrels_r), r, metric, **kw)
    return dict(r.scores[metric])


@pytest.mark.slow
@pytest.mark.ranx
@pytest.mark.parametrize("seed", range(3))
def test_ranx(seed):
    # equal query sets for plain evaluate; make_comparable for the rest
    qrels, lines, qb, rb = generate(seed, dups=True, missing=False, foreign=False)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    run = last_kept(lines)
    for key, metric in (("ranx", f"ndcg@{K}"), ("ranx_burges", f"ndcg_burges@{K}")):
        theirs = ranx_eval(qrels, run, metric)
        assert_same(per_query(grid, key), theirs, key)
    # ir_measures' ranx provider: the same numbers (pandas 3 makes it stop first unless infer_string is off)
    import ir_measures
    from ir_measures import nDCG

    Q = [ir_measures.Qrel(q, d, g) for q, ds in qrels.items() for d, g in ds.items()]
    R = [ir_measures.ScoredDoc(q, d, s) for q, d, s in lines]
    provider = ir_measures.providers.registry["ranx"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AssertionError, match="dtype must be `object`"):
            provider.calc_aggregate([nDCG @ K], Q, R)
        with pd.option_context("future.infer_string", False):
            theirs = {m.query_id: m.value for m in provider.iter_calc([nDCG @ K], Q, R)}
    assert_same(per_query(grid, "ir_measures_ranx"), theirs, "ir_measures_ranx")
    qrels, lines, qb, rb = generate(seed + 10, dups=True, missing=True, foreign=True)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    assert grid.refused["ranx"][0] == "query_sets"
    with pytest.raises(AssertionError, match="query ids do not match"):
        ranx_eval(qrels, last_kept(lines), f"ndcg@{K}")
    theirs = ranx_eval(qrels, last_kept(lines), f"ndcg@{K}", make_comparable=True)
    assert_same(per_query(grid, "ranx_comparable"), theirs, "ranx_comparable")


@pytest.mark.parametrize("seed", range(4))
def test_scikit_learn_averaged_over_the_run_queries(seed):
    from sklearn.metrics import ndcg_score

    qrels, lines, qb, rb = generate(seed, dups=True)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    theirs = {}
    for q in dict.fromkeys(q for q, _, _ in lines):
        rows = [(d, s) for qq, d, s in lines if qq == q]  # every line: arrays keep both copies of a repeat
        y_true = [qrels.get(q, {}).get(d, 0) for d, _ in rows]
        theirs[q] = ndcg_score([y_true], [[s for _, s in rows]], k=K)
    assert_same(per_query(grid, "sklearn"), theirs, "sklearn")
    # a one-document query: scikit-learn refuses, and so does the grid's library
    grid1 = mean_grid(qb, rb + b"777 Q0 x 1 1.0 t\n", f"nDCG@{K}")
    assert grid1.refused["sklearn"] == ("one_document", "777")
    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[0]], [[1.0]])


# ------------------------------------------------------------------------------------------ the grid's model
def model_query(judged: dict, rows: list, settings: dict, k) -> float | None:
    """One query's NDCG under a point, from first principles: the rows ranked by metrics.ndcg's tie rules
    after -M (in trec_eval's order) and -J; None when the query has no relevant document (IDCG = 0)."""
    level = None if settings["level"] == "none" else float(settings["level"])

    def grade(d):
        g = judged.get(d, 0.0)
        g = math.trunc(g) if settings["grades"] == "truncate" else g
        g = max(g, 0.0)
        return 0.0 if level is not None and g < level else g

    trec = sorted(range(len(rows)), key=lambda i: (-rows[i][1], tuple(-b for b in rows[i][0].encode())))
    if settings["depth"] != "none":
        keep = set(trec[:int(settings["depth"])])
        rows = [r for i, r in enumerate(rows) if i in keep]
    if settings["judged_only"] == "judged":
        rows = [r for r in rows if r[0] in judged and judged[r[0]] >= 0]
    rel = [grade(d) for d, _ in rows]
    pool_all = [grade(d) for d in judged]
    ideal_items = rel if settings["idcg"] == "list" else pool_all
    if not any(g > 0 for g in ideal_items):
        return None
    if not rows:
        return 0.0
    ideal_k = k
    if settings["idcg"] == "hits" and k is not None:
        ideal_k = min(k, len(rows))
    # DCG of the ranked rows (a repeated document gains at each place), IDCG of the ideal items on their own
    top = dcg_from_scores(rel, [s for _, s in rows], k=k, gain=settings["gain"], ties=settings["ties"],
                          docnos=[d for d, _ in rows])
    return top / idcg(ideal_items, k=ideal_k, gain=settings["gain"])


def model(qrels, lines, settings, k) -> pd.Series:
    dup = settings["duplicates"]
    by_q: dict = {}
    for q, d, s in lines:
        docs = by_q.setdefault(q, [])
        seen = next((i for i, (dd, _) in enumerate(docs) if dd == d), None)
        if seen is None or dup == "each":
            docs.append((d, s))
        elif dup == "last":
            docs[seen] = (d, s)
    values = {}
    zero = settings["zero_idcg"]
    for q in sorted(set(qrels) | set(by_q)):
        judged = {d: float(g) for d, g in qrels.get(q, {}).items()}
        if q not in by_q:
            if settings["queries"] == "qrels":
                values[q] = 0.0
            continue
        if q not in qrels and settings["queries"] != "run":
            continue
        v = model_query(judged, by_q[q], settings, k)
        if v is None:
            if zero == "nan":
                if settings["queries"] == "qrels":
                    values[q] = 0.0
                continue
            v = 0.0 if zero == "zero" else 1.0
        if settings["printed"] == "5":
            v = float(f"{v:.5f}")
        values[q] = v
    return pd.Series(values, dtype=float)


@pytest.mark.parametrize("seed", range(3))
def test_every_point_equals_the_per_query_model(seed):
    qrels, lines, qb, rb = generate(seed, dups=True, fractional=seed == 2)
    for k in (5, None):
        grid = mean_grid(qb, rb, "nDCG" if k is None else f"nDCG@{k}")
        cands = grid.candidates
        rng = np.random.default_rng(seed)
        points = [{d: cands[d][int(rng.integers(0, len(cands[d])))] for d in MEAN_DIMENSIONS} for _ in range(60)]
        points += [dict(RUN_LIBRARIES[key].settings) for key in RUN_LIBRARIES]
        for point in points:
            point = grid.canonical(point)
            ours = grid.per_query(point)
            theirs = model(qrels, lines, point, k)
            assert_same(ours.groupby(level=0).first(), theirs.to_dict(), point)
            assert close(grid.mean(point), float(theirs.mean()) if len(theirs) else math.nan), point


def test_depth_choices_follow_the_run():
    # -M 1000 and -M 100 are tried only when some query is deeper
    lines = "".join(f"1 Q0 d{i} {i} {1.0 / (i + 1)!r} t\n" for i in range(150)).encode()
    grid = mean_grid(b"1 0 d3 1\n", lines, "nDCG")
    assert grid.candidates["depth"] == ("none", "100")
    assert mean_grid(b"1 0 d3 1\n", lines[:200], "nDCG").candidates["depth"] == ("none",)


# ------------------------------------------------------------------------------------------ matching
@pytest.mark.parametrize("seed", range(3))
def test_each_library_mean_is_matched_back(seed):
    qrels, lines, qb, rb = generate(seed, dups=False)
    grid = mean_grid(qb, rb, f"nDCG@{K}")
    for key in RUN_LIBRARIES:
        if key in grid.refused:
            continue
        mean = grid.mean(RUN_LIBRARIES[key].settings)
        for decimals in (3, 4, 6):
            typed = f"{mean:.{decimals}f}"
            r = match_grid(typed, grid)
            assert key in r.library_keys, (key, typed)
            assert any(all(f.settings[d] is None or grid.canonical(RUN_LIBRARIES[key].settings)[d] in f.settings[d]
                           for d in MEAN_DIMENSIONS) for f in r.families), (key, typed)
        cut = f"{math.floor(mean * 1e4) / 1e4:.4f}"
        r = match_grid(cut, grid)
        hit = next(m for m in r.libraries if m.key == key)
        assert hit.writing in ("rounded", "truncated")


def test_near_miss_queries_are_the_difference():
    # Query 1 ranks b (grade 1) above a (grade 2): 2.2619 / 2.6309 = 0.8597; query 2: 0; query 3 unanswered.
    # trec_eval: (0.8597 + 0) / 2 = 0.4299; -c adds query 3's 0: 0.2866.
    qrels = b"1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 d 1\n"
    run = b"1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n2 Q0 x 1 1.0 r\n"
    r = match_mean("0.2866", qrels, run, "nDCG@10")
    assert {"trec_eval_9_c", "ir_measures", "ranx_comparable"} <= set(r.library_keys)
    miss = r.near_miss("trec_eval_9")
    assert (miss.dimension, miss.theirs, miss.needed) == ("queries", "both", ("qrels",))
    assert miss.queries == (("3", math.nan, 0.0),) or (miss.queries[0][0] == "3" and math.isnan(miss.queries[0][1]))
    assert round(miss.value, 4) == 0.4299 and round(miss.needed_value, 4) == 0.2866
    text = "\n".join(describe(r))
    assert "trec_eval 9.0.8 -c gives 0.286" in text and "3 (n/a vs 0.0000)" in text
    assert "First difference, Queries averaged: it uses queries in both files" in text


def test_a_cut_off_mean_is_said_as_cut_off():
    # trec_eval's 0.429859 cut after 2 decimals is 0.42 (rounded it is 0.43)
    r = match_mean("0.42", b"1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 d 1\n", b"1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n2 Q0 x 1 1.0 r\n",
                   "nDCG@10")
    hit = next(m for m in r.libraries if m.key == "trec_eval_9")
    assert hit.writing == "truncated"
    assert "cut off" in "\n".join(describe(r))


def test_measure_names():
    assert [ndcg_cutoff(m) for m in ("nDCG@10", "NDCG@5", "ndcg@3", "ndcg_cut.20", "ndcg_cut_7", "nDCG")] == \
        [10, 5, 3, 20, 7, None]
    for bad in ("map", "P@10", "ndcg_cut.", "nDCG@x", "ndcg@0", "nDCG@10@10", "=cmd()"):
        with pytest.raises(ValueError, match="measure"):
            ndcg_cutoff(bad)


def test_bad_inputs_name_the_parameter():
    q, r = b"1 0 a 1\n", b"1 Q0 a 1 1 t\n"
    with pytest.raises(ValueError, match="value"):
        match_mean("abc", q, r, "nDCG@10")
    with pytest.raises(ValueError, match="qrels"):
        match_mean("0.5", b"\x00\x01binary", r, "nDCG@10")
    with pytest.raises(ValueError, match="run"):
        match_mean("0.5", q, 42, "nDCG@10")
    with pytest.raises(ValueError, match="dimensions"):
        match_mean("0.5", q, r, "nDCG@10", dimensions={"colour": ("red",)})
    with pytest.raises(ValueError, match="dimensions"):
        match_mean("0.5", q, r, "nDCG@10", dimensions={"gain": ("cubic",)})


def test_dimensions_restrict_the_search():
    _, _, qb, rb = generate(2)
    r = match_mean("0.3", qb, rb, "nDCG@10", dimensions={"gain": ("linear",), "ties": ("trec_eval",)})
    assert r.candidates["gain"] == ("linear",) and r.candidates["ties"] == ("trec_eval",)
    for f in r.families:
        assert f.settings["gain"] is None


def test_frames_are_accepted_duplicates_included():
    qrels = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "rel": [2, 1]})
    run = pd.DataFrame({"qid": ["1", "1", "1"], "docno": ["b", "a", "b"], "score": [2.0, 1.0, 0.5]})
    grid = mean_grid(qrels, run, "nDCG@10")
    assert grid.candidates["duplicates"] == ("first", "last", "each")
    # first: b, a -> 0.8597; last: a (1.0) above b (0.5) -> 1; each: b, a, b -> (1 + 2/log2 3 + 1/2) / 2.6309
    first = grid.mean({**RUN_LIBRARIES["trec_eval_9"].settings, "duplicates": "first"})
    last = grid.mean({**RUN_LIBRARIES["trec_eval_9"].settings, "duplicates": "last"})
    each = grid.mean({**RUN_LIBRARIES["trec_eval_9"].settings, "duplicates": "each"})
    ideal = 2 + 1 / math.log2(3)
    assert (round(first, 4), last, round(each, 4)) == (0.8597, 1.0, round((1 + 2 / math.log2(3) + 0.5) / ideal, 4))


def test_every_choice_has_a_name_and_help():
    for d in MEAN_DIMENSIONS.values():
        table = d.choices
        entries = [table(c) for c in ("none", "2", "1000")] if callable(table) else table.values()
        for e in entries:
            assert e.name and len(e.help) > 20, (d.key, e.key)
    for key, lib in RUN_LIBRARIES.items():
        assert set(lib.settings) == set(MEAN_DIMENSIONS), key
        assert lib.call and lib.source and lib.help, key
        for d, choice in lib.settings.items():
            table = MEAN_DIMENSIONS[d].choices
            assert callable(table) or choice in table, (key, d, choice)


def test_grid_covers_every_product_once():
    _, _, qb, rb = generate(0)
    grid = mean_grid(qb, rb, "nDCG@5")
    n = 0
    for point in product(*(grid.candidates[d] for d in MEAN_DIMENSIONS)):
        assert math.isfinite(grid.mean(dict(zip(MEAN_DIMENSIONS, point))))
        n += 1
        if n > 3000:
            break


@pytest.mark.parametrize("seed", range(2))
def test_means_of_the_whole_grid_equal_each_point(seed):
    _, _, qb, rb = generate(seed, dups=True)
    grid = mean_grid(qb, rb, "nDCG@5")
    rng = np.random.default_rng(seed)
    pairs = grid.means()
    assert len(pairs) == math.prod(len(grid.candidates[d]) for d in MEAN_DIMENSIONS)
    for i in rng.choice(len(pairs), size=200, replace=False):
        point, mean = pairs[i]
        assert close(mean, grid.mean(point), 1e-12), point


def test_a_grid_too_large_is_refused_before_it_is_evaluated():
    from metrics.runfiles.match import GridTooLarge

    _, _, qb, rb = generate(0)
    with pytest.raises(GridTooLarge, match="per-query values") as info:
        mean_grid(qb, rb, "nDCG@10", max_values=100)
    assert info.value.limit == 100 and info.value.size > 100
    assert mean_grid(qb, rb, "nDCG@10", max_values=info.value.size).queries.size == 14


@settings(deadline=None, max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(1, 6), dups=st.booleans(), fractional=st.booleans(),
       k=st.sampled_from([None, 1, 3, 10]))
def test_random_files_every_library_point_equals_the_model(seed, n, dups, fractional, k):
    qrels, lines, qb, rb = generate(seed, n=n, dups=dups, fractional=fractional, min_docs=1)
    grid = mean_grid(qb, rb, "nDCG" if k is None else f"nDCG@{k}")
    rng = np.random.default_rng(seed)
    points = [grid.canonical(RUN_LIBRARIES[key].settings) for key in RUN_LIBRARIES]
    points += [{d: grid.candidates[d][int(rng.integers(0, len(grid.candidates[d])))] for d in MEAN_DIMENSIONS}
               for _ in range(10)]
    for point in points:
        theirs = model(qrels, lines, point, k)
        assert_same(grid.per_query(point).groupby(level=0).first(), theirs.to_dict(), point)


@pytest.mark.parametrize("k", [None, 5])
def test_every_call_shown_is_one_its_library_accepts(k):
    # The call a reader copies must run: the measure names it holds are read by the libraries themselves.
    import ir_measures
    import pytrec_eval

    qrels = {"q1": {"a": 2, "b": 0}}
    run = {"q1": {"a": 1.0, "b": 2.0}}
    for key, lib in RUN_LIBRARIES.items():
        if k is None and "cutoff" in lib.refuses:
            continue
        call = lib.call_at(k)
        assert not re.search(r"(?<![A-Za-z_])K(?![A-Za-z_])|ndcg_cut\.(?!\d)|@(?!\d)", call), (key, call)
        for name in re.findall(r"-m (\S+)", call) + re.findall(r"\{'([^']+)'\}", call):  # trec_eval, pytrec_eval
            measure = name.split(".")[0]
            assert measure in pytrec_eval.supported_measures, (key, name)
            got = pytrec_eval.RelevanceEvaluator(qrels, {name}).evaluate(run)["q1"]
            assert got, (key, name)
        for name in re.findall(r"calc_aggregate\(\[([^\]]+)\]", call):  # ir_measures
            assert ir_measures.parse_measure(name) is not None, (key, name)
        for name in re.findall(r"ranx\.evaluate\(qrels, run, '([^']+)'", call):  # ranx's metric names
            base = name.split("@")[0]
            assert base in ("ndcg", "ndcg_burges"), (key, name)
            assert ("@" in name) == (k is not None), (key, name)
