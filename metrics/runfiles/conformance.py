"""The conformance table: every library's NDCG for the same files, per query and mean, side by side, and the
first setting that separates each library from trec_eval (issue 40, item 5).

Each library is a point of :data:`metrics.runfiles.match.MEAN_DIMENSIONS` (:data:`~metrics.runfiles.match.
RUN_LIBRARIES`); its values come from the same grid :func:`~metrics.runfiles.match.match_mean` searches (the
one run-file engine).  "First setting that separates": starting from trec_eval 9.0.8's settings, the
library's settings are taken one at a time in the order of the calculation (duplicate lines, grades, -M,
-J, ties, gain, level, IDCG items, zero-IDCG policy, queries averaged, printing); the first one that changes
a query's value (or which queries are averaged) on these files is the one named.  A setting the library
shares with trec_eval, or one that changes nothing here, is passed over.

Query 1 ranks b (grade 1) over a (grade 2): 0.8597.  Query 2 ties x and c: trec_eval puts x first (docno
descending), 1/log2 3 = 0.6309; scikit-learn averages the tie, (1 + 0.6309) / 2 = 0.8155.  Query 3 is not
in the run: ir_measures counts it 0.

>>> qrels = b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n3 0 d 1\\n"
>>> run = b"1 Q0 b 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 x 1 1 r\\n2 Q0 c 2 1 r\\n"
>>> t = conformance(qrels, run, "nDCG@10").means.set_index("library")
>>> [(k, round(float(t.loc[k, "mean"]), 4), t.loc[k, "separated_by"])
...  for k in ("trec_eval_9", "ir_measures", "sklearn")]
[('trec_eval_9', 0.7453, ''), ('ir_measures', 0.4969, 'queries'), ('sklearn', 0.8376, 'ties')]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..safe_csv import to_csv
from .match import MEAN_DIMENSIONS, REFUSALS, RUN_LIBRARIES, MeanGrid, mean_grid

__all__ = ["Conformance", "conformance", "separating_setting", "REFERENCE"]

#: The library every other one is compared with.
REFERENCE = "trec_eval_9"


def separating_setting(grid: MeanGrid, key: str, *, reference: str = REFERENCE) -> str | None:
    """The first setting (in :data:`~metrics.runfiles.match.MEAN_DIMENSIONS` order) whose change from the
    reference library's choice to ``key``'s changes a value on these files; None when none does.

    Parameters
    ----------
    grid : MeanGrid
        :func:`~metrics.runfiles.match.mean_grid` of the files.
    key : str
        A key of :data:`~metrics.runfiles.match.RUN_LIBRARIES`.
    reference : str, default "trec_eval_9"
        The library compared with.

    Returns
    -------
    str or None
        A dimension key, or None.

    Raises
    ------
    ValueError
        For an unknown library key.

    Examples
    --------
    scikit-learn averages ties (none here), then takes the IDCG from the run's documents: query 1's
    judged c (not retrieved) is left out of its ideal ranking.

    >>> g = mean_grid(b"1 0 a 1\\n1 0 c 1\\n", b"1 Q0 a 1 2 r\\n1 Q0 x 2 1 r\\n", "nDCG@10")
    >>> separating_setting(g, "sklearn"), separating_setting(g, "trec_eval_10")
    ('idcg', None)
    """
    for name in (key, reference):
        if name not in RUN_LIBRARIES:
            raise ValueError(f"library {name!r:.40} is not one of {', '.join(RUN_LIBRARIES)}")
    point = grid.canonical(RUN_LIBRARIES[reference].settings)
    target = grid.canonical(RUN_LIBRARIES[key].settings)
    here = grid.per_query(point)
    for d in MEAN_DIMENSIONS:
        if target[d] == point[d]:
            continue
        moved = {**point, d: target[d]}
        there = grid.per_query(moved)
        if not _same(here, there):
            return d
        point, here = moved, there
    return None


def _same(a: pd.Series, b: pd.Series) -> bool:
    if len(a) != len(b) or not a.index.equals(b.index):
        return False
    return bool(np.all(np.abs(a.to_numpy() - b.to_numpy()) <= 1e-12))


@dataclass
class Conformance:
    """Every library's values for one qrels, run and measure.

    ``per_query``: one row per query (the qrels queries sorted, then the run's others), column ``qid`` and
    one column per library that gives a number (NaN: the library does not count that query);
    ``means``: one row per library -- ``library``, ``name``, ``mean``, ``queries`` (how many it averages),
    ``difference`` (its mean minus trec_eval's), ``separated_by`` (the first setting that separates it from
    trec_eval, "" for none), ``trec_eval`` and ``theirs`` (that setting's two choices), ``call``, and
    ``refused`` (why the library gives no number, "" when it does).
    """

    measure: str
    per_query: pd.DataFrame
    means: pd.DataFrame

    def to_csv(self, which: str = "per_query") -> str:
        """``per_query`` or ``means`` as CSV that opens as data in a spreadsheet (:func:`metrics.safe_csv.to_csv`).

        >>> t = conformance(b"1 0 a 1\\n", b"1 Q0 =cmd() 1 2 r\\n1 Q0 a 2 1 r\\n", "nDCG@10")
        >>> t.to_csv("means").splitlines()[0].split(",")[:4]
        ['"library"', '"name"', '"mean"', '"queries"']
        """
        if which not in ("per_query", "means"):
            raise ValueError(f"which must be 'per_query' or 'means', got {which!r:.40}")
        return to_csv(getattr(self, which))


def conformance(qrels, run=None, measure: str | None = None, *, libraries=None) -> Conformance:
    """Every library's value of an NDCG measure for the same files, per query and mean.

    Parameters
    ----------
    qrels : MeanGrid, or qrels as for :func:`~metrics.runfiles.match.mean_grid`
        A grid already evaluated (then ``run`` and ``measure`` are not given), or the qrels.
    run : optional
        The run (with qrels given as files).
    measure : str, optional
        An NDCG measure (with qrels given as files): ``nDCG@10``, ``ndcg_cut.10``, ...
    libraries : sequence of str, optional
        Keys of :data:`~metrics.runfiles.match.RUN_LIBRARIES` (default: all), in the table's order.

    Returns
    -------
    Conformance
        ``per_query``, ``means``, ``to_csv()`` (the Run files page also exports Markdown, escaped by
        :mod:`ui.escape`).

    Raises
    ------
    ValueError
        For files that cannot be used, a measure that is not an NDCG, an unknown library, or a grid given
        with ``run`` or ``measure``.

    Examples
    --------
    Query 1: a at rank 1, the judged c missing: trec_eval's IDCG holds c, 1 / (1 + 1/log2 3) = 0.6131;
    scikit-learn's ideal is the run's own documents, a then x: 1.

    >>> t = conformance(b"1 0 a 1\\n1 0 c 1\\n", b"1 Q0 a 1 2 r\\n1 Q0 x 2 1 r\\n", "nDCG@10")
    >>> t.per_query[["qid", "trec_eval_9", "sklearn"]].round(4).values.tolist()
    [['1', 0.6131, 1.0]]
    """
    if isinstance(qrels, MeanGrid):
        if run is not None or measure is not None:
            raise ValueError("conformance: give a MeanGrid alone, or qrels, run and measure")
        grid, name = qrels, "nDCG" if qrels.k is None else f"nDCG@{qrels.k}"
    else:
        if run is None or measure is None:
            raise ValueError("conformance: give qrels, run and measure (or a MeanGrid)")
        grid, name = mean_grid(qrels, run, measure), str(measure)
    keys = list(libraries) if libraries is not None else list(RUN_LIBRARIES)
    for key in keys:
        if key not in RUN_LIBRARIES:
            raise ValueError(f"libraries: {key!r:.40} is not one of {', '.join(RUN_LIBRARIES)}")
    order = list(grid.queries) + list(grid.foreign)
    columns: dict[str, pd.Series] = {}
    reference_point = grid.canonical(RUN_LIBRARIES[REFERENCE].settings)
    reference_mean = grid.mean(reference_point)
    rows = []
    for key in keys:
        lib = RUN_LIBRARIES[key]
        refused = grid.refused.get(key)
        if refused is not None:
            why, detail = refused
            rows.append({"library": key, "name": lib.name, "mean": math.nan, "queries": 0, "difference": math.nan,
                         "separated_by": "", "trec_eval": "", "theirs": "", "call": lib.call,
                         "refused": REFUSALS[why].help + (f" ({detail})" if detail else "")})
            continue
        point = grid.canonical(lib.settings)
        values = grid.per_query(point)
        columns[key] = values.groupby(level=0).first()
        mean = grid.mean(point)
        d = separating_setting(grid, key)
        rows.append({"library": key, "name": lib.name, "mean": mean, "queries": int(len(values)),
                     "difference": mean - reference_mean, "separated_by": d or "",
                     "trec_eval": "" if d is None else str(reference_point[d]), "theirs": "" if d is None else
                     str(point[d]), "call": lib.call_at(grid.k),
                     "refused": ""})
    per_query = pd.DataFrame({"qid": pd.Series(order, dtype=object)})
    for key, series in columns.items():
        per_query[key] = per_query["qid"].map(series).astype(np.float64)
    means = pd.DataFrame(rows, columns=["library", "name", "mean", "queries", "difference", "separated_by",
                                        "trec_eval", "theirs", "call", "refused"])
    return Conformance(name, per_query, means)
