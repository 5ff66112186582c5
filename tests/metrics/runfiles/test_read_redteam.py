"""The red team's findings F1-F5 on issue 37's upload limits, each as the test that failed before its fix: a
line of millions of fields and a header of millions of columns (F1), a tiny Parquet file holding one id of
tens of megabytes (F2), a Parquet file whose footer lies about its pages' size (F3), a Parquet file of tens of
thousands of row groups (F4), a CSV field longer than the csv module's limit on the line-by-line path (F5).

Every hostile file is built here (plain bytes, pyarrow's writer, fastparquet to rewrite a footer), sized by what
it decodes to, never through the reader under test; memory is measured in a fresh process (its ``VmHWM`` after a
reset, over its RSS just before the read: ``in_fresh_process``), never timed."""
from __future__ import annotations

import io
import struct
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

import metrics.runfiles.read as reader
from metrics.runfiles import cli
from metrics.runfiles.read import (
    MAX_HEADER_CHARS,
    MAX_ID_CHARS,
    PARQUET_MIN_PAGES,
    QID_TEXT_BYTES,
    id_strings,
    read_qrels,
    read_run,
)
from tests.metrics.conftest import PROPERTY
from tests.metrics.runfiles.test_read_hostile import PAGE_LIMITS, SAMPLES, in_fresh_process, model_run

MB = 1e6
QRELS = str(SAMPLES / "qrels.txt")


def read_in_fresh_process(path: Path, *, kind: str = "run", limits: str = "None", source: str = "bytes") -> dict:
    """Read ``path`` (as the page does: a memoryview of its bytes, or by its path as the command line does) in a
    new interpreter; its peak RSS over the RSS with the bytes held, and (kind, line, message) of each problem."""
    prepare = f"data = open({str(path)!r}, 'rb').read()" if source == "bytes" else ""
    src = "memoryview(data)" if source == "bytes" else repr(str(path))
    action = ("from metrics.runfiles.read import read_qrels\n"
              f"p = {'read_qrels' if kind == 'qrels' else 'read_run'}({src}, name={path.name!r}, limits={limits})\n"
              "result = [p.table.n_rows if p.table is not None else None, "
              "[(x.kind, x.line, x.message) for x in p.problems]]")
    out = in_fresh_process(action, prepare)
    out["rows"], out["problems"] = out["result"]
    return out


def cli_in_fresh_process(*args: str) -> dict:
    """The command line in a new interpreter: exit status, standard error, peak RSS over its RSS before."""
    action = ("import contextlib, io\nerr = io.StringIO()\n"
              f"with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):\n"
              f"    code = cli.main({list(args)!r})\n"
              "result = [code, err.getvalue()]")
    out = in_fresh_process(action)
    out["code"], out["stderr"] = out["result"]
    return out


PAGE = (f"Limits(max_rows={PAGE_LIMITS.max_rows}, max_ratio={PAGE_LIMITS.max_ratio}, "
        f"max_memory={PAGE_LIMITS.max_memory})")


# ------------------------------------------------------------------------------------------- F1: wide lines
def test_a_run_line_of_millions_of_fields_costs_what_its_text_costs(tmp_path):
    # trec_eval ignores the fields after a run line's tag.  Before: the line was split into a Python string per
    # field (~50 bytes each), and the sniffing split it twice more: a 20 MB line took ~45 times its size.
    path = tmp_path / "wide_line.run"
    path.write_bytes(b"101 Q0 D100 1 2.0 tag\n101 Q0 D101 1 1.0 tag" + b" x" * 5_000_000 + b"\n")  # 10 MB
    size = path.stat().st_size
    for source in ("bytes", "path"):
        out = read_in_fresh_process(path, source=source)
        assert out["rows"] == 2 and out["problems"] == []
        # the bytes are held before the read; the line's text and its lines list come on top (a file read by
        # its path also passes pyarrow's reader, which holds one block of 16 MiB of fields before it gives up)
        assert out["peak"] < (3 * size if source == "bytes" else 3 * size + 40 * MB), (source, out["peak"])
    # as the first line (the header sniffed from it): the same
    first = tmp_path / "first.run"
    first.write_bytes(b"101 Q0 D101 1 1.0 tag" + b" x" * 5_000_000 + b"\n")
    out = read_in_fresh_process(first, source="path")
    assert out["rows"] == 1 and out["peak"] < 3 * size
    # the command line: evaluated, exit 0
    out = cli_in_fresh_process(QRELS, str(path))
    assert out["code"] == 0 and "Traceback" not in out["stderr"]
    assert out["peak"] < 3 * size + 40 * MB


