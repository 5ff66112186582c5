"""Bad and hostile files given to Spark (``evaluate_spark`` and ``--spark``): each is refused with the single
machine's message naming the file -- never a Java stack -- and Spark takes nothing one machine refuses (a
text score column, binary ids, compressed or UTF-16 or mixed-encoding text); paths are read literally (no
glob); a bad line is identified by its first field, shortened, never quoted whole.  The files are built
here with pyarrow's writer and plain bytes."""
from __future__ import annotations

import contextlib
import gzip
import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from metrics.runfiles import cli, evaluate_runs
from metrics.runfiles import spark as spark_module
from metrics.runfiles.read import MAX_ID_CHARS, Limits, read_qrels, read_run
from metrics.runfiles.spark import IDENTIFY_CHARS, check_spark_path, evaluate_spark, literal_path, spark_failure

QRELS_TEXT = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n"
RUN_TEXT = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 1.0 r\n"


def parquet(table: pa.Table, **kw) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf, **kw)
    return buf.getvalue()


def good_parquet() -> bytes:
    return parquet(pa.table({"qid": [f"q{i // 10}" for i in range(500)], "docno": [f"d{i}" for i in range(500)],
                             "score": np.arange(500.0)}), compression="snappy")


def bad_files() -> dict[str, bytes]:
    """Files one machine refuses before reading a row (name -> bytes)."""
    good = good_parquet()
    zeros = pa.array(np.zeros(3_000_000, np.int32))
    same = pa.DictionaryArray.from_arrays(zeros, pa.array(["x"]))
    return {
        "truncated.parquet": good[: len(good) // 2] + b"PAR1",
        "header_only.parquet": good[:64],
        "dup.parquet": parquet(pa.Table.from_arrays([pa.array(["q1"]), pa.array(["d1"]), pa.array([1.0]),
                                                     pa.array([2.0])], names=["qid", "docno", "score", "score"])),
        "text_score.parquet": parquet(pa.table({"qid": ["q1"], "docno": ["d1"], "score": ["0.5"]})),
        "binary_ids.parquet": parquet(pa.table({"qid": pa.array([b"q1"]), "docno": ["d1"], "score": [0.5]})),
        "bomb.parquet": parquet(pa.table({"qid": same, "docno": same, "score": np.zeros(3_000_000)}),
                                compression="zstd"),
        "utf16.run": RUN_TEXT.encode("utf-16"),
        "compressed.run": gzip.compress(RUN_TEXT.encode()),  # gzip content, a plain name
        "run.gz": gzip.compress(RUN_TEXT.encode()),
        "latin1.run": "q1 Q0 d\xe9\xe0\xff 1 1.0 r\n".encode("latin-1") + b"\xff\xfe\xfa\n",
        # a header of 200,000 columns: Spark would hold its schema in the driver (one machine refuses it)
        "wide_header.csv": b"qid,docno,score," + b",".join(b"c%d" % i for i in range(200_000)) + b"\nq1,d1,1\n",
    }


LIMITS = Limits(max_rows=1_000_000, max_ratio=100)


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def qrels(tmp_path) -> str:
    path = tmp_path / "qrels.txt"
    path.write_text(QRELS_TEXT)
    return str(path)


# ------------------------------------------------------------------------------ checked on the driver, no Spark job
@pytest.mark.parametrize("name", sorted(bad_files()))
def test_spark_refuses_what_one_machine_refuses_with_its_message(name, tmp_path):
    path = tmp_path / name
    path.write_bytes(bad_files()[name])
    one = read_run(path, limits=LIMITS)
    assert one.fatal and one.table is None
    with pytest.raises(ValueError) as exc:
        check_spark_path(path, kind="run", limits=LIMITS)
    assert str(exc.value) == one.problems[0].message  # word for word
    assert str(exc.value).startswith(name)


def test_folders_gbk_and_remote_compressed_names(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="^empty has no data lines$"):
        check_spark_path(tmp_path / "empty", kind="run")
    nested = tmp_path / "nested"
    (nested / "inner").mkdir(parents=True)
    (nested / "a.run").write_text(RUN_TEXT)
    with pytest.raises(ValueError, match=r"^nested is not a file \(a folder or a device\)"):
        check_spark_path(nested, kind="run")
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "_SUCCESS").write_text("")
    (parts / "part-0.run").write_text(RUN_TEXT)
    (parts / "part-1.run.gz").write_bytes(gzip.compress(RUN_TEXT.encode()))
    with pytest.raises(ValueError, match=r"^parts/part-1.run.gz is a gzip file, not text"):
        check_spark_path(parts, kind="run")
    (parts / "part-1.run.gz").unlink()
    assert check_spark_path(parts, kind="run") == "text"
    gbk = tmp_path / "gbk.run"
    gbk.write_bytes("q1 Q0 文档 1 1.0 运行\n".encode("gbk"))
    assert read_run(gbk).ok  # one machine reads GBK; Spark's text reader is UTF-8 only: refused with advice
    with pytest.raises(ValueError, match=r"gbk.run is GBK text; Spark reads text files as UTF-8: convert it first"):
        check_spark_path(gbk, kind="run")
    for url, fmt in (("s3a://bucket/run.txt.gz", "gzip"), ("hdfs://nn/x/run.bz2", "bzip2"),
                     ("gs://b/run.zst", "Zstandard")):
        with pytest.raises(ValueError, match=f"is a {fmt} file, not text"):
            check_spark_path(url, kind="run")
    assert check_spark_path("s3a://bucket/run.txt", kind="run") == ""  # not local: Spark reads it


