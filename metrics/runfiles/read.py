"""Read TREC qrels and run files (and CSV/TSV with named columns), reporting every problem.

Formats
-------
* TREC qrels: ``qid iter docno rel`` (4 fields, whitespace separated).
* TREC run: ``qid Q0 docno rank score tag`` (6 fields); like trec_eval, only the
  score orders the documents (the rank column is read but ignored).  Fields after the
  tag are ignored and the tag of the last line names the run, as trec_eval 10 does.
* In TREC files, lines starting with ``#`` are comments (trec_eval 10; ir_metadata headers).
* CSV / TSV / semicolon-separated files whose first line names the columns, e.g.
  ``query_id,doc_id,relevance`` or ``qid\\tdocno\\tscore``; accepted names are in
  :data:`COLUMN_NAMES`.  A run without a score column but with a rank column is
  ordered by rank.
* Parquet files (recognised by their ``PAR1`` magic bytes) with the same named columns; other names
  are given with ``columns={"qid": "user_id", "docno": "item_id", "score": "prediction"}``.  Ids may
  be strings or integers, grades and scores any numeric type.  A problem's "line" is the 1-based row.

Encodings: UTF-8 with or without a byte-order mark, and GBK (tried when the
bytes are not valid UTF-8).  Anything else is reported, never guessed.

Nothing here raises on a bad *file*: :func:`read_qrels` and :func:`read_run`
return a :class:`Parsed` whose ``problems`` name the file, the 1-based line and
what is wrong; lines with errors are left out of ``table`` so the rest can still
be evaluated if the user agrees.  A bad *argument* (unknown kind, negative size
cap) raises :class:`ValueError`, as everywhere in :mod:`metrics`.

Clean files take a fast path (pyarrow's multi-threaded CSV reader); a file with
any irregularity is re-read line by line so that each problem gets its line.

>>> p = read_run(b"q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 oops bm25\\n", name="bm25.run")
>>> p.table.n_rows, [x.message for x in p.problems]
(1, ["bm25.run line 2: score 'oops' is not a finite number; the line is skipped"])
"""
from __future__ import annotations

import codecs
import csv
import io
import itertools
import math
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from .._validation import check_real, check_whole
from ._kernels import factorize_u64, first_duplicate_string, has_duplicate_pairs, query_blocks, use_numba

__all__ = [
    "COLUMN_NAMES",
    "KINDS",
    "MAX_LISTED",
    "PROBLEM_MESSAGES",
    "READ_ROW_BYTES",
    "FileCheck",
    "Limits",
    "Parsed",
    "Problem",
    "Table",
    "BINARY_FORMATS",
    "as_dictionary",
    "binary_format",
    "decode",
    "id_strings",
    "inspect_file",
    "column_roles",
    "read_files",
    "read_parquet",
    "read_qrels",
    "read_run",
    "read_table",
    "shorten",
    "string_buffers",
]

KINDS = {"qrels": "qrels", "run": "run"}

#: Header names accepted for each role in CSV/TSV files (compared case-insensitively).
COLUMN_NAMES: dict[str, tuple[str, ...]] = {
    "qid": ("qid", "query_id", "queryid", "q_id", "query", "topic", "topic_id", "user_id", "user"),
    "docno": ("docno", "doc_id", "docid", "doc", "document", "document_id", "item_id", "item", "pid", "passage_id"),
    "rel": ("rel", "relevance", "grade", "label", "judgment", "judgement", "qrel", "gain", "rating"),
    "score": ("score", "sim", "similarity", "prediction", "pred", "predicted", "weight"),
    "rank": ("rank", "position", "pos"),
}

#: Roles a ``columns=`` mapping may name; ``tag`` (Parquet only) names the run, as a TREC run's 6th field.
COLUMN_ROLES = ("qid", "docno", "rel", "score", "rank", "tag")

#: Column names read as the run's tag in Parquet files (the last row's value names the run).
TAG_NAMES = ("tag", "run", "run_id", "runid", "system")

#: How many problems of one file are listed individually; the rest are counted.
MAX_LISTED = 200

# Below this many rows a string dictionary is as fast as the integer packing of short ids.
_PACK_MIN_ROWS = 50_000

#: English text of every problem kind; the UI translates the kind with the same fields.
PROBLEM_MESSAGES: dict[str, str] = {
    "too_large": "{file} is {size_mb:.1f} MB; the limit is {limit_mb:g} MB",
    "empty": "{file} has no data lines",
    "encoding": "{file} is neither UTF-8 nor GBK: undecodable byte at line {line}",
    "binary": "{file} is a {format} file, not text: {advice}",
    "wrong_kind": "{file} looks like a {found} file ({fields} fields per line) but a {expected} file was expected",
    "header": "{file}: no column for {role} in the header ({header}); accepted names: {accepted}",
    "fields": "{file} line {line}: {found} fields where a {format} line has {expected}; the line is skipped",
    "number": "{file} line {line}: {column} '{token}' is not a finite number; the line is skipped",
    "blank_id": "{file} line {line}: empty {column}; the line is skipped",
    "duplicate": "{file} line {line}: document '{docno}' appears again for query '{qid}' (first at line {first}); "
                 "the later line is skipped",
    "negative": "{file}: {count} negative grade(s), first at line {line}; they count as 0, as in trec_eval",
    "more": "{file}: {count} more problem(s) of this file are not listed",
    "no_valid_lines": "{file}: none of its {lines} lines could be read",
    "missing_in_qrels": "{file}: {count} quer(ies) are not in the qrels and are not evaluated (e.g. '{example}', "
                        "line {line}), as in trec_eval",
    "missing_in_run": "{file}: no documents for {count} qrels quer(ies) (e.g. '{example}'); policy '{policy}'",
    "no_queries": "{file}: no query is both in the run and in the qrels; nothing to evaluate",
    "whole_grades": "{file}: {count} grade(s) are not whole numbers (first {grade!r} at line {line}); trec_eval reads "
                    "grades as whole numbers, so its measures count them as {whole}",
    "column_type": "{file}: column '{column}' ({role}) is of type {type}; accepted: {accepted}",
    "bad_lines": "{file}: {count} line(s) cannot be read; the first starts with {text!r} ({reason}); {action}",
    "fractional_grades": "{file}: {count} grade(s) are not whole numbers (e.g. {grade!r}); trec_eval reads grades "
                         "as whole numbers, so its measures count them as {whole}",
    "not_in_qrels": "{file}: {count} quer(ies) are not in the qrels and are not evaluated (e.g. '{example}'), as in "
                    "trec_eval",
    "huge_grade": "{file}: grade {grade:g} at line {line} is too large for the {gain} gain (2^grade - 1 overflows "
                  "float64 above grade 1023): variants with that gain are n/a for {count} quer(ies) (e.g. "
                  "'{example}'). Use the linear gain, or trec_eval's measures (-m), which use the grade itself",
    "too_many_rows": "{file} has {rows:,} rows; the limit is {limit:,} rows",
    "too_much_memory": "{file} needs at least {memory_mb:.1f} MB of memory to read ({size_mb:.2f} MB on disk); the "
                       "limit for a file of this size is {limit_mb:.1f} MB",
    "parquet_footer": "{file} cannot be read as Parquet: its footer (the columns and row counts, at the end of the "
                      "file) is missing or damaged; the file may be truncated",
    "parquet_data": "{file} cannot be read as Parquet: its data is damaged or uses a feature this reader does not "
                    "support (rows {first:,} to {last:,})",
    "duplicate_column": "{file}: {count} columns are named '{column}'; give each column its own name",
    "not_a_file": "{file} is not a file (a folder or a device); give the path of a qrels or run file",
    "unreadable": "{file} cannot be read: {reason}",
    "long_id": "{file} line {line}: {column} of {length:,} characters ('{text}'); an id has at most {limit:,}; the "
               "line is skipped",
    "long_header": "{file}: its first line, the header ('{header}'), is longer than {limit:,} characters; a header "
                   "names a few columns",
    "long_field": "{file} line {line}: a field of more than {limit:,} characters; a qrels or run file's fields are "
                  "ids and numbers",
    "parquet_pages": "{file} is split into more than {limit:,} pages (or row groups) in the columns read; write it "
                     "with larger pages and row groups",
    "csv_error": "{file} line {line}: the line cannot be read as CSV ({reason})",
}

_SEVERITY = {
    "too_large": "fatal", "empty": "fatal", "encoding": "fatal", "binary": "fatal", "wrong_kind": "fatal",
    "header": "fatal", "no_valid_lines": "fatal", "column_type": "fatal", "fields": "error", "number": "error",
    "blank_id": "error", "duplicate": "error",
    "negative": "warning", "more": "error", "missing_in_qrels": "warning", "missing_in_run": "warning",
    "no_queries": "error", "whole_grades": "warning", "huge_grade": "warning", "bad_lines": "error",
    "fractional_grades": "warning", "not_in_qrels": "warning", "too_many_rows": "fatal", "too_much_memory": "fatal",
    "parquet_footer": "fatal", "parquet_data": "fatal", "duplicate_column": "fatal", "not_a_file": "fatal",
    "unreadable": "fatal", "long_id": "error", "long_header": "fatal", "long_field": "fatal", "parquet_pages": "fatal",
    "csv_error": "fatal",
}


#: Characters of a file's own text (an id, a token, a column name) that a message shows: longer text is cut.
SHOWN_CHARS = 60
#: Characters of a file's name that a message shows.
SHOWN_NAME_CHARS = 120
# Problem fields that quote a file's own text (the others are this module's words); the header is shown longer.
_FILE_TEXT = frozenset({"qid", "docno", "token", "example", "text", "column", "header", "grade_text"})
_SHOWN_PARAMS = {"header": 400}


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """Text from a file as a message shows it: at most ``limit`` characters (then "…"), control and other
    unprintable characters written as escapes (``\\x1b``), so an id can neither flood nor restyle a message.

    Parameters
    ----------
    text : str
        An id, a token or a name read from a file.
    limit : int >= 2, default :data:`SHOWN_CHARS`
        The most characters shown, the ellipsis included.

    Returns
    -------
    str

    Examples
    --------
    >>> shorten("q" * 1_000_000)[-5:], len(shorten("q" * 1_000_000))
    ('qqqq…', 60)
    >>> shorten("doc\\x1b[31m1")
    'doc\\\\x1b[31m1'
    """
    text = str(text)
    if len(text) <= limit and text.isprintable():
        return text
    out, used = [], 0
    for ch in text[:limit]:
        piece = ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
        if used + len(piece) > limit - 1:  # keep room for the ellipsis; never cut inside an escape
            return "".join(out) + "…"
        out.append(piece)
        used += len(piece)
    return "".join(out) + ("…" if len(text) > limit else "")


@dataclass(frozen=True)
class Problem:
    """One problem with an input file.

    ``severity`` is ``"fatal"`` (the file cannot be used), ``"error"`` (a line
    was skipped; evaluating the rest needs the user's consent) or ``"warning"``
    (handled as trec_eval handles it).  ``line`` is 1-based, None for the whole file.
    """

    file: str
    line: int | None
    kind: str
    params: dict = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return _SEVERITY.get(self.kind, "warning")

    def fields(self) -> dict:
        """The message's fields: ``file``, ``line`` and the params, every text shortened by :func:`shorten`
        (an id of a million characters shows as its first characters and an ellipsis)."""
        fields = {"file": shorten(self.file, SHOWN_NAME_CHARS), "line": self.line}
        # a problem about the whole file may still name a line (e.g. the first of many)
        fields.update({k: shorten(v, _SHOWN_PARAMS.get(k, SHOWN_CHARS)) if isinstance(v, str) and k in _FILE_TEXT
                       else v for k, v in self.params.items()})
        return fields

    @property
    def message(self) -> str:
        return PROBLEM_MESSAGES[self.kind].format(**self.fields())


@dataclass
class Table:
    """The rows of a qrels file (``value`` = grade) or a run file (``value`` = score).

    ``qid`` is a dictionary-encoded pyarrow string array (``.indices`` are int codes,
    ``.dictionary`` the distinct ids).  ``docno`` is dictionary-encoded too, except in
    files of a million rows and more (with numba), where it stays a plain string array:
    encoding millions of mostly distinct document ids costs more than evaluating them,
    and the evaluation compares their bytes per query instead (see :func:`id_strings`).
    ``value`` is float64.  ``line`` holds each row's 1-based line in the file, or
    None when every line of the file is a row (then row ``i`` is line ``i + 1 + header``).
    """

    name: str
    kind: str
    qid: pa.DictionaryArray
    docno: pa.DictionaryArray | pa.StringArray
    value: np.ndarray
    line: np.ndarray | None = None
    header_lines: int = 0
    tag: str | None = None

    @property
    def n_rows(self) -> int:
        return len(self.value)

    def line_of(self, row: int) -> int:
        """1-based line number of a row."""
        if self.line is not None:
            return int(self.line[row])
        return int(row) + 1 + self.header_lines


@dataclass
class Parsed:
    """What a file read gave: the usable rows, the problems, and how it was read."""

    name: str
    kind: str
    table: Table | None
    problems: list[Problem]
    encoding: str | None = None
    format: str | None = None
    n_lines: int = 0
    n_problems: int = 0  # all problems, including those not listed

    @property
    def fatal(self) -> bool:
        return self.table is None or any(p.severity == "fatal" for p in self.problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity in ("error", "fatal")]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        """True when the file was read whole, with at most warnings."""
        return not self.fatal and not self.errors


