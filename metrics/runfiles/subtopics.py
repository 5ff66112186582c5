"""Diversity qrels: ``qid subtopic docno rel``, one line per query, subtopic and document (TREC Web track, ndeval).

:func:`read_subtopic_qrels` reads such a file into a qrels table the engine evaluates like any other --
one line per query and document, its grade the highest over the document's subtopics (what every
measure but the diversity ones sees) -- that also carries each (document, subtopic) judgment
(:class:`~metrics.runfiles.measures.diversity.SubtopicJudgments`), which the diversity measures read
(``alpha_nDCG@20``, ``ERR_IA@10``, ``NRBP``, ...; :mod:`metrics.runfiles.measures.diversity`).

>>> parsed = read_subtopic_qrels(b"7 1 a 1\\n7 2 a 0\\n7 2 b 2\\n")
>>> parsed.table.docno.to_pylist(), parsed.table.value.tolist(), parsed.table.subtopics.subtopic.tolist()
(['a', 'b'], [1.0, 2.0], [0, 1, 1])
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .measures.diversity import SubtopicJudgments
from .read import Limits, Parsed, Problem, Table, decode

__all__ = ["SubtopicTable", "read_subtopic_qrels", "subtopic_table"]

_MAX_LISTED = 20  # problems listed one by one; the rest are counted


@dataclass
class SubtopicTable(Table):
    """A qrels :class:`~metrics.runfiles.read.Table` (one line per query and document, grade = the highest
    over its subtopics) with the subtopic judgments (``subtopics``)."""

    subtopics: SubtopicJudgments | None = None


def subtopic_table(qid, subtopic, docno, grade, *, name: str = "qrels", lines=None) -> SubtopicTable:
    """A :class:`SubtopicTable` from the judgments' columns (each (query, subtopic, document) once).

    Parameters
    ----------
    qid, subtopic, docno : sequence of str
        One value per judgment.
    grade : sequence of float
        The judgment's grade.
    name : str, default "qrels"
        The table's name in messages.
    lines : sequence of int, optional
        Each judgment's line in the file (default: 1, 2, ...).

    Returns
    -------
    SubtopicTable

    Raises
    ------
    ValueError
        If the columns differ in length or a (query, subtopic, document) is given twice.

    Examples
    --------
    >>> t = subtopic_table(["q", "q"], ["s1", "s2"], ["d", "d"], [1, 0])
    >>> t.n_rows, t.value.tolist(), t.subtopics.line.tolist()
    (1, [1.0], [0, 0])
    """
    qid = [str(x) for x in qid]
    subtopic = [str(x) for x in subtopic]
    docno = [str(x) for x in docno]
    grade = np.asarray(grade, dtype=np.float64)
    if not len(qid) == len(subtopic) == len(docno) == grade.size:
        raise ValueError(f"qid, subtopic, docno and grade must have the same length, got {len(qid)}, "
                         f"{len(subtopic)}, {len(docno)}, {grade.size}")
    lines = np.arange(1, grade.size + 1) if lines is None else np.asarray(lines, dtype=np.int64)
    seen: dict[tuple[str, str, str], int] = {}
    pairs: dict[tuple[str, str], int] = {}
    subtopic_code: dict[str, int] = {}
    line_of = np.empty(grade.size, dtype=np.int64)
    first_line: list[int] = []
    best: list[float] = []
    for i, (q, s, d) in enumerate(zip(qid, subtopic, docno)):
        key = (q, s, d)
        if key in seen:
            raise ValueError(f"{name} line {int(lines[i])}: document {d[:40]!r} is judged again for query {q[:40]!r} "
                             f"and subtopic {s[:40]!r} (first at line {int(lines[seen[key]])})")
        seen[key] = i
        subtopic_code.setdefault(s, len(subtopic_code))
        at = pairs.setdefault((q, d), len(pairs))
        if at == len(first_line):
            first_line.append(int(lines[i]))
            best.append(float(grade[i]))
        else:
            best[at] = max(best[at], float(grade[i]))
        line_of[i] = at
    uq = pa.array([q for q, _ in pairs], pa.string())
    ud = pa.array([d for _, d in pairs], pa.string())
    docrank = np.empty(len(pairs), dtype=np.int64)
    docrank[pc.array_sort_indices(ud).to_numpy()] = np.arange(len(pairs))
    judgments = SubtopicJudgments(line_of, np.array([subtopic_code[s] for s in subtopic], dtype=np.int64), grade,
                                  docrank)
    return SubtopicTable(name, "qrels", pc.dictionary_encode(uq), pc.dictionary_encode(ud),
                         np.asarray(best, dtype=np.float64), line=np.asarray(first_line, dtype=np.int64),
                         subtopics=judgments)


def read_subtopic_qrels(source, *, name: str | None = None, max_bytes: int | None = None,
                        limits: Limits | None = None) -> Parsed:
    """Read diversity qrels: ``qid subtopic docno rel`` per line, whitespace separated (ndeval's format).

    Lines with another number of fields or a grade that is not a finite number are reported and
    skipped; a (query, subtopic, document) judged twice is reported (the later line skipped); blank
    lines and lines starting with ``#`` are ignored.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path or the file's bytes.
    name : str, optional
        The name used in messages (default: the file name, or "qrels").
    max_bytes : int, optional
        Refuse a larger file (a "too_large" problem) before reading it.
    limits : Limits, optional
        ``max_rows``: refuse a file with more lines (a "too_many_rows" problem), counted before the lines
        are parsed (the text itself is bounded by ``max_bytes``).

    Returns
    -------
    Parsed
        ``table`` a :class:`SubtopicTable` (None when nothing could be read), ``problems``.

    Examples
    --------
    >>> p = read_subtopic_qrels(b"1 a d1 1\\n1 b d1 1\\nbad line\\n1 a d2 x\\n", name="div")
    >>> p.table.n_rows, [x.kind for x in p.problems], p.problems[0].message
    (1, ['fields', 'number'], 'div line 3: 2 fields where a subtopic qrels line has 4; the line is skipped')
    >>> read_subtopic_qrels(b"1 a d1 1\\n1 b d1 1\\n", limits=Limits(max_rows=1)).problems[0].message
    'qrels has 2 rows; the limit is 1 rows'

    """
    if isinstance(source, (str, os.PathLike)):
        name = name or os.path.basename(os.fspath(source))
        size = os.path.getsize(source)
        if max_bytes is not None and size > max_bytes:
            return Parsed(name, "qrels", None, [Problem(name, None, "too_large", {
                "size_mb": size / 1e6, "limit_mb": max_bytes / 1e6})])
        with open(source, "rb") as fh:
            data = fh.read()
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = name or "qrels"
        if max_bytes is not None and len(data) > max_bytes:
            return Parsed(name, "qrels", None, [Problem(name, None, "too_large", {
                "size_mb": len(data) / 1e6, "limit_mb": max_bytes / 1e6})])
    else:
        raise ValueError(f"source must be a path or bytes, got {type(source).__name__}")
    text, encoding, problem = decode(data, name=name)
    if text is None:
        return Parsed(name, "qrels", None, [problem])
    if limits is not None and limits.max_rows is not None:
        rows = text.count("\n") + (0 if text.endswith("\n") else 1)
        if rows > limits.max_rows:
            return Parsed(name, "qrels", None, [Problem(name, None, "too_many_rows",
                                                        {"rows": rows, "limit": limits.max_rows})])
    problems: list[Problem] = []
    count = 0

    def report(p: Problem) -> None:
        nonlocal count
        count += 1
        if len(problems) < _MAX_LISTED:
            problems.append(p)

    cols: tuple[list, list, list, list, list] = ([], [], [], [], [])
    seen: dict[tuple[str, str, str], int] = {}
    n_lines = 0
    for n_lines, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 4:
            report(Problem(name, n_lines, "fields", {"found": len(fields), "format": "subtopic qrels",
                                                     "expected": 4}))
            continue
        q, s, d, g = fields
        try:
            grade = float(g) if g.isascii() else math.nan
        except ValueError:
            grade = math.nan
        if not math.isfinite(grade):
            report(Problem(name, n_lines, "number", {"column": "rel", "token": g[:40]}))
            continue
        key = (q, s, d)
        if key in seen:
            report(Problem(name, n_lines, "duplicate", {"docno": d[:40], "qid": f"{q[:40]}' subtopic '{s[:40]}",
                                                        "first": seen[key]}))
            continue
        seen[key] = n_lines
        for col, value in zip(cols, (q, s, d, grade, n_lines)):
            col.append(value)
    if count > len(problems):
        problems.append(Problem(name, None, "more", {"count": count - len(problems)}))
    if not cols[0]:
        kind = "no_valid_lines" if n_lines else "empty"
        return Parsed(name, "qrels", None, problems + [Problem(name, None, kind, {"lines": n_lines})],
                      encoding=encoding, format="subtopic qrels", n_lines=n_lines, n_problems=count + 1)
    table = subtopic_table(cols[0], cols[1], cols[2], cols[3], name=name, lines=cols[4])
    return Parsed(name, "qrels", table, problems, encoding=encoding, format="subtopic qrels", n_lines=n_lines,
                  n_problems=count)
