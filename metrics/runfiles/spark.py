"""trec_eval's measures on Apache Spark: qrels and runs held in Spark DataFrames (or read by Spark from TREC,
CSV/TSV or Parquet files), every measure and option of the command line, the same numbers as the
single-machine engine, bit for bit.

How: the queries are cut into *buckets*, ranges of query ids in byte order (bounds from a sample of the
qrels), and each bucket goes, as Arrow tables, through the very same per-query kernel as a file evaluated on
one machine (:func:`metrics.runfiles.engine.evaluate_tables`, the loop behind
:func:`metrics.runfiles.trec.evaluate_runs`).  No measure is written twice.  A query's values depend only on
its own rows, so a bucket gives exactly the values the whole file gives.  The rows travel packed: before the
shuffle a Python worker takes each input's batches (only the columns that can hold something), refuses or
skips bad lines, and packs each bucket's rows into one *block* (Arrow IPC in one binary value; the query ids
as runs of equal ids, :data:`QID_RUNS_SCHEMA`); Spark moves the
blocks, each bucket to a partition of its own (:func:`partition_keys`), with no cogroup and no sort; after it
the kernel evaluates the bucket and returns one *segment* per run (its per-query values, queries in order).
The whole-collection numbers come from or go to the buckets: ERR's highest grade is computed once in Spark
and handed to every bucket; ``-c``'s counts, the runs' tags, lines skipped, queries on one side only and
fractional grades come back as *notes* rows beside the segments, added up on the driver.  The means ("all"
lines) are summed as trec_eval sums them -- one addition at a time, queries in byte order of their ids --
on one Spark task that reads the segments in bucket order: memory stays bounded, and the bits are the
single-machine ones.  Three Spark jobs in all: the bounds, the kernel, the means.

:func:`evaluate_spark` returns a :class:`SparkEvaluation`: ``.per_query()`` and ``.means()`` are Spark
DataFrames; ``.result()`` collects a :class:`~metrics.runfiles.trec.MeasureResult` (``.text()`` is
trec_eval's output) for the command line (``python -m metrics.runfiles --spark local[2] ...``).
:func:`evaluate_variants_spark` gives the NDCG variants table
(:class:`metrics.runfiles.batch.Evaluation`, ``--variants --spark``).  Diversity qrels (``qid subtopic docno
rel``, ``subtopics=True``) feed ndeval's measures (``alpha_nDCG@20``, ``ERR_IA@20``, ...): each judgment travels
with its subtopic and the file position of its subtopic's first judgment, so that every bucket adds a
document's subtopic gains in the file's order, as one machine does.  :func:`spark_session` starts a session
that finds this package on its workers; :func:`read_spark` reads a file into the columns the kernel takes.

Requires the ``spark`` extra (``pyspark``, Java 17+); ``import metrics.runfiles`` does not load it.
"""
from __future__ import annotations

import io
import itertools
import math
import os
import re
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._validation import check_flag, check_whole
from ..variant import Variant
from ._kernels import has_duplicate_pairs
from .batch import Evaluation, variant_options
from .engine import QrelsCounts, QrelsIndex, RunValues, evaluate_tables, summary_value
from .measures import Requested, parse_measures
from .measures.diversity import SubtopicJudgments
from .read import (
    BINARY_FORMATS,
    COLUMN_NAMES,
    MAX_HEADER_CHARS,
    MAX_ID_CHARS,
    Limits,
    Problem,
    Table,
    as_dictionary,
    column_roles,
    inspect_file,
    shorten,
)
from .subtopics import SubtopicTable, subtopic_table
from .trec import MeasureResult, check_options

__all__ = ["ARROW_BATCH_ROWS", "BLOCK_SCHEMA", "ROWS_PER_BUCKET", "SparkEvaluation", "bucket_kernel",
           "check_spark_path", "evaluate_spark", "evaluate_variants_spark", "literal_path", "partition_keys",
           "path_bytes", "range_buckets", "read_spark", "spark_failure", "spark_session", "values_schema"]

#: Default bucket size: run rows evaluated by one kernel call (the number of buckets is the run's rows
#: divided by this, at least 2 per core).  A bucket is held in a Python worker's memory while evaluated.
ROWS_PER_BUCKET = 500_000

#: Rows of a block (one bucket's rows of one pack) the packing aims at: its input batches are held until they
#: make about this many rows a bucket (a few bigger blocks cost less than many small ones), up to PACK_MAX_ROWS.
BLOCK_ROWS = 10_000

#: The most input rows a Python worker holds to pack them at once (about 60 MB of ids and values).
PACK_MAX_ROWS = 2_000_000

#: Rows per Arrow record batch between Spark and the Python workers in sessions :func:`spark_session` starts
#: (``spark.sql.execution.arrow.maxRecordsPerBatch``; a ``config=`` entry overrides it).
ARROW_BATCH_ROWS = 200_000

_QRELS_COLUMNS = ("qid", "docno", "rel")
_RUN_COLUMNS = ("run", "qid", "docno", "score")


# ------------------------------------------------------------------------------------------------ session
def _package_root() -> Path:
    return Path(__file__).resolve().parents[2]


def _zip_package() -> str:
    """This ``metrics`` package as a zip for a cluster's workers (``addPyFile``)."""
    root = _package_root()
    out = Path(tempfile.mkdtemp(prefix="ndcg-lab-")) / "metrics.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((root / "metrics").rglob("*.py")):
            zf.write(path, path.relative_to(root).as_posix())
    return str(out)


def spark_session(master: str = "local[2]", *, app_name: str = "ndcg-lab", config: Mapping[str, str] | None = None):
    """A Spark session whose Python workers run this interpreter and import this ``metrics`` package.

    Workers run ``python3`` from the PATH unless ``PYSPARK_PYTHON`` says otherwise, and import
    whatever ``metrics`` their ``sys.path`` finds: here ``PYSPARK_PYTHON`` defaults to
    ``sys.executable`` and the package's folder is put first on the workers' ``PYTHONPATH`` (a local
    master) or shipped as a zip (``addPyFile``, any other master).  A local master binds to 127.0.0.1.
    An active session is reused (Spark allows one per process).

    Parameters
    ----------
    master : str, default "local[2]"
        ``local[N]``, ``spark://host:7077``, ``yarn``, ``k8s://...``; ignored when launched by
        ``spark-submit`` with a master of its own.
    app_name : str, default "ndcg-lab"
        The application's name in Spark's UI.
    config : mapping of str to str, optional
        More Spark settings (``{"spark.executor.memory": "8g"}``).

    Returns
    -------
    pyspark.sql.SparkSession

    Raises
    ------
    ValueError
        If ``master`` is empty or not text.

    Examples
    --------
    The master is checked before any JVM starts:

    >>> spark_session("")
    Traceback (most recent call last):
    ...
    ValueError: master must be a Spark master URL such as 'local[2]', got ''

    ``spark_session("local[2]")`` starts (or reuses) a local session with two cores; not run here.
    """
    if not isinstance(master, str) or not master.strip() or len(master) > 500:
        raise ValueError(f"master must be a Spark master URL such as 'local[2]', got {str(master)[:60]!r}")
    # spark-submit (and the pyspark shell) start the JVM first and hand its port to Python: their --master,
    # --conf and --py-files are in force; this package is shipped as a zip then.
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    root = str(_package_root())
    local = master.startswith("local") and not submitted
    if local:
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]
        os.environ["PYTHONPATH"] = os.pathsep.join([root, *paths])
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    if not submitted:
        builder = builder.master(master)
    settings = {"spark.ui.showConsoleProgress": "false", "spark.sql.execution.arrow.pyspark.enabled": "true",
                "spark.python.worker.reuse": "true",
                # a bucket reaches the kernel whole: bigger Arrow batches carry it there faster (10^7 run rows
                # in 20 buckets: 47 s -> 35 s with 200,000 instead of Spark's default 10,000, README)
                "spark.sql.execution.arrow.maxRecordsPerBatch": str(ARROW_BATCH_ROWS)}
    if local:
        settings.update({"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
                         "spark.ui.enabled": "false", "spark.executorEnv.PYTHONPATH": os.environ["PYTHONPATH"]})
    settings.update(dict(config or {}))
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    if not local and not spark.conf.get("spark.ndcg_lab.shipped", None):
        spark.sparkContext.addPyFile(_zip_package())
        spark.conf.set("spark.ndcg_lab.shipped", "true")
    return spark


def _active(spark):
    if spark is not None:
        return spark
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is None:
        raise ValueError("no Spark session: pass spark=spark_session('local[2]') (or start one first)")
    return active


# ------------------------------------------------------------------------------------------------ reading
_TREC_FIELDS = {"qrels": 4, "run": 6}


def _sniff_text(spark, path: str, columns) -> tuple[str, str | None]:
    """("trec", None) or ("csv", delimiter) from the first line that is neither blank nor a comment."""
    from pyspark.sql import functions as F

    local = Path(path)
    if local.is_file():  # a local file: its first lines without a Spark job
        with open(local, "rb") as fh:
            head = fh.read(1 << 16).decode("utf-8", "replace")
        lines = [ln for ln in head.split("\n")[:-1] or head.split("\n") if ln.strip() and
                 not ln.strip().lstrip("\ufeff").startswith("#")]
        first = [(lines[0],)] if lines else []
    else:
        value = F.trim(F.col("value"))
        cut = F.substring(F.col("value"), 1, MAX_HEADER_CHARS + 1)  # the start of a line, never a line of megabytes
        first = (spark.read.text(literal_path(path)).filter(~value.startswith("#") & (value != ""))
                 .select(cut.alias("value")).limit(1).collect())
    if not first:
        return "trec", None
    line = first[0][0].lstrip("\ufeff")
    longer = len(line) > MAX_HEADER_CHARS
    line = line[:MAX_HEADER_CHARS]
    known = {a for names in COLUMN_NAMES.values() for a in names} | {c.lower() for c in (columns or {}).values()}
    for delim in sorted((d for d in (",", "\t", ";") if d in line), key=lambda d: -line.count(d)):
        names = {f.strip().strip('"').lower() for f in line.split(delim)}
        if len(names & known) >= 2:
            if longer:  # a header of millions of columns: one machine refuses it, and Spark would hold its schema
                _refuse(Problem(Path(path.rstrip("/")).name, 1, "long_header",
                                {"header": line, "limit": MAX_HEADER_CHARS}))
            return "csv", delim
    return "trec", None


def read_spark(spark, path, *, kind: str, columns: Mapping[str, str] | None = None, file_format: str | None = None,
               name: str | None = None, limits: Limits | None = None, subtopics: bool = False):
    """Read qrels or a run with Spark into the kernel's columns; bad lines are marked, not dropped.

    TREC files (``qid iter docno rel`` / ``qid Q0 docno rank score tag``, whitespace separated, ``#``
    comments), CSV/TSV with a header and Parquet, named as the single-machine reader names them
    (:data:`~metrics.runfiles.read.COLUMN_NAMES`, or ``columns``).

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
    path : str or os.PathLike
        A file or folder Spark can read (``hdfs://``, ``s3a://``, a local path).
    kind : {"qrels", "run"}
    columns : mapping of str to str, optional
        Role -> column name (see :func:`metrics.runfiles.read.column_roles`).
    file_format : {"trec", "csv", "parquet"}, optional
        Default: ``.parquet`` (or a folder of Parquet parts) is Parquet, else the first line decides.
    name : str, optional
        The run's name.  Default: the file's name.
    limits : Limits, optional
        Rows and decoded bytes a Parquet file may cost (its footer and page headers are read on the driver,
        from the driver's disk or through Spark's file system), as on one machine
        (:class:`~metrics.runfiles.read.Limits`).
    subtopics : bool, default False
        Diversity qrels (``kind="qrels"``): ``qid subtopic docno rel`` per line, TREC text only (ndeval's
        format, what :func:`metrics.runfiles.read_subtopic_qrels` reads on one machine); adds ``subtopic``.

    Returns
    -------
    pyspark.sql.DataFrame
        ``qid, docno, rel`` (qrels; ``qid, subtopic, docno, rel`` with ``subtopics``) or
        ``run, qid, docno, score, tag`` (run), plus ``_row`` (increasing
        in file order, for "the first of two repeated lines" and "the tag of the last line") and
        ``_bad`` (null, or why the line cannot be used) and ``_line`` (what identifies the line in a
        message: its first field, shortened; never the whole line).

    Raises
    ------
    ValueError
        For an unknown kind or format, a header without the needed columns, and a file that one machine
        refuses, with its message (:func:`check_spark_path`): compressed, UTF-16 or not UTF-8, a damaged
        Parquet footer, a column named twice, ids that are not text or integers, values that are not
        numbers, a Parquet file beyond ``limits``.  Lines that are not UTF-8 further on are bad lines.

    Examples
    --------
    The kind is checked before Spark reads anything:

    >>> read_spark(None, "bm25.run", kind="runs")
    Traceback (most recent call last):
    ...
    ValueError: unknown kind 'runs'; valid kinds are 'qrels', 'run'

    With a session (not run here)::

        run = read_spark(spark, "hdfs:///runs/bm25.parquet", kind="run", columns={"qid": "user_id"})
    """
    from pyspark.sql import functions as F

    if kind not in _TREC_FIELDS:
        raise ValueError(f"unknown kind {kind!r}; valid kinds are 'qrels', 'run'")
    path = str(path)
    base = Path(path.rstrip("/")).name
    name = name or base
    found = check_spark_path(path, kind=kind, name=name, columns=columns, limits=limits, spark=spark)
    literal = literal_path(path)  # Spark reads the file named, never what a pattern in its name would match
    if file_format is None:
        if found == "parquet" or base.lower().endswith(".parquet") or _has_parquet_parts(path):
            file_format = "parquet"
        else:
            file_format, delim = _sniff_text(spark, path, columns)
    elif file_format == "csv":
        delim = "\t" if base.lower().endswith((".tsv", ".tab")) else ","
    if file_format not in ("trec", "csv", "parquet"):
        raise ValueError(f"file_format must be 'trec', 'csv' or 'parquet', got {file_format!r}")
    subtopics = check_flag(subtopics, name="subtopics")
    if subtopics and (kind != "qrels" or file_format != "trec"):
        raise ValueError(f"{name}: diversity qrels are read from TREC text ('qid subtopic docno rel' a line), not "
                         f"from a {'run' if kind != 'qrels' else file_format.upper()} file; give them as text or as "
                         "a DataFrame with a subtopic column")
    row = F.monotonically_increasing_id()
    if file_format == "trec":
        text = _spark_read(name, lambda: spark.read.text(literal)).withColumn("_row", row)
        # the fields a line needs and the rest in one piece (trec_eval ignores fields after a run's tag): a line of
        # millions of fields is never an array of millions of strings in the JVM
        want = _TREC_FIELDS[kind]
        fields = F.split(F.trim(F.regexp_replace(F.col("value"), r"^\ufeff", "")), r"\s+", want + 1)
        df = text.select(_identify(F.get(fields, 0)).alias("_line"), F.col("value").alias("_text"), "_row",
                         fields.alias("f"))
        df = df.filter((F.col("f")[0] != "") & ~F.col("f")[0].startswith("#"))
        n = F.size("f")
        field = lambda i: F.get(F.col("f"), i)  # noqa: E731  (null past the end; [] raises in ANSI mode)
        value = field(3 if kind == "qrels" else 4)
        number = _finite_double(value)
        bad = (F.when(~_utf8(F.col("_text")), F.lit(_NOT_UTF8))
               .when(n < want if kind == "run" else n != want, F.lit(f"not {want} fields"))
               .when(number.isNull(), F.lit("not a finite number"))
               .when(_too_long(field(0)) | _too_long(field(2)), F.lit(_LONG_ID)))
        cols = [field(0).alias("qid")] + ([field(1).alias("subtopic")] if subtopics else []) + [field(2).alias("docno")]
        if kind == "qrels":
            cols.append(number.alias("rel"))
        else:
            cols += [F.lit(name).alias("run"), number.alias("score"), field(5).alias("tag")]
        out = df.select(*cols, "_row", bad.alias("_bad"), F.when(bad.isNotNull(), F.col("_line")).alias("_line"))
    else:
        if file_format == "parquet":
            raw = _spark_read(name, lambda: spark.read.parquet(literal))
        else:
            raw = _spark_read(name, lambda: spark.read.option("header", True).option("sep", delim)
                              .option("inferSchema", False).csv(literal))
        roles = column_roles(raw.columns, kind, dict(columns or {}))
        if isinstance(roles, Problem):
            raise ValueError(f"{name}: no column for {roles.params['role']} among {roles.params['header']}; "
                             f"accepted names: {roles.params['accepted']}")
        if file_format == "parquet":
            _check_types(raw, roles, name)
        raw = raw.withColumn("_row", row)
        value_role = "rel" if kind == "qrels" else ("score" if "score" in roles else "rank")
        value_col = F.col(f"`{roles[value_role]}`")
        if raw.schema[roles[value_role]].dataType.typeName() in _EXACT_DOUBLE_TYPES:
            value = _finite_double(value_col, text=False)  # a number already: no round trip through text
        else:
            value = _finite_double(value_col.cast("string"))
        if value_role == "rank":
            value = -value
        qid = F.col(f"`{roles['qid']}`").cast("string")
        docno = F.col(f"`{roles['docno']}`").cast("string")
        not_utf8 = F.lit(False)
        if file_format == "csv":  # Spark decodes CSV as UTF-8: an undecodable byte becomes U+FFFD
            for col in dict.fromkeys(roles.values()):
                not_utf8 = not_utf8 | F.coalesce(~_utf8(F.col(f"`{col}`")), F.lit(False))
        bad = (F.when(not_utf8, F.lit(_NOT_UTF8))
               .when(qid.isNull() | (F.trim(qid) == ""), F.lit("empty query id"))
               .when(docno.isNull() | (F.trim(docno) == ""), F.lit("empty document id"))
               .when(value.isNull(), F.lit("not a finite number"))
               .when(_too_long(F.trim(qid)) | _too_long(F.trim(docno)), F.lit(_LONG_ID)))
        if file_format == "csv":
            qid, docno = F.trim(qid), F.trim(docno)
        line = F.when(bad.isNotNull(), _identify(qid))  # only for the message: the query id, shortened
        cols = [qid.alias("qid"), docno.alias("docno")]
        if kind == "qrels":
            cols.append(value.alias("rel"))
        else:
            tag = F.col(f"`{roles['tag']}`").cast("string") if "tag" in roles else F.lit(None).cast("string")
            cols += [F.lit(name).alias("run"), value.alias("score"), tag.alias("tag")]
        out = raw.select(*cols, "_row", bad.alias("_bad"), line.alias("_line"))
    return out


