"""Host interaction inside graphs: Print (prints run-time values when the graph runs) and PyCall
(a Python function called on run-time values inside a graph)."""
from __future__ import annotations

import builtins

import numpy as np

from .. import dtype as mstype
from ..core.pytree import flatten, unflatten
from ..core import dispatch
from ..core.dispatch import bind
from ..core.errors import JitTypeError
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
            if item[2] in _KINDS:  # a variable scalar prints as the Python number it stands for
                parts.append(repr(_KINDS[item[2]](np.asarray(arrays[item[1]]).item())))
                continue
            t = Tensor(np.asarray(arrays[item[1]]))
            parts.append(repr(t) if item[2] == "repr" else str(t))
    builtins.print("".join(parts), end="", flush=True)
    return np.zeros((), np.int32)


_KINDS = {"float": float, "int": int, "bool": bool}

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
            kind = getattr(x, "py_kind", None)  # a traced Python scalar (sprout.ir.scalars)
            frags.append(("t", len(tensors) - 1, kind.__name__ if kind else "str" if top else "repr"))
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
def _is_out_leaf(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic, Tensor) + _NUMBERS)


class PyFunc:
    """A Python function called inside a graph: it receives Tensors (as eagerly) and returns tensors,
    arrays or numbers (nested in tuples/lists/dicts), which become the PyCall node's outputs."""

    def __init__(self, fn, in_spec):
        self.fn, self.in_spec = fn, in_spec
        self.out_spec = None
        self.out_types: tuple = ()

    def __repr__(self) -> str:
        return f"PyFunc({getattr(self.fn, '__qualname__', self.fn)!r})"

    def run(self, arrays) -> tuple[object, list]:
        """Call the function on these input arrays; (output structure, output arrays)."""
        args, kwargs = unflatten(self.in_spec, [Tensor(np.asarray(a)) for a in arrays])
        with np.errstate(all="ignore"), dispatch.no_builder():
            out = self.fn(*args, **kwargs)
        leaves: list = []
        spec = flatten(out, leaves, _is_out_leaf)
        _check_constants(self, spec)
        return spec, [x.asnumpy() if isinstance(x, Tensor) else np.asarray(x) for x in leaves]


def _check_constants(func: PyFunc, spec) -> None:
    """Anything in the result other than tensors/arrays/numbers and None would be fixed at its build-time
    value (computed from placeholder inputs): a wrong result later, so refused."""
    if spec.__class__ is not tuple:
        return
    if spec[0] == "const":
        if spec[1] is not None:
            raise JitTypeError(f"py_call: {func!r} returned a {type(spec[1]).__name__}; a Python function called "
                               "inside a graph must return tensors, arrays or numbers (or tuples/lists/dicts of "
                               "them)", None, "return the value as a tensor, or call the function outside the jit")
        return
    for item in spec[2]:
        _check_constants(func, item[1] if spec[0] == "dict" else item)


def _pycall_impl(func: PyFunc, *arrays):
    _, outs = func.run(arrays)
    want = func.out_types
    if len(outs) != len(want) or any(o.dtype != t.dtype.np or o.ndim != len(t.shape) for o, t in zip(outs, want)):
        got = [f"{o.dtype}{list(o.shape)}" for o in outs]
        raise RuntimeError(f"PyCall: {func!r} returned {got} when the graph ran, but "
                           f"{[str(t) for t in want]} when it was built (the output kinds must not depend on "
                           "the input values)")
    return tuple(outs)


PYCALL = register(Op("PyCall", _pycall_impl, lambda func, *types: func.out_types, kind="opaque", n_out=-1,
                     side_effect=True, doc="call a Python function on the run-time values when the graph runs"))


def py_call(fn, args: tuple, kwargs: dict):
    """Call ``fn`` now if no argument is symbolic, else add a PyCall node (its output types come from
    one call on zero-filled arrays of the input types while the graph is built)."""
    leaves: list = []
    spec = flatten((tuple(args), dict(kwargs)), leaves, _is_tensor)
    if not any(is_symbolic(x) for x in leaves):
        return fn(*args, **kwargs)
    func = PyFunc(fn, spec)
    probe = [np.zeros(tuple(1 if d is None else d for d in x.shape), x.dtype.np) for x in leaves]
    func.out_spec, out_leaves = func.run(probe)
    func.out_types = tuple(type_of(x) for x in out_leaves)
    outs = bind(PYCALL, (func, *leaves), {})
    return unflatten(func.out_spec, list(outs))
