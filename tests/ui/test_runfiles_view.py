"""ui.pages.run_files.view: the Run files page's logic without a page (flips, duplicates, the cap, link parsers,
measure specs, memory hand-back)."""
from __future__ import annotations

import itertools
import math
import zlib
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles import IDCG, MEASURES, measure_names, parse_measures
from tests.metrics.conftest import PROPERTY
from ui.pages.run_files import view as runfiles_view
from ui.state import BadValue


def orders_for(gains, discounts, idcg, ties, winner) -> pd.DataFrame:
    """An Evaluation.orders()-like frame: one row per variant, the winner given by ``winner(variant)``."""
    rows = [{"gain": g, "discount": d, "idcg": i, "ties": t, "winner": winner((g, d, i, t))}
            for g, d, i, t in itertools.product(gains, discounts, idcg, ties)]
    return pd.DataFrame(rows)


def subsets(options):
    return st.lists(st.sampled_from(list(options)), min_size=1, max_size=len(options), unique=True)


@given(gains=subsets(GAINS), discounts=subsets(DISCOUNTS), idcg=subsets(IDCG), ties=subsets(TIES),
       seed=st.integers(0, 2**16))
@PROPERTY
def test_flips_count_every_pair_differing_in_one_choice(gains, discounts, idcg, ties, seed):
    # The winner is a pseudo-random function of the variant, so flips happen in any pattern.
    orders = orders_for(gains, discounts, idcg, ties, lambda v: "AB"[zlib.crc32(f"{v}{seed}".encode()) % 2])
    flips = runfiles_view.winner_flips(orders)
    sizes = {"gain": len(gains), "discount": len(discounts), "idcg": len(idcg), "ties": len(ties)}
    for choice, n in sizes.items():
        others = math.prod(m for c, m in sizes.items() if c != choice)
        part = flips[flips["choice"] == choice]
        assert len(part) == math.comb(n, 2) * others  # C(n, 2) pairs for each combination of the others
        # a pair differs exactly in that choice, and "flips" says whether its winners differ
        for row in part.itertuples():
            a, b = row.variant_a.split("/"), row.variant_b.split("/")
            assert [x != y for x, y in zip(a, b)] == [c == choice for c in runfiles_view.CHOICES]
            assert row.flips == (row.winner_a != row.winner_b)
    summary = runfiles_view.flip_summary(flips)
    assert summary["changes"].sum() == len(flips) and summary["flips"].sum() == flips["flips"].sum()


def test_flips_by_hand():
    """Two gains x two tie rules; A wins except under exponential gain with trec_eval ties.

    Changing the gain: (linear, exponential) with trec_eval ties flips (A -> B), with average ties does not.
    Changing the ties: with exponential gain flips (B -> A), with linear gain does not.  So 1 of 2 each.
    """
    orders = orders_for(["linear", "exponential"], ["standard"], ["judged"], ["trec_eval", "average"],
                        lambda v: "B" if v[0] == "exponential" and v[3] == "trec_eval" else "A")
    summary = runfiles_view.flip_summary(runfiles_view.winner_flips(orders)).set_index("choice")
    assert summary.to_dict("index") == {"gain": {"changes": 2, "flips": 1}, "ties": {"changes": 2, "flips": 1}}


names = st.sampled_from(["bm25.run", "dense.run", "a.run"])


@given(st.lists(st.tuples(names, st.sampled_from(["d1", "d2", "d3", "d4"])), max_size=8))
@PROPERTY
def test_distinct_runs_keeps_one_per_content_with_unique_names(items):
    sources = [runfiles_view.Source("run", name, 1, digest, b"") for name, digest in items]
    kept, notes = runfiles_view.distinct_runs(sources)
    assert len({s.name for s in kept}) == len(kept)  # every system has its own name
    assert [s.digest for s in kept] == list(dict.fromkeys(d for _, d in items))  # first of each content, in order
    dropped = [n for n in notes if n.kind in ("added_again", "same_content")]
    assert len(dropped) == len(items) - len(kept)
    renamed = [s for s in kept if s.name not in {n for n, _ in items}]
    assert len(renamed) == len([n for n in notes if n.kind == "same_name"])