def path_bytes(spark, path) -> int | None:
    """The size in bytes of a file or folder as Spark's (Hadoop's) file system reports it, for ``--max-mb``;
    None when it cannot tell (no such path: Spark's reader names it then).

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
    path : str or os.PathLike
        Any path Spark reads (``hdfs://``, ``s3a://``, a local path); a folder counts all its files.

    Returns
    -------
    int or None

    Examples
    --------
    With a session, ``path_bytes(spark, "data/samples/bm25.run")`` is the sample run's bytes.  Whatever Spark
    cannot size is None, never an error (its reader names the path when it is read):

    >>> path_bytes(None, "no/such/file") is None
    True
    """
    try:
        hpath = spark._jvm.org.apache.hadoop.fs.Path(str(path))
        fs = hpath.getFileSystem(spark._jsc.hadoopConfiguration())
        return int(fs.getContentSummary(hpath).getLength())
    except Exception:  # noqa: BLE001 - a path Spark cannot size: its reader says why
        return None


def _has_parquet_parts(path: str) -> bool:
    p = Path(path)
    return p.is_dir() and any(p.glob("*.parquet"))


#: The readers :func:`evaluate_spark` can read a Parquet file with: "auto" (the Python workers read a local
#: file's row groups with pyarrow, :func:`_parquet_source`; else Spark) or "spark" (always Spark's reader).
READERS = ("auto", "spark")

#: Rows of a local Parquet file one task reads (whole row groups: a bigger row group is one task of its own).
SPLIT_ROWS = 2_000_000

#: Parquet column types the Python workers read themselves, and what Spark's reader makes of them: ids that are
#: text or integers (cast to their decimal text, as Spark's ``cast("string")``), values that are floating point
#: or integers (cast to double, rounding to nearest, as Spark's ``cast("double")``).  Any other type (decimal,
#: boolean, unsigned 64-bit, ...) is read by Spark.
_WORKER_ID_TYPES = (pa.string(), pa.large_string(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(),
                    pa.uint16(), pa.uint32())
_WORKER_VALUE_TYPES = (pa.float32(), pa.float64(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(),
                       pa.uint16(), pa.uint32())


@dataclass(frozen=True)
class _ParquetSource:
    """A local Parquet file (or folder of parts) the Python workers read with pyarrow, one task a split: the
    columns of each role and ``splits[i]``, task ``i``'s ``(file, row groups)`` in file order (parts in name
    order)."""

    name: str
    qid: str
    docno: str
    value: str
    negate: bool  # a rank column: the value is minus the rank (read_spark's order)
    tag: str | None
    splits: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]


def _parquet_source(path, *, kind: str, columns, name: str) -> _ParquetSource | None:
    """How the Python workers read ``path`` themselves (:func:`_read_parquet_rows`), or None when Spark reads it:
    not a local Parquet file or folder of Parquet parts, or a column of a type the workers do not read exactly as
    Spark does (:data:`_WORKER_ID_TYPES`, :data:`_WORKER_VALUE_TYPES`).  Called after :func:`read_spark` has
    checked the path (and refused what one machine refuses)."""
    import pyarrow.parquet as pq

    local = _local(str(path))
    if local is None:
        return None
    if local.is_dir():
        files = sorted(p for p in local.iterdir() if not p.name.startswith(("_", ".")) and p.is_file())
    elif local.is_file():
        files = [local]
    else:
        return None
    if not files:
        return None
    try:
        for f in files:
            with open(f, "rb") as fh:
                if fh.read(4) != b"PAR1":
                    return None
        metas = [pq.ParquetFile(f).metadata for f in files]
        schemas = [m.schema.to_arrow_schema() for m in metas]
    except (OSError, pa.ArrowException):
        return None  # Spark's reader says what is wrong with it
    roles = column_roles(schemas[0].names, kind, dict(columns or {}))
    if isinstance(roles, Problem):
        return None
    value_role = "rel" if kind == "qrels" else ("score" if "score" in roles else "rank")
    wanted = {"qid": _WORKER_ID_TYPES, "docno": _WORKER_ID_TYPES, value_role: _WORKER_VALUE_TYPES}
    if kind == "run" and "tag" in roles:
        wanted["tag"] = _WORKER_ID_TYPES
    for schema in schemas:
        if schema.names.count(roles["qid"]) != 1 or any(schema.names.count(roles[r]) != 1 for r in wanted):
            return None
        for role, types in wanted.items():
            t = schema.field(roles[role]).type
            t = t.value_type if pa.types.is_dictionary(t) else t
            if t not in types:
                return None
    splits = []
    for f, meta in zip(files, metas):
        groups, rows = [], 0
        for g in range(meta.num_row_groups):  # consecutive row groups of a file, up to SPLIT_ROWS a task
            n = meta.row_group(g).num_rows
            if groups and rows + n > SPLIT_ROWS:
                splits.append(((str(f), tuple(groups)),))
                groups, rows = [], 0
            groups.append(g)
            rows += n
        if groups:
            splits.append(((str(f), tuple(groups)),))
    if not splits:
        return None
    return _ParquetSource(name, roles["qid"], roles["docno"], roles[value_role], value_role == "rank",
                          roles.get("tag") if kind == "run" else None, tuple(splits))


def _id_text(col: pa.Array) -> pa.Array:
    """An id column as Spark's ``cast("string")`` gives it: text as it is, integers as decimal digits."""
    if pa.types.is_dictionary(col.type):
        col = col.dictionary_decode()
    return col if col.type == pa.string() else pc.cast(col, pa.string())


def _read_parquet_rows(source: _ParquetSource, batch: pa.RecordBatch) -> pa.Table:
    """One batch of a Parquet file as :func:`read_spark` gives its rows to the packing: ``qid``, ``docno``,
    ``value`` (finite double or null), ``_why`` (why the row cannot be used, a NUL and the start of its query
    id; null for a good row), ``tag`` when the file has one -- the same values and reasons, in the same order
    of precedence, as read_spark's Spark expressions (Spark's ``trim`` removes spaces only, ``length`` counts
    characters)."""
    qid, docno = _id_text(batch.column(source.qid)), _id_text(batch.column(source.docno))
    raw = batch.column(source.value)
    value = pc.cast(raw, pa.float64(), safe=False)  # round to nearest, as the JVM's (double) cast
    value = pc.if_else(pc.fill_null(pc.is_finite(value), False), value, pa.scalar(None, pa.float64()))
    if source.negate:
        value = pc.negate(value)
    cols = {"qid": qid, "docno": docno, "value": value}
    n = len(qid)
    tq, td = pc.utf8_trim(qid, " "), pc.utf8_trim(docno, " ")
    empty_q = pc.fill_null(pc.equal(tq, ""), True)
    empty_d = pc.fill_null(pc.equal(td, ""), True)
    no_value = pc.is_null(value)
    long = pc.fill_null(pc.or_(_longer(tq, MAX_ID_CHARS), _longer(td, MAX_ID_CHARS)), False)
    bad = pc.or_(pc.or_(empty_q, empty_d), pc.or_(no_value, long))
    if not pc.any(bad).as_py():
        cols["_why"] = pa.nulls(n, pa.string())
    else:
        reason = pa.nulls(n, pa.string())
        for mask, text in ((long, _LONG_ID), (no_value, "not a finite number"), (empty_d, "empty document id"),
                           (empty_q, "empty query id")):  # the last applied wins: read_spark's first "when"
            reason = pc.if_else(mask, pa.scalar(text), reason)
        shown = pc.if_else(pc.greater(pc.utf8_length(qid), IDENTIFY_CHARS),
                           pc.binary_join_element_wise(pc.utf8_slice_codeunits(qid, 0, IDENTIFY_CHARS - 1), "…", ""),
                           qid)
        cols["_why"] = pc.binary_join_element_wise(reason, pc.fill_null(shown, ""), "\x00")
    if source.tag is not None:
        cols["tag"] = _id_text(batch.column(source.tag))
    return pa.table(cols)


def _longer(ids: pa.Array, limit: int) -> pa.Array:
    """Whether each id has more than ``limit`` characters (null for a null id); the characters are counted only
    when an id has more than ``limit`` bytes (a character is at least one byte)."""
    size = pc.binary_length(ids)
    if (pc.max(size).as_py() or 0) <= limit:
        return pc.greater(size, limit)  # every one False (a null id null), without decoding a character
    return pc.greater(pc.utf8_length(ids), limit)


def _parquet_packer(source: _ParquetSource, options: dict, index: int):
    """The function Spark maps over ``spark.range(len(source.splits))`` (one partition a split): the task's
    split read with pyarrow (:func:`_read_parquet_rows`), then packed as :func:`_packer` packs rows Spark read --
    the same blocks, without the rows passing through the JVM."""
    pack = _packer(options, index)
    columns = list(dict.fromkeys(c for c in (source.qid, source.docno, source.value, source.tag) if c is not None))

    def read(batches):
        import pyarrow.parquet as pq

        # spark.range's rows: the splits this partition reads (one; the task's partition id is no guide, as
        # in a union of inputs it counts the partitions of the inputs before this one)
        mine = [int(i) for batch in batches for i in batch.column(0).to_pylist()]

        def rows():
            for path, groups in (part for i in mine for part in source.splits[i]):
                # (a file's row groups, read a batch at a time: memory stays bounded)
                with pq.ParquetFile(path) as fh:
                    for batch in fh.iter_batches(batch_size=ARROW_BATCH_ROWS, row_groups=list(groups),
                                                 columns=columns, use_threads=False):
                        yield from _read_parquet_rows(source, batch).to_batches()

        yield from pack(rows())

    return read


#: The reason a line that is not UTF-8 is bad (Spark's text reader keeps its bytes; the CSV reader makes U+FFFD).
_NOT_UTF8 = "not UTF-8 (Spark reads text files as UTF-8)"
_LONG_ID = f"an id longer than {MAX_ID_CHARS:,} characters"


def _too_long(col):
    """An id longer than one machine's :data:`~metrics.runfiles.read.MAX_ID_CHARS` (a bad line there too)."""
    from pyspark.sql import functions as F

    return F.coalesce(F.length(col) > MAX_ID_CHARS, F.lit(False))
#: Characters of a line's first field a message shows (what identifies the line; Spark does not know line numbers).
IDENTIFY_CHARS = 20
#: Names Spark (Hadoop) decompresses by their ending; one machine reads no compressed file, nor does Spark here.
COMPRESSED_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "Zstandard",
                       ".zstd": "Zstandard", ".lz4": "LZ4", ".snappy": "Snappy", ".deflate": "deflate",
                       ".br": "Brotli", ".lzo": "LZO", ".zip": "ZIP (or Excel/Office)", ".7z": "7-Zip"}
_GLOB_CHARS = re.compile(r"([*?\[\]{}\\])")


def _utf8(col):
    """True where a text column holds valid UTF-8 without U+FFFD (what Spark's CSV reader puts for a bad byte)."""
    from pyspark.sql import functions as F

    return F.is_valid_utf8(col) & ~col.contains("\ufffd")


def _identify(col):
    """A line's first field as a message shows it: at most :data:`IDENTIFY_CHARS` characters, then "…"."""
    from pyspark.sql import functions as F

    return F.when(F.length(col) > IDENTIFY_CHARS,
                  F.concat(F.substring(col, 1, IDENTIFY_CHARS - 1), F.lit("…"))).otherwise(col)


def literal_path(path: str) -> str:
    """``path`` with Hadoop's pattern characters escaped, so that Spark reads the file of that name and never
    expands a pattern (``runs/*.txt`` names one file, as on one machine).

    Parameters
    ----------
    path : str
        A path or URL as given.

    Returns
    -------
    str

    Examples
    --------
    >>> literal_path("runs/bm25[1]*.txt")
    'runs/bm25\\\\[1\\\\]\\\\*.txt'
    >>> literal_path("hdfs://nn/runs/bm25.txt")
    'hdfs://nn/runs/bm25.txt'
    """
    return _GLOB_CHARS.sub(r"\\\1", str(path))


def _local(path: str) -> Path | None:
    """The local file a path names (no scheme or ``file:``), else None (``hdfs://``, ``s3a://``, ...)."""
    from urllib.parse import urlparse

    parsed = urlparse(path)
    if parsed.scheme in ("", "file"):
        return Path(parsed.path if parsed.scheme else path)
    return None


def _refuse(problem: Problem) -> None:
    raise ValueError(problem.message)


