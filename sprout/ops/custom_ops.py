"""``ops.Custom`` with ``func_type="pyfunc"``: a Python function on NumPy arrays as a primitive (eagerly and as an
effect-free opaque node in graphs, typed by ``out_shape``/``out_dtype``), differentiable through a user ``bprop``.
The compiled kinds (aot, akg, tbe, aicpu, hybrid) need a device compiler sprout does not have: refused by name."""
from __future__ import annotations

import inspect

import numpy as np

from ..core import dispatch
from ..core.dispatch import bind
from ..core.hooks import call_user
from ..core.op import Op, OpError, register
from .. import dtype as mstype
from ..core.tensor import Tensor
from ..core.types import TensorType
from ..dtype import Type as _DType
from ..ir.callop import call_with_bprop
from .primitive import Primitive

_KINDS = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]


class PyKernel:
    """What one ``Custom`` primitive computes (an op attribute: hashed by identity)."""

    def __init__(self, fn, out_shape, out_dtype, bprop, name: str):
        self.fn, self.out_shape, self.out_dtype, self.bprop, self.name = fn, out_shape, out_dtype, bprop, name

    def __repr__(self) -> str:
        return f"<pyfunc {self.name}>"

    def out_types(self, types_in: list) -> tuple:
        """The output types for these input types (``out_shape``/``out_dtype`` values, or callables of the input
        shapes / dtypes); one tuple entry per output."""
        shape = self.out_shape(*[list(t.shape) for t in types_in]) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*[t.dtype for t in types_in]) if callable(self.out_dtype) else self.out_dtype
        multi = isinstance(shape, (tuple, list)) and any(isinstance(s, (tuple, list)) for s in shape)
        shapes = [tuple(s) for s in shape] if multi else [tuple(shape)]
        dtypes = list(dtype) if isinstance(dtype, (tuple, list)) else [dtype]
        if len(dtypes) != len(shapes) or not all(isinstance(d, _DType) for d in dtypes):
            raise OpError(f"Custom '{self.name}': out_shape gives {len(shapes)} output(s) but out_dtype {dtype!r} "
                          "does not give one mindspore dtype per output")
        for s in shapes:  # None (or -1): a dimension not known before the function runs
            if not all(d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= -1)
                       for d in s):
                raise OpError(f"Custom '{self.name}': out_shape must give int dims, got {list(s)}")
        return tuple(TensorType(tuple(None if d is None or d == -1 else int(d) for d in s), d)
                     for s, d in zip(shapes, dtypes))


def _custom_infer(*types_in, kernel=None):
    return kernel.out_types(list(types_in))


def _custom_impl(*arrays, kernel=None):
    want = kernel.out_types([TensorType(np.shape(a), _dtype_of(a)) for a in arrays])
    with np.errstate(all="ignore"):
        out = kernel.fn(*[np.asarray(a) for a in arrays])
    outs = list(out) if isinstance(out, (tuple, list)) and len(want) > 1 else [out]
    got = [np.asarray(o.asnumpy() if isinstance(o, Tensor) else o) for o in outs]
    if len(got) != len(want) or any(g.ndim != len(t.shape) or any(w is not None and w != d for w, d in
                                                                  zip(t.shape, g.shape)) or g.dtype != t.dtype.np
                                    for g, t in zip(got, want)):
        raise RuntimeError(f"For 'Custom', the pyfunc '{kernel.name}' returned "
                           f"{[f'{g.dtype}{list(g.shape)}' for g in got]}, but out_shape/out_dtype say "
                           f"{[str(t) for t in want]}")
    return tuple(got)


def _dtype_of(a):
    from ..core.types import type_of

    return type_of(np.asarray(a)).dtype


def _custom_bprop(*args, kernel=None):
    *inputs, out, dout = args
    if kernel.bprop is None:
        raise RuntimeError(f"For 'Custom', the pyfunc '{kernel.name}' has no bprop, so it cannot be differentiated "
                           "(pass bprop=... to ops.Custom)")
    single = len(out) == 1
    grads = kernel.bprop(*inputs, out[0] if single else tuple(out), dout[0] if single else tuple(dout))
    grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
    if len(grads) != len(inputs):
        raise RuntimeError(f"For 'Custom', the bprop of '{kernel.name}' returned {len(grads)} gradients for "
                           f"{len(inputs)} inputs (one per input is required)")
    return grads


CUSTOM = register(Op("Custom", _custom_impl, _custom_infer, _custom_bprop, kind="opaque", n_out=-1,
                     doc="a Python function on NumPy arrays (func_type='pyfunc'), typed by out_shape/out_dtype"))


