"""The command line for spark-submit::

    spark-submit [--master URL ...] scripts/spark_eval.py --spark URL -m ... QRELS RUN...

spark-submit runs a Python file, not a module; this file runs ``python -m metrics.runfiles`` (trec_eval's
options and output) from this checkout.  Under spark-submit its ``--master`` (and ``--conf``, ``--py-files``)
are in force and the ``metrics`` package is shipped to the workers as a zip; ``--spark`` still says that the
files are read and evaluated by Spark.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from metrics.runfiles.cli import run_as_script  # noqa: E402  (after the checkout is on the path)

if __name__ == "__main__":
    sys.exit(run_as_script())
