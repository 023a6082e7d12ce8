"""The op-table harness: a ``Case`` names a registered primitive, a sprout callable that reaches it,
input specs, and a NumPy reference (or a property check). ``test_op_table.py`` runs every case's
forward (against the reference, in every mode), its infer rule (against the eager result) and its
backward (against central finite differences on float64 inputs)."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import numpy as np

import sprout as ms
from sprout.core.op import REGISTRY
from sprout.core.types import TensorType, type_of


# ---- input specs: each is called with a seeded Generator and returns the NumPy input ---------------
@dataclass(frozen=True)
class Spec:
    make: Callable[[np.random.Generator], Any]
    tensor: bool = True  # False: passed to the callable as a plain Python/NumPy value
    label: str = ""
    param: bool = False  # passed as an ms.Parameter (state that ops update in place)

    def __call__(self, rng):
        return self.make(rng)


def F64(*shape, lo=-2.0, hi=2.0, dtype=np.float64) -> Spec:
    """Uniform floats, kept at least 0.1 away from 0 (no kinks of abs/relu/sign at the sample)."""
    def make(rng):
        v = rng.uniform(lo, hi, shape)
        if lo < 0 < hi:
            v = np.where(np.abs(v) < 0.1, np.copysign(0.1, v) + v, v)
        return v.astype(dtype)

    return Spec(make, label=f"f{np.dtype(dtype).itemsize * 8}{list(shape)}")


def F32(*shape, lo=-2.0, hi=2.0) -> Spec:
    return F64(*shape, lo=lo, hi=hi, dtype=np.float32)


def POS(*shape, lo=0.5, hi=2.0, dtype=np.float64) -> Spec:
    return F64(*shape, lo=lo, hi=hi, dtype=dtype)


def DISTINCT(*shape, dtype=np.float64) -> Spec:
    """A permutation of well-separated values (no ties for max/sort/topk)."""
    def make(rng):
        n = int(np.prod(shape))
        return (rng.permutation(n) * 0.37 - n * 0.15).reshape(shape).astype(dtype)

    return Spec(make, label=f"distinct{list(shape)}")


def INT(*shape, lo=-5, hi=6, dtype=np.int32) -> Spec:
    return Spec(lambda rng: rng.integers(lo, hi, shape).astype(dtype), label=f"i{np.dtype(dtype).itemsize * 8}")


def BOOL(*shape) -> Spec:
    return Spec(lambda rng: rng.random(shape) < 0.5, label="bool")


def PARAM(spec: Spec) -> Spec:
    """The values of ``spec`` as a Parameter (created fresh for every run)."""
    return Spec(spec.make, label="param-" + spec.label, param=True)


def CONST(value) -> Spec:
    """A fixed tensor input."""
    return Spec(lambda rng: np.array(value), label="const")


def PY(value) -> Spec:
    """A non-tensor argument (Python scalar, tuple, dtype ...), passed as is."""
    return Spec(lambda rng: value, tensor=False, label=repr(value)[:20])


@dataclass
class Case:
    op: str                                  # the registered primitive this case exercises
    fn: Callable                             # sprout callable over the inputs
    inputs: tuple                            # Specs
    ref: Callable | None = None              # NumPy reference over the same (NumPy) inputs
    grad: tuple | None = None                # input positions to differentiate; () = not differentiable
    check: Callable | None = None            # property check(out, inputs) when there is no reference
    why: str = ""                            # why a case has no reference (required with ``check``)
    rtol: float = 1e-6
    atol: float = 1e-7
    fd_tol: float = 1e-5
    fd_eps: float = 1e-6
    grad_ref: Callable | None = None         # expected gradients (one per grad position) instead of FD
    label: str = ""

    @property
    def id(self) -> str:
        return self.op + (f"-{self.label}" if self.label else "")

    def make_inputs(self, seed: int) -> list:
        rng = np.random.default_rng(seed)
        return [s(rng) if isinstance(s, Spec) else s for s in self.inputs]

    def wrap(self, values: list) -> list:
        out = []
        for s, v in zip(self.inputs, values):
            if isinstance(s, Spec) and s.param:
                out.append(ms.Parameter(ms.Tensor(np.array(v, copy=True)), name=f"p{len(out)}"))
            elif isinstance(s, Spec) and s.tensor:
                out.append(ms.Tensor(v))
            else:
                out.append(v)
        return out

    def grad_positions(self, values: list) -> tuple:
        if self.grad is not None:
            return self.grad
        return tuple(i for i, (s, v) in enumerate(zip(self.inputs, values))
                     if isinstance(s, Spec) and s.tensor and np.asarray(v).dtype == np.float64)


# ---- running ---------------------------------------------------------------------------------------
def to_numpy(out):
    if isinstance(out, (tuple, list)):
        return type(out)(to_numpy(o) for o in out)
    if isinstance(out, ms.Tensor):
        return out.asnumpy()
    return out


@contextlib.contextmanager
def intercept(op_name: str):
    """Record every eager call of ``op_name``'s kernel: (inputs, attrs, output)."""
    op = REGISTRY[op_name]
    calls: list = []
    impl = op.impl

    def spy(*args, **attrs):
        out = impl(*args, **attrs)
        calls.append((args, attrs, out))
        return out

    op.impl = spy
    try:
        yield calls
    finally:
        op.impl = impl


