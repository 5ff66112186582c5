"""One real local Spark session (``local[2]``) for every Spark test of the session: starting one costs 7-10 s
idle (and far more on a loaded machine).  Without Java the fixture errors: Spark tests fail, never skip."""
from __future__ import annotations

import warnings

import pytest

#: The JVMs the tests start (the shared session's driver, spark-submit's) compile with the client compiler only
#: and collect with one thread: their jobs are small and short, and on two cores the full JIT's and the
#: parallel collector's threads took CPU from the other test worker.  Measured, the Spark tests without
#: spark-submit: 62.6 CPU-s and 40.1 s before, 35.4 CPU-s and 32.6 s after; spark-submit's test: 16.1 CPU-s
#: and 10.6 s before, 11.0 CPU-s and 9.5 s after.  Only the tests: the app and the command line leave the
#: JVM's defaults alone.
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


@pytest.fixture(scope="session")
def spark():
    # pyspark 4.3 warns that pandas 3 is not fully supported; metrics.runfiles.spark moves data as Arrow only.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from metrics.runfiles.spark import spark_session

    session = spark_session("local[2]", app_name="ndcg-lab-tests", config={
        "spark.sql.shuffle.partitions": "4", "spark.default.parallelism": "2",
        "spark.driver.extraJavaOptions": JVM_OPTIONS})
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
