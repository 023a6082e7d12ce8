"""Host interaction inside graphs: Print (prints run-time values when the graph runs) and PyCall
(a Python function called on NumPy values inside a graph, the LAX-syntax fallback)."""
from __future__ import annotations

import builtins

import numpy as np

from .. import dtype as mstype
from ..core.pytree import flatten, unflatten
from ..core import dispatch
from ..core.dispatch import bind
from ..core.op import Op, register
from ..core.tensor import Tensor
from ..core.types import TensorType, type_of

_NUMBERS = (bool, int, float, np.bool_, np.integer, np.floating)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _flat(tree) -> list:
    out: list = []
    flatten(tree, out, _is_tensor)
    return out


def is_symbolic(x) -> bool:
    from ..ir.builder import Tracer

    return isinstance(x, Tracer)


# ---- Print ----------------------------------------------------------------------------------------
def _print_impl(template, *arrays):
    parts = []
    for item in template:
        if item[0] == "s":
            parts.append(item[1])
        else:
            t = Tensor(np.asarray(arrays[item[1]]))
            parts.append(repr(t) if item[2] == "repr" else str(t))
    builtins.print("".join(parts), end="", flush=True)
    return np.zeros((), np.int32)


PRINT = register(Op("Print", _print_impl, lambda template, *types: TensorType((), mstype.int32),
                    kind="effect", side_effect=True, doc="print the inputs when the graph runs"))


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """``print`` that, while a graph is built, becomes a Print node (tensors print their run-time value)."""
    if dispatch.current_builder() is None or file is not None:
        return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
    frags: list = []
    tensors: list = []

    def emit(x, top: bool):
        if isinstance(x, Tensor):
            tensors.append(x)
            frags.append(("t", len(tensors) - 1, "str" if top else "repr"))
        elif isinstance(x, (tuple, list)) and any(isinstance(v, Tensor) for v in _flat(x)):
            frags.append(("s", "(" if isinstance(x, tuple) else "["))
            for j, v in enumerate(x):
                if j:
                    frags.append(("s", ", "))
                emit(v, False)
            frags.append(("s", ("," if isinstance(x, tuple) and len(x) == 1 else "")
                          + (")" if isinstance(x, tuple) else "]")))
        else:
            frags.append(("s", str(x) if top else repr(x)))

    for j, a in enumerate(args):
        if j:
            frags.append(("s", sep))
        emit(a, True)
    frags.append(("s", end))
    # the template (("s", text) | ("t", input index, "str" | "repr") fragments) goes first: a
    # side-effect op's first input must not be a tensor (the builder would treat it as updated)
    bind(PRINT, (tuple(frags), *tensors), {})
    return None


# ---- PyCall ---------------------------------------------------------------------------------------
class PyFunc:
    """A Python function called inside a graph on NumPy values (jit_syntax_level=LAX fallback)."""

    def __init__(self, fn, in_spec):
        self.fn, self.in_spec = fn, in_spec
        self.out_spec = None
        self.out_types: tuple = ()

    def __repr__(self) -> str:
        return f"PyFunc({getattr(self.fn, '__qualname__', self.fn)!r})"

    def run(self, arrays):
        args, kwargs = unflatten(self.in_spec, list(arrays))
        with np.errstate(all="ignore"):
            return self.fn(*args, **kwargs)


def _pycall_impl(func: PyFunc, *arrays):
    out = func.run(arrays)
    leaves: list = []
    flatten(out, leaves, lambda x: isinstance(x, (np.ndarray, np.generic) + _NUMBERS))
    return tuple(np.asarray(x) for x in leaves)


PYCALL = register(Op("PyCall", _pycall_impl, lambda func, *types: func.out_types, kind="opaque", n_out=-1,
                     side_effect=True, doc="call a Python function on NumPy values when the graph runs"))


def py_call(fn, args: tuple, kwargs: dict):
    """Call ``fn`` now if no argument is symbolic, else add a PyCall node (its output types come from
    one call on zero-filled arrays of the input types while the graph is built)."""
    leaves: list = []
    spec = flatten((tuple(args), dict(kwargs)), leaves, _is_tensor)
    if not any(is_symbolic(x) for x in leaves):
        return fn(*args, **kwargs)
    func = PyFunc(fn, spec)
    probe = [np.zeros(tuple(1 if d is None else d for d in x.shape), x.dtype.np) for x in leaves]
    with dispatch.no_builder():
        out = func.run(probe)
    out_leaves: list = []
    func.out_spec = flatten(out, out_leaves, lambda x: isinstance(x, (np.ndarray, np.generic) + _NUMBERS))
    func.out_types = tuple(type_of(np.asarray(x)) for x in out_leaves)
    outs = bind(PYCALL, (func, *leaves), {})
    return unflatten(func.out_spec, list(outs))
