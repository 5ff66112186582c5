"""The one run-file engine: one qrels index, one ranker, one tie rule, one measure table.

Every number of :mod:`metrics.runfiles` comes from here: trec_eval's measures
(:func:`metrics.runfiles.trec.evaluate_runs`), the NDCG variants (:func:`metrics.runfiles.batch.evaluate`,
which asks for ``nDCG(gain=...,discount=...,idcg=...,ties=...)@k`` measures of the same table), the
command line, the Run files page and the benchmarks.

* :class:`QrelsIndex` -- the qrels once: queries in trec_eval's order (query ids sorted byte by byte),
  the grades as given (the NDCG variants use them, fractions kept) and as trec_eval reads them (whole
  numbers, ``atol``), the judged grades per query (ideal rankings), the counts ``-c`` needs.
* :func:`rank` -- the ranker: a run's rows matched to the qrels and ranked as trec_eval ranks them
  (score descending, then document id descending, byte order: ``form_res_rels.c``), ``-M`` and ``-J``
  applied, then handed to the measures as :class:`metrics.runfiles.measures.Lists`.  Other tie rules
  (:data:`metrics.registry.TIES`: average, optimistic, pessimistic, stable = file order, ranx) re-order
  only the groups of equal scores inside that list (:class:`TieOrder`).
* :data:`metrics.runfiles.measures.MEASURES` -- the measure table: every trec_eval 9 measure, the extras
  and ``nDCG`` with its parameters.

Blocks of queries
-----------------
Every measure of a query depends on that query's rows only, so the work can be split by query.
:func:`evaluate_block` takes a block of complete queries -- every qrels row and every run row of each
query in it, as pandas DataFrames -- and returns their per-query rows.  For any partition of the data
into blocks, the concatenated rows equal the single-machine rows (:meth:`MeasureResult.per_query
<metrics.runfiles.trec.MeasureResult.per_query>`) restricted to those queries, value for value
(tested: split every way, bit for bit).  The summary ("all" rows) comes from the per-query rows of all
blocks with :func:`summarize`, given :func:`qrels_counts` summed over the blocks for ``complete``
(trec_eval ``-c``).  For Spark: ``cogroup(qrels by qid, runs by qid).applyInPandas(evaluate_block)``,
then one :func:`summarize` over the collected rows (a few rows per query and measure)::

    rows = evaluate_block(qrels_block, run_block, ["map", "P.10", "nDCG@10"])
    counts = qrels_counts(qrels_block)                   # add up the blocks' counts: counts_a + counts_b
    summary = summarize(all_rows, ["map", "P.10", "nDCG@10"], complete=True, counts=total_counts)

Three inputs are whole-data facts a block cannot know, so a block is given them: ERR's top grade
(``err_gmax``; :func:`evaluate_block` refuses ``err`` without it), the query count and relevant count
of ``-c`` (``counts``), and the order of the run's lines for the tie rules that keep file order
(``stable``, ``ranx``: give a ``line`` column; rows are sorted by it, else taken in the frame's order).

>>> import pandas as pd
>>> qrels = pd.DataFrame({"qid": ["q1", "q1", "q2"], "docno": ["a", "b", "a"], "rel": [2, 1, 1]})
>>> run = pd.DataFrame({"run": "bm25", "qid": ["q1", "q1", "q2"], "docno": ["b", "a", "x"],
...                     "score": [2.0, 1.0, 3.0]})
>>> rows = evaluate_block(qrels, run, ["map", "nDCG@2"])
>>> rows[["measure", "qid", "value"]].round(4).values.tolist()  # doctest: +NORMALIZE_WHITESPACE
[['map', 'q1', 1.0], ['map', 'q2', 0.0], ['nDCG@2', 'q1', 0.8597], ['nDCG@2', 'q2', 0.0]]

q1's two documents are both relevant (grades >= 1), so its average precision is 1 whatever their order;
NDCG sees that the run puts b (grade 1) before a (grade 2): (1 + 2/log2(3)) / (2 + 1/log2(3)) = 0.8597.
q2's only document x is not judged: 0 for both.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._numbers import safe_divide
from ..ndcg import numba_quicksort_argsort
from .join import match_rows
from .measures import (
    MIN_GEO_MEAN,
    UNJUDGED,
    JudgedGrades,
    Lists,
    Requested,
    block_positions,
    parse_measures,
)
from .options import check_options
from .read import Problem, Table, id_strings

__all__ = [
    "QrelsCounts",
    "QrelsIndex",
    "Ranked",
    "RunValues",
    "TieOrder",
    "evaluate_block",
    "evaluate_tables",
    "qrels_counts",
    "rank",
    "summarize",
    "summary_value",
    "table_from_frame",
    "trec_order",
]


# ------------------------------------------------------------------------------------------ the qrels
@dataclass(frozen=True)
class QrelsCounts:
    """What ``-c`` needs from the whole qrels: its queries and its lines with a grade > 0.

    trec_eval 9.0.8 with ``-c``: ``num_q`` is the number of qrels queries (``m_num_q.c``) and ``num_rel``
    the number of qrels lines whose grade, read as a whole number, is > 0, over every qrels query
    (``m_num_rel.c``, ``te_calc_avg_num_rel``; whatever ``-l``, ``-J`` or ``-M``).  Counts of disjoint
    blocks of queries add up: ``a + b``.

    Examples
    --------
    >>> QrelsCounts(2, 5) + QrelsCounts(1, 0)
    QrelsCounts(num_q=3, num_rel=5)
    """

    num_q: int
    num_rel: int

    def __add__(self, other: QrelsCounts) -> QrelsCounts:
        return QrelsCounts(self.num_q + other.num_q, self.num_rel + other.num_rel)


class QrelsIndex:
    """The qrels as every measure reads them; built once per qrels table and shared by all runs.

    ``queries`` are the qrels query ids sorted byte by byte (trec_eval's order, also the output's);
    ``rank[code]`` is the sorted position of a qrels dictionary code; ``q`` the sorted query of each
    row; ``grade`` each row's grade as given.  trec_eval's whole-number view (``whole``, ``levels``,
    ``gmax``) and the judged grades of the NDCG variants (``judged``) are computed when first used.

    Parameters
    ----------
    qrels : Table
        ``read_qrels(...).table``.

    Examples
    --------
    >>> from metrics.runfiles.read import read_qrels
    >>> qi = QrelsIndex(read_qrels(b"q2 0 a 1\\nq1 0 b 2.5\\nq1 0 c 0\\n").table)
    >>> qi.queries.tolist(), qi.q.tolist(), qi.whole.tolist(), qi.counts()
    (['q1', 'q2'], [1, 0, 0], [1, 2, 0], QrelsCounts(num_q=2, num_rel=2))
    """

    def __init__(self, qrels: Table):
        if not isinstance(qrels, Table) or qrels.kind != "qrels":
            raise ValueError("qrels must be the table of a qrels file (read_qrels(...).table)")
        self.table = qrels
        names = qrels.qid.dictionary
        sort = pc.array_sort_indices(names).to_numpy()
        self.rank = np.empty(len(names), dtype=np.int64)
        self.rank[sort] = np.arange(len(names))
        self.queries = np.asarray(names.take(pa.array(sort)).to_pylist(), dtype=object)
        self.n = len(names)
        self.q = self.rank[qrels.qid.indices.to_numpy().astype(np.int64)]
        self.grade = np.asarray(qrels.value, dtype=np.float64)
        #: The subtopic judgments of each line, for diversity qrels (``qid subtopic docno rel``), else None.
        self.subtopics = getattr(qrels, "subtopics", None)

    @cached_property
    def row_plus1(self) -> np.ndarray:
        """Each row's index + 1 (what the join hands back: 0 means "not in the qrels")."""
        return np.arange(1, self.table.n_rows + 1, dtype=np.float64)

    @cached_property
    def positive_row_plus1(self) -> np.ndarray:
        """:attr:`row_plus1` for the rows graded > 0, 0 for the others: all the NDCG variants need from the
        join (a document graded 0 or less counts as one the qrels do not list), and fewer rows to look up."""
        return np.where(self.grade > 0, self.row_plus1, 0.0)

    @cached_property
    def _trunc(self) -> np.ndarray:
        return np.trunc(self.grade)

    def check_whole(self) -> None:
        """Raise when a grade is beyond trec_eval's whole numbers (its measures cannot read it)."""
        big = np.abs(self._trunc) > 2.0**62
        if big.any():
            i = int(np.flatnonzero(big)[0])
            raise ValueError(f"{self.table.name} line {self.table.line_of(i)}: grade {self.grade[i]:g} is beyond "
                             "trec_eval's whole-number range")

    @cached_property
    def whole(self) -> np.ndarray:
        """Grades as trec_eval reads them (``atol``: the fraction cut), as int64 (clipped to +-2^62)."""
        return np.clip(self._trunc, -(2.0**62), 2.0**62).astype(np.int64)

    def problems(self) -> list[Problem]:
        """trec_eval's reading of the grades, said: fractional grades count as their whole part."""
        fractional = np.flatnonzero(self._trunc != self.grade)
        if not fractional.size:
            return []
        i = int(fractional[0])
        return [Problem(self.table.name, self.table.line_of(i), "whole_grades",
                        {"count": int(fractional.size), "grade": float(self.grade[i]), "whole": f"{self._trunc[i]:g}"})]

    @cached_property
    def code(self) -> np.ndarray:
        """Each row's trec_eval code: its whole grade, :data:`UNJUDGED` for a negative one."""
        return np.where(self.whole >= 0, self.whole, UNJUDGED)

    @cached_property
    def levels(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, whole grade, count) for every grade >= 0 present in a query (trec_eval's judged levels)."""
        judged = self.whole >= 0
        if not judged.any():
            return (np.zeros(0, np.int64),) * 3
        gmax = int(self.whole[judged].max())
        width = gmax + 1
        q, g = self.q[judged], self.whole[judged]
        if self.n * width <= 4 * self.table.n_rows + 1_000_000:  # counted without sorting
            counts = np.bincount(q * width + g, minlength=self.n * width)
            key = np.flatnonzero(counts)
            counts = counts[key]
        else:
            key, counts = np.unique(q * width + g, return_counts=True)
        return key // width, key % width, counts.astype(np.int64)

    @cached_property
    def gmax(self) -> float:
        """The highest whole grade >= 0 (ERR's default scale top)."""
        judged = self.whole >= 0
        return float(self.whole[judged].max()) if judged.any() else 0.0

    @cached_property
    def judged(self) -> JudgedGrades:
        """Every grade of each query as given (the variants' ideal ranking from all judged documents)."""
        return JudgedGrades(self.q, self.grade)

    def counts(self) -> QrelsCounts:
        """The qrels queries and the lines with a whole grade > 0 (what ``-c`` counts)."""
        return QrelsCounts(self.n, int(np.count_nonzero(self.whole > 0)))


def qrels_counts(qrels) -> QrelsCounts:
    """:class:`QrelsCounts` of a qrels table or frame (a block's; add the blocks' counts up).

    Parameters
    ----------
    qrels : Table or pandas.DataFrame
        A qrels table, or a frame with columns ``qid``, ``docno``, ``rel`` (:func:`table_from_frame`).

    Returns
    -------
    QrelsCounts

    Raises
    ------
    ValueError
        If the frame lacks a column or holds a grade that is not a finite number.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels_counts(pd.DataFrame({"qid": ["1", "1", "2"], "docno": ["a", "b", "a"], "rel": [1, 0, 2.5]}))
    QrelsCounts(num_q=2, num_rel=2)
    """
    table = qrels if isinstance(qrels, Table) else table_from_frame(qrels, "qrels")
    return QrelsIndex(table).counts()


# ------------------------------------------------------------------------------------------ the ranker
def trec_order(q: np.ndarray, score: np.ndarray, docrank) -> np.ndarray | None:
    """The permutation that ranks rows as trec_eval does: by query, score descending, then document
    id descending (``comp_sim_docno`` in ``form_res_rels.c``); None when the rows already are.

    Queries need not be in order, only contiguous.  ``docrank(rows)`` gives the byte-order rank of the
    document ids of the given rows (only tied rows are asked); ``None`` keeps tied rows in input order.

    Parameters
    ----------
    q : numpy.ndarray of int
        The query code of each row.
    score : numpy.ndarray of float
        The score of each row.
    docrank : callable or None
        ``docrank(rows) -> int array``: the byte-order rank of those rows' document ids; only called
        when there are ties.

    Returns
    -------
    numpy.ndarray of int or None
        Row indices in trec_eval's order, or None when the rows are already in it.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``form_res_rels.c``, ``comp_sim_docno``.

    Examples
    --------
    Query 0's rows are swapped (0.9 before 0.5); query 1 stays:

    >>> trec_order(np.array([0, 0, 1]), np.array([0.5, 0.9, 0.1]), None).tolist()
    [1, 0, 2]
    >>> trec_order(np.array([0, 0]), np.array([0.5, 0.5]), lambda rows: np.array([0, 1])).tolist()  # "a", "b"
    [1, 0]
    """
    n = q.size
    if n == 0:
        return None
    brk = q[1:] != q[:-1]
    blocks = int(brk.sum()) + 1
    order = None
    counts = np.bincount(q)
    distinct = int(np.count_nonzero(counts))
    if blocks != distinct or not bool(np.all((score[1:] <= score[:-1]) | brk)):
        order = _grouped_order(q, score, brk) if blocks == distinct else None
        if order is None:
            # stable: ties keep input order; query codes below 2^16 as uint16, which numpy's stable sort orders
            # by radix (the same permutation; 0.089 -> 0.051 s for 500,000 rows of 5,000 queries, a Spark bucket)
            order = np.lexsort((-score, q.astype(np.uint16) if counts.size <= 1 << 16 else q))
        q, score = q[order], score[order]
        brk = q[1:] != q[:-1]
    if docrank is None:
        return order
    tied = ~brk & (score[1:] == score[:-1])
    if not tied.any():
        return order
    group = np.cumsum(np.r_[True, ~tied]) - 1
    size = np.bincount(group)
    rows = np.flatnonzero(size[group] > 1)
    src = rows if order is None else order[rows]
    perm = np.lexsort((-docrank(src), group[rows]))
    if order is None:
        order = np.arange(n)
    order[rows] = src[perm]
    return order


def _grouped_order(q: np.ndarray, score: np.ndarray, brk: np.ndarray) -> np.ndarray | None:
    """``np.lexsort((-score, q))`` when each query's rows are contiguous (a file read a query at a time, a Spark
    bucket), computed as one short sort per query: the queries as rows of a matrix padded with NaN (sorted
    last, and after every real NaN: the sort is stable), sorted along the rows, the rows put in query order.
    The same permutation (both sorts are stable on the same keys); None when the padding would more than
    double the rows (a few long queries among many short ones: one lexsort is cheaper)."""
    n = q.size
    starts = np.flatnonzero(np.r_[True, brk])
    lengths = np.diff(np.r_[starts, n])
    width = int(lengths.max())
    if starts.size * width > 2 * n + 1024:
        return None
    within = np.arange(n) - np.repeat(starts, lengths)
    keys = np.full((starts.size, width), np.nan)
    keys[np.repeat(np.arange(starts.size), lengths), within] = -score
    by_query = np.argsort(q[starts], kind="stable")
    place = keys.argsort(axis=1, kind="stable")[by_query]
    rows = place + starts[by_query][:, None]
    return rows[place < lengths[by_query][:, None]]


class TieOrder:
    """The tie rules of :data:`metrics.registry.TIES` on one ranked list: which rows tie and where each
    rule puts them.  Built by the ranker from the whole list (documents outside the qrels too: they
    take places in tie groups); ``positions`` and ``groups`` answer for the rows handed to the measures.
    Nothing is computed until a rule is asked for, and a list without tied scores costs one comparison.

    Parameters
    ----------
    q, score : numpy.ndarray
        Query and score of every row of the list, in trec_eval's order.
    file_row : numpy.ndarray of int or None
        Each row's place in the input (the file's line order: "stable" and "ranx" follow it); None: the
        rows are in file order.
    grade : callable or numpy.ndarray of float
        Each row's grade (0 outside the qrels; the optimistic and pessimistic rules sort by it), or a
        function giving the grades of the rows asked for.
    rows : numpy.ndarray of int
        The rows the measures see (indices into the list).
    row_pos : numpy.ndarray of int, optional
        Their 1-based ranks in the list (computed when not given).

    Examples
    --------
    Three tied documents, grades 0, 2, 1, given in that order; trec_eval's order (docno descending)
    put them as rows 0, 1, 2:

    >>> t = TieOrder(np.zeros(3, np.int64), np.ones(3), np.array([0, 1, 2]), np.array([0.0, 2.0, 1.0]),
    ...              np.arange(3))
    >>> t.positions("optimistic").tolist(), t.positions("pessimistic").tolist(), t.groups()[1].tolist()
    ([3, 1, 2], [1, 3, 2], [3, 3, 3])
    """

    def __init__(self, q, score, file_row, grade, rows, row_pos=None):
        self._q, self._score, self._file, self._grade = q, score, file_row, grade
        self._rows = rows
        self._row_pos = row_pos
        self._cache: dict = {}

    @cached_property
    def _pos(self) -> np.ndarray:
        return block_positions(self._q)

    @cached_property
    def _groups(self):
        q, s = self._q, self._score
        tied = (q[1:] == q[:-1]) & (s[1:] == s[:-1]) if q.size else np.zeros(0, bool)
        if not tied.any():
            return None
        new = np.r_[True, ~tied]
        gid = np.cumsum(new) - 1
        size = np.bincount(gid)
        start = self._pos[np.flatnonzero(new)][gid]
        return gid, start, start + size[gid] - 1, np.flatnonzero(size[gid] > 1)

    def _plain(self) -> np.ndarray:
        """The rows' ranks in the list (every rule's, when nothing ties)."""
        if self._row_pos is None:
            self._row_pos = self._pos[self._rows]
        return self._row_pos

    def groups(self) -> tuple[np.ndarray, np.ndarray]:
        """The first and last 1-based rank of each row's group of equal scores."""
        g = self._groups
        if g is None:
            return self._plain(), self._plain()
        return g[1][self._rows], g[2][self._rows]

    def positions(self, rule: str) -> np.ndarray:
        """Each row's 1-based rank with ties ordered by ``rule``."""
        if self._groups is None or rule == "trec_eval":
            return self._plain()
        if rule not in self._cache:
            self._cache[rule] = self._positions(rule)[self._rows]
        return self._cache[rule]

    def _positions(self, rule: str) -> np.ndarray:
        gid, _, _, tie_rows = self._groups
        if rule == "ranx":
            return self._ranx(tie_rows)
        f = tie_rows if self._file is None else self._file[tie_rows]
        if rule in ("optimistic", "pessimistic"):
            grade = self._grade(tie_rows) if callable(self._grade) else self._grade[tie_rows]
            grade = np.where(grade > 0, grade, 0.0)
        if rule in ("stable", "average"):
            perm = np.lexsort((f, gid[tie_rows]))
        elif rule == "optimistic":
            perm = np.lexsort((f, -grade, gid[tie_rows]))
        elif rule == "pessimistic":
            perm = np.lexsort((f, grade, gid[tie_rows]))
        else:
            raise ValueError(f"unknown tie rule {rule!r}")
        out = self._pos.copy()
        out[tie_rows[perm]] = self._pos[tie_rows]
        return out

    def _ranx(self, tie_rows) -> np.ndarray:
        """ranx's order: numba's quicksort of the query's documents in file order, for queries with a tie."""
        q = self._q
        out = self._pos.copy()
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
        ends = np.r_[starts[1:], q.size]
        for b in np.unique(np.searchsorted(starts, tie_rows, side="right") - 1):
            rows = np.arange(starts[b], ends[b])
            in_file = rows if self._file is None else rows[np.argsort(self._file[rows], kind="stable")]
            out[in_file[numba_quicksort_argsort(-self._score[in_file])]] = np.arange(1, rows.size + 1)
        return out


@dataclass
class Ranked:
    """One run ranked against the qrels: the measures' input and what the report needs."""

    lists: Lists
    present: np.ndarray  # bool[n queries]: the run has at least one document for the query
    foreign: np.ndarray | None = None  # run rows of queries the qrels lack (for the report)


def _docrank(run: Table, kept: np.ndarray | None):
    def docrank(rows: np.ndarray) -> np.ndarray:
        """Rank (0-based, equal ids equal) of the document ids of the given rows, in byte order."""
        names = id_strings(run.docno.take(pa.array(rows if kept is None else kept[rows])))
        return pc.rank(names, sort_keys="ascending", tiebreaker="dense").to_numpy().astype(np.int64) - 1

    return docrank


def rank(qi: QrelsIndex, run: Table, *, relevance_level: int = 1, max_docs: int | None = None,
         judged_only: bool = False, num_docs_in_coll: int = 0, gmax: float | None = None,
         ties: Sequence[str] = (), graded_only: bool = False, scores: bool = False) -> Ranked:
    """The ranker: a run's documents matched to the qrels and ranked as trec_eval ranks them.

    Parameters
    ----------
    qi : QrelsIndex
        The qrels.
    run : Table
        ``read_run(...).table``.
    relevance_level, num_docs_in_coll, gmax
        trec_eval's ``-l`` and ``-N``, ERR's top grade (default: the qrels').
    max_docs : int, optional
        ``-M``: keep the first N documents of each query (in trec_eval's order).
    judged_only : bool, default False
        ``-J``: then drop the documents the qrels do not judge (grade >= 0).
    ties : sequence of str
        The tie rules the NDCG variants will ask for besides trec_eval's (keys of
        :data:`metrics.registry.TIES`); none: no tie information is kept.
    graded_only : bool, default False
        Look up only the qrels documents graded > 0 (enough for the NDCG variants, not for trec_eval's
        measures, which tell a document judged 0 from one outside the qrels).
    scores : bool, default False
        Keep each listed document's score (ir_measures' Compat orders its ideal ranking by it).

    Returns
    -------
    Ranked
        ``lists`` (:class:`metrics.runfiles.measures.Lists`, the documents the qrels list, in rank
        order), ``present`` (queries the run answered) and ``foreign`` (run rows of queries the qrels
        lack, for the report).

    Examples
    --------
    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qi = QrelsIndex(read_qrels(b"q1 0 a 2\\nq1 0 b 0\\n").table)
    >>> r = rank(qi, read_run(b"q1 Q0 x 1 3 r\\nq1 Q0 a 2 2 r\\nq1 Q0 b 3 2 r\\n").table)
    >>> r.lists.pos.tolist(), r.lists.code.tolist(), r.lists.num_ret.tolist()  # a, b tie: b (docno desc) first
    ([2, 3], [0, 2], [3])
    """
    m = match_rows(qi.table, run, values=qi.positive_row_plus1 if graded_only else qi.row_plus1)
    q = qi.rank[m.q]
    score = run.value if m.kept is None else run.value[m.kept]
    row = m.value  # the qrels row + 1 of each run row (float), 0 outside the qrels
    kept, foreign = m.kept, m.foreign
    del m  # the join's arrays are not needed any more (a run of 10^7 lines: 160 MB)
    order = trec_order(q, score, _docrank(run, kept))
    if order is not None:
        q, row = q[order], row[order]
    ties = [t for t in dict.fromkeys(ties) if t != "trec_eval"]
    ordered = None  # the scores in rank order, when the tie rules or a measure need them
    if ties or scores:
        ordered = score if order is None else score[order]
    lists, present = _lists(qi, q, row, relevance_level=relevance_level, max_docs=max_docs, judged_only=judged_only,
                            num_docs_in_coll=num_docs_in_coll, gmax=gmax,
                            tie_input=(ordered, order) if ties else None, score=ordered if scores else None)
    return Ranked(lists, present, foreign)


def _lists(qi: QrelsIndex, q, row, *, relevance_level, max_docs, judged_only, num_docs_in_coll, gmax,
           tie_input, score=None) -> tuple[Lists, np.ndarray]:
    """Lists from ranked rows (query, qrels row + 1 or 0), keeping only the documents the qrels list."""
    nq = qi.n
    n = q.size
    bstart = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]) if n else np.zeros(0, np.int64)
    bq = q[bstart]
    num_ret = np.zeros(nq, dtype=np.int64)
    num_ret[bq] = np.diff(np.r_[bstart, n])
    present = num_ret > 0
    rows = np.flatnonzero(row != 0)  # documents in the qrels; the others only count in num_ret (and ties)
    qrow = row[rows].astype(np.int64) - 1
    code = qi.code[qrow]
    block = np.searchsorted(bstart, rows, side="right") - 1
    rq, pos = bq[block], rows - bstart[block] + 1
    keep = None
    if max_docs is not None:
        keep = pos <= max_docs
        num_ret = np.minimum(num_ret, max_docs)
    if judged_only:
        keep = (code >= 0) if keep is None else keep & (code >= 0)
    if keep is not None:
        rows, rq, pos, code, qrow = rows[keep], rq[keep], pos[keep], code[keep], qrow[keep]
    if judged_only:
        pos = block_positions(rq)
        num_ret = np.bincount(rq, minlength=nq)[:nq].astype(np.int64)
    ties = None
    if tie_input is not None:
        score, order = tie_input
        if max_docs is None and not judged_only:  # the list is every row: no copies
            listed, lq, lscore, lrow, file_row = None, q, score, row, order
            list_rows, row_pos = rows, pos
        else:
            in_list = np.ones(n, dtype=bool)
            if max_docs is not None:
                in_list &= (np.arange(n) - np.repeat(bstart, np.diff(np.r_[bstart, n]))) < max_docs
            if judged_only:
                in_list &= np.where(row != 0, qi.code[np.maximum(row.astype(np.int64) - 1, 0)] >= 0, False)
            listed = np.flatnonzero(in_list)
            lq, lscore, lrow = q[listed], score[listed], row[listed]
            file_row = listed if order is None else order[listed]
            list_rows, row_pos = np.searchsorted(listed, rows), pos

        def grade_of(sub: np.ndarray, lrow=lrow) -> np.ndarray:
            at = lrow[sub].astype(np.int64) - 1
            return np.where(at >= 0, qi.grade[np.maximum(at, 0)], 0.0)

        ties = TieOrder(lq, lscore, file_row, grade_of, list_rows, row_pos)
    lists = Lists(q=rq, pos=pos, code=code, n=nq, levels=qi.levels, num_ret=num_ret, relevance_level=relevance_level,
                  num_docs_in_coll=num_docs_in_coll, gmax=qi.gmax if gmax is None else gmax,
                  grade=qi.grade[qrow], ties=ties, judged=qi.judged, qrow=qrow,
                  score=None if score is None else score[rows], subtopics=qi.subtopics)
    return lists, present