#: A file smaller than this counts as this big for :attr:`Limits.max_ratio`: a small file may always need
#: ``max_ratio`` MiB.
RATIO_FLOOR_BYTES = 1 << 20
#: Memory that reading one row of a Parquet file takes besides its ids' text: its value, codes and line, the
#: checks' temporaries, whatever the row's width on disk.  With :data:`QID_TEXT_BYTES` and :data:`DOCNO_TEXT_BYTES`
#: an upper bound of what ``benchmarks/hostile_uploads.py --calibrate`` measures (pyarrow 26, load ~12 on 2
#: cores): 2,000,000 rows of short ids 378 MB (estimated 406), 20,000 rows of 5,000-character document ids 696 MB
#: (estimated 703), of 5,000-character query ids 493 MB (estimated 503).  (A text file is bounded by its bytes:
#: ~100 bytes a row, ``benchmarks/upload_memory.py``.)
READ_ROW_BYTES = 120
#: Memory one byte of a Parquet file's ids takes once read: the decoded text and its copies (a dictionary's values,
#: the Table's arrays, the checks' hash tables), on top of :data:`READ_ROW_BYTES` a row: query ids (kept
#: dictionary-encoded) and document ids.  Counted on the pages before they are decoded (a page of text, as its
#: header says it decompresses), then on each batch's ids before they are expanded.
QID_TEXT_BYTES = 5
DOCNO_TEXT_BYTES = 7
#: The longest id (a query or document id) a file may hold, in characters: a line (or a Parquet row) with a longer
#: one is a bad line ("long_id").  Real ids are short -- TREC docnos, URLs of a few thousand characters at most;
#: an id of megabytes is not an id, and every copy of it costs its whole length.
MAX_ID_CHARS = 10_000
#: The longest first line (a CSV/TSV file's header) looked at, in characters: a header that does not end within
#: it is refused ("long_header") before its columns are split -- a header of millions of columns would cost
#: tens of times its size.
MAX_HEADER_CHARS = 1 << 16
# The start of a text file read to choose the format and its fast path: a header of MAX_HEADER_CHARS characters
# of up to 4 bytes each.
_HEAD_BYTES = 4 * MAX_HEADER_CHARS


@dataclass(frozen=True)
class Limits:
    """How much memory reading one file may take, checked before it is spent.

    A file's *cost* is the memory its rows take while read: :data:`READ_ROW_BYTES` a row plus its ids'
    UTF-8 text at :data:`QID_TEXT_BYTES` / :data:`DOCNO_TEXT_BYTES` a byte (an integer id: its decimal
    digits).  A text file costs a few times its own size, so its bytes (``max_bytes``) bound it; a Parquet
    file is compressed and dictionary-encoded: a few hundred KB can hold tens of millions of rows.  Before
    anything is decoded, its footer's length (:data:`FOOTER_BYTES`), its rows and column chunks
    (:data:`CHUNK_BYTES`), its layout (:data:`PARQUET_MIN_PAGES`) and the size every needed page's own
    header says it decompresses to (what pyarrow allocates: a forged footer cannot hide it) refuse it;
    then the ids' text is counted batch by batch as it is decoded (string columns dictionary-encoded until
    then, so a long id repeated is counted, not repeated), and the read stops at the limit.

    Parameters
    ----------
    max_rows : int >= 1, optional
        The most rows a file may hold (a Parquet file's footer says how many; a text file is counted
        as it is read).
    max_ratio : float >= 1, optional
        The most bytes of memory per byte of the file; a file smaller than :data:`RATIO_FLOOR_BYTES`
        counts as that big.
    max_memory : int >= 1, optional
        The most bytes of memory, whatever the file's size.

    Raises
    ------
    ValueError
        Naming the parameter and the bad value.

    Examples
    --------
    A 300 KB file may take 100 MiB under a ratio of 100 (it counts as 1 MiB), about a million rows; a 10 MB
    one 1 GB, unless ``max_memory`` is lower:

    >>> Limits(max_ratio=100).memory_budget(300_000) == 100 * 2**20
    True
    >>> Limits(max_ratio=100, max_memory=500_000_000).memory_budget(10_000_000)
    500000000
    >>> Limits(max_rows=0)
    Traceback (most recent call last):
    ...
    ValueError: max_rows must be a whole number >= 1 or None, got 0
    """

    max_rows: int | None = None
    max_ratio: float | None = None
    max_memory: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "max_rows", check_whole(self.max_rows, name="max_rows", minimum=1, allow_none=True))
        object.__setattr__(self, "max_memory",
                           check_whole(self.max_memory, name="max_memory", minimum=1, allow_none=True))
        object.__setattr__(self, "max_ratio", check_real(self.max_ratio, name="max_ratio", minimum=1, allow_none=True))

    def memory_budget(self, size: int) -> int | None:
        """The most bytes of memory reading a file of ``size`` bytes may take (None: no limit)."""
        budgets = []
        if self.max_ratio is not None:
            budgets.append(int(self.max_ratio * max(int(size), RATIO_FLOOR_BYTES)))
        if self.max_memory is not None:
            budgets.append(self.max_memory)
        return min(budgets) if budgets else None


def _check_limits(limits) -> Limits:
    if limits is None:
        return Limits()
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be a Limits(max_rows=..., max_ratio=..., max_memory=...), got "
                         f"{type(limits).__name__}")
    return limits