def check_spark_path(path, *, kind: str, name: str | None = None, columns=None, limits: Limits | None = None,
                     spark=None) -> str:
    """Refuse, before Spark reads it, a file one machine refuses, with one machine's message (a ValueError).

    Local files and folders (every data file of a folder: its names not starting with ``_`` or ``.``) are
    checked on the driver as :func:`metrics.runfiles.read.inspect_file` checks them: compressed or binary
    content, UTF-16/32, a start that is neither UTF-8 nor GBK, a Parquet footer, its columns and ``limits``;
    GBK text is refused too (Spark reads text as UTF-8: convert it).  Other paths (``hdfs://``, ``s3a://``)
    are refused when their name says compressed (Spark would decompress them, unbounded); given ``spark``,
    they are checked on the driver too, through Spark's own file system (Hadoop's): a Parquet file by its footer
    and its pages' headers (never its pages), a text file by its first 256 KiB.

    Parameters
    ----------
    path : str or os.PathLike
        The file or folder given.
    kind : {"qrels", "run"}
    name : str, optional
        The file name used in messages.  Default: the path's last part.
    columns : mapping of str to str, optional
        Role -> column name (see :func:`metrics.runfiles.read.column_roles`).
    limits : Limits, optional
        For Parquet files (on the driver's disk, or remote with ``spark``).
    spark : pyspark.sql.SparkSession, optional
        The session whose file system reads a path that is not local.  Without it such a path is checked by
        its name only.

    Returns
    -------
    str
        "parquet" when the file (or every part of the folder) is Parquet, "text" when it is text, "" when the
        path is not local and no ``spark`` was given.

    Raises
    ------
    ValueError
        With the message one machine gives for the file (naming it); for a remote path Spark cannot open,
        "NAME cannot be read by Spark: " and why (one line).

    Examples
    --------
    >>> try:
    ...     check_spark_path("s3a://bucket/runs/bm25.run.gz", kind="run")
    ... except ValueError as exc:
    ...     print(str(exc)[:57])
    bm25.run.gz is a gzip file, not text: decompress it first
    >>> check_spark_path("/no/such/run.txt", kind="run")
    Traceback (most recent call last):
    ...
    ValueError: /no/such/run.txt is not a readable file
    """
    path = str(path)
    name = name or Path(path.rstrip("/")).name
    _refuse_compressed_name(path, name)
    local = _local(path)
    if local is None:
        return "" if spark is None else _check_remote(spark, path, kind=kind, name=name, columns=columns,
                                                      limits=limits)
    if local.is_dir():
        parts = sorted(p for p in local.iterdir() if not p.name.startswith(("_", ".")))
        files = [p for p in parts if p.is_file()]
        if not files:
            _refuse(Problem(name, None, "empty", {}))
        if len(files) < len(parts):
            _refuse(Problem(name, None, "not_a_file", {}))  # folders in the folder: not one table's parts
    elif local.is_file():
        files = [local]
    else:
        raise ValueError(f"{shorten(path, 200)} is not a readable file")
    formats = set()
    for part in files:
        shown = name if part == local else f"{name}/{part.name}"
        _refuse_compressed_name(part.name, shown)
        formats.add(_checked(inspect_file(part, kind=kind, name=shown, columns=columns, limits=limits), shown))
    if len(formats) > 1:
        raise ValueError(f"{name} holds both Parquet and text files; give a folder of one kind")
    return formats.pop()


def _refuse_compressed_name(path: str, shown: str) -> None:
    """Refuse a name Spark (Hadoop) would decompress by its ending."""
    suffix = Path(path.rstrip("/")).suffix.lower()
    if suffix in COMPRESSED_SUFFIXES:
        fmt = COMPRESSED_SUFFIXES[suffix]
        advice = {f: text for _magic, f, text in BINARY_FORMATS}
        _refuse(Problem(shown, None, "binary", {"format": fmt, "advice": advice.get(fmt, "decompress it first")}))


def _checked(found, shown: str) -> str:
    """The format :func:`inspect_file` found, or its problem (or GBK text, which Spark reads as UTF-8) refused."""
    if found.problem is not None:
        _refuse(found.problem)
    if found.format == "text" and found.encoding == "gbk":
        raise ValueError(f"{shown} is GBK text; Spark reads text files as UTF-8: convert it first (iconv -f GBK "
                         "-t UTF-8 FILE > FILE.utf8), or read it on one machine (without --spark)")
    return found.format


