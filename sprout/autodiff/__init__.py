"""Reverse-mode autodiff: the eager tape, graph-level splitting into forward+residuals / backward, the
gradient rules of the graph ops (control.py) and the grad / value_and_grad / GradOperation API."""
from . import control  # noqa: F401  (attaches Cond / WhileLoop / GraphCall's residual vjps)