# ----------------------------------------------------------------------------- encodings
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"),)
_UNSUPPORTED_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                     (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


#: Files that are not text, by their first bytes: (magic, format, what to do).  Looked at only when the bytes
#: are neither UTF-8 nor GBK, so a text file is never taken for one of these.
BINARY_FORMATS: tuple[tuple[bytes, str, str], ...] = (
    (b"\x1f\x8b", "gzip", "decompress it first (gunzip -k FILE; a run can also be piped in: "
                          "zcat RUN.gz | python -m metrics.runfiles QRELS -)"),
    (b"BZh", "bzip2", "decompress it first (bunzip2 -k FILE)"),
    (b"\xfd7zXZ\x00", "xz", "decompress it first (unxz -k FILE)"),
    (b"\x28\xb5\x2f\xfd", "Zstandard", "decompress it first (unzstd FILE)"),
    (b"PK\x03\x04", "ZIP (or Excel/Office)", "extract the text file from it, or save the sheet as CSV"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip", "extract the text file from it first"),
    (b"%PDF-", "PDF", "qrels and runs are text files (TREC or CSV)"),
)


def binary_format(head: bytes) -> tuple[str, str] | None:
    """The format and the advice for bytes that start like a compressed or binary file, else None.

    Parameters
    ----------
    head : bytes
        The first bytes of the file (8 are enough).

    Returns
    -------
    tuple of (str, str) or None
        ``(format, what to do)``.

    Examples
    --------
    >>> import gzip
    >>> binary_format(gzip.compress(b"q1 0 d1 1\\n"))[0]
    'gzip'
    >>> binary_format(b"q1 0 d1 1") is None
    True
    """
    head = bytes(head[:8])
    for magic, fmt, advice in BINARY_FORMATS:
        if head.startswith(magic):
            return fmt, advice
    return None


def _line_at(data: bytes | memoryview, offset: int) -> int:
    return bytes(data[:offset]).count(b"\n") + 1


def decode(data: bytes, *, name: str = "input") -> tuple[str | None, str | None, Problem | None]:
    """Decode file bytes: UTF-8 (a BOM is dropped), else GBK.

    Returns ``(text, encoding, problem)``; ``text`` is None when neither works.
    UTF-16 and UTF-32 (recognised by their byte-order marks) are reported, not guessed.

    Parameters
    ----------
    data : bytes
        The whole file.
    name : str, default "input"
        The file name used in the problem.

    Returns
    -------
    tuple
        ``(text, encoding, problem)``: the text and "utf-8", "utf-8-sig" or "gbk" with problem None,
        or ``(None, None, Problem)`` of kind "encoding" naming the first undecodable line.

    Examples
    --------
    Chinese document ids saved as GBK, and a UTF-8 file with a byte-order mark:

    >>> decode("q1 0 文档 1".encode("gbk"))[1]
    'gbk'
    >>> decode(codecs.BOM_UTF8 + b"q1 0 d1 1")[:2]
    ('q1 0 d1 1', 'utf-8-sig')

    Bytes 0x80 are neither UTF-8 nor GBK; the problem names line 2:

    >>> decode(b"ok\\n\\x80\\x80\\x80")[2].message
    'input is neither UTF-8 nor GBK: undecodable byte at line 2'
    """
    data = bytes(data)
    for bom, _encoding in _UNSUPPORTED_BOMS:
        if data.startswith(bom):
            # UTF-16/32 are readable but not among the accepted encodings: say so instead of guessing.
            return None, None, Problem(name, 1, "encoding", {})
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[len(codecs.BOM_UTF8):].decode("utf-8"), "utf-8-sig", None
        except UnicodeDecodeError as exc:
            return None, None, Problem(name, _line_at(data, exc.start + 3), "encoding", {})
    try:
        return data.decode("utf-8"), "utf-8", None
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    try:
        return data.decode("gbk"), "gbk", None
    except UnicodeDecodeError as exc:
        found = binary_format(data)
        if found is not None:  # not text at all: name the format instead of an encoding
            return None, None, Problem(name, None, "binary", {"format": found[0], "advice": found[1]})
        return None, None, Problem(name, _line_at(data, max(first_bad, exc.start)), "encoding", {})


# ----------------------------------------------------------------------------- format sniffing
_TREC_FIELDS = {"qrels": 4, "run": 6}
_DELIMITERS = {",": "csv", "\t": "tsv", ";": "csv"}


def _alias_map() -> dict[str, str]:
    return {alias: role for role, names in COLUMN_NAMES.items() for alias in names}


def _first_line(lines, *, last_ended: bool = True) -> tuple[str, bool]:
    """The first of ``lines`` (at most 200 looked at) that is neither blank nor a '#' comment, cut at
    :data:`MAX_HEADER_CHARS`, and whether it is longer than that -- looked at without copying a long line whole
    (a line of millions of fields).  ``last_ended=False``: the last of ``lines`` is cut short (the start of a
    file), so if it is the one found, it counts as longer.

    >>> _first_line(["# a comment", "", "qid,docno,score", "q1,d1,1"])
    ('qid,docno,score', False)
    >>> _first_line(["q1 Q0 d1 1 1.0 t" + " x" * 40_000])[1]
    True
    """
    lines = lines[:200]
    for i, line in enumerate(lines):
        cut = line[: MAX_HEADER_CHARS + 1].rstrip("\r").lstrip("\ufeff")
        stripped = cut.strip()
        if stripped and not stripped.startswith("#"):
            longer = len(cut) > MAX_HEADER_CHARS or len(line) > MAX_HEADER_CHARS + 2 or (
                not last_ended and i == len(lines) - 1)
            return cut[:MAX_HEADER_CHARS], longer
    return "", False


def _leading_comments(head: bytes) -> int:
    """How many lines at the very start of the file are '#' comments (trec_eval 10, ir_metadata headers)."""
    n = 0
    for line in head.split(b"\n")[:-1]:
        if not line.lstrip().lstrip(codecs.BOM_UTF8).startswith(b"#"):
            break
        n += 1
    return n


def _last_tag(source) -> str | None:
    """The run tag (6th field) of the file's last line that is neither blank nor a comment: trec_eval
    reports the tag of the last line."""
    if isinstance(source, Path):
        with open(source, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - (1 << 16)))
            tail = fh.read()
    else:
        tail = bytes(source[-(1 << 16):])
    for line in reversed(tail.split(b"\n")):
        fields = line.split()
        if len(fields) >= 6 and not fields[0].startswith(b"#"):
            return fields[5].decode("utf-8", "replace")
    return None


def _sniff(first: str, columns: dict | None = None) -> tuple[str, str | None, list[str] | None]:
    """(format, delimiter, header) for the first non-empty line (``columns``: role -> name given by the user)."""
    aliases = {**_alias_map(), **{c.strip().lower(): r for r, c in (columns or {}).items()}}
    candidates = [d for d in _DELIMITERS if d in first]
    candidates.sort(key=lambda d: -first.count(d))
    for delim in candidates + [None]:
        fields = next(csv.reader([first], delimiter=delim)) if delim else first.split()
        names = [f.strip().lower() for f in fields]
        roles = {aliases.get(n) for n in names}
        if "qid" in roles and "docno" in roles:
            fmt = _DELIMITERS.get(delim, "whitespace") if delim else "whitespace"
            return fmt, delim, [f.strip() for f in fields]
    return "trec", None, None


# ----------------------------------------------------------------------------- public readers
def read_qrels(source, *, name: str | None = None, max_bytes: int | None = None,
               on_progress: Callable[[float], None] | None = None, columns=None,
               limits: Limits | None = None) -> Parsed:
    """Read a qrels file (TREC ``qid iter docno rel`` or CSV/TSV with a header).

    ``source`` is a path or the file's bytes.  Grades may be any finite number;
    negative grades are kept but count as 0 (as trec_eval does), with a warning.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path to the file, or the file's bytes (an upload).
    name : str, optional
        The file name used in problems.  Default: the path's name, or "input" for bytes.
    max_bytes : int >= 1, optional
        Refuse a larger file with a fatal "too_large" problem (the app's upload limit).  Default
        ``None``: no limit.
    on_progress : callable, optional
        Called with the fraction done (0 to 1) as the read proceeds (a progress bar): between blocks
        and batches of a file read line by line or a Parquet file.  An exception it raises stops the
        read and propagates (a page stops reading when its visitor leaves).
    columns : mapping of str to str, optional
        Role -> column name for CSV/TSV and Parquet columns whose names are not among
        :data:`COLUMN_NAMES` (see :func:`column_roles`), e.g. ``{"qid": "user", "score": "pred"}``.
    limits : Limits, optional
        Rows and memory a file may take (fatal "too_many_rows" / "too_much_memory"
        problems, before the cost is spent).  Default: no limit.

    Returns
    -------
    Parsed
        ``table`` (None when the file cannot be used), ``problems`` (file, 1-based line, kind, text),
        ``ok`` / ``fatal``, ``encoding``, ``format`` ("trec", "csv", "tsv", "whitespace", "parquet").

    Raises
    ------
    ValueError
        For a bad argument only (a path that is not a file, ``max_bytes`` < 1, a source that is
        neither a path nor bytes); a bad file gives problems instead.

    See Also
    --------
    read_run, read_files

    References
    ----------
    .. [1] trec_eval 9.0.8, ``get_qrels.c`` (the qrels format ``qid iter docno rel``).

    Examples
    --------
    >>> p = read_qrels(b"q1 0 d1 2\\nq1 0 d2 0\\nq2 0 d1 1\\n", name="qrels.txt")
    >>> p.ok, p.table.n_rows, p.table.value.tolist()
    (True, 3, [2.0, 0.0, 1.0])

    A CSV file with a header; the negative grade is kept, with a warning:

    >>> p = read_qrels(b"qid,docno,rel\\nq1,d1,2\\nq1,d2,-1\\n", name="q.csv")
    >>> p.format, p.ok, [x.message for x in p.problems]
    ('csv', True, ['q.csv: 1 negative grade(s), first at line 3; they count as 0, as in trec_eval'])
    """
    return read_table(source, kind="qrels", name=name, max_bytes=max_bytes, on_progress=on_progress,
                      columns=columns, limits=limits)


def read_run(source, *, name: str | None = None, max_bytes: int | None = None,
             on_progress: Callable[[float], None] | None = None, columns=None,
             limits: Limits | None = None) -> Parsed:
    """Read a run file (TREC ``qid Q0 docno rank score tag`` or CSV/TSV with a header).

    A document listed twice for one query is reported (trec_eval refuses such
    files); the first line is kept.  Only the score orders documents; the rank column is ignored,
    as trec_eval does.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path to the file, or the file's bytes (an upload).
    name : str, optional
        The file name used in problems.  Default: the path's name, or "input" for bytes.
    max_bytes : int >= 1, optional
        Refuse a larger file with a fatal "too_large" problem (the app's upload limit).  Default
        ``None``: no limit.
    on_progress : callable, optional
        Called with the fraction done (0 to 1) as the read proceeds (a progress bar): between blocks
        and batches of a file read line by line or a Parquet file.  An exception it raises stops the
        read and propagates (a page stops reading when its visitor leaves).
    columns : mapping of str to str, optional
        Role -> column name for CSV/TSV and Parquet columns whose names are not among
        :data:`COLUMN_NAMES` (see :func:`column_roles`), e.g. ``{"qid": "user", "score": "pred"}``.
    limits : Limits, optional
        Rows and memory a file may take (fatal "too_many_rows" / "too_much_memory"
        problems, before the cost is spent).  Default: no limit.

    Returns
    -------
    Parsed
        ``table`` (None when the file cannot be used), ``problems`` (file, 1-based line, kind, text),
        ``ok`` / ``fatal``, ``encoding``, ``format`` ("trec", "csv", "tsv", "whitespace", "parquet").

    Raises
    ------
    ValueError
        For a bad argument only (a path that is not a file, ``max_bytes`` < 1, a source that is
        neither a path nor bytes); a bad file gives problems instead.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``get_trec_results.c`` (the run format ``qid Q0 docno rank score tag``).

    Examples
    --------
    >>> p = read_run(b"q1 Q0 d1 1 0.9 x\\nq1 Q0 d1 2 0.5 x\\n", name="r")
    >>> p.table.n_rows, p.problems[0].kind, p.problems[0].line
    (1, 'duplicate', 2)
    """
    return read_table(source, kind="run", name=name, max_bytes=max_bytes, on_progress=on_progress,
                      columns=columns, limits=limits)


@dataclass(frozen=True)
class FileCheck:
    """What :func:`inspect_file` found: the format ("parquet" or "text"), a text file's encoding, and the
    fatal :class:`Problem` the readers would give before reading a row (None when there is none)."""

    format: str
    encoding: str | None
    problem: Problem | None


def inspect_file(path, *, kind: str, name: str | None = None, columns=None, limits: Limits | None = None) -> FileCheck:
    """Check a file as the readers do before reading its rows, without reading them: for readers that read
    the rows elsewhere (Spark) and must refuse what one machine refuses, with the same message.

    A Parquet file (``PAR1`` magic bytes): its footer, the columns the roles need (present, named once, of
    a usable type) and ``limits`` on its rows and memory.  A text file: compressed or binary content
    and the encoding (UTF-8, else GBK, else refused), checked a block at a time.

    A binary file object (open for reading and seeking: a remote file read on demand, e.g. by Spark's driver
    through Hadoop) is checked by what it costs to read a few bytes: a Parquet file as above (its footer and its
    pages' headers are read, never its pages), a text file by its first 256 KiB (compressed or binary content,
    UTF-16/32, an encoding that is neither UTF-8 nor GBK there, a header too long).

    Parameters
    ----------
    path : str, os.PathLike or binary file object
        A local file, or a seekable binary file.
    kind : {"qrels", "run"}
        What the file holds.
    name : str, optional
        The file name used in the problem.  Default: the path's name (for a file object: its ``name``).
    columns : mapping of str to str, optional
        Role -> column name (see :func:`column_roles`).
    limits : Limits, optional
        Rows and memory a Parquet file may take.

    Returns
    -------
    FileCheck

    Raises
    ------
    ValueError
        For a bad argument (unknown kind, a path that is not a file).

    Examples
    --------
    >>> import gzip, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d, "run.gz")
    ...     _ = p.write_bytes(gzip.compress(b"q1 Q0 d1 1 0.5 x\\n"))
    ...     found = inspect_file(p, kind="run")
    >>> found.format, found.problem.message[:40]
    ('text', 'run.gz is a gzip file, not text: decompr')
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; valid kinds are {', '.join(repr(k) for k in KINDS)}")
    limits = _check_limits(limits)
    given = _check_columns(columns)
    if not isinstance(path, (str, os.PathLike)):
        if not all(callable(getattr(path, m, None)) for m in ("read", "seek")):
            raise ValueError(f"path must be a path or a binary file open for reading and seeking, got "
                             f"{type(path).__name__}")
        return _inspect_stream(path, kind, name or Path(str(getattr(path, "name", "input"))).name, given, limits)
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path} is not a readable file")
    name = name or path.name
    if _is_parquet(path):
        size = path.stat().st_size
        file = _parquet_file(str(path), name, path, size, limits)
        if isinstance(file, Problem):
            return FileCheck("parquet", None, file)
        roles = _parquet_plan(file, name, kind, given, size, limits, path)
        return FileCheck("parquet", None, roles if isinstance(roles, Problem) else None)
    head = _read_head(path, _HEAD_BYTES)
    if not head.strip():
        return FileCheck("text", None, Problem(name, None, "empty", {}))
    encoding, problem = _choose_encoding(path, name)
    if problem is None:  # a header of millions of columns is refused before anything splits it
        text = codecs.getincrementaldecoder("utf-8" if encoding == "utf-8-sig" else encoding)().decode(
            head.removeprefix(codecs.BOM_UTF8) if encoding == "utf-8-sig" else head)
        first, longer = _first_line(text.split("\n", 200), last_ended=len(head) >= path.stat().st_size)
        if longer and _sniff(first, given)[2] is not None:
            problem = Problem(name, 1, "long_header", {"header": first, "limit": MAX_HEADER_CHARS})
    return FileCheck("text", encoding, problem)


def _inspect_stream(file, kind: str, name: str, given: dict, limits: Limits) -> FileCheck:
    """:func:`inspect_file` of a seekable binary file: the few bytes the checks need are read, never the rows."""
    size = file.seek(0, io.SEEK_END)
    if _read_at(file, 0, 4) == _PARQUET_MAGIC:  # a Parquet file is read from its end
        found = _parquet_file(file, name, file, size, limits)
        if isinstance(found, Problem):
            return FileCheck("parquet", None, found)
        roles = _parquet_plan(found, name, kind, given, size, limits, file)
        return FileCheck("parquet", None, roles if isinstance(roles, Problem) else None)
    head = _read_at(file, 0, _HEAD_BYTES)
    if not head.strip():
        return FileCheck("text", None, Problem(name, None, "empty", {}))
    whole = len(head) >= size
    # the head's encoding, up to its last newline when the file goes on (a character may be cut at the end)
    checked = head if whole or b"\n" not in head else head[: head.rindex(b"\n") + 1]
    encoding, problem = _choose_encoding(checked, name)
    if problem is None:
        text = codecs.getincrementaldecoder("utf-8" if encoding == "utf-8-sig" else encoding)().decode(
            head.removeprefix(codecs.BOM_UTF8) if encoding == "utf-8-sig" else head)
        first, longer = _first_line(text.split("\n", 200), last_ended=whole)
        if longer and _sniff(first, given)[2] is not None:
            problem = Problem(name, 1, "long_header", {"header": first, "limit": MAX_HEADER_CHARS})
    return FileCheck("text", encoding, problem)


def _read_at(source, offset: int, n: int) -> bytes:
    """``n`` bytes of a file from ``offset`` (fewer at its end): a path, the file's bytes, or a binary file object."""
    if isinstance(source, Path):
        with open(source, "rb") as fh:
            fh.seek(offset)
            return fh.read(n)
    if callable(getattr(source, "seek", None)) and callable(getattr(source, "read", None)):
        source.seek(offset)
        return source.read(n)
    return bytes(memoryview(source).cast("B")[offset: offset + n])


def read_files(qrels, runs, *, max_bytes: int | None = None, threads: int | None = None, qrels_columns=None,
               run_columns=None, limits: Limits | None = None) -> tuple[Parsed, list[Parsed]]:
    """Read a qrels file and run files concurrently; the same as :func:`read_qrels` and
    :func:`read_run` one after another, in the given order.

    pyarrow's reader, numpy and the numba kernels release the GIL, so the single-threaded
    parts of one file's read (dictionary encoding, checks) overlap with the reading of
    another: on 2 cores, 10^7 run lines and 2 x 10^6 qrels lines are read in about 0.5 s less
    (``benchmarks/run_files.py``).  ``threads`` defaults to the CPU count (at most 4).

    Parameters
    ----------
    qrels : str, os.PathLike or bytes
        The qrels file (path or bytes).
    runs : sequence of str, os.PathLike or bytes
        The run files; a single path or bytes (not in a list) is refused.
    max_bytes : int >= 1, optional
        As for :func:`read_qrels`, for every file.
    threads : int >= 1, optional
        Files read at once.  Default ``None``: the CPU count, at most 4.
    qrels_columns, run_columns : mapping of str to str, optional
        ``columns`` of :func:`read_qrels` and of every :func:`read_run` (named CSV/TSV/Parquet columns).
    limits : Limits, optional
        As for :func:`read_qrels`, for every file.

    Returns
    -------
    tuple
        ``(qrels, runs)``: a :class:`Parsed` and a list of Parsed in the order given.

    Raises
    ------
    ValueError
        If ``runs`` is a single file, ``threads`` or ``max_bytes`` is invalid, or a source is
        neither a path nor bytes.

    Examples
    --------
    >>> q, (r,) = read_files(b"q1 0 d1 1\\n", [b"q1 Q0 d1 1 0.5 x\\n"])
    >>> q.table.n_rows, r.table.n_rows, r.name
    (1, 1, 'input')
    """
    if isinstance(runs, (str, bytes, bytearray, memoryview, os.PathLike)):
        raise ValueError("runs must be a list of paths or byte strings, not a single one")
    runs = list(runs)
    max_bytes = _check_max_bytes(max_bytes)
    if threads is None:
        threads = min(os.cpu_count() or 1, 4)
    threads = check_whole(threads, name="threads", minimum=1)
    cols = {"qrels": _check_columns(qrels_columns) or None, "run": _check_columns(run_columns) or None}
    limits = _check_limits(limits)
    jobs = [("qrels", qrels)] + [("run", r) for r in runs]
    if threads == 1 or len(jobs) == 1:
        done = [read_table(src, kind=kind, max_bytes=max_bytes, columns=cols[kind], limits=limits)
                for kind, src in jobs]
    else:
        with ThreadPoolExecutor(max_workers=min(int(threads), len(jobs))) as pool:
            futures = [pool.submit(read_table, src, kind=kind, max_bytes=max_bytes, columns=cols[kind], limits=limits)
                       for kind, src in jobs]
            done = [f.result() for f in futures]  # re-raises a bad argument's ValueError here
    return done[0], done[1:]


def _check_max_bytes(max_bytes) -> int | None:
    return check_whole(max_bytes, name="max_bytes", minimum=1, allow_none=True)


def read_table(source, *, kind: str, name: str | None = None, max_bytes: int | None = None,
               on_progress: Callable[[float], None] | None = None, columns=None,
               limits: Limits | None = None) -> Parsed:
    """Read a qrels (``kind="qrels"``) or run (``kind="run"``) file; see :func:`read_qrels`.

    Clean files take pyarrow's multi-threaded reader; a file with any irregularity is re-read line
    by line so that every problem names its line.  Parquet files (``PAR1`` magic bytes) go to
    :func:`read_parquet`.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path to the file, or the file's bytes (an upload).
    kind : {"qrels", "run"}
        What the file is.
    name : str, optional
        The file name used in problems.  Default: the path's name, or "input" for bytes.
    max_bytes : int >= 1, optional
        Refuse a larger file with a fatal "too_large" problem (the app's upload limit).  Default
        ``None``: no limit.
    on_progress : callable, optional
        Called with the fraction done (0 to 1) as the read proceeds (a progress bar): between blocks
        and batches of a file read line by line or a Parquet file.  An exception it raises stops the
        read and propagates (a page stops reading when its visitor leaves).
    columns : mapping of str to str, optional
        Role -> column name for CSV/TSV and Parquet columns whose names are not among
        :data:`COLUMN_NAMES` (see :func:`column_roles`), e.g. ``{"qid": "user", "score": "pred"}``.
    limits : Limits, optional
        Rows and memory a file may take (fatal "too_many_rows" / "too_much_memory"
        problems, before the cost is spent).  Default: no limit.

    Returns
    -------
    Parsed
        ``table`` (None when the file cannot be used), ``problems`` (file, 1-based line, kind, text),
        ``ok`` / ``fatal``, ``encoding``, ``format`` ("trec", "csv", "tsv", "whitespace", "parquet").

    Raises
    ------
    ValueError
        For a bad argument only (a path that is not a file, ``max_bytes`` < 1, a source that is
        neither a path nor bytes); a bad file gives problems instead.
        Also for an unknown ``kind``.

    Examples
    --------
    >>> read_table(b"q1 0 d1 1\\n", kind="qrels").ok
    True
    >>> read_table(b"q1 0 d1 1\\n", kind="judgments")
    Traceback (most recent call last):
    ...
    ValueError: unknown kind 'judgments'; valid kinds are 'qrels', 'run'
    """
    if not isinstance(kind, str) or kind not in KINDS:
        valid = ", ".join(repr(k) for k in KINDS)
        raise ValueError(f"unknown kind {kind!r}; valid kinds are {valid}")
    max_bytes = _check_max_bytes(max_bytes)
    limits = _check_limits(limits)
    path = None
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = name or path.name
        if not path.is_file():
            raise ValueError(f"{path} is not a readable file")
        size = path.stat().st_size
    elif isinstance(source, (bytes, bytearray, memoryview)):
        name = name or "input"
        size = len(source)
    else:
        raise ValueError(f"source must be a path or bytes, got {type(source).__name__}")
    progress = on_progress or (lambda _f: None)

    if max_bytes is not None and size > max_bytes:
        problem = Problem(name, None, "too_large", {"size_mb": size / 1e6, "limit_mb": max_bytes / 1e6})
        return Parsed(name, kind, None, [problem], n_problems=1)
    columns = _check_columns(columns) or None
    if size >= 12 and _is_parquet(path if path is not None else source):
        out = read_parquet(path if path is not None else source, kind=kind, name=name, columns=columns,
                           limits=limits, on_progress=progress)
        progress(1.0)
        return out

    with (open(path, "rb") if path is not None else io.BytesIO(bytes(source[:_HEAD_BYTES]))) as fh:
        head = fh.read(_HEAD_BYTES)
    if not head.strip():
        return Parsed(name, kind, None, [Problem(name, None, "empty", {})], n_problems=1)

    head_text, head_enc = _head_utf8(head)
    fast = None
    if head_text is not None:
        first, longer = _first_line(head_text.split("\n", 200), last_ended=len(head) >= size)
        fmt, delim, header = _sniff(first, columns)
        if header is not None and longer:
            return _long_header(name, kind, fmt, first, head_enc)
        n_fields = len(first.split())
        # trec_eval 10 ignores fields after a run line's tag; a qrels line has exactly 4.  A first line longer than
        # MAX_HEADER_CHARS is not for pyarrow (its parser would hold every field of its block): line by line.
        if not longer and not (fmt == "trec" and (n_fields < _TREC_FIELDS[kind]
                                                  or (kind == "qrels" and n_fields != 4))):
            fast = _fast_read(path if path is not None else source, kind, name, fmt, delim, header, head_enc,
                              columns)
    progress(0.5)
    if fast is not None:
        progress(1.0)
        return _row_limit(fast, limits)

    # Slow path: read it line by line (a block of text at a time).
    out = _slow_read(path if path is not None else source, kind, name, columns, progress)
    progress(1.0)
    return _row_limit(out, limits)


def _long_header(name: str, kind: str, fmt: str, first: str, encoding: str | None) -> Parsed:
    problem = Problem(name, 1, "long_header", {"header": first, "limit": MAX_HEADER_CHARS})
    return Parsed(name, kind, None, [problem], encoding=encoding, format=fmt, n_problems=1)


def _row_limit(parsed: Parsed, limits: Limits) -> Parsed:
    """A text file's rows against ``limits.max_rows`` (its bytes bound what reading it cost)."""
    if limits.max_rows is None or parsed.table is None or parsed.table.n_rows <= limits.max_rows:
        return parsed
    problem = Problem(parsed.name, None, "too_many_rows", {"rows": parsed.table.n_rows, "limit": limits.max_rows})
    return Parsed(parsed.name, parsed.kind, None, [problem], encoding=parsed.encoding, format=parsed.format,
                  n_lines=parsed.n_lines, n_problems=1)


def _head_utf8(head: bytes) -> tuple[str | None, str | None]:
    """The start of a file as text if it is UTF-8 (possibly cut inside a character)."""
    if any(head.startswith(bom) for bom, _ in _UNSUPPORTED_BOMS):
        return None, None
    enc = "utf-8-sig" if head.startswith(codecs.BOM_UTF8) else "utf-8"
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(head.removeprefix(codecs.BOM_UTF8), final=False)
    except UnicodeDecodeError:
        return None, None
    return text, enc


# ----------------------------------------------------------------------------- fast path
# pyarrow's CSV reader. Bytes (an upload on the shared server): one thread over 1 MiB blocks, a 90 MB run
# peaks at ~1.6x its size while read (~2.4x on two threads over 16 MiB blocks). Files on disk (the CLI):
# two threads over 16 MiB blocks, twice as fast at 10^7 lines (benchmarks/upload_memory.py,
# benchmarks/run_files.py).
_ARROW_READ_BYTES = dict(use_threads=False, block_size=1 << 20)
_ARROW_READ_FILE = dict(use_threads=True, block_size=1 << 24)


def _fast_read(source, kind, name, fmt, delim, header, encoding, columns=None) -> Parsed | None:
    """pyarrow read of a clean UTF-8 file, or None when anything is irregular."""
    if fmt == "whitespace":
        return None
    is_path = isinstance(source, Path)
    arrow_read = _ARROW_READ_FILE if is_path else _ARROW_READ_BYTES
    if fmt == "trec":
        spec = _trec_spec(kind)
        head = _read_head(source)
        comments = _leading_comments(head)
        first = head.split(b"\n")[comments] if head.count(b"\n") > comments else b""
        delimiter = "\t" if b"\t" in first else " "
        names = list(spec["names"])
        if kind == "run":  # extra fields after the tag (trec_eval 10 ignores them)
            names += [f"extra{i}" for i in range(max(0, len(first.split()) - len(names)))]
        read = pacsv.ReadOptions(column_names=names, skip_rows=comments, **arrow_read)
        parse = dict(delimiter=delimiter, quote_char=False, escape_char=False, double_quote=False,
                     newlines_in_values=False)
        types, keep, header_lines = spec["types"], spec["keep"], comments
    else:
        roles = _header_roles(header, kind, columns)
        if isinstance(roles, Problem) or len({f.lower() for f in header}) != len(header):
            return None
        read = pacsv.ReadOptions(**arrow_read)
        parse = dict(delimiter=delim, newlines_in_values=False)
        types = {header[i]: (pa.float64() if role in ("rel", "score", "rank") else pa.string())
                 for role, i in roles.items()}
        keep, header_lines = list(types), 1
    # Query ids come as dictionary codes straight from the parser: ~10 bytes a row of strings (and their
    # concatenation) never exist.
    qid_name = "qid" if fmt == "trec" else header[roles["qid"]]
    types = {**types, qid_name: pa.dictionary(pa.int32(), pa.string())}
    convert = pacsv.ConvertOptions(column_types=types, include_columns=keep, null_values=[],
                                   strings_can_be_null=False, quoted_strings_can_be_null=False)
    # First without skipping blank lines: a blank line then fails to convert, so success means every line
    # is a row.  Failing that, skip blank lines and count lines afterwards (blank lines at the end are fine).
    table, blank_lines_skipped = None, False
    for skip_blank in (False, True):
        try:
            src = str(source) if is_path else pa.BufferReader(pa.py_buffer(source))
            table = pacsv.read_csv(src, read_options=read, convert_options=convert,
                                   parse_options=pacsv.ParseOptions(ignore_empty_lines=skip_blank, **parse))
            blank_lines_skipped = skip_blank
            break
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError, ValueError):
            continue
    if table is None:
        return None
    n_rows = table.num_rows
    if n_rows == 0:
        return None
    if fmt == "trec":
        qid, docno, value = table.column("qid"), table.column("docno"), table.column(spec["value"])
        tag = _last_tag(source) if kind == "run" else None
    else:
        cols = {role: table.column(header[i]) for role, i in roles.items()}
        qid, docno, tag = cols["qid"], cols["docno"], None
        value = cols["rel"] if kind == "qrels" else cols.get("score")
        if value is None:
            value = pc.negate(cols["rank"])
        del cols
    del table  # each column is freed once it is combined below
    values = np.ascontiguousarray(value.to_numpy(), dtype=np.float64)
    del value
    # Irregularities that need line numbers go to the slow path.
    if not np.isfinite(values).all() or (kind == "qrels" and (values < 0).any()):
        return None
    qid, docno = _combine(qid), _combine(docno)
    # An empty field changes the field count of a TREC line (caught above); in CSV it does not.
    if fmt != "trec" and (pc.min(pc.utf8_length(qid.dictionary)).as_py() == 0
                          or pc.min(pc.utf8_length(docno)).as_py() == 0):
        return None
    if fmt == "trec" and pc.any(pc.starts_with(qid.dictionary, "#")).as_py():
        return None  # a comment line further down: read line by line
    if _longest(qid.dictionary) > MAX_ID_CHARS or _longest(docno) > MAX_ID_CHARS:
        return None  # an id too long: the line-by-line reader names its line
    docno = _checked_docnos(qid, docno)
    if docno is None:
        return None
    # When pyarrow skipped blank lines, rows are lines only if all of them were at the end.
    if blank_lines_skipped and _count_lines(source) != n_rows + header_lines:
        return None
    out = Table(name, kind, qid, docno, values, None, header_lines, tag)
    return Parsed(name, kind, out, [], encoding=encoding, format=fmt, n_lines=n_rows + header_lines)


