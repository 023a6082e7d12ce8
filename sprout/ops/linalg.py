"""Matrix-multiplication primitives (NumPy/BLAS matmul with broadcasting batch dims)."""
from __future__ import annotations


from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._gemm import gemm
from ._infer import broadcast_shapes, fmt_shape


def _matmul_infer(a, b, transpose_a=False, transpose_b=False):
    if a.ndim == 0 or b.ndim == 0:
        raise OpError(f"MatMul: inputs must have rank >= 1, got {fmt_shape(a.shape)} and {fmt_shape(b.shape)}")
    if a.dtype is not b.dtype:
        raise OpError(f"MatMul: dtypes differ ({a.dtype} vs {b.dtype})")
    sa, sb = list(a.shape), list(b.shape)
    if transpose_a and len(sa) >= 2:
        sa[-1], sa[-2] = sa[-2], sa[-1]
    if transpose_b and len(sb) >= 2:
        sb[-1], sb[-2] = sb[-2], sb[-1]
    va = sa if len(sa) > 1 else [1] + sa
    vb = sb if len(sb) > 1 else sb + [1]
    k1, k2 = va[-1], vb[-2]
    if k1 is not None and k2 is not None and k1 != k2:
        raise OpError(f"MatMul: cannot multiply {fmt_shape(a.shape)} by {fmt_shape(b.shape)}"
                      f"{' (transposed)' if transpose_a or transpose_b else ''}: inner dimensions {k1} and {k2} "
                      "differ")
    batch = broadcast_shapes("MatMul", tuple(va[:-2]), tuple(vb[:-2]))
    out = list(batch)
    if len(sa) > 1:
        out.append(va[-2])
    if len(sb) > 1:
        out.append(vb[-1])
    return TensorType(tuple(out), a.dtype)


def _t(x):
    return x.swapaxes(-1, -2) if x.ndim >= 2 else x  # the method: no array-function dispatch per call


def _matmul_impl(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = _t(a)
    if transpose_b:
        b = _t(b)
    if a.ndim == 0 or b.ndim == 0 or a.dtype != b.dtype:
        raise ValueError("invalid matmul operands")
    return gemm(a, b)


def _matmul_bprop(a, b, out, d, transpose_a=False, transpose_b=False):
    if a.dtype.is_complex:  # d(a@b) gives d @ conj(b)^T and conj(a)^T @ d (conjugate derivative convention)
        a, b = F.conj(a), F.conj(b)
    if a.ndim == 1 or b.ndim == 1:
        a2 = F.expand_dims(a, 0) if a.ndim == 1 else a
        b2 = F.expand_dims(b, -1) if b.ndim == 1 else b
        d2 = d
        if a.ndim == 1:
            d2 = F.expand_dims(d2, -2)
        if b.ndim == 1:
            d2 = F.expand_dims(d2, -1)
        ga, gb = _matmul_bprop(a2, b2, None, d2, transpose_a, transpose_b)
        return (lambda: F.reshape(ga(), a.shape)), (lambda: F.reshape(gb(), b.shape))
    # each operand's gradient is deferred: a weight-only gradient never pays for the data gradient
    if not transpose_a and not transpose_b:
        ga, gb = (lambda: F.matmul(d, b, transpose_b=True)), (lambda: F.matmul(a, d, transpose_a=True))
    elif transpose_a and not transpose_b:
        ga, gb = (lambda: F.matmul(b, d, transpose_b=True)), (lambda: F.matmul(a, d))
    elif not transpose_a and transpose_b:
        ga, gb = (lambda: F.matmul(d, b)), (lambda: F.matmul(d, a, transpose_a=True))
    else:
        ga = lambda: F.matmul(b, d, transpose_a=True, transpose_b=True)  # noqa: E731
        gb = lambda: F.matmul(d, a, transpose_a=True, transpose_b=True)  # noqa: E731
    return (lambda: _fit(ga(), a)), (lambda: _fit(gb(), b))


def _fit(g, x):
    """Sum a batch-broadcast gradient back to the operand's shape."""
    return g if g.shape == x.shape else F.sum_to(g, x.shape)


def _matmul_emit(ctx, node, args):
    """``a @ b`` with transposes as views handed to BLAS as flags: no copy, no call through the impl."""
    ins, attrs = node.inputs, node.attrs
    if not all(ctx.is_var(x) and len(x.type.shape) >= 2 for x in ins):
        return None
    if any(x.type.dtype == mstype.float16 for x in ins):  # the impl's float32-BLAS path (_gemm)
        return None
    if set(attrs) - {"transpose_a", "transpose_b"}:
        return None
    if not all(len(x.type.shape) == 2 for x in ins):  # batched: the last two axes swapped, as views
        ta, tb = (".swapaxes(-1, -2)" if attrs.get(k) else "" for k in ("transpose_a", "transpose_b"))
        return f"{args[0]}{ta} @ {args[1]}{tb}", None
    ta, tb = (".T" if attrs.get(k) else "" for k in ("transpose_a", "transpose_b"))
    bt = ctx.transposed(node, ins[1]) if tb else None  # a C-contiguous x.T the generator copied once for many GEMMs
    if bt is not None:
        return f"{args[0]}{ta} @ {bt}", None
    return f"{args[0]}{ta} @ {args[1]}{tb}", None


MATMUL = register(Op("MatMul", _matmul_impl, _matmul_infer, _matmul_bprop, "opaque", emit=_matmul_emit,
                     fresh_output=True))
MATMUL.extra["complex_grad"] = True  # the bprop conjugates complex operands

from . import functional as F  # noqa: E402
