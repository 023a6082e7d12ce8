"""``mindspore.recompute(block, *args)``: run a block whose activations MindSpore would recompute in the backward.

Recomputation trades memory for time and leaves values and gradients unchanged; sprout keeps every activation the
backward needs, so running the block once is the whole of it (``Cell.recompute()`` is the same mark on a Cell).
"""
from __future__ import annotations

from .cell import Cell


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
    """Call ``block(*args, **kwargs)``. As in MindSpore, ``block`` must be a Cell when ``use_reentrant`` is True."""
    if use_reentrant and not isinstance(block, Cell):
        raise TypeError("Recompute function now only support block which inherited from Cell when use_reentrant=True!")
    if not callable(block):
        raise TypeError(f"recompute: 'block' must be callable, got {type(block).__name__}")
    if context_fn is not None and not callable(context_fn):
        raise TypeError(f"recompute: 'context_fn' must be callable, got {type(context_fn).__name__}")
    return block(*args, **kwargs)