def _longest(values: pa.Array) -> int:
    """The most characters of a string array's values (0 when empty)."""
    if pa.types.is_dictionary(values.type):
        values = values.dictionary
    return int(pc.max(pc.utf8_length(values)).as_py() or 0) if len(values) else 0


def _combine(values) -> pa.Array:
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def pack8(values: pa.Array) -> np.ndarray | None:
    """Each id of at most 8 bytes as one uint64 (big-endian, zero-padded), or None if an id is longer.

    The packing is exact (ids hold no NUL byte) and keeps byte order, so it is a key for
    hashing without hashing the strings (much faster than a string dictionary for 10^7 ids).
    """
    if not pa.types.is_string(values.type) or values.null_count:
        return None
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], np.int32)[values.offset: values.offset + n + 1]
    data = np.frombuffer(values.buffers()[2], np.uint8) if values.buffers()[2] is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    if n == 0 or int(lengths.max()) > 8:
        return None
    used = data[offsets[0]: offsets[-1]]
    if not used.all():
        return None  # a NUL byte would make the zero padding ambiguous
    lmax = int(lengths.max())
    mat = np.zeros((n, 8), np.uint8)
    if int(lengths.min()) == lmax:
        mat[:, :lmax] = used.reshape(n, lmax)
    else:
        starts = offsets[:-1]
        for j in range(lmax):
            has = lengths > j
            mat[has, j] = data[starts[has] + j]
    return mat.view(">u8").ravel().astype(np.uint64)


def _encode_ids(values: pa.Array) -> pa.DictionaryArray:
    """Dictionary-encode document ids; ids of <= 8 bytes go through an exact integer packing."""
    key = pack8(values) if len(values) >= _PACK_MIN_ROWS else None
    if key is None:
        return as_dictionary(values)
    codes, first = factorize_u64(key)
    return pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32()), values.take(pa.array(first)))


def _count_lines(source) -> int:
    """Lines in the file, not counting blank lines at its end."""
    if not isinstance(source, Path):
        data = bytes(source).rstrip(b"\r\n")
        return data.count(b"\n") + 1 if data else 0
    size = source.stat().st_size
    with open(source, "rb") as fh:
        count = 0
        while block := fh.read(1 << 24):
            count += block.count(b"\n")
        fh.seek(max(0, size - 4096))
        tail = fh.read()
    trailing = tail[len(tail.rstrip(b"\r\n")):]
    return count - trailing.count(b"\n") + 1