# ------------------------------------------------------------------------------------------ evaluating
@dataclass
class RunValues:
    """One run's per-query values: ``values[name]`` is a float array over the qrels queries (sorted ids),
    ``texts[name]`` an object array for text measures; ``present`` marks the queries evaluated."""

    name: str
    tag: str
    present: np.ndarray
    values: dict[str, np.ndarray] = field(default_factory=dict)
    texts: dict[str, np.ndarray] = field(default_factory=dict)


def _run_tag(run: Table) -> str:
    return run.tag if run.tag is not None else run.name


def evaluate_tables(qi: QrelsIndex, runs: Sequence[Table], requested: Sequence[Requested], *,
                    relevance_level: int = 1, judged_only: bool = False, max_docs: int | None = None,
                    num_docs_in_coll: int = 0, err_gmax: float | None = None, complete: bool = False,
                    policy: str | None = None,
                    on_progress: Callable[[float, str], None] | None = None) -> tuple[list[RunValues], list[Problem]]:
    """Every requested measure for every query of every run: the loop behind every entry point.

    Arguments are validated by the callers (:func:`metrics.runfiles.trec.evaluate_runs`,
    :func:`metrics.runfiles.batch.evaluate`, :func:`evaluate_block`).

    Parameters
    ----------
    qi : QrelsIndex
        The qrels.
    runs : sequence of Table
        The runs (distinct names).
    requested : sequence of Requested
        :func:`metrics.runfiles.measures.parse_measures` of the ``-m`` specs.
    relevance_level, judged_only, max_docs, num_docs_in_coll, err_gmax, complete
        trec_eval's ``-l -J -M -N -c`` and ERR's top grade.
    policy : str, optional
        What the report says happens to a query a run did not answer (default "skip", or "zero (-c)"
        with ``complete``).
    on_progress : callable, optional
        Called with (fraction done, run name).

    Returns
    -------
    tuple of (list of RunValues, list of Problem)
        The runs' per-query values and the problems found (queries on one side only, fractional
        grades read as whole numbers, gains beyond float64).

    Examples
    --------
    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qi = QrelsIndex(read_qrels(b"q1 0 a 1\\n").table)
    >>> values, problems = evaluate_tables(qi, [read_run(b"q1 Q0 a 1 1 r\\n").table], parse_measures(["P.1"]))
    >>> values[0].values["P_1"].tolist(), problems
    ([1.0], [])
    """
    trec = any(r.info.origin != "variant" for r in requested)
    problems: list[Problem] = []
    if trec:
        qi.check_whole()
        problems += qi.problems()
    ties = [t for r in requested for t in r.ties]
    scores = any(r.scores for r in requested)
    progress = on_progress or (lambda _f, _label: None)
    out = []
    for i, run in enumerate(runs):
        progress(i / max(len(runs), 1), run.name)
        ranked = rank(qi, run, relevance_level=relevance_level, max_docs=max_docs, judged_only=judged_only,
                      num_docs_in_coll=num_docs_in_coll, gmax=err_gmax, ties=ties,
                      graded_only=not trec and not judged_only, scores=scores)
        problems += _run_problems(qi, run, ranked, policy or ("zero (-c)" if complete else "skip"))
        rv = RunValues(run.name, _run_tag(run), ranked.present)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            for r in requested:
                if r.info.compute is None:
                    continue
                for name, v in zip(r.names, r.compute(ranked.lists)):
                    (rv.texts if r.info.value == "text" else rv.values)[name] = v
        out.append(rv)
    problems += _huge_grades(qi, requested)
    progress(1.0, "")
    return out, problems


