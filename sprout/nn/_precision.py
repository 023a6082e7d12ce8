"""Mixed-precision policies: while a Cell runs, which float inputs of each op are cast, and to what."""
from __future__ import annotations

from dataclasses import dataclass

from .. import dtype as mstype
from ..core import dispatch
from ..core.tensor import Tensor
from ..ir.effects import writes
from ..ops.elementwise import CAST

# Ops a policy never touches: the cast itself (an explicit ``ops.cast`` keeps its dtype), control-flow nodes
# (their bodies were traced under the policy already), and ops that write an operand or do io.
_EXEMPT_KINDS = frozenset(("control", "effect"))


def _floats_to(args: tuple, dtype) -> tuple:
    out = None
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            dt = a.dtype
            if dt != dtype and dt.is_float:
                if out is None:
                    out = list(args)
                out[i] = dispatch.bind(CAST, (a,), {"dtype": dtype})
    return args if out is None else tuple(out)


def _exempt(op) -> bool:
    return op is CAST or op.kind in _EXEMPT_KINDS or op.side_effect or bool(writes(op))


@dataclass(frozen=True)
class CastAll:
    """``Cell.to_float(dtype)``: every op inside the cell (and its sub-cells without their own setting) casts its
    float inputs -- arguments, Parameters and intermediate values -- to ``dtype``, as MindSpore's PyNative
    executor does. Ops give results in the dtype they compute in; with ``out`` the cell's float results are
    cast to ``out`` (amp's float32 islands in a float16 network and float16 islands under O1)."""

    dtype: mstype.Type
    out: mstype.Type | None = None

    def __call__(self, op, args, attrs, run):
        if _exempt(op):
            return run(op, args, attrs)
        return run(op, _floats_to(args, self.dtype), attrs)


@dataclass(frozen=True)
class CastListed:
    """amp level O1: the listed ops (by primitive name) compute in ``dtype`` and give float32 results; every
    other op runs as it is written."""

    dtype: mstype.Type
    names: frozenset

    def __call__(self, op, args, attrs, run):
        if op.name not in self.names or _exempt(op):
            return run(op, args, attrs)
        out = run(op, _floats_to(args, self.dtype), attrs)
        if isinstance(out, tuple):
            return tuple(_floats_to(out, mstype.float32))
        return _floats_to((out,), mstype.float32)[0]


def call_with(policy, fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` with ``policy`` deciding the precision of every op it runs."""
    dispatch.push_policy(policy)
    try:
        result = fn(*args, **kwargs)
    finally:
        dispatch.pop_policy(policy)
    out = getattr(policy, "out", None)
    return result if out is None else cast_floats(result, out)


def set_policy(cell, policy) -> None:
    """Give ``cell`` (not its sub-cells) its own policy."""
    cell.__dict__["_amp_policy"] = policy
    cell._refresh_plain()


def policy_for(dst_type):
    """The policy ``Cell.to_float(dst_type)`` installs (MindSpore accepts float16, float32 and bfloat16)."""
    if dst_type is mstype.float16 or dst_type is mstype.float32 or dst_type is mstype.bfloat16:
        return CastAll(dst_type)
    raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                     f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")


def cast_floats(value, dtype):
    """MindSpore's ``F.mixed_precision_cast``: every float tensor in a (nested) tuple/list/dict to ``dtype``."""
    if isinstance(value, Tensor):
        return _floats_to((value,), dtype)[0]
    if isinstance(value, (tuple, list)):
        return type(value)(cast_floats(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: cast_floats(v, dtype) for k, v in value.items()}
    return value