def as_dictionary(values: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """Ids dictionary-encoded (unchanged when they already are).

    Parameters
    ----------
    values : pyarrow.Array or pyarrow.ChunkedArray
        Ids (chunks are combined first).

    Returns
    -------
    pyarrow.DictionaryArray
        ``.indices`` are integer codes in order of first appearance, ``.dictionary`` the distinct ids.

    Examples
    --------
    "b" is seen first (code 0), then "a" (code 1):

    >>> as_dictionary(pa.array(["b", "a", "b"])).indices.to_pylist()
    [0, 1, 0]
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if isinstance(values, pa.DictionaryArray):
        return values
    return pc.dictionary_encode(values)


def _read_head(source, n: int = 1 << 12) -> bytes:
    if isinstance(source, Path):
        with open(source, "rb") as fh:
            return fh.read(n)
    return bytes(source[:n])


def _trec_spec(kind: str) -> dict:
    if kind == "qrels":
        names = ["qid", "iter", "docno", "rel"]
        return {"names": names, "keep": ["qid", "docno", "rel"], "value": "rel",
                "types": {"qid": pa.string(), "iter": pa.string(), "docno": pa.string(), "rel": pa.float64()}}
    names = ["qid", "q0", "docno", "rank", "score", "tag"]
    return {"names": names, "keep": ["qid", "docno", "score"], "value": "score",
            "types": {"qid": pa.string(), "q0": pa.string(), "docno": pa.string(), "rank": pa.string(),
                      "score": pa.float64(), "tag": pa.string()}}


def _has_duplicates(qid: pa.DictionaryArray, docno: pa.DictionaryArray) -> bool:
    if len(docno.dictionary) == len(docno):
        return False  # every document id occurs once
    return has_duplicate_pairs(qid.indices.to_numpy(), docno.indices.to_numpy(), len(docno.dictionary))


def _checked_docnos(qid: pa.DictionaryArray, docno: pa.Array) -> pa.Array | None:
    """The document ids for a :class:`Table`, or None when a (query, document) pair repeats.

    Large files whose queries each come in one block keep plain strings, checked block by
    block on their bytes (10^6 ids: ~17 ms on 2 cores instead of ~150 ms to encode them and check codes).
    """
    if use_numba(len(docno)) and pa.types.is_string(docno.type):
        starts = query_blocks(qid.indices.to_numpy())
        if starts is not None:
            data, offsets = string_buffers(docno)
            return None if first_duplicate_string(starts, data, offsets) >= 0 else docno
    docno = _encode_ids(docno)
    return None if _has_duplicates(qid, docno) else docno


def id_strings(values: pa.Array | pa.ChunkedArray) -> pa.StringArray:
    """Ids as one plain string array, whether dictionary-encoded or not.

    Parameters
    ----------
    values : pyarrow.Array or pyarrow.ChunkedArray
        Ids, dictionary-encoded or not; non-string ids are cast to strings.

    Returns
    -------
    pyarrow.StringArray

    Examples
    --------
    >>> id_strings(pa.array(["b", "a", "b"]).dictionary_encode()).to_pylist()
    ['b', 'a', 'b']
    """
    values = _combine(values)
    if isinstance(values, pa.DictionaryArray):
        values = values.dictionary_decode()
    if not pa.types.is_string(values.type):
        values = values.cast(pa.string())
    return values


def string_buffers(values: pa.StringArray) -> tuple[np.ndarray, np.ndarray]:
    """The UTF-8 bytes and the ``len + 1`` int32 offsets of a string array (read-only views, no copy).

    Always read-only, whatever the buffer: numba compiles (and loads from its cache) one
    version per array type, and a second version costs ~0.2 s at its first use.

    Parameters
    ----------
    values : pyarrow.StringArray
        Plain (not dictionary-encoded) strings.

    Returns
    -------
    tuple of numpy.ndarray
        ``(data, offsets)``: string ``i`` is ``data[offsets[i]:offsets[i + 1]]``.

    Raises
    ------
    ValueError
        If ``values`` is not a pyarrow string array.

    Examples
    --------
    "ab" is bytes 0-2, "" is empty (2-2), "c" is 2-3:

    >>> data, offsets = string_buffers(pa.array(["ab", "", "c"]))
    >>> bytes(data[offsets[0]:offsets[1]]), offsets.tolist()
    (b'ab', [0, 2, 2, 3])
    """
    if not pa.types.is_string(values.type):
        raise ValueError(f"string_buffers needs a pyarrow string array, got {values.type}")
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], np.int32)[values.offset: values.offset + n + 1]
    data = values.buffers()[2]
    data = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
    return _read_only(data), _read_only(offsets)


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def _header_roles(header: list[str], kind: str, columns: dict | None = None) -> dict[str, int] | Problem:
    if columns:
        named = column_roles(header, kind, columns)
        if isinstance(named, Problem):
            return named
        return {role: header.index(col) for role, col in named.items() if role != "tag"}
    aliases = _alias_map()
    roles: dict[str, int] = {}
    for i, col in enumerate(header):
        role = aliases.get(col.strip().lower())
        if role is not None and role not in roles:
            roles[role] = i
    needed = ["qid", "docno"]
    if kind == "qrels":
        if "rel" not in roles and "score" in roles:
            roles["rel"] = roles.pop("score")  # a qrels CSV whose grade column is called "score"
        needed.append("rel")
    elif "score" not in roles and "rank" not in roles:
        needed.append("score")
    for role in needed:
        if role not in roles:
            accepted = ", ".join(COLUMN_NAMES[role])
            return Problem("", 1, "header", {"role": role, "header": ", ".join(header), "accepted": accepted})
    keep = {"qid", "docno", "rel"} if kind == "qrels" else {"qid", "docno", "score", "rank"}
    return {r: i for r, i in roles.items() if r in keep}


# ----------------------------------------------------------------------------- slow path
class _Collector:
    def __init__(self, name: str):
        self.name = name
        self.listed: list[Problem] = []
        self.count = 0

    def add(self, line, kind, **params):
        self.count += 1
        if len(self.listed) < MAX_LISTED:
            self.listed.append(Problem(self.name, line, kind, params))

    def finish(self) -> list[Problem]:
        listed = sorted(self.listed, key=lambda p: (p.line is None, p.line or 0))
        extra = self.count - len(listed)
        if extra > 0:
            return listed + [Problem(self.name, None, "more", {"count": extra})]
        return listed


def _number(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _clip(text: str) -> str:
    return shorten(text)


#: Bytes of a file decoded at a time by the line-by-line reader (whole lines; a longer line is read whole).
SLOW_BLOCK_BYTES = 1 << 20
#: Rows the line-by-line reader holds as Python objects before it packs them into Arrow arrays: memory
#: stays near the fast path's whatever the file's size (``benchmarks/upload_memory.py --bad-line``).
SLOW_CHUNK_ROWS = 1 << 16


class _NotDecodable(Exception):
    """A block of whole lines is not in the encoding tried; ``offset`` is the first bad byte in the file."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


def _reader_of(source):
    """``(read, close)`` for a path or the file's bytes: ``read(n)`` gives the next ``n`` bytes (fewer at the end)."""
    if isinstance(source, Path):
        fh = open(source, "rb")
        return fh.read, fh.close
    view, pos = memoryview(source).cast("B"), 0

    def read(n):
        nonlocal pos
        out = bytes(view[pos: pos + n])
        pos += len(out)
        return out

    return read, lambda: None


def _raw_blocks(source, block: int | None = None):
    """(offset, bytes) of the file's blocks of ``block`` bytes (default :data:`SLOW_BLOCK_BYTES`), cut anywhere."""
    block = block or SLOW_BLOCK_BYTES
    read, close = _reader_of(source)
    try:
        offset = 0
        while data := read(block):
            yield offset, data
            offset += len(data)
    finally:
        close()


def _byte_blocks(source, block: int | None = None):
    """(offset, [bytes]) of the file's blocks, each ending after a newline (the last one: the file's end);
    ``block`` bytes are read at a time (default :data:`SLOW_BLOCK_BYTES`).  The block comes in a one-item list
    that the caller empties: then the caller's reference is the only one (a long line's bytes are freed as soon
    as the caller has its text)."""
    block = block or SLOW_BLOCK_BYTES
    read, close = _reader_of(source)
    try:
        pending, offset = [], 0  # the pieces of a line that has not ended yet
        while True:
            data = read(block)
            if not data:
                if pending:
                    yield offset, [b"".join(pending)]
                return
            cut = data.rfind(b"\n") + 1
            if cut == 0:  # no newline yet: a long line, read on (its pieces joined once, when it ends)
                pending.append(data)
                continue
            out = b"".join([*pending, data[:cut]]) if pending else (data if cut == len(data) else data[:cut])
            pending = [data[cut:]] if cut < len(data) else []
            del data
            size = len(out)
            box = [out]
            del out
            yield offset, box
            offset += size
    finally:
        close()


def _decoded_lines(source, encoding: str, on_block=None):
    """The file's lines as text (without "\\n"), as ``text.split("\\n")`` gives them minus a last empty one;
    raises :class:`_NotDecodable` at the first block that is not ``encoding``.  ``on_block`` is called with
    the bytes read so far before each block's lines."""
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    for offset, box in _byte_blocks(source):
        data = box.pop()
        if on_block is not None:
            on_block(offset + len(data))
        skip = len(codecs.BOM_UTF8) if offset == 0 and encoding == "utf-8-sig" else 0
        try:
            text = str(memoryview(data)[skip:], codec)  # decoded in place: a long line is not copied first
        except UnicodeDecodeError as exc:
            raise _NotDecodable(offset + skip + exc.start) from None
        del data  # the block's bytes, as soon as they are text
        lines = text.split("\n")
        del text
        if lines[-1] == "":
            lines.pop()
        yield from lines
        del lines


def _line_at_offset(source, offset: int) -> int:
    """The 1-based line of a byte offset."""
    count = 0
    for start, data in _raw_blocks(source):
        if start + len(data) > offset:
            return count + data[: offset - start].count(b"\n") + 1
        count += data.count(b"\n")
    return count + 1


class _Rows:
    """Rows read line by line, packed into Arrow arrays every :data:`SLOW_CHUNK_ROWS` rows."""

    def __init__(self):
        self.qids: list[str] = []
        self.docnos: list[str] = []
        self.values: list[float] = []
        self.lines: list[int] = []
        self.parts: list[tuple[pa.Array, pa.Array, np.ndarray, np.ndarray]] = []
        self.count = 0

    def add(self, qid: str, docno: str, value: float, line: int) -> None:
        self.qids.append(qid)
        self.docnos.append(docno)
        self.values.append(value)
        self.lines.append(line)
        if len(self.values) >= SLOW_CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.values:
            qid = pc.dictionary_encode(pa.array(self.qids, pa.string()))
            self.parts.append((qid, pa.array(self.docnos, pa.string()), np.asarray(self.values, np.float64),
                               np.asarray(self.lines, np.int64)))
            self.count += len(self.values)
            self.qids, self.docnos, self.values, self.lines = [], [], [], []

    def arrays(self):
        """(qid, docno, values, lines): qid dictionary-encoded in order of first appearance, docno plain."""
        self.flush()
        parts, self.parts = self.parts, []
        qid = _first_appearance([p[0] for p in parts])
        docno = pa.concat_arrays([p[1] for p in parts]) if parts else pa.array([], pa.string())
        values = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0)
        lines = np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, np.int64)
        return qid, docno, values, lines


def _without_repeats(qid: pa.DictionaryArray, docno: pa.DictionaryArray, values: np.ndarray, line_of,
                     problems: _Collector):
    """The first row of each (query, document) pair; every later one a "duplicate" problem.  Returns
    ``(qid, docno, values, kept)``, ``kept`` the positions of the rows kept."""
    key = qid.indices.to_numpy().astype(np.int64) * max(len(docno.dictionary), 1) + docno.indices.to_numpy()
    again = pd.Series(key, copy=False).duplicated(keep="first").to_numpy()
    repeats = np.flatnonzero(again)
    keep = np.flatnonzero(~again)
    listed = repeats[:MAX_LISTED]
    first_row = keep[pd.Index(key[keep]).get_indexer(key[listed])]  # the first row of each listed pair
    for i, first in zip(listed, first_row):
        problems.add(line_of(i), "duplicate", docno=_clip(docno.dictionary[docno.indices[i].as_py()].as_py()),
                     qid=_clip(qid.dictionary[qid.indices[i].as_py()].as_py()), first=line_of(first))
    problems.count += max(0, repeats.size - MAX_LISTED)
    del key, again, repeats
    take = pa.array(keep)
    return _first_appearance([qid.take(take)]), docno.take(take), values[keep], keep


def _source_size(source) -> int:
    return source.stat().st_size if isinstance(source, Path) else len(memoryview(source).cast("B"))


def _choose_encoding(source, name: str) -> tuple[str | None, Problem | None]:
    """The file's encoding as :func:`decode` chooses it (UTF-8 with or without a byte-order mark, else GBK),
    checked block by block without holding the text; or the "encoding"/"binary" problem decode gives."""
    head = _read_head(source, 8)
    for bom, _encoding in _UNSUPPORTED_BOMS:
        if head.startswith(bom):
            return None, Problem(name, 1, "encoding", {})
    tries = ["utf-8-sig"] if head.startswith(codecs.BOM_UTF8) else ["utf-8", "gbk"]
    bad_at = 0
    for encoding in tries:
        codec = "utf-8" if encoding == "utf-8-sig" else encoding
        decoder = codecs.getincrementaldecoder(codec)()  # blocks cut anywhere; a long line is never held whole
        try:
            for offset, data in _raw_blocks(source):
                skip = len(codecs.BOM_UTF8) if offset == 0 and encoding == "utf-8-sig" else 0
                pending = len(decoder.getstate()[0])  # bytes of a character cut by the previous block
                try:
                    decoder.decode(data[skip:] if skip else data)
                except UnicodeDecodeError as exc:
                    raise _NotDecodable(offset + skip - pending + exc.start) from None
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(b"", final=True)
            except UnicodeDecodeError as exc:
                raise _NotDecodable(_source_size(source) - pending + exc.start) from None
            return encoding, None
        except _NotDecodable as exc:
            bad_at = max(bad_at, exc.offset)
    if tries == ["utf-8", "gbk"]:
        found = binary_format(head)
        if found is not None:  # not text at all: name the format instead of an encoding
            return None, Problem(name, None, "binary", {"format": found[0], "advice": found[1]})
    return None, Problem(name, _line_at_offset(source, bad_at), "encoding", {})


