"""Control flow as ops: Cond and WhileLoop, whose bodies are sub-graphs in attrs (the backend passes
them to ``impl`` as callables). Tracing Python control flow into these nodes is the capture layer's
job (``sprout/capture/control.py``); their gradients are ``autodiff/control.py``'s residual vjps."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType


# ---- Cond -----------------------------------------------------------------------------------------
def _cond_impl(pred, *args, **attrs):
    n_then = attrs["n_then"]
    if bool(np.asarray(pred)):
        return tuple(attrs["then"](*args[:n_then]))[:attrs["n_out"]]
    return tuple(attrs["else"](*args[n_then:]))[:attrs["n_out"]]


def _cond_infer(pred, *args, **attrs):
    if isinstance(pred, TensorType) and any(d is not None and d != 1 for d in pred.shape):
        raise OpError(f"Cond: the predicate must have one element, got shape {list(pred.shape)}")
    return tuple(_join(a, b) for a, b in zip(attrs["then"].output_types, attrs["else"].output_types))


def _join(a, b):
    """An output's type over both branches: a dimension the branches give different sizes is symbolic (a
    gradient's stand-in for the other branch's stacked residual is [0, ...] where that branch has [?, ...])."""
    if (isinstance(a, TensorType) and isinstance(b, TensorType) and a.dtype == b.dtype
            and len(a.shape) == len(b.shape) and a.shape != b.shape):
        return TensorType(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)
    return a


COND = register(Op("Cond", _cond_impl, _cond_infer, None, kind="control", n_out=-1,
                   doc="outputs = then(*args[:n_then]) if pred else else(*args[n_then:])"))


# ---- WhileLoop ------------------------------------------------------------------------------------
def _while_impl(*args, **attrs):
    n, k = attrs["n_vars"], attrs["n_cond"]
    cond_fn, body_fn = attrs["cond"], attrs["body"]
    state = list(args[:n])
    ccap, bcap = args[n:n + k], args[n + k:]
    stacked = attrs.get("stacked")
    if stacked is None:
        while bool(np.asarray(cond_fn(*state, *ccap)[0])):
            state = list(body_fn(*state, *bcap)[:n])
        return tuple(state)
    rows: list = [[] for _ in stacked]
    count = 0
    while bool(np.asarray(cond_fn(*state, *ccap)[0])):
        out = body_fn(*state, *bcap)
        state = list(out[:n])
        for j, row in enumerate(rows):
            row.append(out[n + j])
        count += 1
    stacks = [_stack_rows(r, t) for r, t in zip(rows, stacked)]
    return (*state, np.asarray(count, np.int64), *stacks)


def _stack_rows(rows: list, t: TensorType) -> np.ndarray:
    """One stacked output: the rows of every iteration. A row type with an open dimension (the stacked
    residuals of a nested loop, whose trip count changes from one outer iteration to the next) gets rows
    of different lengths: they are zero-padded to the longest. The padding is never read: the backward
    of the nested loop walks only its own trip count's rows, which is stacked alongside."""
    if not rows:
        return np.zeros((0,) + tuple(d or 0 for d in t.shape), t.dtype.np)
    rows = [np.asarray(r) for r in rows]
    shapes = {r.shape for r in rows}
    if len(shapes) > 1:
        rank = len(t.shape)
        if any(len(sh) != rank for sh in shapes) or any(
                t.shape[d] is not None and len({sh[d] for sh in shapes}) > 1 for d in range(rank)):
            raise OpError(f"WhileLoop: stacked rows of type {t} have the shapes {sorted(shapes)}")
        top = tuple(max(sh[d] for sh in shapes) for d in range(rank))
        rows = [np.pad(r, [(0, m - d) for m, d in zip(top, r.shape)]) for r in rows]
    return np.stack(rows)


def _while_infer(*types, **attrs):
    n = attrs["n_vars"]
    body_types = attrs["body"].output_types
    outs = tuple(body_types[:n])
    stacked = attrs.get("stacked")
    if stacked is not None:
        if tuple(body_types[n:n + len(stacked)]) != tuple(stacked):
            raise OpError(f"WhileLoop: stacked={stacked} does not match the body's trailing outputs "
                          f"{body_types[n:]}")
        outs += (TensorType((), mstype.int64),) + tuple(TensorType((None,) + t.shape, t.dtype) for t in stacked)
    return outs


WHILE_LOOP = register(Op("WhileLoop", _while_impl, _while_infer, None, kind="control", n_out=-1,
                         doc="state = init; while cond(*state, *cond_captured): state = body(*state, *body_captured); "
                             "with stacked=(row types) also the trip count and the body's trailing outputs of "
                             "every iteration, stacked"))
