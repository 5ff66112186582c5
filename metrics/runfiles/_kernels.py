"""Kernels for millions of rows: duplicate check, grade lookup, factorize.

Two families give identical results (``tests/metrics/test_batch.py`` runs the engine with each):

* on the bytes of string ids, numba only, for files of :data:`NUMBA_MIN_ROWS` rows and more
  (:func:`first_duplicate_string`, :func:`lookup_grades_by_string`): query by query, a small
  hash table of the block's document ids, each match verified byte for byte, so millions of
  mostly distinct document ids are never dictionary-encoded;
* on integer codes of dictionary-encoded ids, numpy (sort based): :func:`has_duplicate_pairs`,
  :func:`lookup_grades`, used for smaller files and without numba.  :func:`factorize_u64`
  (ids packed into integers) has a numba version for a large file whose queries are not in blocks.

numba earns its place here: for 10^6 run lines (10,000 queries x 100 documents) encoding the
document ids, checking duplicates and looking up grades took ~0.3 s of a ~0.65 s evaluation;
on bytes it takes ~0.04 s on 2 cores (``benchmarks/run_files.py``).  numba is imported only when an
input is that large (small files and the app's start-up do not pay its ~0.3 s import); compiled code
is cached on disk.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np
import pandas as pd

__all__ = ["factorize_u64", "first_duplicate_string", "has_duplicate_pairs", "lookup_grades",
           "lookup_grades_by_string", "numba_from", "query_blocks", "use_numba",
           "warm_up"]

#: Inputs with at least this many rows use numba (when installed); set to 0 / a huge number in tests.
NUMBA_MIN_ROWS = 1_000_000

_numba = None  # the numba module once a large input needs it; False when it is not installed
_numba_lock = threading.Lock()
_compiled: dict = {}


def _numba_module():
    """Import numba on first need (it adds ~0.3 s to start-up), or None when it is not installed."""
    global _numba, _hash_bytes, _same_bytes
    with _numba_lock:
        if _numba is None:
            try:
                import numba
            except ImportError:  # numba is optional (pip install "ndcg-lab[fast]"); numpy gives the same results
                _numba = False
            else:
                _hash_bytes = numba.njit(inline="always", cache=True, nogil=True)(_hash_bytes)
                _same_bytes = numba.njit(inline="always", cache=True, nogil=True)(_same_bytes)
                _numba = numba
    return _numba or None


@contextmanager
def numba_from(rows: int):
    """Inside the block, use numba only for inputs of at least ``rows`` rows (the old limit is restored).

    For one-shot processes: numba's start (~1.4 s, see README) is paid on every run there.

    Parameters
    ----------
    rows : int >= 0
        The new threshold (:data:`NUMBA_MIN_ROWS`); 0 makes every input use numba, a huge number none.

    Returns
    -------
    contextmanager
        Use it in a ``with`` statement; it yields nothing.

    Raises
    ------
    ValueError
        If ``rows`` is not a whole number >= 0.

    Examples
    --------
    >>> use_numba(10)                 # 10 rows < 1,000,000: numpy
    False
    >>> with numba_from(0):
    ...     use_numba(10)
    True
    >>> use_numba(10)                 # the old threshold is back
    False
    """
    global NUMBA_MIN_ROWS
    from .._validation import check_whole

    previous, NUMBA_MIN_ROWS = NUMBA_MIN_ROWS, check_whole(rows, name="rows", minimum=0)
    try:
        yield
    finally:
        NUMBA_MIN_ROWS = previous


def use_numba(n: int) -> bool:
    """Whether an input of ``n`` rows goes to the numba kernels.

    True when ``n >= NUMBA_MIN_ROWS`` and numba imports; numba is imported on the first such call.

    Parameters
    ----------
    n : int
        The number of rows of the input.

    Returns
    -------
    bool

    See Also
    --------
    numba_from : change the threshold for a block of code.

    Examples
    --------
    >>> use_numba(10), NUMBA_MIN_ROWS
    (False, 1000000)
    """
    return n >= NUMBA_MIN_ROWS and _numba_module() is not None


def _jit(name: str, func):
    with _numba_lock:
        compiled = _compiled.get(name)
    if compiled is None:
        compiled = _numba_module().njit(cache=True, nogil=True)(func)
        with _numba_lock:
            compiled = _compiled.setdefault(name, compiled)
    return compiled


# ------------------------------------------------------------------------------------------ strings
# Document ids are compared as the UTF-8 bytes of a pyarrow string array (``data``, ``offsets``),
# hashed a word at a time and verified byte for byte, so no id is ever dictionary-encoded.
def _hash_bytes(data, a, b):  # numba helper: a 64-bit hash of data[a:b]
    h = np.uint64(b - a) * np.uint64(0x9E3779B97F4A7C15)
    i = a
    while i + 8 <= b:
        w = np.uint64(0)
        for j in range(8):
            w |= np.uint64(data[i + j]) << np.uint64(8 * j)
        h = (h ^ w) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
        i += 8
    w = np.uint64(0)
    shift = np.uint64(0)
    while i < b:
        w |= np.uint64(data[i]) << shift
        shift += np.uint64(8)
        i += 1
    h = (h ^ w) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(29))


def _same_bytes(d1, a1, b1, d2, a2, b2):  # numba helper: d1[a1:b1] == d2[a2:b2]
    if b1 - a1 != b2 - a2:
        return False
    for j in range(b1 - a1):
        if d1[a1 + j] != d2[a2 + j]:
            return False
    return True


def _block_ranges(n_blocks: int) -> list[tuple[int, int]]:
    """Contiguous ranges of blocks, one per CPU (at most 4): the string kernels release the GIL."""
    parts = max(1, min(os.cpu_count() or 1, 4, n_blocks))
    cuts = np.linspace(0, n_blocks, parts + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]


def _in_threads(job, ranges: list[tuple[int, int]]) -> list:
    """``job(lo, hi)`` for each range of blocks, in threads when there are several; results in order."""
    if len(ranges) == 1:
        return [job(*ranges[0])]
    with ThreadPoolExecutor(max_workers=len(ranges)) as pool:
        return list(pool.map(lambda r: job(*r), ranges))


def _table_size(count: int) -> int:
    """A power of two at least twice ``count`` (load <= 1/2 for open addressing)."""
    return 1 << max(4, int(2 * max(count, 1) - 1).bit_length())


def _first_dup_py(starts, data, offsets, size):  # numba source: one small hash table, reused per block
    mask = size - 1
    th = np.zeros(size, np.uint64)
    row = np.zeros(size, np.int64)
    stamp = np.full(size, -1, np.int64)  # slot used by block stamp[s]; no clearing between blocks
    for b in range(starts.size - 1):
        for i in range(starts[b], starts[b + 1]):
            a, e = offsets[i], offsets[i + 1]
            h = _hash_bytes(data, a, e)
            s = np.int64(h >> np.uint64(40)) & mask
            while stamp[s] == b:
                j = row[s]
                if th[s] == h and _same_bytes(data, offsets[j], offsets[j + 1], data, a, e):
                    return i
                s = (s + 1) & mask
            stamp[s] = b
            th[s] = h
            row[s] = i
    return -1


def first_duplicate_string(starts: np.ndarray, data: np.ndarray, offsets: np.ndarray) -> int:
    """The first row whose string already occurred in its block, or -1 (numba only).

    Row ``i`` is ``data[offsets[i]:offsets[i + 1]]``; blocks are ``starts[b]:starts[b + 1]``.
    A run may list a document only once per query: this finds the first repeat without building a
    dictionary of millions of document ids.

    Parameters
    ----------
    starts : numpy.ndarray of int64
        Block boundaries: the start of each block (query) and, last, the number of rows.
    data : numpy.ndarray of uint8
        The UTF-8 bytes of all rows, back to back (a pyarrow string array's data buffer).
    offsets : numpy.ndarray of int32 or int64
        ``n + 1`` offsets into ``data`` (the string array's offsets buffer).

    Returns
    -------
    int
        The 0-based row of the first repeat within its block, or -1.

    Examples
    --------
    Rows "d1", "d2", "d1", "d1".  As two blocks (0-1 and 2-3) the repeat is row 3; as one block of
    the first three rows it is row 2:

    >>> data, offsets = np.frombuffer(b"d1d2d1d1", np.uint8), np.array([0, 2, 4, 6, 8], np.int32)
    >>> first_duplicate_string(np.array([0, 2, 4]), data, offsets)
    3
    >>> first_duplicate_string(np.array([0, 3]), data, offsets)
    2
    """
    if starts.size < 2:
        return -1
    size = _table_size(int(np.diff(starts).max()))
    kernel = _jit("dup_str", _first_dup_py)
    found = _in_threads(lambda lo, hi: int(kernel(starts[lo: hi + 1], data, offsets, size)),
                        _block_ranges(starts.size - 1))
    return next((row for row in found if row >= 0), -1)


def _grades_str_py(starts, block_q, rdata, roff, qstart, qend, jrow, jdata, joff, jgrade, size, out):
    # numba source: per block, the judged documents of its query in a small hash table, then a probe per row
    mask = size - 1
    th = np.zeros(size, np.uint64)
    slot_row = np.zeros(size, np.int64)
    stamp = np.full(size, -1, np.int64)
    for b in range(starts.size - 1):
        q = block_q[b]
        if q < 0:
            for i in range(starts[b], starts[b + 1]):
                out[i] = 0.0
            continue
        for t in range(qstart[q], qend[q]):
            j = jrow[t]
            h = _hash_bytes(jdata, joff[j], joff[j + 1])
            s = np.int64(h >> np.uint64(40)) & mask
            while stamp[s] == b:
                s = (s + 1) & mask
            stamp[s] = b
            th[s] = h
            slot_row[s] = j
        for i in range(starts[b], starts[b + 1]):
            a, e = roff[i], roff[i + 1]
            h = _hash_bytes(rdata, a, e)
            s = np.int64(h >> np.uint64(40)) & mask
            g = 0.0
            while stamp[s] == b:
                j = slot_row[s]
                if th[s] == h and _same_bytes(jdata, joff[j], joff[j + 1], rdata, a, e):
                    g = jgrade[j]
                    break
                s = (s + 1) & mask
            out[i] = g


def lookup_grades_by_string(q: np.ndarray, rdata: np.ndarray, roffsets: np.ndarray, jq: np.ndarray,
                            jdata: np.ndarray, joffsets: np.ndarray, jgrade: np.ndarray, nq: int) -> np.ndarray:
    """Grade of each run row from the judged rows of its query; 0 when not judged or ``q < 0`` (numba only).

    Run row ``i`` is query ``q[i]`` and document ``rdata[roffsets[i]:roffsets[i + 1]]``; judged row
    ``j`` is query ``jq[j]``, document ``jdata[joffsets[j]:joffsets[j + 1]]`` and grade ``jgrade[j]``;
    (query, document) pairs of the judged rows are distinct.

    Parameters
    ----------
    q : numpy.ndarray of int
        Query code of each run row (-1: a query without judgments); rows of a query are adjacent.
    rdata, roffsets : numpy.ndarray
        The run's document ids as UTF-8 bytes and offsets (see :func:`first_duplicate_string`).
    jq : numpy.ndarray of int
        Query code of each judged row, in ``0 .. nq - 1``.
    jdata, joffsets : numpy.ndarray
        The judged document ids as bytes and offsets.
    jgrade : numpy.ndarray of float
        The grade of each judged row.
    nq : int
        The number of query codes.

    Returns
    -------
    numpy.ndarray of float64
        One grade per run row.

    See Also
    --------
    lookup_grades : the same on integer codes, with numpy.

    Examples
    --------
    Run rows (query 0, "a"), (0, "b"), (1, "a"); judged (0, "b") = 2 and (1, "a") = 1.  Document "a"
    is judged for query 1 only, so the first row gets 0:

    >>> run, run_offsets = np.frombuffer(b"aba", np.uint8), np.array([0, 1, 2, 3], np.int32)
    >>> judged, judged_offsets = np.frombuffer(b"ba", np.uint8), np.array([0, 1, 2], np.int32)
    >>> lookup_grades_by_string(np.array([0, 0, 1]), run, run_offsets, np.array([0, 1]), judged,
    ...                         judged_offsets, np.array([2.0, 1.0]), 2).tolist()
    [0.0, 2.0, 1.0]
    """
    n = q.size
    out = np.empty(n, np.float64)
    if n == 0:
        return out
    order = np.argsort(jq, kind="stable").astype(np.int64)
    counts = np.bincount(jq, minlength=nq)[:nq] if jq.size else np.zeros(nq, np.int64)
    qend = np.cumsum(counts)
    qstart = qend - counts
    starts = _block_starts(q)
    size = _table_size(int(counts.max()) if counts.size else 1)
    block_q = q[starts[:-1]].astype(np.int64)
    qstart, qend, jgrade = qstart.astype(np.int64), qend.astype(np.int64), np.ascontiguousarray(jgrade, np.float64)
    kernel = _jit("grades_str", _grades_str_py)
    _in_threads(lambda lo, hi: kernel(starts[lo: hi + 1], block_q[lo:hi], rdata, roffsets, qstart, qend, order,
                                      jdata, joffsets, jgrade, size, out),  # each range writes its own rows
                _block_ranges(starts.size - 1))
    return out


def _block_starts(codes: np.ndarray) -> np.ndarray:
    """Start of each block of equal adjacent codes, then the end (``[0]`` when empty)."""
    n = codes.size
    if n == 0:
        return np.zeros(1, np.int64)
    return np.r_[0, np.flatnonzero(codes[1:] != codes[:-1]) + 1, n].astype(np.int64)


def query_blocks(qcodes: np.ndarray) -> np.ndarray | None:
    """Start of each block of equal query codes, and the end; None when a query has several blocks.

    Run files usually list each query's lines together; then each query is one block and the
    kernels can work block by block.

    Parameters
    ----------
    qcodes : numpy.ndarray of int
        The query code of each row.

    Returns
    -------
    numpy.ndarray of int64 or None
        Block starts followed by the number of rows (``[0]`` when empty), or None when some query's
        rows are not adjacent.

    Examples
    --------
    >>> query_blocks(np.array([0, 0, 1, 1, 1, 2])).tolist()   # blocks 0-1, 2-4, 5
    [0, 2, 5, 6]
    >>> query_blocks(np.array([0, 1, 0])) is None             # query 0 comes back after query 1
    True
    """
    starts = _block_starts(qcodes)
    if starts.size - 1 != np.unique(qcodes[starts[:-1]]).size:
        return None
    return starts


# ------------------------------------------------------------------------------------------ factorize
def _factorize_py(keys, bits):  # numba source: open addressing, multiply-shift hash, grows at load 1/2
    # One table row per slot holds (key, code + 1), so a probe touches one cache line; 0 marks empty.
    n = keys.size
    size = 1 << bits
    table = np.zeros((size, 2), np.uint64)
    codes = np.empty(n, np.int32)
    first = np.empty(n, np.int64)
    nu = 0
    mult = np.uint64(0x9E3779B97F4A7C15)
    for i in range(n):
        if 2 * (nu + 1) > size:  # grow and rehash
            bits += 1
            size = 1 << bits
            grown = np.zeros((size, 2), np.uint64)
            shift = np.uint64(64 - bits)
            for c in range(nu):
                k = keys[first[c]]
                h = np.int64((k * mult) >> shift)
                while grown[h, 1] != 0:
                    h = (h + 1) & (size - 1)
                grown[h, 0] = k
                grown[h, 1] = np.uint64(c + 1)
            table = grown
        k = keys[i]
        h = np.int64((k * mult) >> np.uint64(64 - bits))
        while True:
            c = table[h, 1]
            if c == 0:
                table[h, 0] = k
                table[h, 1] = np.uint64(nu + 1)
                codes[i] = nu
                first[nu] = i
                nu += 1
                break
            if table[h, 0] == k:
                codes[i] = np.int32(c - 1)
                break
            h = (h + 1) & (size - 1)
    return codes, first[:nu].copy()


def factorize_u64(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0.. in order of first appearance, and the index of each code's first row.

    Parameters
    ----------
    keys : numpy.ndarray of uint64
        Ids packed into integers (converted to contiguous uint64).

    Returns
    -------
    tuple of numpy.ndarray
        ``codes`` (int32, one per key) and ``first`` (the row where each code first appears);
        ``keys[first][codes] == keys``.

    Examples
    --------
    7 is the first distinct key (code 0, row 0), 3 the second (code 1, row 1), 9 the third (row 3):

    >>> codes, first = factorize_u64(np.array([7, 3, 7, 9, 3], dtype=np.uint64))
    >>> codes.tolist(), first.tolist()
    ([0, 1, 0, 2, 1], [0, 1, 3])
    """
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    if use_numba(keys.size):
        # Start near the size a sample suggests (capped: a sample overestimates distinct keys when
        # they repeat across the file), and grow from there.
        sample = keys[:: max(1, keys.size // 65536)]
        estimate = keys.size * np.unique(sample).size / max(sample.size, 1)
        bits = min(22, max(16, int(np.ceil(np.log2(2 * estimate + 1)))))
        return _jit("factorize", _factorize_py)(keys, bits)
    codes, _ = pd.factorize(keys)
    codes = codes.astype(np.int32)
    first = np.flatnonzero(codes > np.maximum.accumulate(np.r_[-1, codes[:-1]]))
    return codes, first


# ------------------------------------------------------------------------------------------ codes (numpy)
def has_duplicate_pairs(qcodes: np.ndarray, dcodes: np.ndarray, ndocs: int) -> bool:
    """True when some (query, document) pair occurs twice.

    Each pair becomes one integer ``q * ndocs + d``; after sorting, a repeat sits next to itself.

    Parameters
    ----------
    qcodes : numpy.ndarray of int
        Query code of each row.
    dcodes : numpy.ndarray of int
        Document code of each row, in ``0 .. ndocs - 1``.
    ndocs : int
        The number of document codes.

    Returns
    -------
    bool

    Examples
    --------
    >>> has_duplicate_pairs(np.array([0, 0, 1]), np.array([5, 6, 5]), 10)   # (0,5) (0,6) (1,5)
    False
    >>> has_duplicate_pairs(np.array([0, 0, 1]), np.array([5, 5, 5]), 10)   # (0,5) twice
    True
    """
    n = qcodes.size
    if n < 2:
        return False
    key = qcodes.astype(np.int64) * int(ndocs) + dcodes
    key.sort()
    return bool(np.any(key[1:] == key[:-1]))


def lookup_grades(q: np.ndarray, docs: np.ndarray, ndocs: int, jq: np.ndarray, jdoc: np.ndarray,
                  jgrade: np.ndarray, nq: int) -> np.ndarray:
    """Grade of each (q, doc) row from the judged (jq, jdoc, jgrade) rows; 0 when not judged.

    ``jdoc`` holds codes in the rows' document space (all >= 0); (jq, jdoc) pairs are distinct.

    Parameters
    ----------
    q, docs : numpy.ndarray of int
        Query and document code of each run row.
    ndocs : int
        The number of document codes.
    jq, jdoc : numpy.ndarray of int
        Query and document code of each judged row.
    jgrade : numpy.ndarray of float
        The grade of each judged row.
    nq : int
        The number of query codes.

    Returns
    -------
    numpy.ndarray of float64
        One grade per run row.

    Examples
    --------
    Run rows (0, 1), (0, 2), (1, 1); judged (0, 2) = 3 and (1, 1) = 1.  Document 1 is judged for
    query 1 only:

    >>> lookup_grades(np.array([0, 0, 1]), np.array([1, 2, 1]), 3, np.array([0, 1]), np.array([2, 1]),
    ...               np.array([3.0, 1.0]), 2).tolist()
    [0.0, 3.0, 1.0]
    """
    n = q.size
    qkey = jq.astype(np.int64) * int(ndocs) + jdoc
    order = np.argsort(qkey, kind="stable")
    qkey, qgrade = qkey[order], jgrade[order]
    grade = np.zeros(n, dtype=np.float64)
    if not qkey.size:
        return grade
    # Only rows whose document is judged for some query can have a grade: look those up.
    judged_doc = np.zeros(int(ndocs), dtype=bool)
    judged_doc[jdoc] = True
    cand = np.flatnonzero(judged_doc[docs])
    rkey = q[cand].astype(np.int64) * int(ndocs) + docs[cand]
    at = np.minimum(np.searchsorted(qkey, rkey), qkey.size - 1)
    hit = qkey[at] == rkey
    grade[cand[hit]] = qgrade[at[hit]]
    return grade


def warm_up() -> bool:
    """Compile (or load from numba's cache) every kernel now, on tiny inputs; False without numba.

    A server calls it at start-up so that the first large upload does not wait for compilation.

    Returns
    -------
    bool
        True when numba is installed and the kernels are ready.

    Examples
    --------
    >>> warm_up()
    True
    """
    if _numba_module() is None:
        return False
    _jit("factorize", _factorize_py)(np.arange(3, dtype=np.uint64), 16)
    starts = np.array([0, 2], np.int64)
    # read-only buffers, as pyarrow's string arrays give (numba compiles per array type)
    data, offsets = np.frombuffer(b"ab", np.uint8), np.frombuffer(np.array([0, 1, 2], np.int32).tobytes(), np.int32)
    first_duplicate_string(starts, data, offsets)
    lookup_grades_by_string(np.array([0, 0], np.int64), data, offsets, np.array([0]), data, offsets[:2],
                            np.array([1.0]), 1)
    return True