def _slow_read(source, kind: str, name: str, columns: dict | None = None, progress=None) -> Parsed:
    """Read a file line by line, every problem with its line: the text is decoded a block at a time and the
    rows packed into Arrow arrays every :data:`SLOW_CHUNK_ROWS`, so one bad line in a big file costs about
    what the file costs on the fast path, not the many times its size that Python objects for every line
    and field took (``benchmarks/upload_memory.py --bad-line``)."""
    encoding, problem = _choose_encoding(source, name)
    if problem is not None:
        return Parsed(name, kind, None, [problem], n_problems=1)
    size = source.stat().st_size if isinstance(source, Path) else len(memoryview(source).cast("B"))
    progress = progress or (lambda _f: None)
    lines = _decoded_lines(source, encoding, lambda done: progress(0.5 + 0.5 * done / max(size, 1)))
    head = list(itertools.islice(lines, 200))
    first, longer = _first_line(head)
    lines = itertools.chain(head, lines)
    del head
    problems = _Collector(name)
    fmt, delim, header = _sniff(first, columns)
    if header is not None and longer:
        return _long_header(name, kind, fmt, first, encoding)
    out = _Rows()
    tag = None
    n_lines = 0
    value_name = "grade" if kind == "qrels" else "score"

    if fmt == "trec":
        expected = _TREC_FIELDS[kind]
        other = "run" if kind == "qrels" else "qrels"
        if not longer and len(first.split(None, 7)) == _TREC_FIELDS[other]:
            n_lines = sum(1 for _ in lines)
            p = Problem(name, None, "wrong_kind", {"found": other, "fields": _TREC_FIELDS[other], "expected": kind})
            return Parsed(name, kind, None, [p], encoding=encoding, format=fmt, n_lines=n_lines, n_problems=1)
        di, vi = 2, (3 if kind == "qrels" else 4)
        for i, raw in enumerate(lines, start=1):
            n_lines = i
            # The fields a line needs: fields after a run's tag are ignored (trec_eval 10), and a line of millions
            # of them is never split into millions of strings.
            fields, more = _line_fields(raw, expected)
            if not fields or fields[0].startswith("#"):  # blank line or comment (trec_eval 10)
                continue
            if len(fields) < expected or (kind == "qrels" and more):
                problems.add(i, "fields", found=_count_fields(raw), format=f"TREC {kind}", expected=expected)
                continue
            value = _number(fields[vi])
            if value is None:
                problems.add(i, "number", column=value_name, token=_clip(fields[vi]))
                continue
            if _long_id(problems, i, fields[0], fields[di], "qid", "docno"):
                continue
            if kind == "run":
                tag = fields[5][:MAX_ID_CHARS]  # trec_eval keeps the last line's tag (a run's name)
            out.add(fields[0], fields[di], value, i)
        header_lines = 0
    else:
        roles = _header_roles(header, kind, columns)
        if isinstance(roles, Problem):
            n_lines = sum(1 for _ in lines)
            p = Problem(name, 1, "header", roles.params)
            return Parsed(name, kind, None, [p], encoding=encoding, format=fmt, n_lines=n_lines, n_problems=1)
        vrole = "rel" if kind == "qrels" else ("score" if "score" in roles else "rank")
        sign = -1.0 if vrole == "rank" else 1.0
        width = len(header)
        header_seen = False
        counted = _Counted(lines)
        body = (ln.rstrip("\r") for ln in counted)
        if delim is None:  # whitespace-separated with a header: as a TREC line, never split past what is needed
            wide = None
            rows = ((i, fields, _count_fields(ln) if more else None)
                    for i, ln in enumerate(body, start=1) for fields, more in [_line_fields(ln, width)])
        else:
            wide = _CsvLines(width, delim)
            reader = csv.reader((wide.feed(ln, counted.count) + "\n" for ln in body), delimiter=delim)
            rows = ((i, fields, wide.found) for i, fields in wide.records(reader))
        try:
            for i, fields, found in rows:
                if found is None and (not fields or all(not f.strip() for f in fields)):
                    continue
                if not header_seen:
                    header_seen = True
                    continue
                if found is not None or len(fields) != width:
                    problems.add(i, "fields", found=found or len(fields), format=f"{fmt.upper()} {kind}",
                                 expected=width)
                    continue
                q, d = fields[roles["qid"]].strip(), fields[roles["docno"]].strip()
                token = fields[roles[vrole]].strip()
                value = _number(token)
                if value is None:
                    problems.add(i, "number", column=header[roles[vrole]], token=_clip(token))
                    continue
                if not q or not d:
                    problems.add(i, "blank_id", column=header[roles["qid" if not q else "docno"]])
                    continue
                if _long_id(problems, i, q, d, header[roles["qid"]], header[roles["docno"]]):
                    continue
                out.add(q, d, sign * value, i)
        except csv.Error as exc:  # a field beyond the csv module's limit, a lone carriage return, ...
            line = reader.line_num
            problem = (Problem(name, line, "long_field", {"limit": csv.field_size_limit()})
                       if "field limit" in str(exc) else Problem(name, line, "csv_error", {"reason": str(exc)[:120]}))
            return Parsed(name, kind, None, [problem], encoding=encoding, format=fmt, n_lines=counted.count,
                          n_problems=1)
        n_lines = counted.count
        header_lines = 1

    if not out.count and not out.values:
        problems.add(None, "no_valid_lines", lines=n_lines)
        return Parsed(name, kind, None, problems.finish(), encoding=encoding, format=fmt, n_lines=n_lines,
                      n_problems=problems.count)
    qid, docno, vals, lines_arr = out.arrays()
    checked = _checked_docnos(qid, docno)
    if checked is None:  # a (query, document) pair repeats: keep the first line of each
        qid, docno, vals, kept = _without_repeats(qid, _encode_ids(docno), vals, lambda r: int(lines_arr[r]),
                                                  problems)
        lines_arr = lines_arr[kept]
    else:
        docno = checked
    extra: list[Problem] = []
    if kind == "qrels" and (vals < 0).any():
        neg = np.flatnonzero(vals < 0)
        extra.append(Problem(name, None, "negative", {"count": int(neg.size), "line": int(lines_arr[neg[0]])}))
    table = Table(name, kind, qid, docno, vals, lines_arr, header_lines, tag)
    listed = problems.finish() + extra
    return Parsed(name, kind, table, listed, encoding=encoding, format=fmt, n_lines=n_lines,
                  n_problems=problems.count + len(extra))


_FIELD = re.compile(r"\S+")  # a field of a whitespace-separated line: \s is what str.split() splits on
# Lines longer than this are split with a regular expression, field by field, never as a whole.
_LONG_LINE = 4096


def _line_fields(line: str, n: int) -> tuple[list[str], bool]:
    """The first ``n`` whitespace-separated fields of a line and whether it has more, without making a string of
    any other field (a line of millions of fields costs what its text costs).

    >>> _line_fields("q1 Q0 d1 1 2.5 tag x y", 6)
    (['q1', 'Q0', 'd1', '1', '2.5', 'tag'], True)
    >>> _line_fields("q1 Q0 d1" + " x" * 5000, 2)
    (['q1', 'Q0'], True)
    """
    if len(line) <= _LONG_LINE:
        fields = line.split(None, n)
        return fields[:n], len(fields) > n
    found = _FIELD.finditer(line)
    fields = [m.group() for m in itertools.islice(found, n)]
    return fields, next(found, None) is not None


def _count_fields(line: str) -> int:
    """How many whitespace-separated fields a line has, counted without splitting it."""
    return len(line.split()) if len(line) <= _LONG_LINE else sum(1 for _ in _FIELD.finditer(line))


def _long_id(problems: _Collector, line: int, qid: str, docno: str, qid_column: str, docno_column: str) -> bool:
    """Whether one of a line's ids is longer than :data:`MAX_ID_CHARS` (then its "long_id" problem is added)."""
    for text, column in ((qid, qid_column), (docno, docno_column)):
        if len(text) > MAX_ID_CHARS:
            problems.add(line, "long_id", column=column, length=len(text), text=_clip(text), limit=MAX_ID_CHARS)
            return True
    return False


#: Fields a CSV line may hold beyond its header's width before it is split (or cut) ahead of the csv module, which
#: would make a Python string of every field: such a line is a bad line whatever its content.
_EXTRA_CSV_FIELDS = 64


class _CsvLines:
    """Feeds a csv reader line by line, keeping what it costs bounded.

    A line that starts a record, has no quote character, and either has far more fields than the header or is
    longer than the csv module's field limit is split here instead (into the header's width of fields at most,
    or only counted), and the reader is given an empty line: an id too long or a line of millions of fields is
    then a bad line, as on pyarrow's path, never a csv error or millions of strings.  A line inside a quoted
    record with far more fields is cut before the reader sees it, and its record is reported as a bad line.
    """

    def __init__(self, width: int, delim: str):
        self.width, self.delim = width, delim
        self.limit = width + _EXTRA_CSV_FIELDS
        self.done = 0  # physical lines of the records the reader has returned
        self.own: dict[int, list[str] | int] = {}  # line -> its fields, or its field count when not the width
        self.cut_lines: list[tuple[int, int]] = []  # (line, fields) of lines cut inside a quoted record
        self.found: int | None = None  # the last record's field count, when it is a bad line found here

    def feed(self, line: str, number: int) -> str:
        count = line.count(self.delim)
        if count <= self.limit and len(line) <= csv.field_size_limit():
            return line
        if self.done == number - 1 and '"' not in line:  # a record of its own, without quoting: split here
            self.own[number] = line.split(self.delim) if count + 1 == self.width else count + 1
            return ""
        if count > self.limit:
            self.cut_lines.append((number, count + 1))
            end = -1
            for _ in range(self.limit + 1):
                end = line.index(self.delim, end + 1)
            return line[:end]
        return line  # a long quoted field: the csv module refuses it (a "long_field" problem)

    def records(self, reader):
        """(line, fields) of each record; ``found`` is set when the record is a bad line found here."""
        for fields in reader:
            last = reader.line_num
            own = self.own.pop(last, None)
            cut = [n for line, n in self.cut_lines if self.done < line <= last]
            self.cut_lines = [c for c in self.cut_lines if c[0] > last]
            self.done = last
            self.found = max(cut) if cut else (own if isinstance(own, int) else None)
            yield last, (own if isinstance(own, list) else fields)


class _Counted:
    """An iterator that counts what it gives (the lines a csv reader took, however many it asked for)."""

    def __init__(self, items):
        self.items = iter(items)
        self.count = 0

    def __iter__(self):
        return self

    def __next__(self):
        item = next(self.items)
        self.count += 1
        return item


# ----------------------------------------------------------------------------- named columns, Parquet
_PARQUET_MAGIC = b"PAR1"


def _check_columns(columns) -> dict[str, str]:
    if columns is None:
        return {}
    if not isinstance(columns, dict):
        raise ValueError(f"columns must be a mapping of role to column name, got {type(columns).__name__}")
    out = {}
    for role, col in columns.items():
        if role not in COLUMN_ROLES:
            raise ValueError(f"columns: unknown role {str(role)[:40]!r}; roles are {', '.join(COLUMN_ROLES)}")
        if not isinstance(col, str) or not col.strip() or len(col) > 200:
            raise ValueError(f"columns: the column for {role} must be a non-empty name, got {str(col)[:40]!r}")
        out[role] = col
    return out