def _run_problems(qi: QrelsIndex, run: Table, ranked: Ranked, policy: str) -> list[Problem]:
    out = []
    foreign, present = ranked.foreign, ranked.present
    if foreign is not None and foreign.size:
        first = int(foreign[0])
        qid = run.qid.dictionary[run.qid.indices[first].as_py()].as_py()
        count = int(np.unique(run.qid.indices.to_numpy()[foreign]).size)
        out.append(Problem(run.name, run.line_of(first), "missing_in_qrels", {"count": count, "example": qid}))
    if not present.any():
        out.append(Problem(run.name, None, "no_queries", {}))
    elif not present.all():
        absent = np.flatnonzero(~present)
        out.append(Problem(run.name, None, "missing_in_run",
                           {"count": int(absent.size), "example": str(qi.queries[absent[0]]), "policy": policy}))
    return out


def _huge_grades(qi: QrelsIndex, requested) -> list[Problem]:
    """One warning per gain of the requested variants that some query's top grade overflows (its
    values are NaN: n/a, not a misleading 0 or 1)."""
    from ..registry import GAINS
    from .measures import effective_grades

    out = []
    seen = set()
    for r in requested:
        if r.info.origin != "variant":
            continue
        v = r.params[0]  # the variants of one request differ only in their cutoffs
        if (v.gain, v.level) in seen:
            continue
        seen.add((v.gain, v.level))
        grade = effective_grades(qi.grade, v.level)
        with np.errstate(over="ignore", invalid="ignore"):
            if np.isfinite(GAINS[v.gain].func(grade)).all():  # the usual case: nothing to say
                continue
            top = np.zeros(qi.n)
            np.maximum.at(top, qi.q, grade)
            bad = ~np.isfinite(GAINS[v.gain].func(top))
        if bad.any():
            row = int(np.flatnonzero(grade == top[bad].max())[0])
            out.append(Problem(qi.table.name, qi.table.line_of(row), "huge_grade",
                               {"grade": float(top[bad].max()), "count": int(bad.sum()),
                                "example": str(qi.queries[np.flatnonzero(bad)[0]]), "gain": v.gain}))
    return out


