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
import importlib

# The teaching core is imported at once; ``lessons`` and ``other`` (and pandas, which only their tables
# and the variant tables need) when first used: the playground's first number needs neither
# (PEP 562 ``__getattr__`` below).  Names resolve as the star imports did: no public name is defined twice.
from . import ndcg, parse, registry

# Captured before the star imports: afterwards ``ndcg`` is the function, not the module.
_EAGER = (ndcg, parse, registry)
_LAZY = ("other", "lessons")
# Where the lazy names live (``lessons.diagnose`` is a module and a function: the function is meant).
_LAZY_MODULES = ("other", "lessons.diagnose", "lessons.examples", "lessons.exercises", "lessons.libraries",
                 "lessons.match")
from .ndcg import *  # noqa: F401,F403
from .parse import *  # noqa: F401,F403
from .registry import *  # noqa: F401,F403


def __getattr__(name: str):
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "__all__":
        names = {n for module in _EAGER for n in module.__all__}
        names.update(n for sub in _LAZY_MODULES for n in importlib.import_module(f"{__name__}.{sub}").__all__)
        globals()["__all__"] = sorted(names)
        return globals()["__all__"]
    if not name.startswith("_"):
        for sub in _LAZY_MODULES:
            module = importlib.import_module(f"{__name__}.{sub}")
            if name in module.__all__:
                value = globals()[name] = getattr(module, name)
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__getattr__("__all__")))