def test_a_qrels_line_of_millions_of_fields_is_a_bad_line_counted_without_splitting_it(tmp_path):
    path = tmp_path / "wide.qrels"
    path.write_bytes(b"101 0 D100 1\n101 0 D101 1" + b" x" * 2_000_000 + b"\n")
    out = read_in_fresh_process(path, kind="qrels")
    assert out["rows"] == 1
    assert out["problems"] == [["fields", 2, "wide.qrels line 2: 2000004 fields where a TREC qrels line has 4; the "
                                                "line is skipped"]]
    assert out["peak"] < 3 * path.stat().st_size


def test_a_csv_header_of_millions_of_columns_is_refused_before_it_is_split(tmp_path):
    # Before: 5 million column names (49 MB) took ~1 GB -- the header split by the sniffer, then by pyarrow.
    path = tmp_path / "wide_header.csv"
    path.write_bytes(b"qid,docno,score," + b",".join(b"c%d" % i for i in range(2_000_000)) + b"\n101,D1,1.0"
                     + b"," * 2_000_000 + b"\n")
    for source in ("bytes", "path"):
        out = read_in_fresh_process(path, source=source)
        [[kind, line, message]] = out["problems"]
        assert (kind, line, out["rows"]) == ("long_header", 1, None)
        assert message.startswith("wide_header.csv: its first line, the header ('qid,docno,score,c0,c1,")
        assert message.endswith(f"'), is longer than {MAX_HEADER_CHARS:,} characters; a header names a few columns")
        assert len(message) < 600
        assert out["peak"] < 20 * MB, out["peak"]
    # a header just within the limit is read (its columns after the roles' are ignored)
    names = b"qid,docno,score"
    while len(names) < MAX_HEADER_CHARS - 10:
        names += b",c%d" % len(names)
    width = names.count(b",") + 1
    ok = read_run(names + b"\n" + b"101,D1,1.0" + b",x" * (width - 3) + b"\n", name="ok.csv")
    assert ok.ok and ok.table.n_rows == 1


def test_a_csv_line_of_millions_of_fields_is_a_bad_line_at_its_text_s_cost(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_bytes(b"qid,docno,score\n101,D100,2.0\n101,D101,1.0" + b",xy" * 3_000_000 + b"\n")
    out = read_in_fresh_process(path)
    assert out["rows"] == 1
    assert out["problems"] == [["fields", 3, "wide.csv line 3: 3000003 fields where a CSV run line has 3; the line "
                                             "is skipped"]]
    assert out["peak"] < 3 * path.stat().st_size  # before: a Python string per field, ~20 times the file


# The line-by-line reader splits a line longer than _LONG_LINE field by field (a regular expression): the same rows
# and problems as the model of the format whatever the threshold (here down to 1: every line that way).
wide_parts = st.one_of(
    st.tuples(st.sampled_from(["q1", "q2", "问题"]), st.sampled_from(["d1", "d2", "文档", "d3"]),
              st.sampled_from(["1.5", "2", "oops", "inf"]), st.integers(0, 30), st.sampled_from([" ", "\t", "  "]))
    .map(lambda t: f"{t[0]} Q0 {t[1]} 1 {t[2]} tag" + f"{t[4]}x" * t[3]),
    st.sampled_from(["", "   ", "# comment", "q1 Q0 d9", "q1\tQ0\td7\t1\t2.0", "q2 Q0 d5 1 3.0 tag extra\r"]),
)


@PROPERTY
@given(lines=st.lists(wide_parts, min_size=1, max_size=30), long_line=st.sampled_from([1, 8, 40, 4096]))
def test_lines_split_field_by_field_read_as_the_model_says(lines, long_line):
    text = "\n".join(lines) + "\n"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "_LONG_LINE", long_line)
        p = reader._slow_read(text.encode(), "run", "r")
    rows, problems = model_run(text)
    if not rows:
        assert p.table is None
        return
    t = p.table
    got = list(zip(t.qid.dictionary_decode().to_pylist(), id_strings(t.docno).to_pylist(), t.value.tolist(),
                   [t.line_of(i) for i in range(t.n_rows)]))
    assert got == rows
    assert sorted((x.line, x.kind) for x in p.problems) == problems
    # a line's field count, as the message says it, is the model's
    for x in p.problems:
        if x.kind == "fields":
            assert x.params["found"] == len(text.split("\n")[x.line - 1].split())