def test_the_cap_is_inclusive_and_counts_every_file():
    cap = runfiles_view.UPLOAD_CAP_BYTES
    at_cap = [runfiles_view.Source("qrels", "q", cap - 10, "a", b""), runfiles_view.Source("run", "r", 10, "b", b"")]
    assert runfiles_view.too_large(at_cap) is None
    over = at_cap + [runfiles_view.Source("run", "s", 1, "c", b"")]
    assert runfiles_view.too_large(over) == {
        "total_mb": f"{(cap + 1) / 2**20:.1f}",
        "cap_mb": runfiles_view.UPLOAD_CAP_MB,
        "n": 3,
    }


@given(subsets(runfiles_view.MEASURE_CHOICES))
@PROPERTY
def test_choices_parser_reads_what_the_link_writes(picked):
    field = next(f for f in runfiles_view.FIELDS if f.key == "rf_measures")
    assert field.parse(field.to_link(picked)) == picked


@pytest.mark.parametrize("text", ["5,①", "5,7", "5,-10", "5," + "9" * 40, "x"])
def test_cutoffs_parser_refuses_what_is_not_offered(text):
    with pytest.raises(BadValue):
        runfiles_view.cutoffs(runfiles_view.CUTOFF_CHOICES)(text)


@given(
    subsets(runfiles_view.MEASURE_CHOICES),
    st.lists(st.sampled_from(runfiles_view.CUTOFF_CHOICES), max_size=4, unique=True),
)
@PROPERTY
def test_every_measure_spec_is_one_trec_eval_accepts_and_can_be_compared(measures, cuts):
    specs = runfiles_view.measure_specs(measures, cuts)
    parse_measures(specs)  # trec_eval's form: raises ValueError otherwise
    comparable = set(runfiles_view.comparable_names())
    per_query = [m for m in measures if MEASURES[m].per_query]
    assume(per_query)
    assert set(measure_names(runfiles_view.measure_specs(per_query, cuts))) <= comparable


RELEASE_PROBE = """
import gc, json, os
from ui.pages.run_files import view as runfiles_view

def rss_mb():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

blocks = [bytes(1000) + i.to_bytes(4, "little") for i in range(120_000)]  # distinct objects, ~120 MB
pin = [bytes(1000) + b"pin"]  # allocated last: the freed pages lie below it
peak = rss_mb()
del blocks
gc.collect()
kept = rss_mb()
first = runfiles_view.release_memory()
trimmed = rss_mb()
second = runfiles_view.release_memory()
print(json.dumps({"peak": peak, "kept": kept, "trimmed": trimmed, "again": rss_mb(), "calls": [first, second]}))
"""


def test_release_memory_hands_freed_heap_pages_back_to_the_system():
    """~120 MB of 1,000-byte blocks (below malloc's mmap threshold: heap pages) are freed while a block
    allocated after them pins the heap's top, so glibc keeps the pages: the process stays at its peak
    until release_memory trims them, and a second call finds nothing more to do.  Measured in a fresh
    interpreter: a test worker's heap holds what earlier tests freed, which the blocks would reuse."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", RELEASE_PROBE], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    m = json.loads(out.stdout.strip().splitlines()[-1])
    assert m["kept"] > m["peak"] - 60, m  # glibc keeps most of the freed pages: nothing went back yet
    assert m["calls"] == [True, True], m  # glibc: malloc_trim is there
    assert m["trimmed"] < m["kept"] - 60, m  # most of the 120 MB is back with the system
    assert m["again"] <= m["trimmed"] + 5, m  # twice: no harm, nothing new held


def test_the_uploaded_bytes_are_never_copied():
    """UploadedFile is an io.BytesIO over Streamlit's bytes: getvalue() hands back that very object (the
    page keeps it), while getbuffer() would copy it to un-share the buffer."""
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    data = b"q1 Q0 d1 1 1.0 r\n" * 1000
    f = UploadedFile(UploadedFileRec("id", "r.run", "text/plain", data), None)
    assert f.getvalue() is data
    assert runfiles_view.digest_of(f.getvalue()) == runfiles_view.digest_of(data)