def test_paths_are_read_literally_never_as_patterns():
    assert literal_path("/data/runs/*.run") == "/data/runs/\\*.run"
    assert literal_path("/data/run[1]{a,b}?.txt") == "/data/run\\[1\\]\\{a,b\\}\\?.txt"
    assert literal_path("s3a://bucket/dir/run.txt") == "s3a://bucket/dir/run.txt"


def test_spark_failures_are_one_line_naming_the_file():
    class Java:  # a JVM error chain as py4j hands it over
        def __init__(self, cls, msg, cause=None):
            self.cls, self.msg, self.cause = cls, msg, cause

        def getClass(self):
            return type("K", (), {"getName": lambda _s: self.cls})()

        def getMessage(self):
            return self.msg

        def getCause(self):
            return self.cause

        def equals(self, other):
            return other is self

    root = Java("java.io.IOException", "FAILED_TO_UNCOMPRESS(5)")
    chain = Java("org.apache.spark.SparkException", "Exception thrown in awaitResult:",
                 Java("org.apache.spark.SparkException", "[FAILED_READ_FILE.NO_HINT] Encountered error while reading "
                      "file file:///data/corrupt.parquet.  SQLSTATE: KD001", root))
    exc = RuntimeError("An error occurred while calling o868.getResult.\n\tat org.apache.spark.util...")
    exc.java_exception = chain
    assert spark_failure(exc) == ("corrupt.parquet: its data is damaged or cannot be read (IOException: "
                                  "FAILED_TO_UNCOMPRESS(5))")
    exc.java_exception = Java("java.lang.RuntimeException", "java.lang.ClassNotFoundException: Class "
                              "org.apache.hadoop.fs.s3a.S3AFileSystem not found")
    assert spark_failure(exc).startswith("Spark has no file system for s3a:// paths")
    long = RuntimeError("x" * 10_000 + "\n\tat a.b.c")
    assert len(spark_failure(long)) <= 300 and "\n" not in spark_failure(long)