def column_roles(names, kind: str, columns=None) -> dict[str, str] | Problem:
    """Which column of a table with a header plays which role: ``{"qid": name, "docno": name, ...}``.

    A role named in ``columns`` takes that column (its name compared exactly, then ignoring case);
    the others take the first column whose name is one of :data:`COLUMN_NAMES` (ignoring case).  A
    qrels table needs ``qid``, ``docno`` and ``rel`` (a column named like a score is taken as the grade);
    a run needs ``qid``, ``docno`` and ``score`` or ``rank``.  ``tag`` (a run's name, a column of
    :data:`TAG_NAMES`) is optional.

    Parameters
    ----------
    names : sequence of str
        The column names, in order.
    kind : {"qrels", "run"}
        What the table holds.
    columns : mapping of str to str, optional
        Role -> column name for columns whose names are not in :data:`COLUMN_NAMES`, e.g.
        ``{"qid": "user_id", "docno": "item", "score": "prediction"}``; roles are :data:`COLUMN_ROLES`.

    Returns
    -------
    dict or Problem
        Role -> column name, or a "header" :class:`Problem` (its ``file`` empty) naming the first role
        no column plays, the header and the accepted names.

    Raises
    ------
    ValueError
        For an unknown ``kind``, an unknown role or an empty name in ``columns``.

    Examples
    --------
    >>> column_roles(["User_ID", "item", "prediction"], "run", {"docno": "item"})
    {'qid': 'User_ID', 'docno': 'item', 'score': 'prediction'}
    >>> column_roles(["user", "item"], "qrels").message
    ': no column for rel in the header (user, item); accepted names: rel, relevance, grade, label, \
judgment, judgement, qrel, gain, rating'
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; valid kinds are {', '.join(repr(k) for k in KINDS)}")
    given = _check_columns(columns)
    names = [str(n) for n in names]
    lower = {}
    for n in names:
        lower.setdefault(n.strip().lower(), n)
    roles: dict[str, str] = {}
    for role, col in given.items():
        found = col if col in names else lower.get(col.strip().lower())
        if found is None:
            return Problem("", 1, "header", {"role": role, "header": ", ".join(names)[:400],
                                             "accepted": f"{col!r} (given for {role})"})
        roles[role] = found
    aliases = {**_alias_map(), **{a: "tag" for a in TAG_NAMES}}
    taken = set(roles.values())
    for n in names:
        role = aliases.get(n.strip().lower())
        if role is not None and role not in roles and n not in taken:
            roles[role] = n
            taken.add(n)
    if kind == "qrels" and "rel" not in roles and "score" in roles and "score" not in given:
        roles["rel"] = roles.pop("score")  # a qrels table whose grade column is called "score"
    needed = ["qid", "docno"] + (["rel"] if kind == "qrels" else ([] if "rank" in roles else ["score"]))
    for role in needed:
        if role not in roles:
            return Problem("", 1, "header", {"role": role, "header": ", ".join(names)[:400],
                                             "accepted": ", ".join(COLUMN_NAMES[role])})
    keep = ("qid", "docno", "rel") if kind == "qrels" else ("qid", "docno", "score", "rank", "tag")
    if kind == "run" and "score" in roles:
        keep = ("qid", "docno", "score", "tag")
    return {r: roles[r] for r in keep if r in roles}


def _is_parquet(source) -> bool:
    head = _read_head(source, 4) if isinstance(source, Path) else bytes(source[:4])
    return head == _PARQUET_MAGIC


#: Rows decoded from a Parquet file at a time: limits, progress and the caller's cancellation are checked between
#: batches.
PARQUET_BATCH_ROWS = 1 << 16


_ID_ACCEPTED = "strings or integers"
_VALUE_ACCEPTED = "numbers (integer, floating point or decimal)"


def _id_type_ok(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
            or pa.types.is_integer(t))


def _value_type_ok(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t) or pa.types.is_boolean(t)


def _decoded_ids(values: pa.Array, *, keep_dictionary: bool) -> tuple[pa.Array, int]:
    """A batch's ids as strings (integers in decimal) and their UTF-8 bytes once expanded -- for a
    dictionary-encoded batch counted on the dictionary, before any string is repeated.
    ``keep_dictionary``: the ids dictionary-encoded (query ids, mostly repeated), else plain strings."""
    if pa.types.is_dictionary(values.type):
        if not pa.types.is_string(values.type.value_type):
            values = pa.DictionaryArray.from_arrays(values.indices, values.dictionary.cast(pa.string()))
        lengths = pc.binary_length(values.dictionary)
        cost = int(pc.sum(pc.take(lengths, values.indices)).as_py() or 0)
        return values if keep_dictionary else None, cost
    if not pa.types.is_string(values.type):
        values = values.cast(pa.string())
    cost = int(pc.sum(pc.binary_length(values)).as_py() or 0)
    return (pc.dictionary_encode(values) if keep_dictionary else values), cost


def _first_appearance(chunks: list[pa.DictionaryArray]) -> pa.DictionaryArray:
    """Dictionary-encoded chunks as one array with what :func:`as_dictionary` gives for their strings: codes in
    order of first appearance, each distinct id once, no unused entry -- without expanding a string."""
    if not chunks:
        return pc.dictionary_encode(pa.array([], pa.string()))
    merged = pa.chunked_array(chunks).unify_dictionaries().combine_chunks()
    canon = pc.dictionary_encode(merged.dictionary)  # a file's dictionary may repeat a value
    codes = pc.take(canon.indices, merged.indices)  # null where the id is null
    first = pc.unique(codes.drop_null())  # in order of first appearance
    remap = np.zeros(max(len(canon.dictionary), 1), np.int32)
    remap[first.to_numpy(zero_copy_only=False)] = np.arange(len(first), dtype=np.int32)
    nulls = codes.is_null().to_numpy(zero_copy_only=False) if codes.null_count else None
    indices = remap[pc.fill_null(codes, 0).to_numpy(zero_copy_only=False)]
    return pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32(), mask=nulls), canon.dictionary.take(first))


#: Memory per byte of a Parquet footer once pyarrow has parsed it (its row groups' and columns' descriptions):
#: measured ~13 (pyarrow 26, ``benchmarks/hostile_uploads.py``).  A footer whose parse alone would exceed the
#: limit is refused before pyarrow reads it.
FOOTER_BYTES = 16
#: Memory per column chunk read (a row group's column) besides its pages: measured ~1.7 KB (pyarrow 26).
CHUNK_BYTES = 2048
#: A Parquet file may hold at most ``max(PARQUET_MIN_PAGES, size // PARQUET_PAGE_BYTES)`` pages in the columns
#: read (row groups count as pages: each has one at least).  Writers make pages of about 1 MB (pyarrow, Spark,
#: DuckDB); their headers are read one by one before a row is decoded, so a file of millions of tiny pages or
#: row groups is refused instead of keeping the server busy.
PARQUET_MIN_PAGES = 4096
PARQUET_PAGE_BYTES = 4096


def _parquet_file(src, name: str, source=None, size: int = 0, limits: Limits | None = None):
    """A ``ParquetFile`` whose string columns decode dictionary-encoded, or a Problem: "parquet_footer" for a
    damaged footer, "too_much_memory" when parsing the footer alone would take more than ``limits`` allow
    (its length is read from the file's last 8 bytes first, so a footer of millions of row groups is never
    parsed)."""
    import pyarrow.parquet as pq

    if source is not None and limits is not None:
        footer = _footer_length(source, size)
        if footer is None:
            return Problem(name, None, "parquet_footer", {})
        budget = limits.memory_budget(size)
        if budget is not None and footer * FOOTER_BYTES > budget:
            return Problem(name, None, "too_much_memory", {"memory_mb": footer * FOOTER_BYTES / 1e6,
                                                          "limit_mb": budget / 1e6, "size_mb": size / 1e6})
    try:
        file = pq.ParquetFile(src)
        strings = [f.name for f in file.schema_arrow if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
                   or pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type)]
        if strings:
            file = pq.ParquetFile(src, metadata=file.metadata, read_dictionary=list(dict.fromkeys(strings)))
        return file
    except Exception:  # noqa: BLE001 - whatever pyarrow says about a damaged footer, the file is refused
        return Problem(name, None, "parquet_footer", {})


def _footer_length(source, size: int) -> int | None:
    """The length of a Parquet file's footer from its last 8 bytes, or None when they are not a footer's end."""
    if size < 12:
        return None
    tail = _read_at(source, size - 8, 8)
    if len(tail) != 8 or tail[4:] != _PARQUET_MAGIC:
        return None
    length = int.from_bytes(tail[:4], "little")
    return length if length <= size - 12 else None


def _footer_cost(source, size: int, meta, wanted: set[str]) -> int:
    """Memory the footer and the column chunks read take, whatever the rows (see :data:`FOOTER_BYTES`)."""
    footer = _footer_length(source, size) or 0
    return footer * FOOTER_BYTES + meta.num_row_groups * len(wanted) * CHUNK_BYTES


#: The most bytes one Parquet page header may take (its statistics included; a writer's are tens to a few
#: thousand bytes): a longer one is a damaged file.  Headers are read from a window of the file this long, so a
#: header of nested lists cannot keep the reader busy beyond it.
PAGE_HEADER_BYTES = 1 << 18


class _PageHeader:
    """The fields of Parquet's ``PageHeader`` the limits need (Thrift ids 2 and 3); the others are skipped."""

    thrift_spec = (None, None, (2, 8, "uncompressed_page_size", None, None),  # 8: Thrift's I32
                   (3, 8, "compressed_page_size", None, None))

    def __init__(self, uncompressed_page_size=None, compressed_page_size=None):
        self.uncompressed_page_size = uncompressed_page_size
        self.compressed_page_size = compressed_page_size


class _FieldIds(tuple):
    """A Thrift spec that has no entry for a negative field id (a tuple would give one counted from its end: a
    header could then say one size to this reader and another to pyarrow's, which skips such fields)."""

    def __getitem__(self, index):
        if isinstance(index, int) and index < 0:
            raise IndexError(index)
        return super().__getitem__(index)


def _read_page_header(window: bytes, *, accelerated: bool = True) -> tuple[int, int, int]:
    """(uncompressed size, compressed size, header length) of the page header at the start of ``window``, read by
    Thrift's compact protocol (its C decoder when built, as Thrift's generated code uses it; otherwise the same
    protocol in Python).  Raises on anything that is not a whole header within the window."""
    from thrift.protocol.TCompactProtocol import TCompactProtocol, TCompactProtocolAccelerated
    from thrift.transport.TTransport import TMemoryBuffer

    class _Python(TCompactProtocol):
        readString = TCompactProtocol.readBinary  # noqa: N815 - Thrift's name; statistics are bytes, not text

    buffer = TMemoryBuffer(window)
    header = _PageHeader()
    fast = TCompactProtocolAccelerated(buffer, string_length_limit=1 << 20, container_length_limit=1 << 16)
    if accelerated and getattr(fast, "_fast_decode", None) is not None:
        fast._fast_decode(header, fast, [_PageHeader, _PageHeader.thrift_spec])
    else:
        _Python(buffer, string_length_limit=1 << 20, container_length_limit=1 << 16).readStruct(
            header, _FieldIds(_PageHeader.thrift_spec))
    size, compressed = header.uncompressed_page_size, header.compressed_page_size
    if not isinstance(size, int) or not isinstance(compressed, int) or size < 0 or compressed < 0:
        raise ValueError("not a page header")
    return size, compressed, buffer.cstringio_buf.tell()


#: Bytes pyarrow reads past a column chunk's stated end in files written by parquet-mr before 1.2.9, whose chunk
#: sizes leave out the dictionary page's header (Arrow's PARQUET-816 workaround): a page may start there.
OLD_PARQUET_MR_PADDING = 100


def _chunk_padding(meta) -> int:
    """:data:`OLD_PARQUET_MR_PADDING` for a file whose writer says parquet-mr older than 1.2.9 (or parquet-mr without
    a version Arrow can read: it counts as 0.0.0), else 0.

    >>> from types import SimpleNamespace as NS
    >>> [_chunk_padding(NS(created_by=c)) for c in ("parquet-mr version 1.2.8 (build 1)", "parquet-mr version 1.12.3",
    ...                                              "parquet-mr", "parquet-cpp-arrow version 26.0.1", None)]
    [100, 0, 100, 0, 0]
    """
    try:
        created = (getattr(meta, "created_by", None) or "").strip()
    except UnicodeDecodeError:  # a damaged footer's writer field: count the padding, the side that bounds memory
        return OLD_PARQUET_MR_PADDING
    if not created.lower().startswith("parquet-mr"):
        return 0
    found = re.match(r"parquet-mr\s+version\s+(\d+)(?:\.(\d+))?(?:\.(\d+))?", created, re.IGNORECASE)
    version = tuple(int(v or 0) for v in found.groups()) if found else (0, 0, 0)
    return OLD_PARQUET_MR_PADDING if version < (1, 2, 9) else 0


def _page_sizes(source, meta, wanted: set[str], max_pages: int) -> dict[str, int] | str:
    """Bytes every needed column's pages take once decompressed, read from each page's own header (the sizes
    pyarrow allocates before it decompresses a page), or why they cannot be: "pages" (more than ``max_pages``)
    or "damaged" (a header that cannot be read).

    The footer's ``total_uncompressed_size`` is not used: a forged footer can say anything, while a page
    header that claims less than its page holds makes decompression fail within the claim.
    """
    import mmap

    if isinstance(source, Path):
        with open(source, "rb") as fh:
            view = memoryview(mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ))
    elif callable(getattr(source, "seek", None)):  # a file object (a remote file): each header read on its own
        view = _Windows(source)
    else:
        view = memoryview(source).cast("B")
    sizes = dict.fromkeys(wanted, 0)
    pages = 0
    padding = _chunk_padding(meta)
    try:
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            for c in range(group.num_columns):
                chunk = group.column(c)
                column = chunk.path_in_schema.split(".")[0]
                if column not in wanted:
                    continue
                pos = chunk.data_page_offset  # where pyarrow starts reading the chunk
                if chunk.has_dictionary_page and 0 < (chunk.dictionary_page_offset or 0) < pos:
                    pos = chunk.dictionary_page_offset
                end = pos + chunk.total_compressed_size
                if pos < 0 or end > len(view):
                    return "damaged"
                padded = min(end + padding, len(view))  # what pyarrow reads of the chunk
                while pos < padded:
                    pages += 1
                    if pages > max_pages:
                        return "pages"
                    try:  # most headers are a few dozen bytes: a small window first
                        size, compressed, used = _read_page_header(bytes(view[pos: pos + 4096]))
                    except Exception:  # noqa: BLE001 - cut by the window, or damaged: the whole window decides
                        try:
                            size, compressed, used = _read_page_header(bytes(view[pos: pos + PAGE_HEADER_BYTES]))
                        except Exception:  # noqa: BLE001 - in the padding, pyarrow fails on it too (no page there)
                            if pos >= end:
                                break
                            raise
                    if pos >= end and pos + used + compressed > padded:
                        break  # not within what pyarrow reads: no page of this chunk (the next chunk's, or the footer)
                    sizes[column] += size
                    pos += used + compressed
    except Exception:  # noqa: BLE001 - Thrift's errors, the end of the window, a value of the wrong type
        return "damaged"
    finally:
        view.release()
    return sizes


class _Windows:
    """A binary file object read as :func:`_page_sizes` reads a memoryview: ``len`` and slices of it."""

    def __init__(self, file):
        self.file = file
        self.size = file.seek(0, io.SEEK_END)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, window: slice) -> bytes:
        return _read_at(self.file, window.start, window.stop - window.start)

    def release(self) -> None:
        pass


