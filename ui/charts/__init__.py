"""Altair charts, one module per family: ``ndcg`` (playground, variants, worked examples), ``other``
(top-N, rating, ROC), ``runfiles``, ``significance``, ``present``, ``classroom``.  Pages never build
charts themselves; they call these and draw the result."""
from .ndcg import discount_curves_chart, discount_curves_data, discounted_gain_chart, gains_long, running_chart

__all__ = ["discount_curves_chart", "discount_curves_data", "discounted_gain_chart", "gains_long", "running_chart"]