# ------------------------------------------------------------------------------------------ summaries
def summary_value(kind: str, name: str, values: np.ndarray, *, n: int, complete: bool = False,
                  counts: QrelsCounts | None = None) -> float:
    """One "all" value as trec_eval computes it (``meas_avg.c``, ``m_num_q.c``, ``m_num_rel.c``).

    Parameters
    ----------
    kind : {"mean", "sum", "count", "gm", "qrels_mean", "defined_mean"}
        The measure's summary (``MEASURES[name].summary``, :data:`metrics.runfiles.measures.table.SUMMARIES`).
    name : str
        The printed name (``num_rel`` has its own rule under ``-c``).
    values : numpy.ndarray of float
        The per-query values of the evaluated queries, in query-id order (added one at a time, as
        trec_eval does); for ``gm`` their logarithms.
    n : int
        How many queries were evaluated (``values.size``).
    complete : bool, default False
        ``-c``: divide by every qrels query (missing ones count 0; 0.00001 in geometric means);
        ``num_q`` counts every qrels query and ``num_rel`` every qrels line graded > 0.
    counts : QrelsCounts, optional
        Required with ``complete`` and for ``"qrels_mean"`` (ir_measures' mean: over every qrels query,
        a query the run lacks counting 0, whatever ``complete``); ``"defined_mean"`` (ir_measures'
        Accuracy) averages the values that are not NaN.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``complete`` is set without ``counts``, or ``kind`` is unknown.

    Examples
    --------
    Two of four qrels queries answered, AP 0.5 and 0.25: the mean is 0.375, or 0.1875 with -c.

    >>> v = np.array([0.5, 0.25])
    >>> summary_value("mean", "map", v, n=2), summary_value("mean", "map", v, n=2, complete=True,
    ...                                                         counts=QrelsCounts(4, 9))
    (0.375, 0.1875)
    >>> summary_value("count", "num_q", v, n=2, complete=True, counts=QrelsCounts(4, 9))
    4.0
    """
    if complete and counts is None:
        raise ValueError("complete=True needs counts: the qrels' QrelsCounts (qrels_counts)")
    if kind == "qrels_mean":
        if counts is None:
            raise ValueError("ir_measures' means need counts: the qrels' QrelsCounts (qrels_counts)")
        total = float(np.cumsum(values)[-1]) if values.size else 0.0
        return safe_divide(total, counts.num_q, default=float("nan"))
    if kind == "defined_mean":
        defined = values[~np.isnan(values)]
        return safe_divide(float(np.cumsum(defined)[-1]) if defined.size else 0.0, defined.size,
                           default=float("nan"))
    den = counts.num_q if complete else n
    if kind == "count":
        return float(den)
    if complete and name == "num_rel":
        return float(counts.num_rel)
    total = float(np.cumsum(values)[-1]) if values.size else 0.0  # in query order, one addition at a time
    if kind == "sum":
        return total
    if kind == "gm":
        if complete:
            total += (den - n) * math.log(MIN_GEO_MEAN)
        return math.exp(safe_divide(total, den, default=float("nan")))
    if kind == "mean":
        return safe_divide(total, den, default=float("nan"))
    raise ValueError(f"unknown summary kind {kind!r}; kinds are 'mean', 'sum', 'count', 'gm', 'qrels_mean', "
                     "'defined_mean'")