class _HadoopFile(io.RawIOBase):
    """A file read through the Spark driver's Hadoop ``FileSystem`` (``hdfs://``, ``s3a://``, ...) as a seekable
    binary file: each read is one positioned read of the bytes asked for (the checks ask for a Parquet footer,
    its page headers and a text file's start), never the whole file."""

    def __init__(self, fs, jpath, size: int, name: str):
        super().__init__()
        self._stream = fs.open(jpath)
        self._size, self._pos, self.name = int(size), 0, name

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        if base + offset < 0:
            raise ValueError(f"negative position {base + offset}")
        self._pos = base + offset
        return self._pos

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self._size - self._pos)
        if n <= 0:
            return 0
        self._stream.seek(self._pos)
        data = self._stream.readNBytes(n)  # Java's byte[] comes back as Python bytes (py4j copies it)
        buffer[:len(data)] = data
        self._pos += len(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._stream.close()
            finally:
                super().close()


def _check_remote(spark, path: str, *, kind: str, name: str, columns, limits) -> str:
    """:func:`check_spark_path` of a path Spark's file system reads: each data file checked by the bytes the checks
    need, read on the driver."""
    from py4j.protocol import Py4JError

    try:
        jvm = spark.sparkContext._jvm
        jpath = jvm.org.apache.hadoop.fs.Path(path)
        fs = jpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
        status = fs.getFileStatus(jpath)
        if status.isDirectory():
            parts = sorted((p for p in fs.listStatus(jpath) if not p.getPath().getName().startswith(("_", "."))),
                           key=lambda p: p.getPath().getName())
            files = [p for p in parts if p.isFile()]
            if not files:
                _refuse(Problem(name, None, "empty", {}))
            if len(files) < len(parts):
                _refuse(Problem(name, None, "not_a_file", {}))
        else:
            files = [status]
        formats = set()
        for part in files:
            shown = f"{name}/{part.getPath().getName()}" if status.isDirectory() else name
            _refuse_compressed_name(part.getPath().getName(), shown)
            with _HadoopFile(fs, part.getPath(), part.getLen(), shown) as fh:
                found = inspect_file(fh, kind=kind, name=shown, columns=columns, limits=limits)
            formats.add(_checked(found, shown))
    except Py4JError as exc:  # no file system for the scheme, no such file, no permission: one line
        raise ValueError(f"{name} cannot be read by Spark: {spark_failure(exc)}") from None
    if len(formats) > 1:
        raise ValueError(f"{name} holds both Parquet and text files; give a folder of one kind")
    return formats.pop()


def _spark_read(name: str, read):
    """``read()`` (a Spark reader call), a failure to even open the file said as one line naming it."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    try:
        return read()
    except (PySparkException, Py4JJavaError) as exc:
        raise ValueError(f"{name} cannot be read by Spark: {spark_failure(exc)}") from None


def spark_failure(exc: BaseException) -> str:
    """One line saying why Spark failed (a JVM error's first line, its error class or exception kept, its
    Java stack dropped), shortened to 300 characters; the file it names is kept, nothing else of it.

    Parameters
    ----------
    exc : BaseException
        What a Spark call raised (``Py4JJavaError``, ``PySparkException``, ...).

    Returns
    -------
    str

    Examples
    --------
    >>> spark_failure(RuntimeError("java.lang.ClassNotFoundException: Class "
    ...                            "org.apache.hadoop.fs.s3a.S3AFileSystem not found\\n\\tat org.apache..."))
    "Spark has no file system for s3a:// paths (add the hadoop-aws package and credentials to Spark's \
configuration)"
    """
    chain = []  # (class, message) from the outermost JVM error to its root cause
    java = getattr(exc, "java_exception", None)
    try:
        while java is not None and len(chain) < 20:
            chain.append((str(java.getClass().getName()), str(java.getMessage() or "")))
            cause = java.getCause()
            java = None if cause is None or cause.equals(java) else cause
    except Exception:  # noqa: BLE001 - a JVM that is gone: the Python text below
        pass
    text = "\n".join(f"{c}: {m}" for c, m in chain) or str(exc)
    scheme = re.search(r"(?:No FileSystem for scheme \W?|Class \S*?fs\.)(s3a|s3|gs|abfss?|wasbs?)", text,
                       re.IGNORECASE)
    if scheme:
        fs = scheme.group(1).lower()
        fs = "s3a" if fs.startswith("s3") else fs
        return (f"Spark has no file system for {fs}:// paths (add the hadoop-aws package and credentials to "
                "Spark's configuration)" if fs == "s3a" else
                f"Spark has no file system for {fs}:// paths (add its connector to Spark's configuration)")
    root = chain[-1] if chain else (type(exc).__name__, str(exc))
    reason = next((ln.strip() for ln in root[1].strip().splitlines() if ln.strip()), "") or root[0]
    reading = re.search(r"while reading file (\S+?)\.?(\s|$)", text)
    if reading:  # Spark names the file it failed on: say it first, then the root cause
        name = Path(reading.group(1).rstrip("/")).name
        return shorten(f"{name}: its data is damaged or cannot be read ({root[0].rsplit('.', 1)[-1]}: {reason})", 300)
    if chain:
        return shorten(f"{root[0]}: {reason}", 300)
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip() and not ln.strip().startswith("at ")]
    return shorten(lines[0] if lines else type(exc).__name__, 300)


def _check_types(raw, roles: dict, name: str) -> None:
    """Refuse, as one machine does, Parquet columns of a type it refuses: ids that are not text or integers
    (binary ids Spark would cast to text), values that are not numbers (text Spark would parse)."""
    ids = {"string", "varchar", "char", "byte", "short", "integer", "long"}
    numbers = {"byte", "short", "integer", "long", "float", "double", "decimal", "boolean"}
    for role, col in roles.items():
        t = raw.schema[col].dataType.typeName()
        if role in ("qid", "docno", "tag") and t not in ids:
            _refuse(Problem(name, None, "column_type", {"column": col, "role": role, "type": t,
                                                        "accepted": "strings or integers"}))
        if role in ("rel", "score", "rank") and t not in numbers:
            _refuse(Problem(name, None, "column_type", {"column": col, "role": role, "type": t,
                                                        "accepted": "numbers (integer, floating point or decimal)"}))


#: Spark column types whose cast to double is the value pyarrow's ``to_numpy().astype(float64)`` gives on one
#: machine (IEEE rounding to nearest); other types (decimal, string) go through their text.
_EXACT_DOUBLE_TYPES = frozenset({"double", "float", "long", "integer", "short", "byte"})


def _finite_double(col, *, text: bool = True):
    """The column as a finite double, or null (what float() refuses or gives inf/nan for).  ``text``: the
    column holds text (trimmed, then parsed); otherwise a number column cast to double."""
    from pyspark.sql import functions as F

    if not text:
        value = col.cast("double")
    else:
        value = F.trim(col).try_cast("double") if hasattr(col, "try_cast") else F.trim(col).cast("double")
    return F.when(value.isNotNull() & ~F.isnan(value) & (F.abs(value) != float("inf")), value)


# ------------------------------------------------------------------------------------------------ kernel
#: The kernel's output besides the values: ``note`` names what a row reports (values rows: null).
#: bad: lines of a file skipped (count, the first's text and reason, its place); tag: a run's last tag;
#: qrels: the bucket's qrels queries and lines graded > 0 (``-c``'s counts); fractional: grades read as
#: whole numbers; foreign: queries of a run the qrels lack; absent: qrels queries a run did not answer.
NOTE_COLUMNS = (("note", "string"), ("count", "bigint"), ("count2", "bigint"), ("text", "string"),
                ("detail", "string"), ("order", "bigint"))


def _names(requested: Sequence[Requested]) -> list[tuple[str, str]]:
    """(printed name, value kind) of every value the kernel returns per query."""
    return [(name, r.info.value) for r in requested if r.info.compute is not None for name in r.names]


def _out_ddl(names) -> str:
    cols = ["run string", "qid string"] + [f"`{c}` {kind}" for c, kind in NOTE_COLUMNS]
    cols += [f"m{i} {'string' if kind == 'text' else 'double'}" for i, (_n, kind) in enumerate(names)]
    return ", ".join(cols)


def _arrow_schema(names) -> pa.Schema:
    types = {"string": pa.string(), "bigint": pa.int64()}
    fields = [("run", pa.string()), ("qid", pa.string())] + [(c, types[k]) for c, k in NOTE_COLUMNS]
    fields += [(f"m{i}", pa.string() if kind == "text" else pa.float64()) for i, (_n, kind) in enumerate(names)]
    return pa.schema(fields)


def _strings(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """Ids as one plain string array."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if not pa.types.is_string(col.type):
        col = col.cast(pa.string())
    return col


def _ids(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """Ids as one string array, or as they are when dictionary-encoded strings (a block's query ids,
    :func:`_unpack_blocks`)."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if pa.types.is_dictionary(col.type) and pa.types.is_string(col.type.value_type):
        return col
    return _strings(col)


def _check_rows(run: str, qid: pa.Array, docno: pa.Array, value: np.ndarray, what: str, *,
                second: str = "document id") -> None:
    """ValueError naming the first row the kernel cannot take (null id, non-finite value); ``second`` names what
    ``docno`` holds."""
    for ids, label in ((qid, "query id"), (docno, second)):
        empty = pc.fill_null(pc.equal(pc.utf8_length(ids), 0), True).to_numpy(zero_copy_only=False)
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise ValueError(f"{what} {run!r}: empty or null {label} (query {qid[i].as_py()!r:.60}, document "
                             f"{docno[i].as_py()!r:.60})")
    bad = ~np.isfinite(value)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what} {run!r}: query {qid[i].as_py()!r:.60}, document {docno[i].as_py()!r:.60} has the "
                         f"value {float(value[i])!r}; values must be finite numbers")


def _in_file_order(qid: pa.Array, docno: pa.Array, value: np.ndarray, row, what: str, name: str,
                   keep_first: bool):
    """The rows in file order (``_row``, when given: the stable and ranx tie rules and ``keep_first`` need it),
    each (query, document) pair once: the first in file order (``keep_first``, as the single-machine reader
    keeps it) or a ValueError.  The ids come back dictionary-encoded (what
    :class:`~metrics.runfiles.read.Table` holds)."""
    if row is not None and len(row) and row.null_count == 0:
        rows = row.to_numpy()
        if rows.size > 1 and not bool(np.all(rows[1:] > rows[:-1])):
            order = np.argsort(rows, kind="stable")
            take = pa.array(order)
            if pa.types.is_dictionary(qid.type):  # (re-encoded below in file order, codes as plain ids get)
                qid = qid.dictionary_decode()
            qid, docno, value = qid.take(take), docno.take(take), value[order]
    qid, docno = as_dictionary(qid), as_dictionary(docno)
    if not len(qid) or len(docno.dictionary) == len(docno) or not has_duplicate_pairs(
            qid.indices.to_numpy(), docno.indices.to_numpy(), len(docno.dictionary)):
        return qid, docno, value
    key = qid.indices.to_numpy().astype(np.int64) * len(docno.dictionary) + docno.indices.to_numpy()
    _unique, first = np.unique(key, return_index=True)
    keep = np.sort(first)  # the first row of each pair, in file order
    if not keep_first:
        i = int(np.flatnonzero(np.isin(np.arange(key.size), keep, invert=True))[0])
        raise ValueError(f"{what} {name!r}: document {docno[i].as_py()!r:.60} appears twice for query "
                         f"{qid[i].as_py()!r:.60}; each (query, document) pair must be given once (or skip "
                         "bad lines: skip_bad_lines=True, --skip-bad-lines)")
    take = pa.array(keep)
    return (as_dictionary(qid.dictionary_decode().take(take)), as_dictionary(docno.dictionary_decode().take(take)),
            value[keep])


def _table(name: str, kind: str, qid: pa.Array, docno: pa.Array, value: np.ndarray) -> Table:
    return Table(name, kind, as_dictionary(qid), as_dictionary(docno), np.ascontiguousarray(value, np.float64))


def _column(table: pa.Table, name: str):
    return table.column(name).combine_chunks() if name in table.column_names else None


class _Notes:
    """The notes of one bucket, as columns."""

    def __init__(self):
        self.rows: list[tuple] = []
        self.queries: pa.Array | None = None  # the bucket's qrels queries (sorted), once evaluated

    def add(self, run, note, count=None, count2=None, text=None, detail=None, order=None):
        self.rows.append((run, note, count, count2, text, detail, order))

    def table(self, names) -> pa.Table:
        schema = _arrow_schema(names)
        cols = list(zip(*self.rows)) if self.rows else [[]] * 7
        data = {"run": cols[0], "qid": [None] * len(self.rows)}
        for j, (c, _k) in enumerate(NOTE_COLUMNS):
            data[c] = cols[1 + j]
        for i in range(len(names)):
            data[f"m{i}"] = [None] * len(self.rows)
        return pa.table({k: pa.array(list(v), schema.field(k).type) for k, v in data.items()}, schema=schema)


def _good_rows(part: pa.Table, what: str, name: str, keep_first: bool, notes: _Notes) -> pa.Table:
    """The rows without a reading problem; the bad ones noted (skipped) or refused (a ValueError)."""
    bad_col = _column(part, "_bad")
    if bad_col is None or bad_col.null_count == len(bad_col):
        return part
    bad = pc.is_valid(bad_col)
    rows = part.filter(bad)
    first = int(np.argmin(rows.column("_row").to_numpy())) if rows.num_rows else 0
    # _line identifies the line (its first field, shortened by read_spark): a message never quotes a whole line
    line = shorten(rows.column("_line")[first].as_py() or "", IDENTIFY_CHARS)
    reason = rows.column("_bad")[first].as_py()
    if not keep_first:
        raise ValueError(f"{name}: a line cannot be read ({reason}); the first such line starts with {line!r}; fix "
                         "it, or skip bad lines (skip_bad_lines=True, --skip-bad-lines)")
    notes.add(name, "bad", count=rows.num_rows, text=line, detail=reason,
              order=int(rows.column("_row")[first].as_py()))
    return part.filter(pc.invert(bad))


def _kernel(options: dict):
    """The function :func:`bucket_kernel` returns: one bucket's run rows and qrels rows in (with the bookkeeping
    columns), one row per query each run answered out (the values in ``m0, m1, ...``) and the notes
    (:data:`NOTE_COLUMNS`).  The values come from the single-machine loop
    (:func:`metrics.runfiles.engine.evaluate_tables`) over the bucket (:func:`_evaluate_bucket`)."""
    runs: list[str] = options["runs"]
    names: list[tuple[str, str]] = options["names"]
    keep_first: bool = options["keep_first"]
    evaluate_bucket = _evaluate_bucket(options)

    def evaluate(left: pa.Table, right: pa.Table) -> pa.Table:
        notes = _Notes()
        right = _good_rows(right, "qrels", "qrels", keep_first, notes)
        qrels = _block_of(right, "rel")
        _check_rows("qrels", qrels.column("qid"), qrels.column("docno"), _values(qrels), "qrels")
        lrun = left.column("_run")  # the run's place in ``runs`` (a number travels lighter than its name)
        parts = []
        for index, run in enumerate(runs):
            part = left.filter(pc.equal(lrun, index)) if left.num_rows else left
            part = _good_rows(part, "run", run, keep_first, notes)
            _note_tag(part, run, notes)
            block = _block_of(part, "score")
            _check_rows(run, block.column("qid"), block.column("docno"), _values(block), "run")
            parts.append(block)
        schema = _arrow_schema(names)
        out = []
        for run, values in evaluate_bucket(qrels, parts, notes):
            k = values.num_rows
            cols = {"run": pa.array([run] * k, pa.string()), "qid": values.column("qid")}
            for c, kind in NOTE_COLUMNS:
                cols[c] = pa.nulls(k, pa.string() if kind == "string" else pa.int64())
            for i in range(len(names)):
                cols[f"m{i}"] = values.column(f"m{i}")
            out.append(pa.table(cols, schema=schema))
        out.append(notes.table(names))
        return pa.concat_tables(out)

    return evaluate


#: What a packed block holds of each row (Arrow IPC inside one binary value): the ids, the score or grade, and
#: the row's place in its file or DataFrame (``_row``: file order, for the first of a repeated pair and the
#: stable and ranx tie rules).  The query ids travel as runs (:data:`QID_RUNS_SCHEMA`); the kernel gets them
#: back dictionary-encoded (:func:`_unpack_blocks`).  The other bookkeeping (bad lines, tags) stays on the side
#: that read the rows: it travels as notes.
BLOCK_SCHEMA = pa.schema([("qid", pa.string()), ("docno", pa.string()), ("value", pa.float64()),
                          ("_row", pa.int64())])

#: The qrels' blocks when they are diversity qrels (``qid subtopic docno rel``): each judgment with its subtopic,
#: its place in the file (``_row``) and the place of its subtopic's first judgment in the whole file (``_sub``):
#: ndeval adds a document's subtopic gains in the order the subtopics first appear in the file, which a bucket
#: alone cannot see.
SUBTOPIC_BLOCK_SCHEMA = pa.schema(list(BLOCK_SCHEMA) + [("subtopic", pa.string()), ("_sub", pa.int64())])

#: How a block's query ids travel: as *runs*, one row per run of consecutive rows with the same id (the id, and
#: how many rows), in a second IPC message after the rows' other columns (:func:`_pack_batch`,
#: :func:`_read_block`).  A file read a query at a time has one run per query and block, so the ids cost next
#: to nothing to shuffle and the kernel gets them dictionary-encoded without hashing a string per row; rows in
#: no order at all cost 4 bytes a row more than plain ids.
QID_RUNS_SCHEMA = pa.schema([("qid", pa.string()), ("rows", pa.int32())])

#: The rows between the packing and the kernel: a block of one run's (or the qrels', ``_run`` -1) rows of one
#: bucket, or a note (``block`` null).  ``_key`` sends the bucket to its own partition (:func:`partition_keys`).
_PACKED_DDL = ("_key int, _run int, " + ", ".join(f"`{c}` {k}" for c, k in NOTE_COLUMNS) + ", block binary")
_PACKED_SCHEMA = pa.schema([("_key", pa.int32()), ("_run", pa.int32())]
                           + [(c, pa.string() if k == "string" else pa.int64()) for c, k in NOTE_COLUMNS]
                           + [("block", pa.binary())])


def _values(block: pa.Table) -> np.ndarray:
    return block.column("value").to_numpy(zero_copy_only=False).astype(np.float64)


#: :data:`BLOCK_SCHEMA` without ``_row``: the blocks when file order cannot change a value (no tie rule that
#: follows it, repeated pairs refused rather than the first kept).
_BLOCK_NO_ROW = pa.schema([f for f in BLOCK_SCHEMA if f.name != "_row"])


def _block_of(part: pa.Table, value: str, *, rows: bool = True) -> pa.Table:
    """A side's rows as :data:`BLOCK_SCHEMA` (ids as plain strings, the value as float64), without ``_row``
    unless ``rows``."""
    cols = [_strings(part.column("qid")), _strings(part.column("docno")),
            pc.cast(part.column(value).combine_chunks(), pa.float64())]
    if "subtopic" in part.column_names:  # diversity qrels: _row, the subtopic and its first row always
        cols += [pc.cast(part.column("_row").combine_chunks(), pa.int64()), _strings(part.column("subtopic")),
                 pc.cast(part.column("_sub").combine_chunks(), pa.int64())]
        return pa.Table.from_arrays(cols, schema=SUBTOPIC_BLOCK_SCHEMA)
    if not rows:
        return pa.Table.from_arrays(cols, schema=_BLOCK_NO_ROW)
    cols.append(pc.cast(part.column("_row").combine_chunks(), pa.int64()))
    return pa.Table.from_arrays(cols, schema=BLOCK_SCHEMA)


def _needs_rows(requested: Sequence[Requested], keep_first: bool) -> bool:
    """Whether file order can change a value: the first of a repeated pair kept, or a tie rule that follows it."""
    return keep_first or any(r.info.origin == "variant" and any(v.ties != "trec_eval" for v in r.params)
                             for r in requested)  # (a variant measure's params: its Variants)


def _note_tag(part: pa.Table, run: str, notes: _Notes) -> None:
    """The tag of the run's last line among these rows (the largest ``_row`` with a tag), as a note."""
    tags = _column(part, "tag")
    if tags is None or tags.null_count == len(tags):
        return
    rows = part.column("_row").to_numpy(zero_copy_only=False)
    valid = np.flatnonzero(pc.is_valid(tags).to_numpy(zero_copy_only=False))
    last = int(valid[np.argmax(rows[valid])])
    notes.add(run, "tag", text=tags[last].as_py(), order=int(rows[last]))


def _evaluate_bucket(options: dict):
    """``evaluate(qrels, parts, notes) -> [(run, values)]``: one bucket evaluated from its qrels block and each
    run's block (:data:`BLOCK_SCHEMA`, rows already checked, in any order): for each run that answered a query
    of the bucket, its values (:func:`values_schema`: ``qid`` in byte order, ``m0, m1, ...``); the bucket's
    notes added to ``notes``."""
    runs: list[str] = options["runs"]
    names: list[tuple[str, str]] = options["names"]
    requested = parse_measures(options["measures"])
    keep_first: bool = options["keep_first"]
    subtopics: bool = bool(options.get("subtopics"))
    opts: dict = options["opts"]
    schema = values_schema(names)

    def evaluate(qrels: pa.Table, parts: Sequence[pa.Table], notes: _Notes) -> list[tuple[str, pa.Table]]:
        if subtopics:
            qrels_table = _subtopic_qrels(qrels, keep_first, notes)
            rq, rd, rv = qrels_table.qid, qrels_table.docno, qrels_table.value
        else:
            rq, rd, rv = _in_file_order(_ids(qrels.column("qid")), _strings(qrels.column("docno")),
                                        _values(qrels), _column(qrels, "_row"), "qrels", "qrels", keep_first)
            qrels_table = _table("qrels", "qrels", rq, rd, rv)
        tables = []
        for run, part in zip(runs, parts):
            q, d, v = _in_file_order(_ids(part.column("qid")), _strings(part.column("docno")), _values(part),
                                     _column(part, "_row"), "run", run, keep_first)
            tables.append(_table(run, "run", q, d, v))
            used = q.dictionary  # the run's queries in this bucket (encoded from its rows: each one used)
            outside = used.filter(pc.invert(pc.is_in(used, value_set=rq.dictionary)))
            if len(outside):
                notes.add(run, "foreign", count=len(outside), text=pc.min(outside).as_py())
        out = []
        if not len(rq):
            return out
        qi = QrelsIndex(qrels_table)
        counts = qi.counts()
        notes.add("qrels", "qrels", count=counts.num_q, count2=counts.num_rel)
        whole = np.trunc(rv)
        fractional = np.flatnonzero(whole != rv)
        if fractional.size:
            notes.add("qrels", "fractional", count=int(fractional.size), text=repr(float(rv[fractional[0]])),
                      order=int(fractional[0]))
        values, _problems = evaluate_tables(qi, tables, requested, **opts)
        queries = pa.array(qi.queries.tolist(), pa.string())
        notes.queries = queries
        for run_values in values:
            present = run_values.present
            where = pa.array(np.flatnonzero(present))
            k = len(where)
            if k < present.size:
                notes.add(run_values.name, "absent", count=int(present.size - k),
                          text=str(qi.queries[int(np.flatnonzero(~present)[0])]))
            if not k:
                continue
            cols = {"qid": queries.take(where)}
            for i, (name, kind) in enumerate(names):
                if kind == "text":
                    cols[f"m{i}"] = pa.array(run_values.texts[name][present].tolist(), pa.string())
                else:
                    cols[f"m{i}"] = pa.array(run_values.values[name][present], pa.float64())
            out.append((run_values.name, pa.table(cols, schema=schema)))
        return out

    return evaluate


def _subtopic_qrels(qrels: pa.Table, keep_first: bool, notes: _Notes) -> SubtopicTable:
    """A bucket's diversity judgments (:data:`SUBTOPIC_BLOCK_SCHEMA`, in any order) as the single-machine reader
    builds them (:func:`metrics.runfiles.subtopics.subtopic_table`): in file order, each (query, subtopic,
    document) once -- the first (``keep_first``: the later ones noted as bad lines) or a ValueError -- and the
    subtopics numbered in the order they first appear in the whole file (``_sub``), not in the bucket."""
    order = np.argsort(qrels.column("_row").to_numpy(), kind="stable")
    qrels = qrels.take(pa.array(order))
    qid, docno, subtopic = (as_dictionary(_strings(qrels.column(c))) for c in ("qid", "docno", "subtopic"))
    rows = qrels.column("_row").to_numpy()
    first_row = qrels.column("_sub").to_numpy()
    keys = np.stack([qid.indices.to_numpy(), subtopic.indices.to_numpy(), docno.indices.to_numpy()])
    keep = np.arange(rows.size)
    if rows.size:
        _unique, firsts = np.unique(keys, axis=1, return_index=True)
        if firsts.size < rows.size:
            again = np.flatnonzero(np.isin(keep, firsts, invert=True))
            i = int(again[0])
            q, s, d = qid[i].as_py(), subtopic[i].as_py(), docno[i].as_py()
            if not keep_first:
                raise ValueError(f"qrels: document {d!r:.60} is judged twice for query {q!r:.60} and subtopic "
                                 f"{s!r:.60}; each (query, subtopic, document) must be judged once (or skip bad "
                                 "lines: skip_bad_lines=True, --skip-bad-lines)")
            notes.add("qrels", "bad", count=int(again.size), text=shorten(q, IDENTIFY_CHARS),
                      detail=f"document {d[:40]!r} judged again for subtopic {s[:40]!r}", order=int(rows[i]))
            keep = np.sort(firsts)
    take = pa.array(keep)
    table = subtopic_table(qid.take(take).dictionary_decode().to_pylist(),
                           subtopic.take(take).dictionary_decode().to_pylist(),
                           docno.take(take).dictionary_decode().to_pylist(), _values(qrels)[keep], lines=rows[keep])
    # the subtopics numbered by their first judgment in the whole file, as the single-machine reader numbers them
    _firsts, code = np.unique(first_row[keep], return_inverse=True)
    table.subtopics = SubtopicJudgments(table.subtopics.line, code.astype(np.int64).reshape(-1),
                                        table.subtopics.grade, table.subtopics.docrank)
    return table


def values_schema(names: Sequence[tuple[str, str]]) -> pa.Schema:
    """The per-query values of one run in one bucket, as the kernel packs them: ``qid``, then ``m0, m1, ...``
    (float64, or text for text measures) in the order of ``names`` ((printed name, kind) pairs).

    Parameters
    ----------
    names : sequence of (str, str)
        Each value's printed name and kind (``"float"``, ``"long"`` or ``"text"``).

    Returns
    -------
    pyarrow.Schema

    Examples
    --------
    >>> values_schema([("map", "float"), ("relstring_5", "text")]).names
    ['qid', 'm0', 'm1']
    """
    return pa.schema([("qid", pa.string())] + [(f"m{i}", pa.string() if kind == "text" else pa.float64())
                                               for i, (_n, kind) in enumerate(names)])


#: What the kernel returns to Spark: per run and bucket one *segment* (``block``: Arrow IPC of the run's
#: per-query values in the bucket, :func:`values_schema`, queries in byte order) or a note (``block`` null,
#: :data:`NOTE_COLUMNS`).  Buckets are ranges of query ids in byte order: segments sorted by ``bucket`` give
#: each run's queries in trec_eval's order.
_OUT_DDL = "run string, bucket int, " + ", ".join(f"`{c}` {k}" for c, k in NOTE_COLUMNS) + ", block binary"
_OUT_SCHEMA = pa.schema([("run", pa.string()), ("bucket", pa.int32())]
                        + [(c, pa.string() if k == "string" else pa.int64()) for c, k in NOTE_COLUMNS]
                        + [("block", pa.binary())])


#: The qrels queries of a bucket (a ``queries`` note's block), when asked for (the variants table needs them).
QUERIES_SCHEMA = pa.schema([("qid", pa.string())])


def _segments(segments: list[tuple[str, pa.Table]], bucket: int, notes: _Notes,
              queries: pa.Array | None = None) -> pa.RecordBatch:
    """The kernel's output rows (:data:`_OUT_SCHEMA`): one per segment (``note`` null), then the notes, and the
    bucket's qrels queries as a ``queries`` note with a block when given."""
    blocks = [t.combine_chunks().to_batches()[0].serialize() for _r, t in segments]
    n, n_notes = len(blocks), len(notes.rows)
    runs = [r for r, _t in segments] + [row[0] for row in notes.rows]
    note_values = [[None] * n + [row[1 + j] for row in notes.rows] for j in range(len(NOTE_COLUMNS))]
    extra = [pa.nulls(n_notes, pa.binary())]
    if queries is not None and len(queries):
        runs.append(None)
        for j, values in enumerate(note_values):
            values.append("queries" if NOTE_COLUMNS[j][0] == "note" else None)
        blocks_q = [pa.RecordBatch.from_arrays([queries], schema=QUERIES_SCHEMA).serialize()]
        extra.append(_binary(blocks_q))
    cols = {"run": pa.array(runs, pa.string()),
            "bucket": pa.array([bucket] * len(runs), pa.int32())}
    for j, (c, kind) in enumerate(NOTE_COLUMNS):
        cols[c] = pa.array(note_values[j], pa.string() if kind == "string" else pa.int64())
    cols["block"] = pa.concat_arrays([_binary(blocks), *extra])
    return pa.RecordBatch.from_pydict(cols, schema=_OUT_SCHEMA)


def _read_blocks(blocks: pa.Array, schema: pa.Schema) -> list[pa.RecordBatch]:
    """Each value of a binary array (an Arrow IPC record batch of ``schema``), read without copying."""
    return [pa.ipc.read_record_batch(blocks[i].as_buffer(), schema) for i in range(len(blocks))]


def _packer(options: dict, index: int | None):
    """The function Spark maps over one side's input rows (before the shuffle), batch by batch: a batch's bad
    lines skipped (a note) or refused, its rows checked, each run's last tag noted, and its rows grouped by
    run and bucket into blocks (:data:`BLOCK_SCHEMA` as Arrow IPC, one binary value a block, the query ids as
    runs: :func:`_read_block`).  Spark then moves
    a few binary rows per batch instead of every row with its strings and bookkeeping.

    ``index``: the side's place in ``options["runs"]`` (-1: the qrels), or None when its rows carry ``_run``
    (a DataFrame naming several runs).  The rows come without ``_row``: it is counted here, as
    ``monotonically_increasing_id`` counts it (the partition's index in the upper bits, then the row's place
    in the partition): file or DataFrame order, without a column through the JVM."""
    runs: list[str] = options["runs"]
    keep_first: bool = options["keep_first"]
    keys = np.asarray(options["keys"], dtype=np.int32)
    bounds = pa.array(options["bounds"], pa.string())
    rows: bool = options["rows"]

    # rows packed at once: enough for blocks of about BLOCK_ROWS rows a bucket, at most PACK_MAX_ROWS
    size = min(PACK_MAX_ROWS, max(ARROW_BATCH_ROWS, BLOCK_ROWS * len(keys)))

    def pack(batches):
        from pyspark import TaskContext

        context = TaskContext.get()
        row = (context.partitionId() if context is not None else 0) << 33
        held, n = [], 0
        for batch in itertools.chain(batches, [None]):  # None: the partition's end
            if batch is not None and batch.num_rows:
                held.append(batch)
                n += batch.num_rows
            if not held or (batch is not None and 2 * n < size):  # (blocks of at least BLOCK_ROWS / 2 rows)
                continue
            piece = pa.Table.from_batches(held)
            held, n = [], 0
            if "_row" not in piece.column_names:  # (diversity qrels bring theirs: the join that numbers the
                # subtopics can change the rows' order)
                piece = piece.append_column("_row", pa.array(np.arange(row, row + piece.num_rows, dtype=np.int64)))
            row += piece.num_rows
            if index is not None:
                piece = piece.append_column("_run", pa.array(np.full(piece.num_rows, index, np.int32)))
            checked = "_why" in piece.column_names
            yield _pack_batch(_split_why(piece), runs, keep_first, keys, bounds, rows, checked)

    return pack


def _split_why(part: pa.Table) -> pa.Table:
    """``_why`` (why a line cannot be used, a NUL, the line; null for a good line) as ``_bad`` and ``_line``."""
    if "_why" not in part.column_names:
        return part
    why = part.column("_why").combine_chunks()
    part = part.drop_columns(["_why"])
    if why.null_count == len(why):
        return part
    halves = pc.split_pattern(why, "\x00", max_splits=1)
    part = part.append_column("_bad", pc.list_element(halves, 0))
    return part.append_column("_line", pc.list_element(halves, 1))


def _pack_batch(batch: pa.Table, runs: list[str], keep_first: bool, keys: np.ndarray, bounds: pa.Array,
                rows: bool, checked: bool) -> pa.RecordBatch:
    """One pack of rows into blocks (see :func:`_packer`); ``checked``: a reader checked the rows (a bad one
    has a reason), so ids and values need no second look."""
    notes = _Notes()
    run_of = batch.column("_run").to_numpy(zero_copy_only=False)
    present = run_of[:1] if run_of.size and run_of.min() == run_of.max() else np.unique(run_of)
    if len(present) > 1:  # several runs in one batch (a DataFrame with a run column): each on its own
        sides = [(int(r), batch.filter(pa.array(run_of == r))) for r in present]
    else:
        sides = [(int(present[0]), batch)]
    blocks, block_keys, block_runs = [], [], []
    for index, part in sides:
        name, what = ("qrels", "qrels") if index < 0 else (runs[index], "run")
        part = _good_rows(part, what, name, keep_first, notes)
        if index >= 0:
            _note_tag(part, name, notes)
        if not part.num_rows:
            continue
        block = _block_of(part, "value", rows=rows)
        if not checked:  # a DataFrame's rows (a file's were checked by its reader: a bad one has a reason)
            _check_rows(name, block.column("qid").chunk(0), block.column("docno").chunk(0), _values(block), what)
        if "subtopic" in block.column_names:  # (a DataFrame's subtopic may be null even when _bad is a column)
            _check_rows(name, block.column("qid").chunk(0), block.column("subtopic").chunk(0), _values(block),
                        what, second="subtopic")
        bucket, codes, names = _bucket_codes(block.column("qid").chunk(0), bounds)
        order = np.argsort(bucket, kind="stable")
        bucket, codes = bucket[order], codes[order]
        block = block.drop_columns(["qid"]).take(pa.array(order)).combine_chunks().to_batches()[0]
        new_bucket = np.r_[True, bucket[1:] != bucket[:-1]]
        starts = np.flatnonzero(new_bucket)
        # the query ids as runs of equal ids, none across two buckets (QID_RUNS_SCHEMA)
        run_starts = np.flatnonzero(new_bucket | np.r_[True, codes[1:] != codes[:-1]])
        run_ids = names.take(pa.array(codes[run_starts]))
        run_rows = pa.array(np.diff(np.r_[run_starts, bucket.size]).astype(np.int32))
        first_run = np.searchsorted(run_starts, starts)
        for b, (start, end) in enumerate(zip(starts, np.r_[starts[1:], bucket.size])):
            a, z = int(first_run[b]), int(first_run[b + 1]) if b + 1 < len(starts) else len(run_starts)
            runs_of = pa.RecordBatch.from_arrays([run_ids.slice(a, z - a), run_rows.slice(a, z - a)],
                                                 schema=QID_RUNS_SCHEMA)
            blocks.append((block.slice(int(start), int(end - start)).serialize(), runs_of.serialize()))
            block_keys.append(int(keys[bucket[start]]))
            block_runs.append(index)
    n_notes = len(notes.rows)
    cols = {"_key": pa.array(block_keys + [int(keys[0])] * n_notes, pa.int32()),
            "_run": pa.array(block_runs + [-1 if r == "qrels" else runs.index(r) for r, *_ in notes.rows], pa.int32())}
    for j, (c, kind) in enumerate(NOTE_COLUMNS):
        cols[c] = pa.array([None] * len(blocks) + [row[1 + j] for row in notes.rows],
                           pa.string() if kind == "string" else pa.int64())
    cols["block"] = pa.concat_arrays([_binary(blocks), pa.nulls(n_notes, pa.binary())])
    return pa.RecordBatch.from_pydict(cols, schema=_PACKED_SCHEMA)


def _binary(buffers: list[pa.Buffer | tuple[pa.Buffer, ...]]) -> pa.BinaryArray:
    """Buffers as one binary array, a tuple of buffers as one value (one copy; IPC messages are padded to 8
    bytes: each stays aligned)."""
    values = [b if isinstance(b, tuple) else (b,) for b in buffers]
    offsets = np.zeros(len(values) + 1, dtype=np.int32)
    np.cumsum([sum(b.size for b in v) for v in values], out=offsets[1:])
    return pa.BinaryArray.from_buffers(pa.binary(), len(values),
                                       [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(itertools.chain(*values)))])


