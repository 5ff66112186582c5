"""Hostile and unlucky files for the single-machine reader and the command line: Parquet "bombs" (a few hundred
KB that decode to tens of millions of rows, or to gigabytes of one long repeated id), damaged Parquet
(truncated, corrupt pages, repeated column names, no rows, not Parquet at all), a big text file with one bad
line, ids of a million characters.  The files are built here with pyarrow's writer and plain bytes, sized by
what they decode to, never through the reader under test.  Memory is measured in a fresh process (its
``VmHWM`` after a reset, over its RSS before the read), never timed."""
from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import metrics.runfiles.read as reader
from metrics.runfiles import cli
from metrics.runfiles.read import (
    CHUNK_BYTES,
    DOCNO_TEXT_BYTES,
    FOOTER_BYTES,
    MAX_ID_CHARS,
    PARQUET_BATCH_ROWS,
    QID_TEXT_BYTES,
    READ_ROW_BYTES,
    SHOWN_CHARS,
    Limits,
    id_strings,
    read_parquet,
    read_qrels,
    read_run,
    shorten,
)
from tests.conftest import examples
from tests.metrics.conftest import PROPERTY

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
MB = 1e6

# The Run files page's limits, restated here (ui/pages/run_files/view.py has them; metrics tests do not import ui).
PAGE_CAP = 100 * 2**20
PAGE_LIMITS = Limits(max_rows=PAGE_CAP // 8, max_ratio=100, max_memory=3 * PAGE_CAP)


# ------------------------------------------------------------------------------------------- hostile files
def repeated_pair_parquet(path: Path, rows: int, *, text: str = "x", compression: str = "zstd") -> Path:
    """``rows`` rows of one (query, document, score): dictionary-encoded and compressed, a few hundred KB for
    tens of millions of rows.  ``text`` is the id (a long one decodes to rows x its length)."""
    zeros = pa.array(np.zeros(rows, np.int32))
    same = pa.DictionaryArray.from_arrays(zeros, pa.array([text]))
    table = pa.table({"qid": same, "docno": pa.DictionaryArray.from_arrays(zeros, pa.array(["d"])),
                      "score": pa.DictionaryArray.from_arrays(zeros, pa.array([1.0]))})
    pq.write_table(table, path, compression=compression, row_group_size=1 << 22)
    return path


def good_parquet(rows: int = 1000, **kw) -> bytes:
    buf = io.BytesIO()
    table = pa.table({"qid": [f"q{i // 10}" for i in range(rows)], "docno": [f"d{i}" for i in range(rows)],
                      "score": np.arange(rows, dtype=float)})
    pq.write_table(table, buf, **kw)
    return buf.getvalue()


CHILD = r"""
import gc, json, sys
sys.path.insert(0, {root!r})

def status():
    out = {{}}
    for line in open("/proc/self/status"):
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1]) * 1024
    return out

from metrics.runfiles import cli
from metrics.runfiles.read import Limits, read_run
read_run(b"q1 Q0 d1 1 1 x\nq1 Q0 d2 2 0.5 x\nbad line\n")  # imports and first calls, not measured
{prepare}
gc.collect()
open("/proc/self/clear_refs", "w").write("5")  # VmHWM := VmRSS
base = status()["VmRSS"]
{action}
s = status()
print(json.dumps({{"peak": s["VmHWM"] - base, "result": result}}))
"""


def in_fresh_process(action: str, prepare: str = "") -> dict:
    """Run ``action`` (which sets ``result``) in a new interpreter; its peak RSS over its RSS just before."""
    code = CHILD.format(root=str(ROOT), prepare=prepare, action=action)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    """20 million rows of one pair in about 200 KB."""
    path = repeated_pair_parquet(tmp_path_factory.mktemp("bomb") / "bomb.parquet", 20_000_000)
    assert path.stat().st_size < 400_000  # what an upload of it costs in bytes
    return path


# ------------------------------------------------------------------------------------------- Parquet bombs
def test_a_parquet_bomb_is_refused_from_its_footer_in_bounded_memory(bomb):
    # 20,000,000 rows: more than the page's rows (13,107,200), and at READ_ROW_BYTES (100) a row 2,000 MB of
    # memory at the least, against 100 x 1 MiB for a file under 1 MiB.  Before: decoded whole, ~190 bytes a row
    # (a 5-million-row file took 930 MB; the 338 KB file 5.6 GB).
    action = (f"p = read_run({str(bomb)!r}, limits=Limits(max_rows={PAGE_LIMITS.max_rows}, max_ratio=100, "
              f"max_memory={PAGE_LIMITS.max_memory}))\n"
              "result = [p.fatal, [(x.kind, x.message) for x in p.problems]]")
    out = in_fresh_process(action)
    fatal, problems = out["result"]
    assert fatal and problems == [["too_many_rows", "bomb.parquet has 20,000,000 rows; the limit is 13,107,200 rows"]]
    assert out["peak"] < 20 * MB, out
    # The ratio alone refuses it as well, before a row is decoded (the command line's default): 20,000,000 rows at
    # READ_ROW_BYTES, its footer at FOOTER_BYTES a byte, 5 row groups x 3 columns at CHUNK_BYTES.
    p = read_run(bomb, limits=Limits(max_ratio=cli.DEFAULT_MAX_RATIO))
    assert [x.kind for x in p.problems] == ["too_much_memory"]
    assert p.problems[0].message == (f"bomb.parquet needs at least {least_cost(bomb, 20_000_000) / MB:.1f} MB of "
                                     f"memory to read ({bomb.stat().st_size / MB:.2f} MB on disk); the limit for a "
                                     "file of this size is 104.9 MB")


def test_the_command_line_refuses_the_bomb_by_default_naming_the_file_and_the_option(bomb):
    qrels = str(SAMPLES / "qrels.txt")
    action = ("import contextlib, io\nerr = io.StringIO()\n"
              f"with contextlib.redirect_stderr(err):\n    code = cli.main([{qrels!r}, {str(bomb)!r}])\n"
              "result = [code, err.getvalue()]")
    out = in_fresh_process(action)
    code, stderr = out["result"]
    assert code == 1 and "Traceback" not in stderr
    assert f"error: bomb.parquet needs at least {least_cost(bomb, 20_000_000) / MB:.1f} MB of memory" in stderr
    assert "--max-ratio R sets" in stderr
    assert out["peak"] < 20 * MB, out


def test_one_long_id_repeated_is_refused_in_the_first_batch_without_expanding_it(tmp_path):
    # 800,000 rows whose query id is one 100,000-character string: 80 GB once expanded, yet the footer is modest
    # (800,000 rows x READ_ROW_BYTES = 96 MB at the least, under 100 x 1 MiB; the dictionary page ~100 KB).  The
    # first batch (65,536 rows) is counted on its dictionary: 65,536 x (READ_ROW_BYTES + QID_TEXT_BYTES x 100,000)
    # bytes > the budget.
    path = repeated_pair_parquet(tmp_path / "long.parquet", 800_000, text="q" * 100_000)
    assert path.stat().st_size < 200_000
    action = (f"p = read_run({str(path)!r}, limits=Limits(max_ratio=100))\n"
              "result = [(x.kind, x.params) for x in p.problems]")
    out = in_fresh_process(action)
    [[kind, params]] = out["result"]
    assert kind == "too_much_memory"
    assert params["memory_mb"] >= PARQUET_BATCH_ROWS * (READ_ROW_BYTES + QID_TEXT_BYTES * 100_000) / MB
    assert out["peak"] < 60 * MB, out


def footer_length(data: bytes) -> int:
    """A Parquet file's footer length, from its last 8 bytes (the format: length, then b"PAR1")."""
    assert data[-4:] == b"PAR1"
    return struct.unpack("<I", data[-8:-4])[0]


def least_cost(path: Path, rows: int, columns: int = 3) -> int:
    """What reading a file costs whatever its pages hold: rows, footer, column chunks."""
    groups = pq.ParquetFile(path).metadata.num_row_groups
    return rows * READ_ROW_BYTES + footer_length(path.read_bytes()) * FOOTER_BYTES + groups * columns * CHUNK_BYTES


def test_limits_hold_for_files_that_are_within_them_and_refuse_just_beyond(tmp_path):
    # 1000 rows: query ids "qq0".."qq99" repeated (3-4 characters; 100 queries of 10 documents), document ids
    # 10 distinct 40-character names: their pages are small (dictionaries of a few hundred bytes), so the memory
    # counted is the decoding's, batch by batch: 1000 x READ_ROW_BYTES, the footer at FOOTER_BYTES a byte, one
    # row group x 3 columns at CHUNK_BYTES, QID_TEXT_BYTES per query id character and DOCNO_TEXT_BYTES per
    # document id character.
    qids = [f"qq{i // 10}" for i in range(1000)]
    docnos = [f"{i % 10}" + "d" * 39 for i in range(1000)]
    buf = io.BytesIO()
    pq.write_table(pa.table({"qid": qids, "docno": docnos, "score": np.arange(1000.0)}), buf)
    data = buf.getvalue()
    exact = (1000 * READ_ROW_BYTES + footer_length(data) * FOOTER_BYTES + 3 * CHUNK_BYTES
             + QID_TEXT_BYTES * sum(map(len, qids)) + DOCNO_TEXT_BYTES * sum(map(len, docnos)))
    assert read_run(data, limits=Limits(max_rows=1000, max_memory=exact)).ok
    too_many = read_run(data, name="f.parquet", limits=Limits(max_rows=999))
    assert [x.message for x in too_many.problems] == ["f.parquet has 1,000 rows; the limit is 999 rows"]
    over = read_run(data, name="f.parquet", limits=Limits(max_memory=exact - 1))
    assert [x.kind for x in over.problems] == ["too_much_memory"] and over.table is None
    # a text file: its rows are counted as it is read (its bytes bound the cost)
    text = b"".join(f"q1 Q0 d{i} {i} 1.0 t\n".encode() for i in range(10))
    assert read_run(text, limits=Limits(max_rows=10)).ok
    assert [x.kind for x in read_run(text, limits=Limits(max_rows=9)).problems] == ["too_many_rows"]


def test_bad_limits_are_refused_naming_the_parameter():
    for kwargs, text in (({"max_rows": 0}, "max_rows"), ({"max_ratio": 0.5}, "max_ratio"),
                         ({"max_ratio": float("nan")}, "max_ratio"), ({"max_memory": -1}, "max_memory")):
        with pytest.raises(ValueError, match=text):
            Limits(**kwargs)
    with pytest.raises(ValueError, match="limits must be a Limits"):
        read_run(b"q Q0 d 1 1 t\n", limits={"max_rows": 3})


# ------------------------------------------------------------------------------------------- damaged Parquet
def damaged_files() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, the problem kind expected)."""
    good = good_parquet(1000, compression="snappy")
    flipped = bytearray(good)
    for i in range(200, 400):  # inside the first column's data pages
        flipped[i] ^= 0x5A
    dup = io.BytesIO()
    pq.write_table(pa.Table.from_arrays([pa.array(["q"]), pa.array(["d"]), pa.array([1.0]), pa.array([2.0])],
                                        names=["qid", "docno", "score", "score"]), dup)
    empty = io.BytesIO()
    pq.write_table(pa.table({"qid": pa.array([], pa.string()), "docno": pa.array([], pa.string()),
                             "score": pa.array([], pa.float64())}), empty)
    binary = io.BytesIO()
    pq.write_table(pa.table({"qid": pa.array([b"\xff\xfe"]), "docno": ["d"], "score": [1.0]}), binary)
    text_score = io.BytesIO()
    pq.write_table(pa.table({"qid": ["q"], "docno": ["d"], "score": ["0.5"]}), text_score)
    return {
        "half.parquet": (good[: len(good) // 2] + b"PAR1", "parquet_footer"),
        "no_tail.parquet": (good[:-20], "parquet_footer"),
        "header_only.parquet": (good[:4096], "parquet_footer"),
        "magic_only.parquet": (b"PAR1" + b"\0" * 8 + b"PAR1", "parquet_footer"),
        "corrupt.parquet": (bytes(flipped), "parquet_data"),
        "dup.parquet": (dup.getvalue(), "duplicate_column"),
        "empty.parquet": (empty.getvalue(), "empty"),
        "binary_ids.parquet": (binary.getvalue(), "column_type"),
        "text_score.parquet": (text_score.getvalue(), "column_type"),
    }


@pytest.mark.parametrize("name", sorted(damaged_files()))
def test_damaged_parquet_is_a_fatal_problem_naming_the_file_as_bytes_and_as_a_path(name, tmp_path):
    # Before: truncated files raised ValueError, a corrupt page OSError, repeated names KeyError (the page showed
    # "This app has encountered an error", the command line a traceback).
    data, kind = damaged_files()[name]
    path = tmp_path / name
    path.write_bytes(data)
    for source in (data, memoryview(data), path):
        p = read_run(source, name=name)
        assert p.fatal and p.table is None and [x.kind for x in p.problems] == [kind]
        assert p.problems[0].message.startswith(name) and p.format == "parquet"


def test_the_messages_say_what_is_wrong_without_quoting_the_file():
    files = damaged_files()
    msg = {n: read_run(files[n][0], name=n).problems[0].message for n in files}
    assert msg["dup.parquet"] == "dup.parquet: 2 columns are named 'score'; give each column its own name"
    assert msg["corrupt.parquet"] == ("corrupt.parquet cannot be read as Parquet: its data is damaged or uses a "
                                      "feature this reader does not support (rows 1 to 1,000)")
    assert "footer" in msg["half.parquet"] and "truncated" in msg["half.parquet"]
    assert msg["binary_ids.parquet"] == ("binary_ids.parquet: column 'qid' (qid) is of type binary; accepted: "
                                         "strings or integers")
    # a column named twice that no role uses is not in the way
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_arrays([pa.array(["q"]), pa.array(["d"]), pa.array([1.0]), pa.array([1]),
                                         pa.array([2])], names=["qid", "docno", "score", "x", "x"]), buf)
    assert read_run(buf.getvalue()).ok


@pytest.mark.parametrize("name", ["half.parquet", "corrupt.parquet", "dup.parquet", "empty.parquet"])
def test_the_command_line_prints_one_message_naming_the_file_never_a_traceback(name, tmp_path, capsys):
    data, _kind = damaged_files()[name]
    (tmp_path / name).write_bytes(data)
    code = cli.main([str(SAMPLES / "qrels.txt"), str(tmp_path / name)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.startswith(f"error: {name}")


@settings(PROPERTY, max_examples=examples(60))
@given(cut=st.integers(0, 10_000), flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)),
                                                  max_size=8),
       compression=st.sampled_from(["none", "snappy", "zstd", "gzip"]))
@example(cut=0, flips=[(2378, 128)], compression="zstd")  # the footer's writer field no longer UTF-8
def test_truncated_or_flipped_parquet_never_raises(cut, flips, compression):
    good = good_parquet(300, compression=compression)
    data = bytearray(good[: max(12, len(good) - cut)] if cut % 2 else good)
    for pos, xor in flips:
        data[pos % len(data)] ^= xor
    p = read_run(bytes(data), name="f.parquet", limits=Limits(max_ratio=100))
    assert p.fatal or p.table is not None  # a Parsed, whatever the bytes: never an exception
    if p.fatal:
        assert all(x.message.startswith("f.parquet") for x in p.problems)


# ------------------------------------------------------------------------------------------- one bad line
def big_run(path: Path, lines: int, *, bad_at: int | None = None) -> Path:
    """A TREC run of ``lines`` lines (100 documents a query); line ``bad_at`` (1-based) lacks its tag."""
    q = np.arange(lines) // 100
    text = "".join(f"q{q[i]} Q0 D{i:07d} {i % 100 + 1} {1000 - i % 100}.25 bench\n" for i in range(lines))
    if bad_at is not None:
        rows = text.split("\n")
        rows[bad_at - 1] = rows[bad_at - 1].rsplit(" ", 1)[0]
        text = "\n".join(rows)
    path.write_text(text)
    return path


def test_one_bad_line_costs_about_what_the_clean_file_costs(tmp_path):
    # 400,000 lines (~17 MB).  Before: the line-by-line path held every line and field as Python objects and a
    # dict of (query, document) tuples: ~15 times the file's size (24 MB: 409 MB), against ~3.4 times clean.
    clean = big_run(tmp_path / "clean.run", 400_000)
    bad = big_run(tmp_path / "bad.run", 400_000, bad_at=200_000)
    size = bad.stat().st_size
    peaks = {}
    for label, path in (("clean", clean), ("bad", bad)):
        prepare = f"data = open({str(path)!r}, 'rb').read()"  # the upload's bytes, as the page holds them
        action = "p = read_run(memoryview(data), name='r')\nresult = [p.table.n_rows, [x.message for x in p.problems]]"
        out = in_fresh_process(action, prepare)
        peaks[label] = out["peak"]
        if label == "bad":
            assert out["result"] == [399_999, ["r line 200000: 5 fields where a TREC run line has 6; the line is "
                                               "skipped"]]
    assert peaks["bad"] < max(1.5 * peaks["clean"], 5 * size), (peaks, size)


# The line-by-line reader's own model: what a TREC run file means, line by line, written here from the format
# (trec_eval 10: blank and '#' lines skipped, fields after the tag ignored, the first of a repeated pair kept).
def model_run(text: str):
    rows, problems, seen = [], [], {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 6:
            problems.append((i, "fields"))
            continue
        try:
            value = float(fields[4])
        except ValueError:
            value = float("nan")
        if not np.isfinite(value):
            problems.append((i, "number"))
            continue
        key = (fields[0], fields[2])
        if key in seen:
            problems.append((i, "duplicate"))
            continue
        seen[key] = i
        rows.append((fields[0], fields[2], value, i))
    return rows, sorted(problems)


line_parts = st.one_of(
    st.tuples(st.sampled_from(["q1", "q2", "问题", "q3"]), st.sampled_from(["d1", "d2", "文档", "d3", "d4"]),
              st.sampled_from(["1.5", "2", "-0.25", "1e3", "oops", "nan", "inf"]))
    .map(lambda t: f"{t[0]} Q0 {t[1]} 1 {t[2]} tag"),
    st.sampled_from(["", "  ", "# comment", "q1 Q0 d9", "q2 Q0 d5 1 3.0 tag extra", "q1 Q0 d6 1 4.0 tag\r"]),
)


@PROPERTY
@given(lines=st.lists(line_parts, min_size=1, max_size=40), encoding=st.sampled_from(["utf-8", "gbk"]),
       block=st.integers(1, 64), chunk=st.integers(1, 5))
def test_the_line_by_line_reader_equals_the_model_for_any_blocks_and_chunks(lines, encoding, block, chunk):
    text = "\n".join(lines) + "\n"
    data = text.encode(encoding)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "SLOW_BLOCK_BYTES", block)  # lines cut by blocks, rows packed by chunks
        mp.setattr(reader, "SLOW_CHUNK_ROWS", chunk)
        p = reader._slow_read(data, "run", "r")
    rows, problems = model_run(text)
    if not rows:
        assert p.table is None
        return
    assert p.encoding == ("utf-8" if text.isascii() else encoding)  # ASCII is UTF-8 first
    t = p.table
    got = list(zip(t.qid.dictionary_decode().to_pylist(), id_strings(t.docno).to_pylist(), t.value.tolist(),
                   [t.line_of(i) for i in range(t.n_rows)]))
    assert got == rows
    assert sorted((x.line, x.kind) for x in p.problems) == problems
    assert p.n_lines == len(text.split("\n")) - 1


def test_gbk_text_across_block_edges_reads_as_in_one_block(monkeypatch):
    text = "".join(f"问题{i % 3} Q0 文档{i} {i} {i}.5 运行\n" for i in range(200)) + "坏行\n"
    data = text.encode("gbk")
    whole = read_run(data, name="r")
    monkeypatch.setattr(reader, "SLOW_BLOCK_BYTES", 7)
    cut = read_run(data, name="r")
    assert whole.encoding == cut.encoding == "gbk" and whole.table.n_rows == cut.table.n_rows == 200
    assert [x.message for x in whole.problems] == [x.message for x in cut.problems]
    assert id_strings(whole.table.docno).to_pylist() == id_strings(cut.table.docno).to_pylist()


# ------------------------------------------------------------------------------------------- stopping a read
@pytest.mark.parametrize("kind", ["parquet", "text"])
def test_an_exception_from_on_progress_stops_the_read_between_blocks(kind, monkeypatch):
    class Left(Exception):
        pass

    calls = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) == 2:
            raise Left()

    if kind == "parquet":
        data = good_parquet(5 * PARQUET_BATCH_ROWS)
    else:
        monkeypatch.setattr(reader, "SLOW_BLOCK_BYTES", 1 << 12)
        data = b"".join(f"q{i // 50} Q0 d{i} 1 1.0 t\n".encode() for i in range(20_000)) + b"bad\n"
    with pytest.raises(Left):
        read_run(data, on_progress=progress)
    assert len(calls) == 2 and 0 < calls[0] < calls[1] < 1


# ------------------------------------------------------------------------------------------- long ids
def test_an_id_of_a_million_characters_is_a_bad_line_shown_shortened_in_every_message(capsys, tmp_path):
    # An id of a million characters is not an id: its line is skipped ("long_id", MAX_ID_CHARS = 10,000), the id
    # shown as its first 59 characters.  An id just within the limit is kept, and shortened where a message quotes
    # it (here: a repeated document).  Before: kept whole, and the million characters copied at every step.
    long_q, long_d, near = "Q" * 1_000_000, "D" * 1_000_000, "N" * MAX_ID_CHARS
    run = tmp_path / "run.txt"
    run.write_text(f"q1 Q0 d1 1 2.0 t\n{long_q} Q0 d1 1 2.0 t\nq1 Q0 {long_d} 2 1.0 t\nq1 Q0 {near} 3 1.0 t\n"
                   f"q1 Q0 {near} 4 1.0 t\nq1 Q0 d2 5 {'9' * 10_000}x t\n")
    p = read_run(run)
    assert [(x.line, x.kind) for x in p.problems] == [(2, "long_id"), (3, "long_id"), (5, "duplicate"), (6, "number")]
    for x in p.problems:
        assert len(x.message) < 300 and "Q" * (SHOWN_CHARS + 1) not in x.message
    assert p.problems[0].message == ("run.txt line 2: qid of 1,000,000 characters ('" + "Q" * (SHOWN_CHARS - 1)
                                     + "…'); an id has at most 10,000; the line is skipped")
    assert "docno of 1,000,000 characters ('" + "D" * (SHOWN_CHARS - 1) + "…')" in p.problems[1].message
    assert "N" * (SHOWN_CHARS - 1) + "…" in p.problems[2].message
    assert id_strings(p.table.docno).to_pylist() == ["d1", near]
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq9 0 d1 1\n")
    code = cli.main(["--skip-bad-lines", str(qrels), str(run)])
    err = capsys.readouterr().err
    assert code == 0 and max(len(line) for line in err.splitlines()) < 400
    assert "Q" * (SHOWN_CHARS - 1) + "…" in err and "Q" * (SHOWN_CHARS + 1) not in err
    # the same ids in a CSV file, read line by line (one bad line) and through pyarrow's reader
    csv = tmp_path / "run.csv"
    csv.write_text(f"qid,docno,score\nq1,d1,2\n{long_q},d1,1\nq1,{near},1\n")
    p = read_run(csv)
    assert [(x.line, x.kind) for x in p.problems] == [(3, "long_id")] and p.table.n_rows == 2
    assert read_run(csv.read_bytes() + b"q1,d3\n").problems[0].kind == "long_id"


@PROPERTY
@given(text=st.text(min_size=0, max_size=300), limit=st.integers(2, 80))
def test_shorten_keeps_a_printable_prefix_within_the_limit(text, limit):
    out = shorten(text, limit)
    assert len(out) <= limit and out.isprintable()
    if len(text) <= limit and text.isprintable():
        assert out == text
    kept = out.removesuffix("…")
    if text.isprintable():
        assert text.startswith(kept)


def test_control_characters_in_ids_are_written_as_escapes(capsys, tmp_path):
    qrels = tmp_path / "q.txt"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "r.txt"
    run.write_text("q1 Q0 d1 1 1.0 t\n\x1b[2Jevil Q0 d1 1 1.0 t\n")
    cli.main([str(qrels), str(run)])
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2Jevil" in err


def test_qrels_and_sample_files_read_as_before():
    # the samples through both paths: the line-by-line path (broken_gbk.txt) and the fast one
    q = read_qrels(SAMPLES / "qrels.txt")
    broken = read_run(SAMPLES / "broken_gbk.txt")
    assert q.ok and broken.encoding == "gbk" and sorted(p.kind for p in broken.errors) == ["duplicate", "fields",
                                                                                          "number"]
    assert read_parquet(good_parquet(10), kind="run").ok


def test_standard_input_is_read_no_further_than_the_size_limit(monkeypatch, capsys, tmp_path):
    # `--max-mb 1` with a run piped in: one byte more than the limit is read and the run refused (before: all of
    # standard input was read into memory first, however long it was)
    class Endless:
        asked: list = []

        def read(self, n=-1):
            self.asked.append(n)
            assert n is not None and n >= 0, "read to the end of an endless stream"
            return b"q1 Q0 d1 1 1.0 t\n" * (n // 17) + b"q" * (n % 17)

    stdin = type("Stdin", (), {"buffer": Endless()})()
    monkeypatch.setattr("sys.stdin", stdin)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    code = cli.main(["--max-mb", "1", str(qrels), "-"])
    err = capsys.readouterr().err
    assert code == 1 and "error: stdin is 1.0 MB; the limit is 1 MB" in err
    assert Endless.asked == [1_000_001]