def summarize(per_query: pd.DataFrame, measures: Sequence[str], *, complete: bool = False,
              counts: QrelsCounts | None = None) -> pd.DataFrame:
    """The summary ("all") rows from per-query rows, such as those of every :func:`evaluate_block`.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Columns ``run``, ``measure``, ``qid``, ``value``: the rows of all blocks (any order).
    measures : sequence of str
        The ``-m`` specs the rows were computed for (they fix the output order and each measure's
        summary: mean, sum for num_*, count for num_q, geometric mean for gm_*).
    complete : bool, default False
        trec_eval ``-c``: every qrels query counts (:func:`summary_value`).
    counts : QrelsCounts, optional
        The whole qrels' counts (:func:`qrels_counts` of each block, added up); required with ``complete``.

    Returns
    -------
    pandas.DataFrame
        ``run, measure, qid, value`` with ``qid == "all"``: per run, one row per summarised name in
        trec_eval's order -- equal to the single-machine summary (runid and relstring, text, are not
        there; a run's tag is the caller's).

    Raises
    ------
    ValueError
        For bad measures, missing columns, or ``complete`` without ``counts``.

    Examples
    --------
    >>> rows = pd.DataFrame({"run": "r", "measure": "map", "qid": ["q1", "q2"], "value": [0.5, 0.25]})
    >>> summarize(rows, ["map"]).to_dict("records")
    [{'run': 'r', 'measure': 'map', 'qid': 'all', 'value': 0.375}]
    >>> summarize(rows, ["map", "num_q"], complete=True, counts=QrelsCounts(4, 9))["value"].tolist()
    [4.0, 0.1875]
    """
    requested = parse_measures(measures)
    missing = {"run", "measure", "qid", "value"} - set(per_query.columns)
    if missing:
        raise ValueError(f"per_query lacks the column(s) {', '.join(sorted(missing))}; it needs run, measure, "
                         "qid, value (the rows of evaluate_block)")
    if complete and counts is None:
        raise ValueError("complete=True needs counts: the qrels' QrelsCounts (qrels_counts, added over the blocks)")
    out = []
    for run, frame in per_query.groupby("run", sort=False):
        by_measure = dict(tuple(frame.groupby("measure", sort=False)))
        evaluated = frame["qid"].unique()
        n = int(evaluated.size)
        for r in requested:
            if r.summary in ("runid", "none"):
                continue
            for name in r.names:
                part = by_measure.get(name)
                if part is None:
                    if r.summary != "count":
                        continue
                    values = np.zeros(0)
                else:
                    values = part.sort_values("qid", key=_byte_order)["value"].to_numpy(np.float64)
                out.append((run, name, "all", summary_value(r.summary, name, values, n=n, complete=complete,
                                                            counts=counts)))
    return pd.DataFrame(out, columns=["run", "measure", "qid", "value"]).astype(
        {"run": object, "measure": object, "qid": object, "value": np.float64})


