"""The documents' other metrics: top-N lists (precision, recall, F1, AP/MAP, HR, ARHR, MRR),
rating error (RMSE, MAE) and ROC/AUC."""
from . import rating, roc, topn

_MODULES = (rating, roc, topn)
from .rating import *  # noqa: F401,F403
from .roc import *  # noqa: F401,F403
from .topn import *  # noqa: F401,F403

__all__ = [name for module in _MODULES for name in module.__all__]
