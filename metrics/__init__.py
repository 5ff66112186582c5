"""Ranking-evaluation metrics, exact and explained.  Pure numpy/pandas: never imports streamlit.

Cut by family:

* the teaching core, in this folder: ``registry`` (every gain, discount and tie rule, with its name,
  LaTeX and help), ``ndcg`` (CG, DCG, IDCG, NDCG, the per-position breakdown, every variant),
  ``parse`` (grades and numbers as people type them) and the shared validation;
* ``metrics.other``: the documents' other metrics (top-N lists, rating error, ROC/AUC);
* ``metrics.lessons``: worked examples, library conventions, diagnosis of hand calculations, exercises;
* ``metrics.runfiles``: the many-query engine for TREC qrels and run files (needs pyarrow; numba for
  files of a million lines), imported on demand; command line ``python -m metrics.runfiles``.

Everything public in the first three is re-exported here.

>>> import metrics
>>> round(metrics.ndcg([3, 2, 1, 3, 2], discount="jarvelin"), 4)
0.9194
"""
from . import lessons, ndcg, other, parse, registry

# Captured before the star imports: afterwards ``ndcg`` is the function, not the module.
_MODULES = (lessons, ndcg, other, parse, registry)
from .lessons import *  # noqa: F401,F403
from .ndcg import *  # noqa: F401,F403
from .other import *  # noqa: F401,F403
from .parse import *  # noqa: F401,F403
from .registry import *  # noqa: F401,F403

__all__ = sorted({name for module in _MODULES for name in module.__all__})