def _byte_order(ids: pd.Series) -> pd.Series:
    """Sort key: the ids' UTF-8 bytes (Python compares str by code point, which is the same order)."""
    return ids.astype(str)


# ------------------------------------------------------------------------------------------ blocks
def table_from_frame(frame: pd.DataFrame, kind: str, *, name: str | None = None) -> Table:
    """A qrels or run :class:`~metrics.runfiles.read.Table` from a pandas DataFrame (a block of queries).

    Parameters
    ----------
    frame : pandas.DataFrame
        qrels: columns ``qid``, ``docno``, ``rel``.  run: ``qid``, ``docno``, ``score`` and optionally
        ``tag`` and ``line`` (the line's place in the file; the rows are sorted by it, for the tie
        rules that keep file order).  Ids are read as text.
    kind : {"qrels", "run"}
        Which file the rows come from.
    name : str, optional
        The table's name in messages (default: the kind).

    Returns
    -------
    Table

    Raises
    ------
    ValueError
        Naming a missing column, a value that is not a finite number, an empty id, or a document
        given twice for one query.

    Examples
    --------
    >>> t = table_from_frame(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [0.5, 0.7]}), "run")
    >>> t.qid.dictionary.to_pylist(), t.value.tolist(), t.n_rows
    (['1'], [0.5, 0.7], 2)
    """
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r:.40}")
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"the {kind} block must be a pandas DataFrame, got {type(frame).__name__}")
    value_col = "rel" if kind == "qrels" else "score"
    need = ["qid", "docno", value_col]
    lacking = [c for c in need if c not in frame.columns]
    if lacking:
        raise ValueError(f"the {kind} block lacks the column(s) {', '.join(lacking)}; it needs {', '.join(need)}")
    if kind == "run" and "line" in frame.columns and len(frame):
        frame = frame.sort_values("line", kind="stable")
    try:
        value = pd.to_numeric(frame[value_col], errors="raise").to_numpy(np.float64)
    except (ValueError, TypeError):
        raise ValueError(f"the {kind} block's {value_col} column holds a value that is not a number") from None
    bad = np.flatnonzero(~np.isfinite(value))
    if bad.size:
        raise ValueError(f"the {kind} block's {value_col} at row {int(bad[0]) + 1} is {float(value[bad[0]])!r}; only "
                         "finite numbers are accepted")
    qid = pa.array(frame["qid"].astype(str).to_numpy(object), pa.string())
    docno = pa.array(frame["docno"].astype(str).to_numpy(object), pa.string())
    for col, arr in (("qid", qid), ("docno", docno)):
        empty = pc.equal(pc.utf8_length(arr), 0).to_numpy(zero_copy_only=False) if len(arr) else np.zeros(0, bool)
        if empty.any():
            raise ValueError(f"the {kind} block's {col} at row {int(np.flatnonzero(empty)[0]) + 1} is empty")
    pairs = pd.DataFrame({"q": qid.to_numpy(zero_copy_only=False), "d": docno.to_numpy(zero_copy_only=False)})
    dup = pairs.duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        raise ValueError(f"the {kind} block gives document {pairs.d[i]!r:.40} twice for query {pairs.q[i]!r:.40}")
    tag = None
    if kind == "run" and "tag" in frame.columns and len(frame):
        tag = str(frame["tag"].iloc[-1])
    return Table(name or kind, kind, pc.dictionary_encode(qid), pc.dictionary_encode(docno), value, tag=tag)