def _wire(schema: pa.Schema) -> pa.Schema:
    """A block's columns but its query ids (which travel as runs, :data:`QID_RUNS_SCHEMA`)."""
    return pa.schema([f for f in schema if f.name != "qid"])


def _read_block(value: pa.Buffer, schema: pa.Schema) -> tuple[pa.RecordBatch, pa.RecordBatch]:
    """A block's two IPC messages (its rows without the query ids, :func:`_wire` of ``schema``; the ids' runs),
    read without copying."""
    reader = pa.ipc.MessageReader.open_stream(pa.BufferReader(value))
    rows = pa.ipc.read_record_batch(reader.read_next_message(), _wire(schema))
    return rows, pa.ipc.read_record_batch(reader.read_next_message(), QID_RUNS_SCHEMA)


def _unpack_blocks(blocks: list[tuple[pa.RecordBatch, pa.RecordBatch]], schema: pa.Schema) -> pa.Table:
    """One side's blocks of a bucket as one table of ``schema``, the query ids dictionary-encoded from their runs:
    the distinct ids in order of first appearance, as ``dictionary_encode`` of the ids row by row gives them."""
    rows = pa.Table.from_batches([b for b, _r in blocks], schema=_wire(schema))
    runs = pa.Table.from_batches([r for _b, r in blocks], schema=QID_RUNS_SCHEMA)
    names = as_dictionary(runs.column("qid"))
    codes = np.repeat(names.indices.to_numpy(), runs.column("rows").to_numpy())
    qid = pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32()), names.dictionary)
    return rows.add_column(0, pa.field("qid", qid.type), [qid])


def _block_kernel(options: dict):
    """The function Spark maps over each bucket's partition (after the shuffle): the blocks decoded and put
    together per run (the qrels' too), the notes of the packing passed on, the bucket evaluated
    (:func:`_evaluate_bucket`), its segments and notes out (:data:`_OUT_SCHEMA`)."""
    runs: list[str] = options["runs"]
    bucket_of = {int(k): b for b, k in enumerate(options["keys"])}
    with_queries = bool(options.get("queries"))
    schema = BLOCK_SCHEMA if options["rows"] else _BLOCK_NO_ROW
    qrels_schema = SUBTOPIC_BLOCK_SCHEMA if options.get("subtopics") else schema
    evaluate_bucket = _evaluate_bucket(options)

    def evaluate(batches):
        notes = _Notes()
        blocks: dict[int, list[tuple[pa.RecordBatch, pa.RecordBatch]]] = {}
        bucket = None
        for batch in batches:
            if not batch.num_rows:
                continue
            block = batch.column(batch.schema.get_field_index("block"))
            run_of = batch.column(1).to_numpy(zero_copy_only=False)
            bucket = bucket_of[int(batch.column(0)[0].as_py())] if bucket is None else bucket
            is_note = pc.is_null(block).to_numpy(zero_copy_only=False)
            for i in np.flatnonzero(is_note):
                r = int(run_of[i])
                notes.add("qrels" if r < 0 else runs[r], *[batch.column(c)[int(i)].as_py() for c, _k in NOTE_COLUMNS])
            for i in np.flatnonzero(~is_note):
                r = int(run_of[i])
                blocks.setdefault(r, []).append(_read_block(block[int(i)].as_buffer(),
                                                            qrels_schema if r < 0 else schema))
        if bucket is None:
            return
        side = {r: _unpack_blocks(b, qrels_schema if r < 0 else schema) for r, b in blocks.items()}
        empty = schema.empty_table()
        segments = evaluate_bucket(side.get(-1, qrels_schema.empty_table()),
                                   [side.get(i, empty) for i in range(len(runs))], notes)
        yield _segments(segments, bucket, notes, notes.queries if with_queries else None)

    return evaluate


def range_buckets(qids: pa.Array, bounds: pa.Array) -> np.ndarray:
    """The bucket of each query id: how many of the (sorted) bounds are at or before it in byte order.

    Buckets are ranges of ids in byte order (trec_eval's order of queries, ``strcmp``): bucket ``b`` holds the
    ids from ``bounds[b - 1]`` (included) to ``bounds[b]`` (excluded).

    Parameters
    ----------
    qids : pyarrow.Array of str
        The ids (no nulls).
    bounds : pyarrow.Array of str
        Distinct ids in byte order.

    Returns
    -------
    numpy.ndarray of int32
        Values 0 .. ``len(bounds)``.

    Examples
    --------
    In byte order "10" < "2" < "9" (the ids are text), so "10" is before the bound "2":

    >>> range_buckets(pa.array(["9", "10", "2", "b"]), pa.array(["2", "a"])).tolist()
    [1, 0, 1, 2]
    """
    return _bucket_codes(qids, bounds)[0]