# ------------------------------------------------------------------------------ with Spark
@pytest.mark.spark
def test_the_command_line_on_spark_says_one_line_per_bad_file(spark, qrels, tmp_path):
    files = bad_files()
    good = good_parquet()
    flipped = bytearray(good)
    for i in range(200, 400):
        flipped[i] ^= 0x5A
    files["corrupt.parquet"] = bytes(flipped)  # only Spark's reading of the pages finds this one
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        code, out, err = run_cli(["--spark", "local[2]", "--max-rows", "1000000", "-m", "map", qrels,
                                  str(tmp_path / name)])
        assert code == 1 and out == "", (name, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "\tat " not in err, (name, err)
        assert name in err, (name, err)
    code, out, err = run_cli(["--spark", "local[2]", "-m", "map", qrels, "s3a://no-such-bucket/run.parquet"])
    assert code == 1 and len(err.strip().splitlines()) == 1 and "run.parquet cannot be read by Spark" in err


@pytest.mark.spark
def test_a_pattern_in_a_path_names_one_file(spark, qrels, tmp_path):
    literal = tmp_path / "run[1]*.txt"
    literal.write_text(RUN_TEXT)
    (tmp_path / "run1x.txt").write_text("q1 Q0 d2 1 9.0 r\n")  # what the pattern would also match
    ev = evaluate_spark(qrels, [str(literal)], ["map"], spark=spark)
    one = read_run(literal)
    assert one.ok
    assert ev.result().text() == ev.result().text() and "map" in ev.result().text()
    frame = ev.per_query().toPandas()
    assert sorted(frame["qid"]) == ["q1", "q2"]  # the literal file's queries, its values
    with pytest.raises(ValueError, match="is not a readable file"):
        evaluate_spark(qrels, [str(tmp_path / "*.txt")], ["map"], spark=spark)


@pytest.mark.spark
def test_a_bad_line_is_identified_by_its_first_field_never_quoted_whole(spark, qrels, tmp_path):
    secret = "root:$6$saltsalt$" + "h" * 86 + ":19000:0:99999:7:::"
    run = tmp_path / "shadow.run"
    run.write_text(RUN_TEXT + secret + "\n")
    with pytest.raises(ValueError) as exc:
        evaluate_spark(qrels, [str(run)], ["map"], spark=spark).means()
    message = str(exc.value)
    shown = secret[: IDENTIFY_CHARS - 1] + "…"
    assert f"starts with '{shown}'" in message and "hhhhhhhh" not in message
    ev = evaluate_spark(qrels, [str(run)], ["map"], spark=spark, skip_bad_lines=True)
    ev.means()
    [problem] = ev.problems
    assert problem.kind == "bad_lines" and "hhhhhhhh" not in problem.message and shown in problem.message


@pytest.mark.spark
def test_text_that_is_not_utf8_further_on_is_a_bad_line_where_spark_reads_it(spark, qrels, tmp_path, monkeypatch):
    # A remote file is not checked on the driver: Spark decodes it as UTF-8 (an undecodable byte becomes U+FFFD)
    # and such a line is bad, as one machine refuses the file (here: a local file taken as if it were remote).
    run = tmp_path / "mixed.run"
    run.write_bytes(RUN_TEXT.encode() + "q2 Q0 d\xe9 2 0.5 r\n".encode("latin-1"))
    assert read_run(run).fatal
    monkeypatch.setattr(spark_module, "check_spark_path", lambda *a, **k: "")
    with pytest.raises(ValueError, match=r"a line cannot be read \(not UTF-8"):
        evaluate_spark(qrels, [str(run)], ["map"], spark=spark).means()


@pytest.mark.spark
def test_long_ids_are_shortened_in_spark_messages(spark, qrels, tmp_path):
    # An id at one machine's length limit is read and shortened where named; a longer one is a bad line, as on one
    # machine (its line identified by its first field, shortened).
    run = tmp_path / "long.run"
    run.write_text(RUN_TEXT + "Q" * MAX_ID_CHARS + " Q0 d1 1 1.0 r\n")
    ev = evaluate_spark(qrels, [str(run)], ["map"], spark=spark)
    ev.means()
    messages = [p.message for p in ev.problems]
    assert any("not in the qrels" in m for m in messages)
    assert all(len(m) < 300 for m in messages)
    longer = tmp_path / "longer.run"
    longer.write_text(RUN_TEXT + "q1 Q0 " + "D" * 100_000 + " 1 1.0 r\n")
    assert [x.kind for x in read_run(longer).problems] == ["long_id"]
    with pytest.raises(ValueError, match=f"an id longer than {MAX_ID_CHARS:,} characters"):
        evaluate_spark(qrels, [str(longer)], ["map"], spark=spark).means()


@pytest.mark.spark
def test_a_line_of_a_million_fields_is_read_by_spark_as_by_one_machine(spark, qrels, tmp_path):
    # F7: before, Spark split such a line (20 MB) into an array of every field and the driver died ("SparkContext
    # was shut down"), the message naming neither the file nor the cause.  trec_eval ignores fields after the tag.
    run = tmp_path / "wide_line.run"
    run.write_bytes(RUN_TEXT.encode() + b"q2 Q0 d2 2 0.5 r" + b" x" * 1_000_000 + b"\n")
    one = read_run(run)
    assert one.ok and one.table.n_rows == 4
    ev = evaluate_spark(qrels, [str(run)], ["map"], spark=spark)
    frame = ev.per_query().toPandas()
    assert sorted(frame["qid"]) == ["q1", "q2"] and ev.problems == []


def test_a_forged_parquet_footer_is_refused_on_the_driver_as_on_one_machine(tmp_path):
    # F7: before, the footer's lie passed the driver's check and Spark decompressed the page: the driver died.
    from tests.metrics.runfiles.test_read_redteam import forged_footer

    table = pa.table({"qid": pa.array([b"\0" * 30_000_000], pa.binary()).cast(pa.string()), "docno": ["d1"],
                      "score": [1.0]})
    pq.write_table(table, tmp_path / "page.parquet", compression="zstd", use_dictionary=False,
                   write_statistics=False)
    del table
    path = forged_footer(tmp_path / "page.parquet", tmp_path / "forged.parquet")
    one = read_run(path, limits=LIMITS)
    assert [x.kind for x in one.problems] == ["too_much_memory"]
    with pytest.raises(ValueError) as exc:
        check_spark_path(path, kind="run", limits=LIMITS)
    assert str(exc.value) == one.problems[0].message


def test_local_parquet_limits_apply_on_spark_as_on_one_machine(tmp_path):
    path = tmp_path / "bomb.parquet"
    path.write_bytes(bad_files()["bomb.parquet"])
    with pytest.raises(ValueError, match=r"^bomb.parquet has 3,000,000 rows; the limit is 1,000,000 rows$"):
        check_spark_path(path, kind="run", limits=LIMITS)
    assert check_spark_path(path, kind="run") == "parquet"  # without limits, Spark reads it (in bounded batches)
    assert Path(path).stat().st_size < 100_000


@pytest.mark.spark
def test_a_remote_file_is_checked_on_the_driver_through_spark_s_file_system(spark, qrels, tmp_path, monkeypatch):
    # Paths that are not local (hdfs://, s3a://) were checked by their name only: a forged footer, a bomb or a
    # compressed file named .run on HDFS reached Spark.  Now the driver reads the bytes the checks need through
    # Spark's own file system.  Hadoop's local file system (file://) stands for a remote one here: with the path
    # taken as not local, every byte the check reads comes through the JVM's FileSystem, as it would from HDFS.
    from tests.metrics.runfiles.test_read_redteam import forged_footer

    table = pa.table({"qid": pa.array([b"\0" * 30_000_000], pa.binary()).cast(pa.string()), "docno": ["d1"],
                      "score": [1.0]})
    pq.write_table(table, tmp_path / "page.parquet", compression="zstd", use_dictionary=False,
                   write_statistics=False)
    del table
    files = {**bad_files(), "forged.parquet": forged_footer(tmp_path / "page.parquet",
                                                            tmp_path / "f.parquet").read_bytes()}
    del files["run.gz"]  # refused by its name before anything is read (tested above)
    monkeypatch.setattr(spark_module, "_local", lambda path: None)
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        one = read_run(path, limits=LIMITS)
        assert one.fatal, name
        with pytest.raises(ValueError) as exc:
            check_spark_path(path.as_uri(), kind="run", limits=LIMITS, spark=spark)
        assert str(exc.value) == one.problems[0].message, name  # word for word, as on one machine
    # a folder of parts: each checked, the one that cannot be used named
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "_SUCCESS").write_text("")
    (parts / "part-0.parquet").write_bytes(good_parquet())
    (parts / "part-1.parquet").write_bytes(files["truncated.parquet"])
    with pytest.raises(ValueError, match=r"^parts/part-1.parquet cannot be read as Parquet: its footer"):
        check_spark_path(parts.as_uri(), kind="run", limits=LIMITS, spark=spark)
    (parts / "part-1.parquet").unlink()
    assert check_spark_path(parts.as_uri(), kind="run", limits=LIMITS, spark=spark) == "parquet"
    with pytest.raises(ValueError, match=r"^gone.run cannot be read by Spark: .*FileNotFoundException"):
        check_spark_path((tmp_path / "gone.run").as_uri(), kind="run", spark=spark)
    # what one machine reads, Spark reads after the check, with one machine's numbers
    good = tmp_path / "good.parquet"
    good.write_bytes(good_parquet())
    text = tmp_path / "good.run"
    text.write_text(RUN_TEXT)
    for path in (good, text):
        ev = evaluate_spark(qrels, [path.as_uri()], ["map"], spark=spark, limits=LIMITS)
        local = evaluate_runs(read_qrels(Path(qrels)).table, [read_run(path).table], ["map"]).frame()
        got = ev.per_query().toPandas()
        assert sorted(got["qid"]) == sorted(local.loc[local["qid"] != "all", "qid"])
        want = dict(zip(local["qid"], local["value"]))
        assert all(abs(v - want[q]) < 1e-12 for q, v in zip(got["qid"], got["value"]))