def evaluate_block(qrels_frame: pd.DataFrame, run_frame: pd.DataFrame, measures: Sequence[str] = ("official",), *,
                   relevance_level: int = 1, judged_only: bool = False, max_docs: int | None = None,
                   num_docs_in_coll: int = 0, err_gmax: float | None = None) -> pd.DataFrame:
    """Per-query rows of a block of complete queries (the kernel a cluster runs on each partition).

    The block must hold, for each of its queries, every qrels row and every run row (of every run):
    a query split over two blocks would be ranked and counted twice.  The output is the
    single-machine per-query output (:meth:`metrics.runfiles.trec.MeasureResult.per_query`) restricted
    to the block's queries, value for value; :func:`summarize` makes the "all" rows from the rows of
    all blocks.

    Parameters
    ----------
    qrels_frame : pandas.DataFrame
        The block's qrels: ``qid``, ``docno``, ``rel`` (:func:`table_from_frame`).
    run_frame : pandas.DataFrame
        The block's run rows: ``qid``, ``docno``, ``score``, optionally ``run`` (the run's name; default
        "run"), ``tag`` and ``line`` (file order, for the stable and ranx tie rules).
    measures : sequence of str, default ("official",)
        ``-m`` specs, as for :func:`metrics.runfiles.trec.evaluate_runs`, ``nDCG(...)@k`` included.
    relevance_level, judged_only, max_docs, num_docs_in_coll
        trec_eval's ``-l``, ``-J``, ``-M``, ``-N``.
    err_gmax : float, optional
        The top grade of the whole qrels, required when ``err`` is asked for (a block only sees its own).

    Returns
    -------
    pandas.DataFrame
        ``run, measure, qid, value``: for each run, measure and query the run answered (query-id
        order), every per-query value -- gm_map and gm_bpref hold the per-query logarithms their
        geometric mean is made of (trec_eval does not print them per query); the text measures runid
        and relstring are left out.

    Raises
    ------
    ValueError
        For bad frames, measures or options (naming them and the value), ``err`` without ``err_gmax``.

    Examples
    --------
    q2's run rows and q1's are evaluated apart, and the rows are the same as together:

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "a"], "rel": [1, 1]})
    >>> run = pd.DataFrame({"qid": ["q1", "q1", "q2"], "docno": ["x", "a", "a"], "score": [2.0, 1.0, 1.0]})
    >>> together = evaluate_block(qrels, run, ["recip_rank"])
    >>> apart = pd.concat([evaluate_block(qrels[qrels.qid == q], run[run.qid == q], ["recip_rank"])
    ...                    for q in ("q2", "q1")])
    >>> together["value"].tolist(), sorted(apart["value"].tolist())
    ([0.5, 1.0], [0.5, 1.0])
    """
    requested = parse_measures(measures)
    opts = check_options(relevance_level=relevance_level, judged_only=judged_only, max_docs=max_docs,
                         num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax)
    if err_gmax is None and any(r.info.name == "err" for r in requested):
        raise ValueError("err needs err_gmax in a block: the highest grade of the whole qrels (a block sees "
                         "only its own)")
    qrels = table_from_frame(qrels_frame, "qrels")
    qi = QrelsIndex(qrels)
    if "run" in run_frame.columns:
        groups = [(str(name), part) for name, part in run_frame.groupby("run", sort=False)]
    else:
        groups = [("run", run_frame)]
    runs = [table_from_frame(part, "run", name=name) for name, part in groups]
    values, _ = evaluate_tables(qi, runs, requested, **opts)
    return per_query_frame(qi.queries, requested, values)


