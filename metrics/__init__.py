"""Ranking-evaluation metrics, exact and explained.  Pure numpy/pandas: never imports streamlit.

The NDCG family (``cg, dcg, idcg, ndcg, ndcg_from_scores, breakdown, all_variants``) and the
registries of gains, discounts and tie rules are the core; the documents' other metrics
(top-N, rating, ROC), their worked examples, the library conventions, the diagnosis engine and the
practice exercises are re-exported from their modules (each module's ``__all__``).  Run files are
evaluated by the submodules ``metrics.runs``, ``metrics.batch`` and ``metrics.evaluate`` (CLI:
``python -m metrics.evaluate QRELS RUN``), imported on demand.

>>> import metrics
>>> round(metrics.ndcg([3, 2, 1, 3, 2], discount="jarvelin"), 4)
0.9194
"""
from . import diagnose, examples, exercises, libraries, ndcg, parse, rating, registry, roc, topn

# Captured before the star imports: afterwards the name ``ndcg`` is the function, not the module.
_MODULES = (diagnose, examples, exercises, libraries, ndcg, parse, rating, registry, roc, topn)
from .diagnose import *  # noqa: F401,F403
from .examples import *  # noqa: F401,F403
from .exercises import *  # noqa: F401,F403
from .libraries import *  # noqa: F401,F403
from .ndcg import *  # noqa: F401,F403
from .parse import *  # noqa: F401,F403
from .rating import *  # noqa: F401,F403
from .registry import *  # noqa: F401,F403
from .roc import *  # noqa: F401,F403
from .topn import *  # noqa: F401,F403

# Two modules name a class Variant (a library's variant, a diagnosed formula): keep both qualified.
del Variant  # noqa: F821

__all__ = sorted({name for module in _MODULES for name in module.__all__} - {"Variant"})