# A CSV run, modelled line by line from the format (a header naming qid, docno, score; a line is a row when it
# has exactly 3 comma-separated fields, a finite score and non-empty ids; the first of a repeated pair kept).
def model_csv(text: str):
    rows, problems, seen = [], [], set()
    for i, line in enumerate(text.split("\n")[1:-1], start=2):
        fields = line.split(",")
        if all(not f.strip() for f in fields):
            continue
        if len(fields) != 3:
            problems.append((i, "fields", len(fields)))
            continue
        q, d, token = (f.strip() for f in fields)
        try:
            value = float(token)
        except ValueError:
            value = float("nan")
        if not np.isfinite(value):
            problems.append((i, "number", None))
            continue
        if not q or not d:
            problems.append((i, "blank_id", None))
            continue
        if (q, d) in seen:
            problems.append((i, "duplicate", None))
            continue
        seen.add((q, d))
        rows.append((q, d, value, i))
    return rows, sorted(problems, key=lambda p: p[0])


csv_lines = st.one_of(
    st.tuples(st.sampled_from(["q1", "q2", " q3 ", ""]), st.sampled_from(["d1", "d2", "文档", ""]),
              st.sampled_from(["1.5", "2", "oops", "nan"]), st.integers(0, 12))
    .map(lambda t: f"{t[0]},{t[1]},{t[2]}" + ",x" * t[3]),
    st.sampled_from(["", " , , ", "q1,d9", "q1;d1;1", "q2,d5,3.0\r"]),
)


@PROPERTY
@given(lines=st.lists(csv_lines, min_size=1, max_size=30), extra=st.integers(0, 3))
def test_csv_lines_with_far_too_many_fields_read_as_the_model_says(lines, extra):
    # _EXTRA_CSV_FIELDS down to 0: lines with more fields than the header are split here (only counted), never
    # by the csv module; the rows and problems are the model's, field counts included.
    text = "qid,docno,score\n" + "\n".join(lines) + "\n"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "_EXTRA_CSV_FIELDS", extra)
        p = reader._slow_read(text.encode(), "run", "r.csv")
    rows, problems = model_csv(text.replace("\r\n", "\n"))
    got_problems = sorted(((x.line, x.kind, x.params.get("found")) for x in p.problems if x.kind != "no_valid_lines"),
                          key=lambda x: x[0])
    assert got_problems == problems
    if not rows:
        assert p.table is None
        return
    t = p.table
    assert list(zip(t.qid.dictionary_decode().to_pylist(), id_strings(t.docno).to_pylist(), t.value.tolist(),
                    [t.line_of(i) for i in range(t.n_rows)])) == rows


# ------------------------------------------------------------------------------------------- F2: one huge id
def one_id_parquet(path: Path, chars: int, *, role: str = "qid", compression: str = "zstd") -> Path:
    """One row whose ``role`` id is ``chars`` characters: a few KB compressed."""
    ids = {"qid": ["q"], "docno": ["d"]}
    ids[role] = ["e" * chars]
    pq.write_table(pa.table({**ids, "score": [1.0]}), path, compression=compression)
    return path