def per_query_frame(queries: np.ndarray, requested: Sequence[Requested], runs: Sequence[RunValues], *,
                    printed_only: bool = False) -> pd.DataFrame:
    """``run, measure, qid, value`` rows of every numeric measure for the queries each run answered.

    With ``printed_only``, only what trec_eval prints per query (not gm_map / gm_bpref).

    Examples
    --------
    >>> rv = RunValues("r", "r", np.array([True, False]), {"map": np.array([0.5, 0.0])})
    >>> per_query_frame(np.array(["q1", "q2"], dtype=object), parse_measures(["map"]), [rv]).values.tolist()
    [['r', 'map', 'q1', 0.5]]
    """
    parts = []
    for run in runs:
        qids = queries[run.present]
        for r in requested:
            if r.info.value == "text" or (printed_only and not r.info.per_query):
                continue
            for name in r.names:
                parts.append(pd.DataFrame({"run": run.name, "measure": name, "qid": qids,
                                           "value": run.values[name][run.present]}))
    if not parts:
        return pd.DataFrame({"run": pd.Series(dtype=object), "measure": pd.Series(dtype=object),
                             "qid": pd.Series(dtype=object), "value": pd.Series(dtype=np.float64)})
    out = pd.concat(parts, ignore_index=True)
    return out.astype({"run": object, "measure": object, "qid": object, "value": np.float64})
