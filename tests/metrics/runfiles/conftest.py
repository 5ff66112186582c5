"""One real local Spark session (``local[2]``) for every Spark test of the session: starting one costs 7-10 s
idle (and far more on a loaded machine).  Without Java the fixture errors: Spark tests fail, never skip."""
from __future__ import annotations

import warnings

import pytest


@pytest.fixture(scope="session")
def spark():
    # pyspark 4.3 warns that pandas 3 is not fully supported; metrics.runfiles.spark moves data as Arrow only.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from metrics.runfiles.spark import spark_session

    session = spark_session("local[2]", app_name="ndcg-lab-tests", config={
        "spark.sql.shuffle.partitions": "4", "spark.default.parallelism": "2"})
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
