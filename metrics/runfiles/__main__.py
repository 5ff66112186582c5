"""``python -m metrics.runfiles QRELS RUN...``: see :mod:`metrics.runfiles.cli`."""
import sys

from .cli import run_as_script

sys.exit(run_as_script())