def test_a_tiny_parquet_file_holding_one_huge_id_is_refused_from_its_pages(tmp_path):
    # 30,000,000 characters in 4 KB.  Before: the estimate counted the id's bytes once (30 MB, under the 104.9 MB a
    # small file may take), reading it took ~4 times that, and the page kept it in its cache (12 such files: 3 GB).
    path = one_id_parquet(tmp_path / "huge_id.parquet", 30_000_000)
    assert path.stat().st_size < 10_000
    out = read_in_fresh_process(path, limits=PAGE)
    [[kind, _line, message]] = out["problems"]
    assert kind == "too_much_memory" and out["rows"] is None
    # at the least: its dictionary page (30,000,000 characters and a 4-byte length) at QID_TEXT_BYTES a byte
    needs = float(message.split("needs at least ")[1].split(" MB")[0])
    assert needs >= int(QID_TEXT_BYTES * 30_000_004 / MB * 10) / 10  # the message shows one decimal
    assert out["peak"] < 20 * MB, out["peak"]
    # the command line's default (--max-ratio 100) refuses it the same way, naming the option
    out = cli_in_fresh_process(QRELS, str(path))
    assert out["code"] == 1 and "huge_id.parquet needs at least" in out["stderr"] and "--max-ratio" in out["stderr"]
    assert out["peak"] < 20 * MB


def test_an_id_over_the_length_limit_is_a_bad_row_named_shortened(tmp_path):
    # Within the memory limit but not an id: the row is skipped, as a text line would be.
    path = tmp_path / "long.parquet"
    pq.write_table(pa.table({"qid": ["q1", "q" * (MAX_ID_CHARS + 1), "q1"], "docno": ["d1", "d2", "D" * 50_000],
                             "score": [3.0, 2.0, 1.0]}), path)
    p = read_run(path, limits=PAGE_LIMITS)
    assert [(x.line, x.kind) for x in p.problems] == [(2, "long_id"), (3, "long_id")]
    assert p.problems[0].message == ("long.parquet line 2: qid of 10,001 characters ('" + "q" * 59 + "…'); an id "
                                     "has at most 10,000; the line is skipped")
    assert "docno of 50,000 characters ('" + "D" * 59 + "…')" in p.problems[1].message
    assert id_strings(p.table.docno).to_pylist() == ["d1"]


# ------------------------------------------------------------------------------------------- F3: a lying footer
def forged_footer(path: Path, out: Path) -> Path:
    """``path`` with its footer rewritten (fastparquet) to say each column chunk decompresses to at most 100 bytes;
    the pages and their headers are untouched."""
    from fastparquet import ParquetFile

    data = path.read_bytes()
    length = struct.unpack("<I", data[-8:-4])[0]
    meta = ParquetFile(str(path)).fmd
    for group in meta.row_groups:
        group.total_byte_size = 200
        for chunk in group.columns:
            chunk.meta_data.total_uncompressed_size = min(chunk.meta_data.total_uncompressed_size, 100)
    footer = meta.to_bytes()
    out.write_bytes(data[:-8 - length] + footer + struct.pack("<I", len(footer)) + b"PAR1")
    return out


@pytest.fixture(scope="module")
def forged(tmp_path_factory) -> Path:
    """One row whose query id is one PLAIN value of 60,000,000 NUL characters (zstd: ~2 KB), its footer forged."""
    folder = tmp_path_factory.mktemp("forged")
    table = pa.table({"qid": pa.array([b"\0" * 60_000_000], pa.binary()).cast(pa.string()), "docno": ["d1"],
                      "score": [1.0]})
    pq.write_table(table, folder / "bigpage.parquet", compression="zstd", use_dictionary=False,
                   write_statistics=False)
    del table
    path = forged_footer(folder / "bigpage.parquet", folder / "forged.parquet")
    assert path.stat().st_size < 50_000
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).total_uncompressed_size <= 100  # the lie
    return path


