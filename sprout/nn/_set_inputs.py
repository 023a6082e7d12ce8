"""GRAPH_MODE check of a Cell's call against the inputs declared by ``Cell.set_inputs`` (MindSpore's messages)."""
from __future__ import annotations

from ..core import placeholder
from ..core.tensor import Tensor


def check(declared: tuple, args: tuple) -> None:
    """TypeError for another dtype, ValueError for another rank or another static dim (1-based input numbers)."""
    for i, (want, got) in enumerate(zip(declared, args), 1):
        if not (isinstance(want, Tensor) and isinstance(got, Tensor)):
            continue
        mismatch = placeholder.accepts(want, got)
        if mismatch is None:
            continue
        what, expected, actual = mismatch
        if what == "type":
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i}th type should be {expected}, "
                            f"but got {actual}!")
        raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the {what} of {i}th input must be the same "
                         f"as expected, but got expected: {expected}, and input: {actual}!")