def _parquet_plan(file, name: str, kind: str, given: dict, size: int, limits: Limits, source):
    """The roles' columns of a Parquet file, or the Problem that refuses it before any row is decoded: a
    missing, repeated or mistyped column, too many rows, too many pages or row groups, or more memory than the
    limit at the least: every row, the footer, and the needed columns' pages as their own headers say they
    decompress (``source``: the file's path or bytes, whose page headers are read)."""
    schema = file.schema_arrow
    names = schema.names
    roles = column_roles(names, kind, given)
    if isinstance(roles, Problem):
        return Problem(name, None, "header", roles.params)
    for col in dict.fromkeys(roles.values()):
        if names.count(col) > 1:
            return Problem(name, None, "duplicate_column", {"column": col, "count": names.count(col)})
    for role, col in roles.items():
        t = schema.field(col).type
        ok, accepted = (_id_type_ok(t), _ID_ACCEPTED) if role in ("qid", "docno", "tag") \
            else (_value_type_ok(t), _VALUE_ACCEPTED)
        if not ok:
            shown = t.value_type if pa.types.is_dictionary(t) else t  # string columns are read as dictionaries
            return Problem(name, None, "column_type", {"column": col, "role": role, "type": str(shown)[:60],
                                                       "accepted": accepted})
    meta = file.metadata
    n_rows = meta.num_rows
    if limits.max_rows is not None and n_rows > limits.max_rows:
        return Problem(name, None, "too_many_rows", {"rows": n_rows, "limit": limits.max_rows})
    budget = limits.memory_budget(size)
    if budget is not None:
        wanted = set(roles.values())

        def over(cost: int) -> Problem:
            return Problem(name, None, "too_much_memory", {"memory_mb": cost / 1e6, "limit_mb": budget / 1e6,
                                                           "size_mb": size / 1e6})

        # At the least: every row, the footer and the column chunks (whatever the pages hold) ...
        cost = n_rows * READ_ROW_BYTES + _footer_cost(source, size, meta, wanted)
        if cost > budget:
            return over(cost)
        max_pages = max(PARQUET_MIN_PAGES, size // PARQUET_PAGE_BYTES)
        if meta.num_row_groups * len(wanted) > max_pages:
            return Problem(name, None, "parquet_pages", {"limit": max_pages})
        # ... and the pages as their own headers say they decompress: text at what reading it costs.
        sizes = _page_sizes(source, meta, wanted, max_pages)
        if sizes == "pages":
            return Problem(name, None, "parquet_pages", {"limit": max_pages})
        if sizes == "damaged":
            return Problem(name, None, "parquet_data", {"first": 1, "last": n_rows})
        text = {c for c in wanted if not pa.types.is_integer(file.schema_arrow.field(c).type)}
        factor = {c: f for c, f in ((roles["docno"], DOCNO_TEXT_BYTES), (roles["qid"], QID_TEXT_BYTES)) if c in text}
        cost += sum(n * factor.get(column, 1) for column, n in sizes.items())
        if cost > budget:
            return over(cost)
    return roles


def read_parquet(source, *, kind: str, name: str | None = None, columns=None, max_bytes: int | None = None,
                 limits: Limits | None = None, on_progress: Callable[[float], None] | None = None) -> Parsed:
    """Read qrels or a run from a Parquet file: named columns (qid, docno, rel / score), any row order.

    Runs are often kept as Parquet (Spark, pandas, DuckDB).  Only the needed columns are read.  Ids
    may be strings or integers (read as their decimal text), grades and scores any numeric type.  As
    for the text formats, nothing here raises on a bad *file*: an empty or null id, a null or
    non-finite value and a repeated (query, document) pair skip the row with a problem naming the
    1-based row (reported as its "line"); a missing, repeated or unusable column, a damaged footer or
    damaged data, and a file beyond ``limits`` are fatal problems.

    The file is decoded :data:`PARQUET_BATCH_ROWS` rows at a time, string columns dictionary-encoded:
    ``limits`` are checked first on the footer's length, the rows, the row groups and every needed page's
    own header (the size it decompresses to), then on every batch, so a small file that decodes to tens of
    millions of rows, or a footer that lies about its pages, is refused before the memory is spent.  An id
    longer than :data:`MAX_ID_CHARS` skips its row ("long_id").

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path to the file, or its bytes (``bytes``, ``bytearray`` or ``memoryview``; read in place).
    kind : {"qrels", "run"}
        What the file holds.
    name : str, optional
        The file name used in problems.  Default: the path's name, or "input" for bytes.
    columns : mapping of str to str, optional
        Role -> column name where the names are not among :data:`COLUMN_NAMES` (see
        :func:`column_roles`), e.g. ``{"qid": "user_id", "docno": "item_id", "score": "prediction"}``.
    max_bytes : int >= 1, optional
        Refuse a larger file with a fatal "too_large" problem.
    limits : Limits, optional
        Rows and memory the file may take (see :class:`Limits`).  Default: no limit.
    on_progress : callable, optional
        Called with the fraction of rows decoded after each batch; an exception it raises stops the read
        and propagates (a page stops reading when its visitor leaves).

    Returns
    -------
    Parsed
        As :func:`read_qrels` / :func:`read_run`; ``format`` is "parquet", ``encoding`` None.  A run's
        ``tag`` is the last row's value of a ``tag`` column (:data:`TAG_NAMES`), if there is one.

    Raises
    ------
    ValueError
        For a bad argument (unknown kind or role, a path that is not a file, ``limits`` that is not a
        :class:`Limits`); bytes that are not Parquet are a fatal "parquet_footer" problem.

    Examples
    --------
    >>> import io, pyarrow.parquet as pq
    >>> buf = io.BytesIO()
    >>> pq.write_table(pa.table({"user_id": [7, 7, 8], "item": ["a", "b", "a"], "pred": [0.9, 0.5, 0.1]}), buf)
    >>> p = read_parquet(buf.getvalue(), kind="run", name="als.parquet", columns={"docno": "item"})
    >>> p.ok, p.format, p.table.qid.dictionary.to_pylist(), p.table.value.tolist()
    (True, 'parquet', ['7', '8'], [0.9, 0.5, 0.1])

    Ten million rows of one repeated pair fit in a few kilobytes; at most 20 rows are allowed here, and the
    footer says how many there are before one is decoded:

    >>> import numpy as np
    >>> same = pa.DictionaryArray.from_arrays(pa.array(np.zeros(10_000_000, np.int32)), pa.array(["x"]))
    >>> buf = io.BytesIO()
    >>> pq.write_table(pa.table({"qid": same, "docno": same, "score": np.zeros(10_000_000)}), buf)
    >>> p = read_parquet(buf.getvalue(), kind="run", name="bomb.parquet", limits=Limits(max_rows=20))
    >>> print(p.problems[0].message)
    bomb.parquet has 10,000,000 rows; the limit is 20 rows
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; valid kinds are {', '.join(repr(k) for k in KINDS)}")
    given = _check_columns(columns)
    max_bytes = _check_max_bytes(max_bytes)
    limits = _check_limits(limits)
    progress = on_progress or (lambda _f: None)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"{path} is not a readable file")
        name, size, src, raw = name or path.name, path.stat().st_size, str(path), path
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raw = memoryview(source).cast("B")
        name, size, src = name or "input", len(raw), pa.BufferReader(pa.py_buffer(source))
    else:
        raise ValueError(f"source must be a path or bytes, got {type(source).__name__}")

    def refuse(problem: Problem, n_lines: int = 0) -> Parsed:
        return Parsed(name, kind, None, [problem], format="parquet", n_lines=n_lines, n_problems=1)

    if max_bytes is not None and size > max_bytes:
        problem = Problem(name, None, "too_large", {"size_mb": size / 1e6, "limit_mb": max_bytes / 1e6})
        return Parsed(name, kind, None, [problem], n_problems=1)
    file = _parquet_file(src, name, raw, size, limits)
    if isinstance(file, Problem):
        return refuse(file)
    roles = _parquet_plan(file, name, kind, given, size, limits, raw)
    if isinstance(roles, Problem):
        return refuse(roles)
    n_rows = file.metadata.num_rows
    if n_rows == 0:
        return refuse(Problem(name, None, "empty", {}))
    value_role = "rel" if kind == "qrels" else ("score" if "score" in roles else "rank")
    budget = limits.memory_budget(size)
    ids: dict[str, list] = {"qid": [], "docno": []}
    values_parts, null_parts = [], []
    tag, done = None, 0
    # what the footer and the column chunks take for the whole read, then each batch's rows and ids as they come
    decoded = _footer_cost(raw, size, file.metadata, set(roles.values()))
    batches = file.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=list(dict.fromkeys(roles.values())),
                                use_threads=True)
    while True:
        try:
            batch = next(batches, None)
            if batch is not None:  # pyarrow decodes without checking everything: indices in bounds, UTF-8, ...
                batch.validate(full=True)
        except Exception:  # noqa: BLE001 - damaged pages, a bad compression stream, invalid UTF-8, ...
            return refuse(Problem(name, None, "parquet_data", {"first": done + 1, "last": n_rows}), n_rows)
        if batch is None:
            break
        rows = batch.num_rows
        for role in ("qid", "docno"):
            column = batch.column(roles[role])
            ids_now, cost = _decoded_ids(column, keep_dictionary=role == "qid")
            decoded += cost * (QID_TEXT_BYTES if role == "qid" else DOCNO_TEXT_BYTES)
            if budget is not None and decoded > budget:
                break  # counted on the dictionary: refused below before a string is repeated
            if ids_now is None:  # a dictionary-encoded batch of document ids, within the limit: expand it
                ids_now = column.dictionary_decode()
                ids_now = ids_now.cast(pa.string()) if not pa.types.is_string(ids_now.type) else ids_now
            ids[role].append(ids_now)
        value = batch.column(roles[value_role])
        if pa.types.is_dictionary(value.type):
            value = value.dictionary_decode()
        null_parts.append(value.is_null().to_numpy(zero_copy_only=False))
        values_parts.append(np.asarray(value.cast(pa.float64(), safe=False).to_numpy(zero_copy_only=False),
                                       dtype=np.float64))
        decoded += READ_ROW_BYTES * rows
        if "tag" in roles:
            tags = batch.column(roles["tag"]).drop_null()
            if len(tags):
                tag = str(tags[-1].as_py())[:MAX_ID_CHARS]  # a run's name
        del batch, value
        done += rows
        if budget is not None and decoded > budget:
            over = {"memory_mb": decoded / 1e6, "limit_mb": budget / 1e6, "size_mb": size / 1e6}
            return refuse(Problem(name, None, "too_much_memory", over), n_rows)
        if limits.max_rows is not None and done > limits.max_rows:  # a footer that undercounts its rows
            return refuse(Problem(name, None, "too_many_rows", {"rows": done, "limit": limits.max_rows}), n_rows)
        progress(min(done / n_rows, 1.0))
    n_rows = done
    values = np.concatenate(values_parts) if values_parts else np.zeros(0)
    null_value = np.concatenate(null_parts) if null_parts else np.zeros(0, bool)
    del values_parts, null_parts
    if value_role == "rank":
        values = -values
    qid = _first_appearance(ids.pop("qid"))  # mostly repeated: stays a dictionary
    # mostly distinct: plain strings (each batch was decoded once its cost was counted), as a text file gives them
    docno = pa.concat_arrays(ids.pop("docno")) if n_rows else pa.array([], pa.string())
    problems = _Collector(name)
    bad = ~np.isfinite(values)  # NaN for a null as well
    for role, col in (("qid", qid), ("docno", docno)):
        empty = _blank_ids(col)
        for i in np.flatnonzero(empty & ~bad)[:MAX_LISTED]:
            problems.add(int(i) + 1, "blank_id", column=roles[role])
        problems.count += max(0, int(np.count_nonzero(empty & ~bad)) - MAX_LISTED)
        bad |= empty
    for role, col in (("qid", qid), ("docno", docno)):
        lengths = _id_lengths(col)
        long = np.flatnonzero((lengths > MAX_ID_CHARS) & ~bad)
        for i in long[:MAX_LISTED]:
            problems.add(int(i) + 1, "long_id", column=roles[role], length=int(lengths[i]), text=_id_start(col, i),
                         limit=MAX_ID_CHARS)
        problems.count += max(0, long.size - MAX_LISTED)
        bad[long] = True
    nonfinite = np.flatnonzero(~np.isfinite(values))
    for i in nonfinite[:MAX_LISTED]:
        token = "null" if null_value[i] else repr(float(values[i]))
        problems.add(int(i) + 1, "number", column=roles[value_role], token=token)
    problems.count += max(0, nonfinite.size - MAX_LISTED)
    del null_value
    rows = None
    if bad.any():
        rows = np.flatnonzero(~bad)
        if rows.size == 0:
            problems.add(None, "no_valid_lines", lines=n_rows)
            return Parsed(name, kind, None, problems.finish(), format="parquet", n_lines=n_rows,
                          n_problems=problems.count)
        take = pa.array(rows)
        qid, docno, values = _first_appearance([qid.take(take)]), docno.take(take), values[rows]
    del bad
    checked = _checked_docnos(qid, docno)
    if checked is None:  # a (query, document) pair repeats: keep the first row of each
        line_of = (lambda i: int(rows[i]) + 1) if rows is not None else (lambda i: int(i) + 1)
        qid, docno, values, keep = _without_repeats(qid, _encode_ids(docno), values, line_of, problems)
        rows = keep if rows is None else rows[keep]
    else:
        docno = checked
    extra = []
    if kind == "qrels" and (values < 0).any():
        neg = np.flatnonzero(values < 0)
        first_neg = int(neg[0]) + 1 if rows is None else int(rows[neg[0]]) + 1
        extra.append(Problem(name, None, "negative", {"count": int(neg.size), "line": first_neg}))
    lines = None if rows is None else rows.astype(np.int64) + 1
    out = Table(name, kind, qid, docno, values, lines, 0, tag)
    return Parsed(name, kind, out, problems.finish() + extra, format="parquet", n_lines=n_rows,
                  n_problems=problems.count + len(extra))


def _id_lengths(ids: pa.Array) -> np.ndarray:
    """Each id's length in characters (0 for a null), a dictionary-encoded one looked up on its dictionary."""
    if pa.types.is_dictionary(ids.type):
        lengths = pc.fill_null(pc.utf8_length(ids.dictionary), 0).to_numpy(zero_copy_only=False)
        return lengths[pc.fill_null(ids.indices, 0).to_numpy(zero_copy_only=False)] if len(lengths) else \
            np.zeros(len(ids), np.int64)
    return pc.fill_null(pc.utf8_length(ids), 0).to_numpy(zero_copy_only=False)


def _id_start(ids: pa.Array, row: int) -> str:
    """The start of one id, as a message shows it (the id is never copied whole)."""
    if pa.types.is_dictionary(ids.type):
        ids, row = ids.dictionary, ids.indices[int(row)].as_py()
    return _clip(pc.utf8_slice_codeunits(ids.slice(int(row), 1), 0, SHOWN_CHARS + 1)[0].as_py())


def _blank_ids(ids: pa.Array) -> np.ndarray:
    """True where an id is null or empty (a dictionary-encoded one looked up on its dictionary)."""
    if pa.types.is_dictionary(ids.type):
        empty_entry = pc.fill_null(pc.equal(pc.binary_length(ids.dictionary), 0), True)
        out = pc.take(empty_entry, ids.indices)
    else:
        out = pc.equal(pc.binary_length(ids), 0)
    return pc.fill_null(out, True).to_numpy(zero_copy_only=False)