class Custom(Primitive):
    """``Custom(func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None)``.

    ``func_type="pyfunc"``: ``func`` takes NumPy arrays and returns arrays of the declared ``out_shape`` (a shape,
    a tuple of shapes, or a callable of the input shapes) and ``out_dtype`` (a dtype, a tuple, or a callable of
    the input dtypes); a RuntimeError when it returns anything else. ``bprop(*inputs, out, dout)`` (sprout ops)
    gives one gradient per input; without it the op is not differentiable (RuntimeError, as in MindSpore).
    Inside ``jit`` it is one opaque node: effect-free, so passes may fold, merge or drop it like any pure op."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        super().__init__()
        where = f"For 'Custom', 'func_type': {func_type}, 'func': {func}"
        if func_type not in _KINDS:
            raise ValueError(f"{where}, 'func_type' must be one of {_KINDS}, but got {func_type}")
        if func_type != "pyfunc":
            raise NotImplementedError(f"{where}: sprout runs only func_type='pyfunc' (a Python function on NumPy "
                                      f"arrays); func_type '{func_type}' needs MindSpore's device kernel compiler")
        if not callable(func):
            raise TypeError(f"{where}, 'func' must be a function, but got {type(func)}")
        for name, value in (("out_shape", out_shape), ("out_dtype", out_dtype)):
            if not (isinstance(value, (tuple, list)) or callable(value) or (name == "out_dtype"
                                                                            and isinstance(value, _DType))):
                raise TypeError(f"{where}, '{name}' must be one of [tuple, list, function], but got {type(value)}")
        if bprop is not None and not callable(bprop):
            raise TypeError(f"{where}, 'bprop' must be a function, but got {type(bprop)}")
        if reg_info is not None:
            raise NotImplementedError(f"{where}: 'reg_info' (kernel registration for device kernels) is not "
                                      "used by func_type='pyfunc'; pass reg_info=None")
        self.func, self.func_type = func, func_type
        self.kernel = PyKernel(func, out_shape, out_dtype, bprop, getattr(func, "__name__", repr(func)))

    def __call__(self, *inputs):
        for k, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'Custom' ('{self.kernel.name}'), input {k} must be a Tensor, but got "
                                f"{type(x).__name__}")
        outs = bind(CUSTOM, tuple(inputs), {"kernel": self.kernel})
        return outs[0] if len(outs) == 1 else tuple(outs)


def _check_morph_fn(fn) -> None:
    for param in inspect.signature(fn).parameters.values():
        if param.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD or param.default is not inspect.Parameter.empty:
            raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional or keyword parameters "
                             f"with default value is empty, but got param '{param.name}' of kind '{param.kind.name}' "
                             f"with default value '{param.default}'.")


class Morph(Primitive):
    """``Morph(fn, infer_shape, infer_dtype, bprop_fn=None)(*inputs)``: ``fn(*inputs)`` (sprout ops) as one
    primitive; only inside a graph (``jit`` / GRAPH_MODE; RuntimeError eagerly, as in MindSpore). ``infer_shape`` /
    ``infer_dtype`` get the input shapes / dtypes and must agree with what ``fn`` returns (ValueError otherwise).
    With ``bprop_fn(*inputs, out, dout)`` every gradient of the graph uses it instead of ``fn``'s derivative."""

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        super().__init__()
        for name, f in (("fn", fn), ("infer_shape", infer_shape), ("infer_dtype", infer_dtype)):
            if not callable(f):
                raise TypeError(f"For 'Morph', '{name}' must be a function, but got {type(f).__name__}")
        if bprop_fn is not None:
            if not callable(bprop_fn):
                raise TypeError(f"For 'Morph', 'bprop_fn' must be a function, but got {type(bprop_fn).__name__}")
            _check_morph_fn(fn)
        self.fn, self._infer_shape, self._infer_dtype, self.bprop_fn = fn, infer_shape, infer_dtype, bprop_fn

    def __call__(self, *args):
        if dispatch.current_builder() is None:
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        name = getattr(self.fn, "__name__", "fn")
        if self.bprop_fn is None:
            out = call_user(self.fn, *args)
        else:
            out, done = call_with_bprop(lambda *a: call_user(self.fn, *a), args, f"Morph.{name}", self._bprop)
            if not done:
                out = call_user(self.fn, *args)
        self._check_infer(args, out, name)
        return out

    def _bprop(self, inputs, out, dout):
        grads = call_user(self.bprop_fn, *inputs, out, dout)
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) != len(inputs):
            raise RuntimeError(f"For 'Morph', bprop_fn returned {len(grads)} gradients for {len(inputs)} inputs "
                               "(one per input is required)")
        return grads

    def _check_infer(self, args, out, name) -> None:
        shapes = [list(a.shape) if isinstance(a, Tensor) else a for a in args]
        dtypes = [a.dtype if isinstance(a, Tensor) else type(a) for a in args]
        want_shape, want_dtype = self._infer_shape(*shapes), self._infer_dtype(*dtypes)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        got_shape = [list(o.shape) if isinstance(o, Tensor) else None for o in outs]
        got_dtype = [o.dtype if isinstance(o, Tensor) else None for o in outs]
        single = not isinstance(out, (tuple, list))
        ok_shape = [list(want_shape)] == got_shape if single else [list(s) for s in want_shape] == got_shape
        ok_dtype = [want_dtype] == got_dtype if single else list(want_dtype) == got_dtype
        if not (ok_shape and ok_dtype):
            raise ValueError(f"For 'Morph' ('{name}'), infer_shape/infer_dtype give {want_shape} / {want_dtype}, "
                             f"but fn returns {got_shape[0] if single else got_shape} / "
                             f"{got_dtype[0] if single else got_dtype}")


