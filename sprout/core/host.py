"""Host values of recorded tensors: NumPy arrays / lists handed out while a gradient tape holds the tensor remember
it, so a tensor rebuilt from them (``Tensor(x.asnumpy() * 2)``) is caught when a gradient would have to pass."""
from __future__ import annotations

from typing import Any

import numpy as np


class HostArray(np.ndarray):
    """A view of a recorded tensor's buffer (``asnumpy()`` / ``numpy()`` under a tape); NumPy results computed
    from it keep ``host_source`` (elementwise ops, reductions, reshapes)."""

    host_source: Any = None
    host_how: str = ""

    def __array_finalize__(self, obj) -> None:
        if obj is not None:
            self.host_source = getattr(obj, "host_source", None)
            self.host_how = getattr(obj, "host_how", "")


class HostList(list):
    """``tolist()`` of a recorded tensor."""

    host_source: Any = None
    host_how: str = ""


def hand_out(t, value, how: str, tapes) -> Any:
    """``value`` (``t``'s array or list) marked with its source when a tape holds ``t``; tapes note the escape."""
    live = [tape for tape in tapes if tape.is_live(t) and not _stopped(tape, t)]
    if not live:
        return value
    for tape in live:
        tape.escapes.append(how)
    out = value.view(HostArray) if isinstance(value, np.ndarray) else HostList(value)
    out.host_source, out.host_how = t, how
    return out


def _stopped(tape, t) -> bool:
    """``t`` is ``ops.stop_gradient``'s output (recorded, but no gradient passes it: its host value is a constant)."""
    for rec in reversed(tape.records):
        if rec[3] is t:
            return rec[0].name == "StopGradient"
    return False


def source_of(data) -> tuple:
    """``(tensor, how)`` when ``data`` (a Tensor's input) came from a recorded tensor through the host, else None."""
    src = getattr(data, "host_source", None)
    if src is None and isinstance(data, (list, tuple)):
        for x in data:
            found = source_of(x)
            if found is not None:
                return found
        return None
    return None if src is None else (src, data.host_how)


class HostGradientError(RuntimeError):
    """A gradient had to pass through NumPy (``autodiff.api`` names the differentiated function)."""

    def __init__(self, how: str):
        super().__init__(f"a gradient must pass through a tensor computed from the differentiated inputs that left "
                         f"for NumPy ({how}) and came back as a new Tensor; gradients do not flow through NumPy. "
                         "Compute it with sprout ops, or make it a constant with ops.stop_gradient before it leaves.")
        self.how = how


def no_gradient(how: str):
    """The backward of a tensor rebuilt from a host value: reached only when the gradient needs that path."""

    def vjp(args, out, dout):
        raise HostGradientError(how)

    return vjp
