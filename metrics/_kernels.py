"""Integer kernels for millions of rows: factorize, duplicate check, grade lookup.

Each has a numpy version (always available, used for small inputs and in tests) and a numba
version (used for large inputs when numba is installed: one pass, no sorting, no string hashing).
Both give identical results; ``tests/metrics/test_batch.py`` runs the batch engine with each.

numba earns its place here: for 10^7 run lines the numpy versions (sort / hash-table based)
cost about as much as reading the file, the numba ones a small fraction of it (see
``benchmarks/run_files.py``).  The compiled code is cached on disk after the first call.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["factorize_u64", "has_duplicate_pairs", "lookup_grades", "use_numba", "warm_up"]

#: Inputs with at least this many rows use numba (when installed); set to 0 / a huge number in tests.
NUMBA_MIN_ROWS = 1_000_000

try:  # numba is optional
    import numba as _numba
except ImportError:  # pragma: no cover - numba is installed with ranx in this project
    _numba = None

_compiled: dict = {}


def use_numba(n: int) -> bool:
    return _numba is not None and n >= NUMBA_MIN_ROWS


def _jit(name: str, func):
    if name not in _compiled:
        _compiled[name] = _numba.njit(cache=True, nogil=True)(func)
    return _compiled[name]


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
    """Codes 0.. in order of first appearance, and the index of each code's first row."""
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


# ------------------------------------------------------------------------------------------ duplicates
def _dup_blocks_py(starts, codes, ndocs):  # numba source: a stamp per document, one pass
    stamp = np.full(ndocs, -1, np.int64)
    for b in range(starts.size - 1):
        for i in range(starts[b], starts[b + 1]):
            d = codes[i]
            if stamp[d] == b:
                return True
            stamp[d] = b
    return False


def has_duplicate_pairs(qcodes: np.ndarray, dcodes: np.ndarray, ndocs: int) -> bool:
    """True when some (query, document) pair occurs twice."""
    n = qcodes.size
    if n < 2:
        return False
    if use_numba(n):
        brk = np.flatnonzero(qcodes[1:] != qcodes[:-1]) + 1
        starts = np.r_[0, brk, n].astype(np.int64)
        if starts.size - 1 == np.unique(qcodes[starts[:-1]]).size:  # each query in one block
            return bool(_jit("dup", _dup_blocks_py)(starts, np.ascontiguousarray(dcodes, np.int64), int(ndocs)))
    key = qcodes.astype(np.int64) * int(ndocs) + dcodes
    key.sort()
    return bool(np.any(key[1:] == key[:-1]))


# ------------------------------------------------------------------------------------------ grade lookup
def _lookup_blocks_py(starts, block_q, docs, qstart, qend, qdoc, qgrade, ndocs, out):
    stamp = np.full(ndocs, -1, np.int64)
    gbuf = np.zeros(ndocs, np.float64)
    for b in range(starts.size - 1):
        q = block_q[b]
        for j in range(qstart[q], qend[q]):
            stamp[qdoc[j]] = b
            gbuf[qdoc[j]] = qgrade[j]
        for i in range(starts[b], starts[b + 1]):
            d = docs[i]
            out[i] = gbuf[d] if stamp[d] == b else 0.0


def lookup_grades(q: np.ndarray, docs: np.ndarray, ndocs: int, jq: np.ndarray, jdoc: np.ndarray,
                  jgrade: np.ndarray, nq: int) -> np.ndarray:
    """Grade of each (q, doc) row from the judged (jq, jdoc, jgrade) rows; 0 when not judged.

    ``jdoc`` holds codes in the rows' document space (all >= 0); (jq, jdoc) pairs are distinct.
    """
    n = q.size
    if use_numba(n) and n:
        order = np.argsort(jq, kind="stable")
        counts = np.bincount(jq, minlength=nq)
        qend = np.cumsum(counts)
        qstart = qend - counts
        brk = np.flatnonzero(q[1:] != q[:-1]) + 1
        starts = np.r_[0, brk, n].astype(np.int64)
        out = np.empty(n, np.float64)
        _jit("lookup", _lookup_blocks_py)(starts, q[starts[:-1]].astype(np.int64), np.ascontiguousarray(docs, np.int64),
                                         qstart.astype(np.int64), qend.astype(np.int64),
                                         jdoc[order].astype(np.int64), jgrade[order].astype(np.float64), int(ndocs), out)
        return out
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
    """Compile (or load from numba's cache) every kernel now, on tiny inputs; False without numba."""
    if _numba is None:
        return False
    _jit("factorize", _factorize_py)(np.arange(3, dtype=np.uint64), 16)
    starts = np.array([0, 2], np.int64)
    _jit("dup", _dup_blocks_py)(starts, np.array([0, 1], np.int64), 2)
    out = np.empty(2, np.float64)
    _jit("lookup", _lookup_blocks_py)(starts, np.array([0], np.int64), np.array([0, 1], np.int64),
                                      np.array([0], np.int64), np.array([1], np.int64), np.array([1], np.int64),
                                      np.array([2.0]), 2, out)
    return True