def test_a_forged_footer_cannot_make_the_reader_decompress_beyond_the_limit(forged):
    # Before: the footer's 100 bytes passed the check, the 60 MB page was decompressed and converted (~3 times its
    # size) and only then refused.  Now the page's own header (uncompressed_page_size, what pyarrow allocates)
    # is read first.
    for source in ("bytes", "path"):
        out = read_in_fresh_process(forged, limits=PAGE, source=source)
        [[kind, _line, message]] = out["problems"]
        assert kind == "too_much_memory" and float(message.split("needs at least ")[1].split(" MB")[0]) >= 240
        assert out["peak"] < 20 * MB, (source, out["peak"])
    out = cli_in_fresh_process(QRELS, str(forged))
    assert out["code"] == 1 and "forged.parquet needs at least" in out["stderr"] and "Traceback" not in out["stderr"]
    assert out["peak"] < 20 * MB


def test_damaged_page_headers_are_a_problem_naming_the_file(tmp_path):
    # A page header that is not Thrift (bytes flipped where the first page's header is) stops the read
    # before pyarrow sees it.
    buf = io.BytesIO()
    pq.write_table(pa.table({"qid": ["q1", "q2"], "docno": ["d1", "d2"], "score": [1.0, 2.0]}), buf,
                   compression="none")
    data = bytearray(buf.getvalue())
    first = pq.ParquetFile(io.BytesIO(bytes(data))).metadata.row_group(0).column(0)
    start = min(x for x in (first.dictionary_page_offset, first.data_page_offset) if x)
    data[start: start + 6] = b"\xff" * 6
    p = read_run(bytes(data), name="bad_header.parquet", limits=PAGE_LIMITS)
    assert [x.kind for x in p.problems] == ["parquet_data"] and p.problems[0].message.startswith("bad_header.parquet")