def _bucket_codes(qids: pa.Array, bounds: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """:func:`range_buckets`, and the ids dictionary-encoded on the way: (bucket of each id, code of each id,
    the distinct ids)."""
    codes = as_dictionary(qids)
    unique = codes.dictionary
    index = codes.indices.to_numpy(zero_copy_only=False)
    if not len(bounds) or not len(qids):
        return np.zeros(len(qids), dtype=np.int32), index, unique
    both = pa.concat_arrays([bounds, unique.cast(pa.string())])
    order = pc.sort_indices(both).to_numpy()  # stable: a bound before the id equal to it
    is_bound = order < len(bounds)
    at = np.cumsum(is_bound)
    bucket = np.empty(len(unique), dtype=np.int32)
    bucket[order[~is_bound] - len(bounds)] = at[~is_bound]
    return bucket[index], index, unique


def partition_keys(n: int) -> list[int]:
    """``keys[b]``: a whole number that Spark's hash partitioning into ``n`` partitions sends to partition ``b``.

    ``df.repartition(n, col)`` puts a row with the int ``k`` in partition ``pmod(murmur3(k, seed 42), n)``
    (Spark's ``HashPartitioning``; ``pyspark.sql.functions.hash`` is the same hash); a bucket's rows keyed by
    ``keys[b]`` fill exactly partition ``b``: one bucket a partition, none empty, none with two.

    Parameters
    ----------
    n : int >= 1
        The number of partitions (buckets).

    Returns
    -------
    list of int
        ``n`` distinct whole numbers >= 0.

    Raises
    ------
    ValueError
        If ``n`` is not a whole number >= 1.

    Examples
    --------
    Spark's hash of the ints 0, 1, 2 is 933211791, -559580957, 1765031574 (``SELECT hash(0), hash(1),
    hash(2)``): into 2 partitions (``pmod(h, 2)``) 0 and 1 go to partition 1, 2 to partition 0:

    >>> partition_keys(2)
    [2, 0]
    """
    n = check_whole(n, name="n", minimum=1)
    keys = np.full(n, -1, dtype=np.int64)
    start, missing = 0, n
    while missing:
        k = np.arange(start, start + max(4 * n, 1024), dtype=np.int64)
        part = np.mod(_murmur3_int(k), n)  # numpy's mod of a negative number by n > 0 is pmod
        first = np.unique(part, return_index=True)
        for p, i in zip(*first):
            if keys[p] < 0:
                keys[p] = k[i]
                missing -= 1
        start += k.size
    return keys.tolist()


def _murmur3_int(values: np.ndarray, seed: int = 42) -> np.ndarray:
    """Spark's ``Murmur3_x86_32.hashInt`` of each (32-bit) int, as signed int64 (what ``hash(col)`` gives)."""
    def rotl(x, r):
        return ((x << np.uint32(r)) | (x >> np.uint32(32 - r))).astype(np.uint32)

    with np.errstate(over="ignore"):
        k1 = values.astype(np.int64).astype(np.uint32) * np.uint32(0xCC9E2D51)
        k1 = rotl(k1, 15) * np.uint32(0x1B873593)
        h1 = np.uint32(seed) ^ k1
        h1 = rotl(h1, 13) * np.uint32(5) + np.uint32(0xE6546B64)
        h1 = h1 ^ np.uint32(4)
        h1 = h1 ^ (h1 >> np.uint32(16))
        h1 = h1 * np.uint32(0x85EBCA6B)
        h1 = h1 ^ (h1 >> np.uint32(13))
        h1 = h1 * np.uint32(0xC2B2AE35)
        h1 = h1 ^ (h1 >> np.uint32(16))
    return h1.astype(np.uint32).view(np.int32).astype(np.int64)


def _gather(notes: pd.DataFrame, runs: list[str], complete: bool,
            policy: str | None = None) -> tuple[QrelsCounts, dict, list[Problem]]:
    """The buckets' notes added up: -c's counts, the runs' tags, the problems (as the single machine words them)."""
    counts = QrelsCounts(0, 0)
    tags: dict[str, tuple[int, str]] = {}
    problems: list[Problem] = []
    by = {kind: part for kind, part in notes.groupby("note", sort=False)} if len(notes) else {}
    if "qrels" in by:
        counts = QrelsCounts(int(by["qrels"]["count"].sum()), int(by["qrels"]["count2"].sum()))
    if "bad" in by:
        for run, part in by["bad"].groupby("run", sort=False):
            first = part.sort_values("order").iloc[0]
            problems.append(Problem(run, None, "bad_lines", {"count": int(part["count"].sum()), "text": first["text"],
                                                             "reason": first["detail"], "action": "skipped"}))
    if "fractional" in by:
        part = by["fractional"]
        grade = float(part.sort_values("order").iloc[0]["text"])
        problems.append(Problem("qrels", None, "fractional_grades", {"count": int(part["count"].sum()),
                                                                     "grade": grade,
                                                                     "whole": f"{math.trunc(grade):g}"}))
    if "tag" in by:
        for row in by["tag"].itertuples():
            if row.run not in tags or row.order > tags[row.run][0]:
                tags[row.run] = (int(row.order), row.text)
    for run in runs:
        mine = {k: p[p["run"] == run] for k, p in by.items() if k in ("foreign", "absent")}
        foreign = mine.get("foreign")
        if foreign is not None and len(foreign):
            problems.append(Problem(run, None, "not_in_qrels", {"count": int(foreign["count"].sum()),
                                                                "example": min(foreign["text"])}))
        absent = mine.get("absent")
        answered_none = absent is not None and int(absent["count"].sum()) >= counts.num_q > 0
        if answered_none:
            problems.append(Problem(run, None, "no_queries", {}))
        elif absent is not None and len(absent):
            problems.append(Problem(run, None, "missing_in_run", {
                "count": int(absent["count"].sum()), "example": min(absent["text"]),
                "policy": policy or ("zero (-c)" if complete else "skip")}))
    return counts, {run: tag for run, (_o, tag) in tags.items()}, problems


# ------------------------------------------------------------------------------------------------ the API
@dataclass
class SparkEvaluation:
    """trec_eval's measures evaluated on Spark; see :func:`evaluate_spark`.

    ``rows`` is the kernel's output (lazy): per run and bucket one *segment* (``block``: the run's per-query
    values in the bucket as Arrow IPC, :func:`values_schema`; ``names[i]`` is the printed name of ``m{i}``;
    buckets are ranges of query ids, ``bucket`` their order) and rows with a null ``block`` that carry the
    buckets' notes (:data:`NOTE_COLUMNS`).  ``problems``, ``tags`` and ``counts`` are known once :meth:`means`
    or :meth:`result` has run.
    """

    spark: object
    rows: object
    requested: list[Requested]
    names: list[tuple[str, str]]
    runs: list[str]
    complete: bool
    tags: dict[str, str] = field(default_factory=dict)
    counts: QrelsCounts | None = None
    problems: list[Problem] = field(default_factory=list)
    #: What a qrels query a run did not answer counts as, in the problems' words (default: as ``complete`` says).
    policy: str | None = None
    #: Who read each input ("qrels" and each run's name): "pyarrow" (a local Parquet file read by the Python
    #: workers), "spark" (Spark's reader) or "dataframe" (given as a DataFrame).
    readers: dict[str, str] = field(default_factory=dict)

    def cache(self) -> SparkEvaluation:
        """Keep the per-query values in Spark's memory (``persist``) once computed, so that
        :meth:`per_query`, :meth:`means` and :meth:`result` do not each run the kernel again."""
        self.rows = self.rows.persist()
        return self

    def _per_query_names(self) -> list[tuple[int, str]]:
        per_query = {name for r in self.requested if r.info.per_query and r.info.value != "text" for name in r.names}
        return [(i, name) for i, (name, _kind) in enumerate(self.names) if name in per_query]

    def per_query(self):
        """Per-query values as a Spark DataFrame ``run, measure, qid, value`` (the rows of
        :meth:`MeasureResult.frame` without the "all" rows): measures trec_eval prints per query, queries the run
        answered.  Lazy: nothing is computed until it is used."""
        from pyspark.sql import functions as F

        chosen = self._per_query_names()
        ddl = "run string, measure string, qid string, value double"
        if not chosen:
            return self.spark.createDataFrame([], ddl)
        schema = values_schema(self.names)
        out_schema = pa.schema([("run", pa.string()), ("measure", pa.string()), ("qid", pa.string()),
                                ("value", pa.float64())])

        def unpack(batches):
            for batch in batches:
                for run, segment in zip(batch.column(0).to_pylist(), _read_blocks(batch.column(1), schema)):
                    n = segment.num_rows
                    yield pa.RecordBatch.from_arrays([
                        pa.repeat(run, n * len(chosen)).cast(pa.string()),
                        pa.concat_arrays([pa.repeat(name, n).cast(pa.string()) for _i, name in chosen]),
                        pa.concat_arrays([segment.column(0)] * len(chosen)),
                        pa.concat_arrays([segment.column(1 + i) for i, _name in chosen])], schema=out_schema)

        segments = self.rows.filter(F.col("note").isNull()).select("run", "block")
        return segments.mapInArrow(unpack, ddl)

    def _learn(self, notes: pd.DataFrame) -> None:
        counts, tags, problems = _gather(notes, self.runs, self.complete, self.policy)
        if not any(r.info.origin != "variant" for r in self.requested):  # as on one machine: only trec_eval's
            problems = [p for p in problems if p.kind != "fractional_grades"]  # measures read whole grades
        self.counts, self.problems = counts, self.problems + problems
        self.tags.update(tags)

    def totals(self) -> pd.DataFrame:
        """Each run's per-query values summed as trec_eval sums them: one addition at a time, in query-id
        byte order, on one Spark task reading the segments in bucket order (buckets are ranges of ids; a
        segment holds its queries in order; Arrow batches of at most 64 MB by default,
        ``spark.sql.execution.arrow.maxBytesPerBatch``).  Columns ``run``, ``name``, ``total``, ``n`` (queries
        answered).  Also gathers the notes (problems, tags, ``-c``'s counts)."""
        numeric = [(i, name) for i, (name, kind) in enumerate(self.names) if kind != "text"]
        schema = values_schema(self.names)
        labels = [name for _, name in numeric]
        columns = [1 + i for i, _name in numeric]
        note_names = [c for c, _k in NOTE_COLUMNS]
        out_schema = pa.schema([("run", pa.string()), ("name", pa.string()), ("total", pa.float64()),
                                ("n", pa.int64())] + [(c, pa.string() if k == "string" else pa.int64())
                                                      for c, k in NOTE_COLUMNS])
        # ir_measures' Accuracy averages the queries where it is defined: its NaN are left out of the total and n
        summed = {n for r in self.requested if r.summary == "defined_mean" for n in r.names}
        defined = [j for j, label in enumerate(labels) if label in summed]
        plain = [j for j in range(len(labels)) if labels[j] not in summed]

        def accumulate(batches):
            # run -> [totals of the plain columns (None before the first query), queries, totals and counts of the
            # defined columns]
            state: dict[str, list] = {}
            kept_notes = []
            for batch in batches:
                if not batch.num_rows:
                    continue
                is_note = pc.is_valid(batch.column(batch.schema.get_field_index("note")))
                if pc.any(is_note).as_py():
                    kept_notes.append(batch.filter(is_note))
                    batch = batch.filter(pc.invert(is_note))
                block = batch.column(batch.schema.get_field_index("block"))
                for run, segment in zip(batch.column(0).to_pylist(), _read_blocks(block, schema)):
                    st = state.setdefault(run, [None, 0, [None] * len(labels), [0] * len(labels)])
                    st[1] += segment.num_rows
                    if not segment.num_rows or not columns:
                        continue
                    values = np.column_stack([segment.column(c).to_numpy(zero_copy_only=False) for c in columns])
                    if plain:  # one addition at a time down each column (accumulate is sequential, never pairwise)
                        part = values[:, plain]
                        stacked = part if st[0] is None else np.vstack([st[0], part])
                        st[0] = np.add.accumulate(stacked, axis=0)[-1]
                    for j in defined:
                        v = values[:, j]
                        v = v[~np.isnan(v)]
                        st[3][j] += v.size
                        if v.size:
                            prev = st[2][j]
                            st[2][j] = float(np.add.accumulate(v if prev is None else np.r_[prev, v])[-1])
            out = {c: [] for c in out_schema.names}
            for run, (totals, n, defined_totals, counts) in state.items():
                by_label = dict(zip(plain, totals)) if totals is not None else {}
                for j, label in enumerate(labels):
                    if j in defined:
                        total, count = defined_totals[j], counts[j]
                    else:
                        total, count = (float(by_label[j]) if j in by_label else 0.0), n
                    for c, v in (("run", run), ("name", label), ("total", total), ("n", count)):
                        out[c].append(v)
                    for c in note_names:
                        out[c].append(None)
            for notes in kept_notes:
                for r in range(notes.num_rows):
                    for c, v in (("run", notes.column(0)[r].as_py()), ("name", None), ("total", None), ("n", None)):
                        out[c].append(v)
                    for c in note_names:
                        out[c].append(notes.column(c)[r].as_py())
            yield pa.RecordBatch.from_pydict(out, schema=out_schema)

        ddl = "run string, name string, total double, n bigint, " + ", ".join(f"`{c}` {k}" for c, k in NOTE_COLUMNS)
        # a few rows, one per run and bucket, to one task in bucket order: cached values are read there as they
        # are (coalesce); values still to compute are computed in parallel first (repartition: a shuffle)
        one = self.rows.coalesce(1) if self.rows.is_cached else self.rows.repartition(1)
        in_order = one.sortWithinPartitions("bucket")
        table = _collect(in_order.mapInArrow(accumulate, ddl)).to_pandas()
        is_note = table["note"].notna()
        self._learn(table[is_note])
        return table[~is_note][["run", "name", "total", "n"]].reset_index(drop=True)

    def means(self):
        """The "all" values as a Spark DataFrame ``run, measure, value``: trec_eval's summary (mean, sum
        for num_*, geometric mean for gm_*, ``-c`` dividing by every qrels query), exactly the values of
        :meth:`MeasureResult.summary` on one machine.  Computed when called (the kernel, then one pass over
        the per-query values on one task); the driver holds one number per run and measure."""
        totals = self.totals()
        by = {(r.run, r.name): r for r in totals.itertuples()}
        rows = []
        for run in self.runs:
            for r in self.requested:
                kind = r.summary
                if kind in ("runid", "none") or r.info.value == "text":
                    continue
                for name in r.names:
                    t = by.get((run, name))
                    if kind == "defined_mean" and t is not None:  # the mean of the values that are defined
                        rows.append((run, name, summary_value("mean", name, np.array([t.total if t.n else 0.0]),
                                                              n=int(t.n))))
                        continue
                    if t is None or t.n == 0:
                        continue  # no query evaluated: no "all" line (as on one machine)
                    # the sequential total stands for the values: summary_value adds them in the same order
                    total = np.array([t.total], dtype=np.float64)
                    rows.append((run, name, summary_value(kind, name, total, n=int(t.n), complete=self.complete,
                                                          counts=self.counts)))
        return self.spark.createDataFrame(rows, "run string, measure string, value double")

    def result(self) -> MeasureResult:
        """Everything collected on the driver as the single-machine engine's :class:`MeasureResult`
        (``.text()`` is trec_eval's output, byte for byte the command line's without ``--spark``).  Holds
        every per-query value in the driver's memory (8 bytes a value), like the single-machine engine."""
        table = _collect(self.rows)
        is_note = pc.is_valid(table.column("note"))
        self._learn(table.filter(is_note).select(["run"] + [c for c, _k in NOTE_COLUMNS]).to_pandas())
        segments = table.filter(pc.invert(is_note))
        listed = table.filter(pc.equal(table.column("note"), "queries")).column("block").combine_chunks()
        qrels_queries = [b.column(0) for b in _read_blocks(listed, QUERIES_SCHEMA)]
        schema = values_schema(self.names)
        by_run: dict[str, list[pa.RecordBatch]] = {}
        for run, segment in zip(segments.column("run").to_pylist(),
                                _read_blocks(segments.column("block").combine_chunks(), schema)):
            by_run.setdefault(run, []).append(segment)
        parts = {run: pa.Table.from_batches(b, schema=schema).combine_chunks() for run, b in by_run.items()}
        if qrels_queries:  # asked for (the variants table): every qrels query, as on one machine
            qids = pa.concat_arrays(qrels_queries)
        else:  # the queries some run answered
            qids = pc.unique(pa.chunked_array([t.column("qid") for t in parts.values()], pa.string())) if parts \
                else pa.array([], pa.string())
        queries = qids.take(pc.array_sort_indices(qids))
        out = []
        for run in self.runs:
            part = parts.get(run, schema.empty_table())
            idx = pc.index_in(part.column("qid"), value_set=queries).to_numpy(zero_copy_only=False).astype(np.int64)
            present = np.zeros(len(queries), bool)
            present[idx] = True
            rv = RunValues(run, self.tags.get(run, run), present)
            for i, (name, kind) in enumerate(self.names):
                col = part.column(f"m{i}")
                if kind == "text":
                    arr = np.empty(len(queries), dtype=object)
                    arr[idx] = np.asarray(col.to_pylist(), dtype=object)
                    rv.texts[name] = arr
                else:
                    arr = np.zeros(len(queries), np.float64)
                    arr[idx] = col.to_numpy()
                    rv.values[name] = arr
            out.append(rv)
        queries = np.asarray(queries.to_pylist(), dtype=object)
        return MeasureResult(queries, self.requested, out, self.complete, list(self.problems), self.counts)


def _collect(df) -> pa.Table:
    """A DataFrame on the driver as Arrow, the Python error of a failed task as a ValueError."""
    from pyspark.errors import PythonException

    try:
        return df.toArrow()
    except PythonException as exc:
        raise ValueError(_python_error(exc)) from None


def _python_error(exc) -> str:
    text = str(exc)
    found = re.findall(r"ValueError: (.+)", text)
    return found[-1].strip() if found else text.strip().splitlines()[-1][:500]


def _as_run_frames(spark, runs, columns, limits=None) -> list[tuple[str | None, object, object]]:
    """[(name, DataFrame run, qid, docno, score, tag[, _row, _bad, _line], path or None)] from the accepted forms
    of ``runs``; the name is None for a DataFrame whose ``run`` column names its runs."""
    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F

    if isinstance(runs, (str, os.PathLike, DataFrame)):
        runs = [runs]
    if isinstance(runs, Mapping):
        items = list(runs.items())
    elif isinstance(runs, Sequence):
        items = [(None, r) for r in runs]
    else:
        raise ValueError(f"runs must be a DataFrame, a path, or a list or dict of them, got {type(runs).__name__}")
    if not items:
        raise ValueError("runs is empty; give at least one run")
    out = []
    files = [str(r) for _, r in items if isinstance(r, (str, os.PathLike))]
    bases = [Path(f.rstrip("/")).name for f in files]
    for key, run in items:
        if isinstance(run, (str, os.PathLike)):
            base = Path(str(run).rstrip("/")).name
            name = str(key) if key is not None else (base if bases.count(base) == 1 else str(run))
            out.append((name, read_spark(spark, run, kind="run", columns=columns, name=name, limits=limits), run))
            continue
        if not isinstance(run, DataFrame):
            raise ValueError(f"a run must be a Spark DataFrame or a path, got {type(run).__name__}")
        roles = column_roles([c for c in run.columns if c != "run"], "run", dict(columns or {}))
        if isinstance(roles, Problem):
            raise ValueError(f"run {key or ''}: no column for {roles.params['role']} among {roles.params['header']}; "
                             f"accepted names: {roles.params['accepted']}")
        value = F.col(f"`{roles['score']}`") if "score" in roles else -F.col(f"`{roles['rank']}`")
        named = "run" in run.columns and key is None
        name = None if named else (str(key) if key is not None else f"run{len(out) + 1}")
        name_col = F.col("run").cast("string") if named else F.lit(name)
        tag = F.col(f"`{roles['tag']}`").cast("string") if "tag" in roles and roles["tag"] != "run" else \
            F.lit(None).cast("string")
        out.append((name, run.select(name_col.alias("run"), F.col(f"`{roles['qid']}`").cast("string").alias("qid"),
                                        F.col(f"`{roles['docno']}`").cast("string").alias("docno"),
                                        value.cast("double").alias("score"), tag.alias("tag")), None))
    return out


def _as_qrels_frame(spark, qrels, columns, limits=None, *, subtopics: bool = False):
    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F

    columns = dict(columns or {})
    subtopic = columns.pop("subtopic", "subtopic")
    if isinstance(qrels, (str, os.PathLike)):
        return read_spark(spark, qrels, kind="qrels", columns=columns, limits=limits, subtopics=subtopics)
    if not isinstance(qrels, DataFrame):
        raise ValueError(f"qrels must be a Spark DataFrame or a path, got {type(qrels).__name__}")
    if subtopics and subtopic not in qrels.columns:
        raise ValueError(f"qrels: diversity qrels need a column for the subtopic ({subtopic!r}, or name it: "
                         f"qrels_columns={{'subtopic': ...}}) among {', '.join(qrels.columns)}")
    roles = column_roles([c for c in qrels.columns if not subtopics or c != subtopic], "qrels", columns)
    if isinstance(roles, Problem):
        raise ValueError(f"qrels: no column for {roles.params['role']} among {roles.params['header']}; "
                         f"accepted names: {roles.params['accepted']}")
    cols = [F.col(f"`{roles['qid']}`").cast("string").alias("qid")]
    if subtopics:
        cols.append(F.col(f"`{subtopic}`").cast("string").alias("subtopic"))
    return qrels.select(*cols, F.col(f"`{roles['docno']}`").cast("string").alias("docno"),
                        F.col(f"`{roles['rel']}`").cast("double").alias("rel"))


def _reads_subtopics(requested: Sequence[Requested]) -> list[str]:
    """The printed names of the requested measures that read diversity qrels (ndeval's, through pyndeval)."""
    return [name for r in requested if r.info.origin == "ir_measures" and r.params.provider == "pyndeval"
            for name in r.names]


def evaluate_spark(qrels, runs, measures: Sequence[str] = ("official",), *, spark=None, relevance_level: int = 1,
                   complete: bool = False, judged_only: bool = False, max_docs: int | None = None,
                   num_docs_in_coll: int = 0, err_gmax: float | None = None,
                   qrels_columns: Mapping[str, str] | None = None, run_columns: Mapping[str, str] | None = None,
                   buckets: int | None = None, skip_bad_lines: bool = False,
                   limits: Limits | None = None, subtopics: bool = False, reader: str = "auto") -> SparkEvaluation:
    """trec_eval's measures (and the extras) for runs held in Spark, through the single-machine kernel.

    Parameters
    ----------
    qrels : pyspark.sql.DataFrame or path
        Columns for query id, document id and grade (named as :data:`~metrics.runfiles.read.COLUMN_NAMES`
        or by ``qrels_columns``), or a TREC / CSV / Parquet file or folder that Spark reads.
    runs : DataFrame, path, or a list or dict of them
        A DataFrame with a ``run`` column holds several runs (one name each); without one it is one
        run (named by its dict key, or ``run1``, ``run2``, ...); a file's run is named by the file.
        An optional ``tag`` column gives trec_eval's ``runid`` (TREC files: the last line's tag).
    measures : sequence of str, default ("official",)
        trec_eval ``-m`` arguments, as for :func:`metrics.runfiles.trec.evaluate_runs`.
    spark : pyspark.sql.SparkSession, optional
        Default: the active session (:func:`spark_session` starts one).
    relevance_level, complete, judged_only, max_docs, num_docs_in_coll, err_gmax
        trec_eval's ``-l``, ``-c``, ``-J``, ``-M``, ``-N`` and ERR's highest grade, as for
        :func:`~metrics.runfiles.trec.evaluate_runs`.
    qrels_columns, run_columns : mapping of str to str, optional
        Role -> column name (see :func:`metrics.runfiles.read.column_roles`).
    buckets : int >= 1, optional
        How many groups of queries the kernel is called on.  Default: the run rows as Spark estimates
        them from the plan's size (no job), divided by :data:`ROWS_PER_BUCKET`, at least two per core.
    skip_bad_lines : bool, default False
        Drop lines of a file that cannot be read and keep the first of a repeated (query, document)
        pair (in file or DataFrame order), with a problem, instead of refusing them, as
        ``--skip-bad-lines``.
    limits : Limits, optional
        Rows and decoded bytes a local Parquet file may cost (:func:`read_spark`).
    subtopics : bool, default False
        The qrels are diversity qrels (``qid subtopic docno rel``, ndeval's format: a TREC text file, or a
        DataFrame with a ``subtopic`` column or one named by ``qrels_columns={"subtopic": ...}``), as
        :func:`metrics.runfiles.read_subtopic_qrels` reads them on one machine: the diversity measures
        (``alpha_nDCG@20``, ``ERR_IA@10``, ``NRBP``, ...) read each judgment, every other measure each
        document once with its highest grade.  Needed for a diversity measure.
    reader : {"auto", "spark"}, default "auto"
        Who reads a Parquet file given as a path: "auto" has the Python workers read a local file (or folder of
        parts, in name order) with pyarrow, a task per split of its row groups, when its id and value columns are
        text, integers or floating point -- its rows never pass through the JVM (the same rows, checks and
        values as Spark's reader; ``benchmarks/spark_runs.py`` measures both); "spark" always has Spark read it.
        Remote paths (``hdfs://``, ``s3a://``), text and CSV files and DataFrames are always Spark's.

    Returns
    -------
    SparkEvaluation
        ``.per_query()`` and ``.means()`` (Spark DataFrames), ``.result()`` (a
        :class:`~metrics.runfiles.trec.MeasureResult` on the driver: ``.text()`` is trec_eval's output);
        nothing is computed until one of them is used (then two Spark jobs: the kernel, and the means on
        one task).  ``.problems`` (lines skipped, queries on one side only, fractional grades) are known
        after :meth:`~SparkEvaluation.means` or :meth:`~SparkEvaluation.result`.

    Raises
    ------
    ValueError
        For a bad measure or option (naming it) or inputs without the needed columns; when the values are
        computed, for a line that cannot be read (unless skipped), a null id, a non-finite value or a
        repeated (query, document) pair (naming the file or run, the line or the query and document).

    Examples
    --------
    Measures and options are checked before Spark is touched (no session needed):

    >>> evaluate_spark("qrels.txt", "bm25.run", ["ndcg_cut.ten"])
    Traceback (most recent call last):
    ...
    ValueError: measure 'ndcg_cut.ten': cutoff 'ten' is not a whole number >= 1

    A diversity measure needs diversity qrels, said before Spark is touched too:

    >>> evaluate_spark("qrels.txt", "bm25.run", ["alpha_nDCG@20"])
    Traceback (most recent call last):
    ...
    ValueError: subtopics: 'alpha_nDCG@20' reads diversity qrels (qid subtopic docno rel); pass subtopics=True

    With a session (not run here: it starts a JVM)::

        spark = spark_session("local[2]")
        ev = evaluate_spark("qrels.txt", ["bm25.run", "dense.run"], ["map", "ndcg_cut.10"], spark=spark)
        ev.means().show()          # run, measure, value
        ev.per_query().write.parquet("per_query.parquet")
    """
    return _evaluate_spark(qrels, runs, measures, spark=spark, relevance_level=relevance_level, complete=complete,
                           judged_only=judged_only, max_docs=max_docs, num_docs_in_coll=num_docs_in_coll,
                           err_gmax=err_gmax, qrels_columns=qrels_columns, run_columns=run_columns, buckets=buckets,
                           skip_bad_lines=skip_bad_lines, limits=limits, subtopics=subtopics, reader=reader)


def _evaluate_spark(qrels, runs, measures, *, spark, relevance_level, complete, judged_only, max_docs,
                    num_docs_in_coll, err_gmax, qrels_columns, run_columns, buckets, skip_bad_lines, limits=None,
                    policy: str | None = None, queries: bool = False, subtopics: bool = False,
                    reader: str = "auto") -> SparkEvaluation:
    """:func:`evaluate_spark`, and for the variants table (:func:`evaluate_variants_spark`): ``policy`` words
    what a missing query counts as in the problems, ``queries`` has the kernel list each bucket's qrels
    queries."""
    from pyspark.sql import functions as F

    requested = parse_measures(measures)
    opts = check_options(relevance_level=relevance_level, judged_only=judged_only, max_docs=max_docs,
                         num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax, complete=complete)
    buckets = check_whole(buckets, name="buckets", minimum=1, allow_none=True)
    skip_bad_lines = check_flag(skip_bad_lines, name="skip_bad_lines")
    subtopics = check_flag(subtopics, name="subtopics")
    if reader not in READERS:
        raise ValueError(f"unknown reader {reader!r}; valid readers are {', '.join(map(repr, READERS))}")
    diversity = _reads_subtopics(requested)
    if diversity and not subtopics:
        raise ValueError(f"subtopics: {diversity[0]!r} reads diversity qrels (qid subtopic docno rel); pass "
                         "subtopics=True")
    spark = _active(spark)
    qrels_df = _as_qrels_frame(spark, qrels, qrels_columns, limits, subtopics=subtopics)
    frames = _as_run_frames(spark, runs, run_columns, limits)
    run_dfs, runs_order, frame_runs = [], [], []
    for name, df, _path in frames:
        if name is None:  # a DataFrame naming its runs: their names in sorted order (one pass over its column)
            found_names = [r[0] for r in df.select("run").distinct().orderBy("run").collect()]
            if any(n is None or n == "" for n in found_names):
                raise ValueError("a run's name (its run column) is null or empty")
        else:
            found_names = [name]
        dupes = sorted(set(found_names) & set(runs_order))
        if dupes:
            raise ValueError(f"run names must be distinct; repeated: {', '.join(map(repr, dupes))}")
        runs_order += found_names
        frame_runs.append(found_names)
        run_dfs.append(_kernel_columns(df, "run"))
    run_df = run_dfs[0]
    for other in run_dfs[1:]:
        run_df = run_df.unionByName(other)
    qrels_df = _kernel_columns(qrels_df, "qrels")
    # a local Parquet file is read by the Python workers themselves (pyarrow, one task a split of its row groups):
    # its rows never pass through the JVM (reader "auto"); anything else is read by Spark
    sources = [None] * (1 + len(frames))
    if reader == "auto":
        if isinstance(qrels, (str, os.PathLike)) and not subtopics:
            columns = {k: v for k, v in dict(qrels_columns or {}).items() if k != "subtopic"}
            sources[0] = _parquet_source(qrels, kind="qrels", columns=columns, name="qrels")
        for i, (name, _df, path) in enumerate(frames, start=1):
            if path is not None:
                sources[i] = _parquet_source(path, kind="run", columns=run_columns, name=name)
    if opts["err_gmax"] is None and any(r.info.name == "err" for r in requested):
        # ERR's scale top: the highest whole judged grade of the whole qrels (a bucket sees only its own)
        rel = F.col("rel")
        whole = F.when(rel >= 0, F.floor(rel)).otherwise(F.ceil(rel))
        top = qrels_df.filter(F.col("_bad").isNull()).agg(F.max(F.when(whole >= 0, whole))).collect()[0][0]
        opts["err_gmax"] = 0.0 if top is None else float(top)
    if buckets is None:
        cores = spark.sparkContext.defaultParallelism
        buckets = max(2 * cores, math.ceil(_estimated_rows(run_df) / ROWS_PER_BUCKET))
    # (the bounds of a Parquet qrels file the workers read: sampled on the driver with pyarrow, no Spark job)
    bounds = _bounds(qrels_df, buckets) if sources[0] is None else _parquet_bounds(sources[0], buckets)
    if subtopics:  # each judgment with the row of its subtopic's first (good) judgment in the whole file
        firsts = qrels_df.filter(F.col("_bad").isNull()).groupBy("subtopic").agg(F.min("_row").alias("_sub"))
        qrels_df = qrels_df.join(firsts, "subtopic", "left")
    names = _names(requested)
    options = {"runs": runs_order, "names": names, "measures": list(measures), "keep_first": skip_bad_lines,
               "opts": opts, "bounds": bounds, "keys": partition_keys(len(bounds) + 1), "queries": queries,
               "rows": _needs_rows(requested, skip_bad_lines), "subtopics": subtopics}
    # Each side's input batches packed into blocks (one per run and bucket: a range of query ids) before the
    # shuffle, with only the columns that can hold something; each bucket's blocks in a partition of their own
    # after it, evaluated there.  No sort: the kernel puts a bucket's rows in order, and its segments come out in
    # the order of the ids.
    sides = [(qrels_df, "rel", -1)]
    for (name, _df, _path), df in zip(frames, run_dfs):
        sides.append((df, "score", runs_order.index(name) if name is not None else None))
    packed = None
    for (df, value, side), source in zip(sides, sources):
        if source is not None:
            n = len(source.splits)
            one = spark.range(0, n, 1, n).mapInArrow(_parquet_packer(source, options, side), _PACKED_DDL)
            packed = one if packed is None else packed.unionByName(one)
            continue
        cols = [F.col("qid"), F.col("docno"), F.col(value).alias("value")]
        if side is None:
            cols.append((F.array_position(F.array(*[F.lit(n) for n in runs_order]), F.col("run")).cast("int") - 1)
                        .alias("_run"))
        if not _always_null(df, "_bad"):
            cols.append(F.when(F.col("_bad").isNotNull(), F.concat(F.col("_bad"), F.lit("\x00"),
                                                                   F.coalesce(F.col("_line"), F.lit(""))))
                        .alias("_why"))
        if side != -1 and not _always_null(df, "tag"):
            cols.append(F.col("tag"))
        if side == -1 and subtopics:  # their own _row: the join above may have moved the rows
            cols += [F.col("_row"), F.col("subtopic"), F.col("_sub")]
        one = df.select(*cols).mapInArrow(_packer(options, side), _PACKED_DDL)
        packed = one if packed is None else packed.unionByName(one)
    rows = packed.repartition(len(bounds) + 1, "_key").mapInArrow(_block_kernel(options), _OUT_DDL)
    readers = {"qrels": "pyarrow" if sources[0] else "spark" if isinstance(qrels, (str, os.PathLike)) else "dataframe"}
    for (_name, _df, path), found_names, source in zip(frames, frame_runs, sources[1:]):
        for run in found_names:
            readers[run] = "pyarrow" if source else "spark" if path is not None else "dataframe"
    return SparkEvaluation(spark, rows, requested, names, runs_order, opts["complete"], policy=policy,
                           readers=readers)


def evaluate_variants_spark(qrels, runs, *, k: int | None = None, variants: Sequence[Variant] | None = None,
                            log_base: float = 2, relevance_level: float | None = None, missing: str = "skip",
                            spark=None, qrels_columns: Mapping[str, str] | None = None,
                            run_columns: Mapping[str, str] | None = None, buckets: int | None = None,
                            skip_bad_lines: bool = False, limits: Limits | None = None,
                            reader: str = "auto") -> Evaluation:
    """The NDCG variants table on Spark: :func:`metrics.runfiles.batch.evaluate`'s :class:`Evaluation`, the
    same values bit for bit (each variant is the ``nDCG(...)`` measure :func:`evaluate_spark` computes).

    Parameters
    ----------
    qrels, runs
        As for :func:`evaluate_spark` (DataFrames or paths Spark reads).
    k, variants, log_base, relevance_level, missing
        As for :func:`metrics.runfiles.batch.evaluate`: the cutoff (None: the whole list and pool), the
        variants (default: :func:`metrics.runfiles.batch.make_variants`' 24), the logarithm's base, grades below
        ``relevance_level`` counting 0, and what a qrels query a run did not answer counts as ("skip" or "zero").
    spark, qrels_columns, run_columns, buckets, skip_bad_lines, limits, reader
        As for :func:`evaluate_spark`.

    Returns
    -------
    metrics.runfiles.batch.Evaluation
        On the driver: ``values[run, variant, query]`` over every qrels query, ``means()``,
        ``per_query()``, ``orders()``, ``tau()``; ``problems`` (queries on one side only, lines skipped).

    Raises
    ------
    ValueError
        For an invalid option (named, before Spark is touched) or input :func:`evaluate_spark` refuses.

    Examples
    --------
    Options are checked first (no session needed):

    >>> evaluate_variants_spark("qrels.txt", "bm25.run", missing="drop")
    Traceback (most recent call last):
    ...
    ValueError: unknown missing 'drop'; valid names are 'skip', 'zero'

    With a session (not run here: it starts a JVM)::

        ev = evaluate_variants_spark("qrels.txt", ["bm25.run", "dense.run"], k=10, spark=spark_session())
        ev.means()                 # run x variant, as on one machine
    """
    k, base, level, variants = variant_options(k=k, log_base=log_base, relevance_level=relevance_level,
                                               missing=missing, variants=variants)
    # each variant as the measure batch.evaluate asks the engine for, by its spec (Variant.format())
    specs = [v.with_(k=k, log_base=base, level=level).format() for v in variants]
    ev = _evaluate_spark(qrels, runs, specs, spark=spark, relevance_level=1, complete=False, judged_only=False,
                         max_docs=None, num_docs_in_coll=0, err_gmax=None, qrels_columns=qrels_columns,
                         run_columns=run_columns, buckets=buckets, skip_bad_lines=skip_bad_lines, limits=limits,
                         policy=missing, queries=True, reader=reader)
    result = ev.result()
    n = len(result.queries)
    values = np.full((len(ev.runs), len(variants), n), np.nan)
    present = np.zeros((len(ev.runs), n), dtype=bool)
    for r, rv in enumerate(result.runs):
        present[r] = rv.present
        for j, spec in enumerate(specs):
            values[r, j] = np.where(rv.present, rv.values[spec], np.nan)
    table = [Variant(gain=v.gain, discount=v.discount, idcg=v.idcg, ties=v.ties) for v in variants]  # as .of
    return Evaluation(result.queries, list(ev.runs), table, values, present, missing, k, list(result.problems),
                      result)


def bucket_kernel(measures: Sequence[str] = ("official",), *, runs: Sequence[str] = ("run",),
                  relevance_level: int = 1, complete: bool = False, judged_only: bool = False,
                  max_docs: int | None = None, num_docs_in_coll: int = 0, err_gmax: float | None = None,
                  skip_bad_lines: bool = False):
    """The function :func:`evaluate_spark` has Spark call on each bucket, to call without Spark.

    For measuring the kernel on its own (``benchmarks/spark_kernel.py``: its share of a Spark job) or
    for grouping rows by query some other way.  It takes one bucket's run rows and qrels rows as Arrow
    tables -- every row of a query on both sides -- and returns one row per query each run answered
    (``run``, ``qid``, the note columns null, the values in ``m0, m1, ...`` in the order of the measures'
    printed names), then the bucket's notes (rows whose ``note`` is set: qrels counts, tags, problems).

    Parameters
    ----------
    measures : sequence of str, default ("official",)
        trec_eval ``-m`` arguments, as for :func:`evaluate_spark`.
    runs : sequence of str, default ("run",)
        The runs' names; a run row's ``_run`` column is its place in this list.
    relevance_level, complete, judged_only, max_docs, num_docs_in_coll, err_gmax, skip_bad_lines
        As for :func:`evaluate_spark`.  ``err_gmax`` None: ERR's highest grade is the bucket's own
        (:func:`evaluate_spark` passes the whole qrels' highest).

    Returns
    -------
    callable
        ``kernel(run_rows, qrels_rows) -> pyarrow.Table``; ``kernel.names`` lists the printed name of
        each value column (``m0`` is ``kernel.names[0]``, ...).  Run rows: ``_run`` (int32), ``qid``,
        ``docno``, ``score``, ``tag``, ``_row`` (file order), ``_bad``, ``_line``; qrels rows: ``qid``,
        ``docno``, ``rel``, ``_row``, ``_bad``, ``_line`` (``_bad``, ``_line`` and ``tag`` may be null).

    Raises
    ------
    ValueError
        For a bad measure or option, naming it; for empty ``runs``.

    Examples
    --------
    One query, two documents retrieved, the first relevant: AP = 1/1 = 1, P@5 = 1/5 = 0.2.

    >>> import pyarrow as pa
    >>> kernel = bucket_kernel(["map", "P.5"])
    >>> nulls = lambda n: pa.nulls(n, pa.string())
    >>> run = pa.table({"_run": pa.array([0, 0], pa.int32()), "qid": ["q1", "q1"], "docno": ["a", "b"],
    ...                 "score": [2.0, 1.0], "tag": nulls(2), "_row": [0, 1], "_bad": nulls(2), "_line": nulls(2)})
    >>> qrels = pa.table({"qid": ["q1"], "docno": ["a"], "rel": [1.0], "_row": [0], "_bad": nulls(1),
    ...                   "_line": nulls(1)})
    >>> out = kernel(run, qrels)
    >>> values = out.filter(pa.compute.is_null(out.column("note")))
    >>> kernel.names
    ['map', 'P_5']
    >>> values.select(["run", "qid", "m0", "m1"]).to_pylist()
    [{'run': 'run', 'qid': 'q1', 'm0': 1.0, 'm1': 0.2}]
    """
    requested = parse_measures(measures)
    opts = check_options(relevance_level=relevance_level, judged_only=judged_only, max_docs=max_docs,
                         num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax, complete=complete)
    skip_bad_lines = check_flag(skip_bad_lines, name="skip_bad_lines")
    if isinstance(runs, str) or not isinstance(runs, Sequence) or not runs \
            or not all(isinstance(r, str) and r for r in runs):
        raise ValueError(f"runs must be a non-empty list of run names (non-empty strings), got {runs!r}")
    names = _names(requested)
    kernel = _kernel({"runs": list(runs), "names": names, "measures": list(measures),
                      "keep_first": skip_bad_lines, "opts": opts})
    kernel.names = [name for name, _kind in names]
    return kernel


def _always_null(df, column: str) -> bool:
    """True when Spark's optimizer folds the column to a null literal (a column a source does not have): it
    need not travel.  False whenever that cannot be told from the plan (then it travels)."""
    try:
        plan = df.select(column)._jdf.queryExecution().optimizedPlan()
        child = plan.expressions().head().child()
        return bool(child.foldable()) and child.eval(None) is None
    except Exception:  # noqa: BLE001 - another plan shape: keep the column
        return False


def _kernel_columns(df, kind: str):
    """The columns the kernel takes, with ``_row`` (file or DataFrame order), ``_bad`` and ``_line``."""
    from pyspark.sql import functions as F

    if "_row" not in df.columns:  # the DataFrame's own order (the stable and ranx tie rules keep it)
        df = df.withColumn("_row", F.monotonically_increasing_id())
    for col in ("_bad", "_line") + (("tag",) if kind == "run" else ()):
        if col not in df.columns:
            df = df.withColumn(col, F.lit(None).cast("string"))
    cols = ["run", "qid", "docno", "score", "tag"] if kind == "run" else ["qid", "docno", "rel"]
    if kind == "qrels" and "subtopic" in df.columns:
        cols.insert(1, "subtopic")
    return df.select(*cols, "_row", "_bad", "_line")


#: Query ids sampled from the qrels to cut the ids into buckets (ranges in byte order): at least this many, and
#: 100 a bucket.
BOUNDS_SAMPLE = 20_000


def _bounds(qrels_df, buckets: int) -> list[str]:
    """At most ``buckets - 1`` distinct query ids in byte order that cut the qrels' ids into ranges of about as
    many queries each (from a sample of the qrels' rows; one Spark job).  Any bounds give the same values:
    they only balance the buckets."""
    from pyspark.sql import functions as F

    if buckets <= 1:
        return []
    want = max(BOUNDS_SAMPLE, 100 * buckets)
    ids = qrels_df.select("qid").filter(F.col("qid").isNotNull())
    estimate = _estimated_rows(qrels_df)
    fraction = min(1.0, 2.0 * want / max(estimate, 1))
    sample = ids if fraction >= 1.0 else ids.sample(fraction=fraction, seed=0)
    got = _collect(sample.limit(20 * want)).column("qid")
    if len(got) < want // 4 and fraction < 1.0:  # the estimate was far too high: sample by the count
        fraction = min(1.0, 2.0 * want / max(ids.count(), 1))
        got = _collect(ids.sample(fraction=fraction, seed=0).limit(20 * want)).column("qid")
    return _cuts(got.combine_chunks().cast(pa.string()), buckets)


def _cuts(ids: pa.Array, buckets: int) -> list[str]:
    """At most ``buckets - 1`` distinct ids of a sample, in byte order, that cut it into about equal ranges."""
    unique = pc.unique(ids)
    unique = unique.take(pc.array_sort_indices(unique)).to_pylist()
    if not unique:
        return []
    cuts = [unique[(i * len(unique)) // buckets] for i in range(1, buckets)]
    return sorted(set(cuts), key=lambda q: q.encode("utf-8"))


def _parquet_bounds(source: _ParquetSource, buckets: int) -> list[str]:
    """:func:`_bounds` of a Parquet file the workers read: the sample (every k-th query id, about twice
    :data:`BOUNDS_SAMPLE` of them) read on the driver with pyarrow, the query id column only -- no Spark job."""
    import pyarrow.parquet as pq

    if buckets <= 1:
        return []
    want = max(BOUNDS_SAMPLE, 100 * buckets)
    parts = [(path, groups) for split in source.splits for path, groups in split]
    total = 0
    for path, groups in parts:
        meta = pq.ParquetFile(path).metadata
        total += sum(meta.row_group(g).num_rows for g in groups)
    step, seen, picked = max(1, total // (2 * want)), 0, []
    for path, groups in parts:
        with pq.ParquetFile(path) as fh:
            for batch in fh.iter_batches(batch_size=ARROW_BATCH_ROWS, row_groups=list(groups), columns=[source.qid]):
                ids = _id_text(batch.column(0))
                first = (-seen) % step
                picked.append(ids.take(pa.array(np.arange(first, len(ids), step))).drop_null())
                seen += len(ids)
    return _cuts(pa.concat_arrays(picked) if picked else pa.array([], pa.string()), buckets)


def _estimated_rows(df) -> int:
    """Rows to expect, from Spark's size estimate of the plan (no job): bytes / 16, generous on purpose (more
    buckets, each smaller)."""
    try:
        size = int(df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes().toString())
    except Exception:  # noqa: BLE001 - an estimate only: a plan without statistics counts instead
        return int(df.count())
    return max(1, size // 16)