def _as_type(value):
    if isinstance(value, np.ndarray):
        return type_of(ms.Tensor(value))
    return value


def check_infer(op_name: str, calls: list) -> None:
    """The op's infer rule, on the types of each recorded call, must predict the eager output."""
    op = REGISTRY[op_name]
    assert calls, f"{op_name}: the case never ran this op's kernel"
    for args, attrs, out in calls:
        predicted = op.infer(*[_as_type(a) for a in args], **attrs)
        outs = out if op.n_out != 1 else (out,)
        preds = predicted if op.n_out != 1 else (predicted,)
        assert len(preds) == len(outs), f"{op_name}: infer gave {len(preds)} outputs, kernel {len(outs)}"
        for p, o in zip(preds, outs):
            o = np.asarray(o)
            assert isinstance(p, TensorType), f"{op_name}: infer returned {p!r}"
            shape_ok = len(p.shape) == o.ndim and all(d is None or d == e for d, e in zip(p.shape, o.shape))
            assert shape_ok, f"{op_name}: infer shape {p.shape} != eager {o.shape}"
            assert p.dtype.np == o.dtype, f"{op_name}: infer dtype {p.dtype} != eager {o.dtype}"


def assert_close(got, want, rtol, atol, what=""):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), f"{what}: {got!r} vs {want!r}"
        for g, w in zip(got, want):
            assert_close(g, w, rtol, atol, what)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != reference {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)


def float_outputs(out) -> list:
    leaves = list(out) if isinstance(out, (tuple, list)) else [out]
    return [t for t in leaves if isinstance(t, ms.Tensor) and t.dtype.is_float]


def scalar_objective(case: Case, values: list, positions: tuple, weights_seed: int = 7):
    """A scalar loss sum_i <w_i, out_i> over the float outputs, as a function of the inputs at
    ``positions`` (the other inputs fixed), plus its NumPy-evaluated twin for finite differences."""
    probe = float_outputs(case.fn(*case.wrap(values)))
    rng = np.random.default_rng(weights_seed)
    weights = [rng.uniform(0.5, 1.5, t.shape) for t in probe]

    def loss(*args):
        full = case.wrap(values)
        for p, a in zip(positions, args):
            full[p] = a
        outs = float_outputs(case.fn(*full))
        total = None
        for o, w in zip(outs, weights):
            term = ms.ops.sum(ms.ops.mul(o, ms.Tensor(w.astype(o.asnumpy().dtype))))
            total = term if total is None else ms.ops.add(total, term)
        return total

    def numeric(arrays):
        return float(loss(*[ms.Tensor(a) for a in arrays]).asnumpy())

    return loss, numeric


def finite_differences(numeric, arrays: list, eps: float = 1e-6) -> list:
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a, dtype=np.float64)
        for idx in np.ndindex(a.shape):
            hi = [x.copy() for x in arrays]
            lo = [x.copy() for x in arrays]
            hi[k][idx] += eps
            lo[k][idx] -= eps
            g[idx] = (numeric(hi) - numeric(lo)) / (2 * eps)
        grads.append(g)
    return grads