def compact_i32_field(field_id: int, value: int, previous: int) -> bytes:
    """One i32 field of Thrift's compact protocol (written here from the protocol's description: a short header
    with the id's delta when it is 1..15 after the previous one, else type byte and zigzag id; zigzag varint)."""
    def varint(n: int) -> bytes:
        out = bytearray()
        while True:
            low, n = n & 0x7F, n >> 7
            out.append(low | (0x80 if n else 0))
            if not n:
                return bytes(out)

    i32 = 5
    delta = field_id - previous
    head = bytes([(delta << 4) | i32]) if 0 < delta <= 15 else bytes([i32]) + varint((field_id << 1) ^ (field_id >> 15))
    return head + varint(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def test_page_headers_read_alike_by_thrift_s_c_decoder_and_its_python_protocol(tmp_path):
    # pyarrow skips a field whose id it does not know; a negative id must not stand for a known one (a Python tuple
    # indexed by -2 would give field 2's entry: the header would say 7 bytes here and 1,000 to pyarrow).
    header = (compact_i32_field(2, 1000, 0) + compact_i32_field(3, 10, 2) + compact_i32_field(-2, 7, 3) + b"\0")
    for accelerated in (True, False):
        assert reader._read_page_header(header, accelerated=accelerated) == (1000, 10, len(header))
    # every page header of real files: the same sizes both ways, and the sizes add up to what pyarrow wrote
    buf = io.BytesIO()
    pq.write_table(pa.table({"qid": [f"q{i // 7}" for i in range(3000)], "docno": [f"d{i}" for i in range(3000)],
                             "score": np.arange(3000.0)}), buf, data_page_size=2000, compression="snappy")
    data = buf.getvalue()
    meta = pq.ParquetFile(io.BytesIO(data)).metadata
    for c in range(3):
        chunk = meta.row_group(0).column(c)
        pos = min(x for x in (chunk.dictionary_page_offset, chunk.data_page_offset) if x)
        end, total = pos + chunk.total_compressed_size, 0
        while pos < end:
            fast = reader._read_page_header(data[pos: pos + 4096])
            assert reader._read_page_header(data[pos: pos + 4096], accelerated=False) == fast
            total += fast[0] + fast[2]
            pos += fast[2] + fast[1]
        assert total == chunk.total_uncompressed_size  # an honest footer: headers and pages, uncompressed


@PROPERTY
@given(window=st.binary(max_size=300))
def test_any_bytes_are_a_header_both_ways_or_neither(window):
    results = []
    for accelerated in (True, False):
        try:
            results.append(reader._read_page_header(window, accelerated=accelerated))
        except Exception:  # noqa: BLE001 - whatever Thrift says about bytes that are no header
            results.append(None)
    if None not in results:
        assert results[0][:2] == results[1][:2]


# ------------------------------------------------------------------------------------------- F4: row groups
@pytest.fixture(scope="module")
def many_groups(tmp_path_factory) -> Path:
    """20,000 row groups of one row each (7 MB): 60,000 column chunks for 20,000 rows."""
    n = 20_000
    path = tmp_path_factory.mktemp("groups") / "many_rg.parquet"
    pq.write_table(pa.table({"qid": ["101"] * n, "docno": [f"D{i}" for i in range(n)], "score": np.arange(n * 1.0)}),
                   path, row_group_size=1, compression="none", write_statistics=False)
    assert pq.ParquetFile(path).metadata.num_row_groups == n
    return path


def test_a_file_of_tens_of_thousands_of_row_groups_is_refused_from_its_footer(many_groups):
    # Before: accepted (its rows are few), each row group read on its own: 50,000 of them took the page's server
    # to 600 MB for 25 s.  Now: 60,000 column chunks read is more than the file's size allows
    # (max(PARQUET_MIN_PAGES, size / PARQUET_PAGE_BYTES)), refused before a page is looked at.
    for limits in (PAGE, "Limits(max_ratio=100)"):
        out = read_in_fresh_process(many_groups, limits=limits)
        [[kind, _line, message]] = out["problems"]
        assert kind == "parquet_pages"
        assert message == (f"many_rg.parquet is split into more than {PARQUET_MIN_PAGES:,} pages (or row groups) "
                           "in the columns read; write it with larger pages and row groups")
        assert out["peak"] < 100 * MB, out["peak"]  # pyarrow's parse of the 4 MB footer itself
    out = cli_in_fresh_process(QRELS, str(many_groups))
    assert out["code"] == 1 and "many_rg.parquet is split into more than" in out["stderr"]


def test_a_footer_too_big_to_parse_within_the_limit_is_refused_before_pyarrow_parses_it(many_groups):
    # The footer's length is the file's last 8 bytes: with 20 MB allowed, a 4 MB footer (x FOOTER_BYTES) is too
    # much to parse at all.
    out = read_in_fresh_process(many_groups, limits="Limits(max_memory=20_000_000)")
    [[kind, _line, _message]] = out["problems"]
    assert kind == "too_much_memory" and out["peak"] < 10 * MB, out["peak"]


def test_tiny_pages_are_refused_by_their_count(tmp_path):
    # 100,000 values in pages of one value each: walking their headers, or decoding them, is work without end
    # for a few MB.
    path = tmp_path / "tiny_pages.parquet"
    n = 40_000
    pq.write_table(pa.table({"qid": ["101"] * n, "docno": [f"D{i}" for i in range(n)], "score": np.arange(n * 1.0)}),
                   path, data_page_size=1, write_batch_size=1, compression="none", write_statistics=False,
                   use_dictionary=False)
    p = read_run(path, limits=PAGE_LIMITS)
    assert [x.kind for x in p.problems] == ["parquet_pages"]
    # the same rows in ordinary pages are read
    pq.write_table(pq.read_table(path), tmp_path / "ok.parquet")
    assert read_run(tmp_path / "ok.parquet", limits=PAGE_LIMITS).ok


# ------------------------------------------------------------------------------------------- F5: csv's limit
F5_FILES = {
    # an unquoted field of 200,000 characters beside a short line: the line-by-line path's csv module refused it
    "q3.csv": ("qid,docno,score\n101," + "x" * 200_000 + ",1.0\n101,D101\n",
               [("long_id", 2), ("fields", 3), ("no_valid_lines", None)]),
    # the same field quoted: the csv module cannot resynchronise inside a quoted field: the file is refused
    "q1.csv": ('qid,docno,score\n101,"' + "x" * 200_000 + '",1.0\n101,D101\n', [("long_field", 2)]),
    # a quoted field of 2 MB holding newlines: it starts on line 3, holds 3 characters ("ab" and a newline) per line
    # and passes 131,072 with the newline of its 43,691st line (3 x 43,691 = 131,073): line 43,693
    "quoted.csv": ('qid,docno,score\n101,D1,1.0\n101,"' + "ab\n" * 700_000 + '",2.0\n', [("long_field", 43_693)]),
    # a carriage return alone inside an unquoted field
    "cr.csv": ("qid,docno,score\n101,D1,1.0\n101,D\r2,1.0\n101,D3\n", [("csv_error", 3)]),
}


@pytest.mark.parametrize("name", sorted(F5_FILES))
def test_csv_fields_the_csv_module_refuses_are_problems_never_a_traceback(name, tmp_path, capsys):
    text, expected = F5_FILES[name]
    path = tmp_path / name
    path.write_text(text, newline="")
    p = read_run(path)
    assert [(x.kind, x.line) for x in p.problems] == expected
    assert all(x.message.startswith(name) and len(x.message) < 300 for x in p.problems)
    code = cli.main([QRELS, str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and err.startswith(f"error: {name}")


def test_the_long_field_message():
    p = read_run(F5_FILES["q1.csv"][0].encode(), name="q1.csv")
    assert p.problems[0].message == ("q1.csv line 2: a field of more than 131,072 characters; a qrels or run file's "
                                     "fields are ids and numbers")


def test_reading_qrels_takes_the_same_paths():
    p = read_qrels(b"qid,docno,rel\n101," + b"x" * 200_000 + b",1\n101,D1\n101,D2,1\n", name="q.csv")
    assert [(x.kind, x.line) for x in p.problems] == [("long_id", 2), ("fields", 3)] and p.table.n_rows == 1


class CountedReads(io.RawIOBase):
    """A file read on demand, as a remote file is (Spark's driver reads HDFS/S3 through one), counting the bytes
    handed out."""

    def __init__(self, data: bytes, name: str):
        super().__init__()
        self.data, self.pos, self.read_bytes, self.name = data, 0, 0, name

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: len(self.data)}[whence] + offset
        return self.pos

    def readinto(self, buffer):
        chunk = self.data[self.pos: self.pos + len(buffer)]
        buffer[: len(chunk)] = chunk
        self.pos += len(chunk)
        self.read_bytes += len(chunk)
        return len(chunk)


def test_a_file_read_on_demand_is_checked_as_its_path_by_reading_a_few_of_its_bytes(tmp_path, forged):
    # Remote files (Spark's driver) are checked through a file object: same result as the local path, and what it
    # reads is the footer, the pages' headers and a text file's start, never the pages.
    from tests.metrics.runfiles.test_files_on_spark import LIMITS, RUN_TEXT, bad_files, good_parquet

    big = tmp_path / "big.parquet"
    n = 400_000  # ~3.9 MB in pages of pyarrow's default size (1 MiB)
    pq.write_table(pa.table({"qid": [f"q{i // 100}" for i in range(n)], "docno": [f"doc-{i:09d}" for i in range(n)],
                             "score": np.arange(n, dtype=float)}), big)
    files = {**bad_files(), "good.parquet": good_parquet(), "good.run": RUN_TEXT.encode(), "big.parquet":
             big.read_bytes(), "forged.parquet": forged.read_bytes(),
             "long.run": ("q1 Q0 文档 1 1.0 r\n" * 50_000).encode()}  # beyond the 256 KiB read, cut inside a character
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        want = reader.inspect_file(path, kind="run", limits=LIMITS)
        counted = CountedReads(data, name)
        assert reader.inspect_file(counted, kind="run", limits=LIMITS) == want, name
        if data[:4] != b"PAR1":
            assert counted.read_bytes <= 4 + 4 * MAX_HEADER_CHARS, name  # the magic bytes, then 256 KiB at most
    counted = CountedReads(files["big.parquet"], "big.parquet")
    assert reader.inspect_file(counted, kind="run", limits=LIMITS).problem is None
    # pyarrow's reads of the file's end (64 KiB, the footer within it) and a 4 KiB window per page header (~60
    # pages of 20,000 values here): a tenth of the file, not its pages
    assert len(files["big.parquet"]) > 3_500_000 and counted.read_bytes < len(files["big.parquet"]) // 10
    with pytest.raises(ValueError, match="path must be a path or a binary file"):
        reader.inspect_file(object(), kind="run")


def hidden_pages(path: Path, groups: int, id_bytes: int = 1 << 20) -> Path:
    """A run of ``groups`` row groups whose query id column holds two pages each, the second one row of an id of
    about ``id_bytes`` NUL characters (zstd: ~85 bytes with its header).  The footer is rewritten (fastparquet) to
    say the file was written by parquet-mr 1.2.8, that each query id chunk ends where its second page starts and
    that it decompresses to 100 bytes.  Arrow reads 100 bytes past such a file's chunks (PARQUET-816): the second
    page is read, though no chunk holds it."""
    from fastparquet import ParquetFile

    raw = path.with_suffix(".raw")
    with pq.ParquetWriter(raw, pa.schema([("qid", pa.string()), ("docno", pa.string()), ("score", pa.float64())]),
                          compression="zstd", use_dictionary=False, write_statistics=False, data_page_size=1,
                          write_batch_size=1) as writer:
        for g in range(groups):
            hidden = "\0" * (id_bytes - g)  # distinct ids (one value repeated would be one dictionary entry)
            writer.write_table(pa.table({"qid": [f"q{g}", hidden], "docno": ["a", "b"], "score": [1.0, 0.5]}))
    data = raw.read_bytes()
    length = struct.unpack("<I", data[-8:-4])[0]
    meta = ParquetFile(str(raw)).fmd
    meta.created_by = "parquet-mr version 1.2.8 (build 0)"
    for group in meta.row_groups:
        chunk = group.columns[0].meta_data  # the query ids
        _size, compressed, used = reader._read_page_header(data[chunk.data_page_offset: chunk.data_page_offset + 4096])
        hidden = chunk.data_page_offset + used + compressed  # where the second page starts
        assert chunk.data_page_offset + chunk.total_compressed_size - hidden <= reader.OLD_PARQUET_MR_PADDING
        chunk.total_compressed_size = hidden - chunk.data_page_offset
        chunk.total_uncompressed_size = 100  # as F3's forged footer says
    footer = meta.to_bytes()
    path.write_bytes(data[:-8 - length] + footer + struct.pack("<I", len(footer)) + b"PAR1")
    return path


def test_pages_arrow_reads_past_an_old_writer_s_chunks_are_counted(tmp_path):
    # A file that says parquet-mr 1.2.8 has Arrow read 100 bytes past each column chunk's end: a page of ~85 bytes
    # hidden there decompresses to 1 MiB.  Before, the reader walked each chunk to its stated end only: 100 such
    # row groups (~40 KB) held 100 MiB of query ids it never counted.
    path = hidden_pages(tmp_path / "hidden.parquet", 100)
    assert path.stat().st_size < 60_000
    second = pq.ParquetFile(path).read_row_group(0, columns=["qid"]).column("qid").to_pylist()
    assert second == ["q0", "\0" * (1 << 20)]  # pyarrow reads the page no chunk holds
    out = read_in_fresh_process(path, limits=PAGE)
    [[kind, _line, message]] = out["problems"]
    # at the least 100 pages of 1 MiB + 4 bytes of length, query ids at QID_TEXT_BYTES a byte: 524 MB
    assert kind == "too_much_memory" and float(message.split("needs at least ")[1].split(" MB")[0]) > 524
    assert out["peak"] < 20 * MB
    # an honest file of the same rows (no padding claimed) is walked to its chunks' ends as before
    honest = pq.ParquetFile(tmp_path / "hidden.raw").metadata
    assert reader._chunk_padding(honest) == 0