# ---- PyFunc -------------------------------------------------------------------------------------------
def _pyfunc_impl(*arrays, kernel=None):
    return _custom_impl(*arrays, kernel=kernel)


PYFUNC = register(Op("PyFunc", _pyfunc_impl, _custom_infer, None, kind="effect", side_effect=True, n_out=-1,
                     doc="a stateful Python function on NumPy arrays, run in program order (ops.PyFunc)"))


def _type_list(name: str, value) -> list:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"For 'PyFunc', the type of '{name}' should be one of '['list', 'tuple']', but got type "
                        f"'{type(value).__name__}'.")
    return list(value)


class PyFunc(Primitive):
    """``PyFunc(fn, in_types, in_shapes, out_types, out_shapes, stateful=True)((x1, x2, ...))``: ``fn`` on the
    inputs' NumPy arrays, returning a tuple of tensors of the declared types. ``stateful=True`` runs it in program
    order and never drops or merges it inside graphs (an io node); ``stateful=False`` is a pure opaque node. No
    declared outputs: the result is one placeholder ``int32[1]`` (zeros). Not differentiable."""

    def __init__(self, fn, in_types, in_shapes, out_types, out_shapes, stateful=True):
        super().__init__()
        if not callable(fn):
            raise TypeError(f"For 'PyFunc', 'fn' must be a function, but got {type(fn).__name__}")
        in_types, in_shapes = _type_list("in_types", in_types), _type_list("in_shapes", in_shapes)
        out_types, out_shapes = _type_list("out_types", out_types), _type_list("out_shapes", out_shapes)
        if len(in_types) != len(in_shapes):
            raise ValueError(f"For 'PyFunc', 'in_types length' must be equal to 'in_shapes length' "
                             f"({len(in_shapes)}), but got {len(in_types)}.")
        if len(out_types) != len(out_shapes):
            raise ValueError(f"For 'PyFunc', 'out_types length' must be equal to 'out_shapes length' "
                             f"({len(out_shapes)}), but got {len(out_types)}.")
        self.fn, self.stateful = fn, bool(stateful)
        self.in_sig = [(tuple(s), t) for s, t in zip(in_shapes, in_types)]
        self.placeholder = not out_types
        fn_run = _placeholder_output(fn) if self.placeholder else fn
        shapes = [(1,)] if self.placeholder else [tuple(s) for s in out_shapes]
        dtypes = [mstype.int32] if self.placeholder else out_types
        self.kernel = PyKernel(fn_run, shapes if len(shapes) > 1 else shapes[0],
                               dtypes if len(dtypes) > 1 else dtypes[0], None,
                               getattr(fn, "__name__", repr(fn)))

    def __call__(self, input_x):
        inputs = tuple(input_x) if isinstance(input_x, (tuple, list)) else (input_x,)
        if len(inputs) != len(self.in_sig):
            raise TypeError(f"For 'PyFunc', '{self.kernel.name}' declares {len(self.in_sig)} inputs, but got "
                            f"{len(inputs)}")
        for k, (x, (shape, dtype)) in enumerate(zip(inputs, self.in_sig)):
            if not isinstance(x, Tensor) or tuple(x.shape) != shape or x.dtype != dtype:
                got = f"{x.dtype}{list(x.shape)}" if isinstance(x, Tensor) else type(x).__name__
                raise TypeError(f"For 'PyFunc', input {k} of '{self.kernel.name}' is {got}, but in_types/in_shapes "
                                f"declare {dtype}{list(shape)}")
        return tuple(bind(PYFUNC if self.stateful else CUSTOM, inputs, {"kernel": self.kernel}))


def _placeholder_output(fn):
    def run(*arrays):
        fn(*arrays)
        return np.zeros((1,), np.int32)

    run.__name__ = getattr(fn, "__name__", "fn")
    return run


__all__ = ["Custom", "Morph", "PyFunc"]
