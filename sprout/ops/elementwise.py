"""Elementwise primitives: NumPy impl, shape/dtype rule, bprop and fuser info, one record each."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import FuseSpec, KernelError, Op, OpError, register
from ..core.types import TensorType
from ._infer import broadcast_shapes, elementwise_infer, is_tensor_type
from ._quiet import quiet, quiet_kernel


def _unbroadcast(g, x):
    """Sum a broadcast gradient back to ``x``'s shape (None for non-tensor inputs)."""
    if not hasattr(x, "shape"):
        return None
    if g.shape == x.shape:
        return g
    return F.sum_to(g, x.shape)


def elementwise(name: str, impl, bprop=None, *, out_dtype=None, fuse=None, scalar=None, transcendental=False,
                poly=None, emit=None, fresh_output=None, kinds=None) -> Op:
    """Register an elementwise op of any arity (its infer rule broadcasts every tensor input). A ufunc
    impl fuses as itself unless ``fuse`` says otherwise; ``scalar``/``transcendental`` complete that spec."""
    if fuse is None and isinstance(impl, np.ufunc):
        fuse = FuseSpec(ufunc=impl, scalar=scalar, transcendental=transcendental, poly=poly)
    elif scalar is not None or transcendental or poly is not None:
        raise ValueError(f"{name}: scalar= and transcendental= describe a ufunc impl; put them in fuse=FuseSpec(...)")
    fresh = isinstance(impl, np.ufunc) if fresh_output is None else fresh_output
    return register(Op(name, impl, elementwise_infer(name, out_dtype, kinds), bprop, "elementwise", fuse=fuse,
                       emit=emit, fresh_output=fresh))


unary = binary = elementwise  # names that say the arity at each definition below


def _no_grad(*args):
    return tuple(None for _ in args[:-2])


# ---- arithmetic -----------------------------------------------------------------------------
ADD = binary("Add", np.add, lambda x, y, out, d: (_unbroadcast(d, x), _unbroadcast(d, y)), scalar="({0} + {1})")
SUB = binary("Sub", np.subtract, lambda x, y, out, d: (_unbroadcast(d, x), _unbroadcast(F.neg(d), y)),
             scalar="({0} - {1})")
def _cj(t):
    """conj(t) for a complex tensor, else t: a holomorphic op's bprop multiplies by the conjugate derivative
    (MindSpore's convention: the gradient of a real loss L at z = x + iy is dL/dx + i dL/dy)."""
    dt = getattr(t, "dtype", None)
    return F.conj(t) if dt is not None and dt.is_complex else t


def _dcj(d, deriv):
    """``d * conj(deriv)``: a holomorphic op's cotangent from its derivative (``d * deriv`` for real values)."""
    return F.mul(d, _cj(deriv))


MUL = binary("Mul", np.multiply, lambda x, y, out, d: (_unbroadcast(F.mul(d, _cj(y)), x),
                                                       _unbroadcast(F.mul(d, _cj(x)), y)), scalar="({0} * {1})")


_div_impl = quiet(np.true_divide, divide="ignore", invalid="ignore")


def _div_bprop(x, y, out, d):
    gx = F.div(d, _cj(y))
    return _unbroadcast(gx, x), _unbroadcast(F.neg(F.mul(gx, _cj(out))), y)


DIV = binary("RealDiv", _div_impl, _div_bprop, fuse=FuseSpec(ufunc=np.true_divide, scalar="({0} / {1})"))


class IntegerDivisionByZero(KernelError, RuntimeError, ZeroDivisionError):
    """A value error found at run time (RuntimeError, as MindSpore's kernels report such errors), raised alike
    eagerly and from a compiled graph."""


def int_zero_divisor(op: str, x, y):
    """Integer division or modulo by zero has no correct result (NumPy gives 0, MindSpore's CPU kernels give
    INT_MIN/INT_MAX): refuse it. Float operands follow IEEE (inf/nan)."""
    if np.result_type(x, y).kind in "iub" and np.any(np.asarray(y) == 0):
        raise IntegerDivisionByZero(f"{op}: integer division by zero (an element of the divisor is 0)")


_floor_divide = quiet(np.floor_divide, divide="ignore", invalid="ignore")


def _floordiv_impl(x, y):
    int_zero_divisor("FloorDiv", x, y)
    return _floor_divide(x, y)


# float_only: an integer FloorDiv/FloorMod stays out of fused kernels, so its zero-divisor check always runs
FLOOR_DIV = binary("FloorDiv", _floordiv_impl, _no_grad, fuse=FuseSpec(ufunc=np.floor_divide, float_only=True))


_mod = quiet(np.mod, divide="ignore", invalid="ignore")


def _mod_impl(x, y):
    int_zero_divisor("FloorMod", x, y)
    return _mod(x, y)


FLOOR_MOD = binary("FloorMod", _mod_impl, fuse=FuseSpec(ufunc=np.remainder, float_only=True), bprop=(
                   lambda x, y, out, d: (_unbroadcast(d, x), _unbroadcast(F.neg(F.mul(d, F.floor(F.div(x, y)))), y))))


_pow_impl = quiet(np.power, divide="ignore", invalid="ignore")


def _pow_bprop(x, y, out, d):
    gx = _dcj(d, F.mul(y, F.pow(x, F.sub(y, 1))))
    gy = None
    if hasattr(y, "shape"):
        if out.dtype.is_complex:  # d/dy x^y = x^y log(x) on the principal branch (0 where x is 0)
            xs = F.cast(x, out.dtype) if hasattr(x, "shape") else F.fill(out.dtype, (), x)
            gy = _dcj(d, F.mul(out, F.log(F.where(F.equal(xs, 0), F.ones_like(xs), xs))))
        else:  # a real base: log only where it is positive
            gy = F.mul(d, F.mul(out, F.log(F.where(F.greater(x, 0), x, F.ones_like(x)))))
        gy = _unbroadcast(gy, y)
    return _unbroadcast(gx, x), gy


POW = binary("Pow", _pow_impl, _pow_bprop, fuse=FuseSpec(ufunc=np.power, transcendental=True, float_only=True))
MAXIMUM = binary("Maximum", np.maximum, scalar="np.maximum({0}, {1})", bprop=lambda x, y, out, d: (
    _unbroadcast(F.mul(d, F.cast(F.greater_equal(x, y), d.dtype)), x),
    _unbroadcast(F.mul(d, F.cast(F.less(x, y), d.dtype)), y)))
MINIMUM = binary("Minimum", np.minimum, scalar="np.minimum({0}, {1})", bprop=lambda x, y, out, d: (
    _unbroadcast(F.mul(d, F.cast(F.less_equal(x, y), d.dtype)), x),
    _unbroadcast(F.mul(d, F.cast(F.greater(x, y), d.dtype)), y)))

NEG = unary("Neg", np.negative, lambda x, out, d: (F.neg(d),), scalar="(-{0})")
SQUARE = unary("Square", np.square, lambda x, out, d: (_dcj(d, F.mul(x, 2)),), scalar="({0} * {0})")


# kernels whose IEEE results (inf, nan) are the answer, not a warning; quiet() is np.errstate at a third of its cost
_sqrt_impl = quiet(np.sqrt, invalid="ignore")
_log_impl = quiet(np.log, divide="ignore", invalid="ignore")


@quiet_kernel(divide="ignore", invalid="ignore")
def _rsqrt_impl(x):
    return 1 / np.sqrt(x)


@quiet_kernel(divide="ignore")
def _reciprocal_impl(x):
    return np.reciprocal(x) if x.dtype.kind == "f" else 1 / x


SQRT = unary("Sqrt", _sqrt_impl, lambda x, out, d: (F.div(d, F.mul(_cj(out), 2)),),
             fuse=FuseSpec(ufunc=np.sqrt, scalar="np.sqrt({0})"))
RSQRT = unary("Rsqrt", _rsqrt_impl, lambda x, out, d: (_dcj(d, F.mul(F.pow(out, 3), -0.5)),),
              fuse=FuseSpec(lines=("_np.sqrt({0}, out={out})", "_np.divide(1, {out}, out={out})"), nin=1))
EXP = unary("Exp", np.exp, lambda x, out, d: (F.mul(d, _cj(out)),), scalar="np.exp({0})", transcendental=True,
            poly="_fexp({0})")
LOG = unary("Log", _log_impl, lambda x, out, d: (F.div(d, _cj(x)),),
            fuse=FuseSpec(ufunc=np.log, scalar="np.log({0})", transcendental=True))
LOG1P = unary("Log1p", np.log1p, lambda x, out, d: (F.div(d, _cj(F.add(x, 1))),), transcendental=True)
EXPM1 = unary("Expm1", np.expm1, lambda x, out, d: (_dcj(d, F.add(out, 1)),), transcendental=True)
RECIPROCAL = unary("Reciprocal", _reciprocal_impl, lambda x, out, d: (F.neg(_dcj(d, F.square(out))),),
                   fuse=FuseSpec(ufunc=np.reciprocal, float_only=True))
SIN = unary("Sin", np.sin, lambda x, out, d: (_dcj(d, F.cos(x)),), scalar="np.sin({0})", transcendental=True)
COS = unary("Cos", np.cos, lambda x, out, d: (F.neg(_dcj(d, F.sin(x))),), scalar="np.cos({0})", transcendental=True)
TANH = unary("Tanh", np.tanh, lambda x, out, d: (_dcj(d, F.sub(1, F.square(out))),), scalar="np.tanh({0})",
             transcendental=True, poly="_ftanh({0})")
def _abs_impl(x):
    """|x|; MindSpore's Abs keeps a complex tensor's dtype (the magnitude with a zero imaginary part)."""
    return np.abs(x).astype(x.dtype) if x.dtype.kind == "c" else np.abs(x)


def _abs_bprop(x, out, d):
    if x.dtype.is_complex:  # only the real part of the result varies: Re(d) * x / |x|
        return (F.mul(F.cast(F.real(d), x.dtype), F.div(x, F.where(F.equal(out, 0), F.ones_like(out), out))),)
    return (F.mul(d, F.sign(x)),)


ABS = unary("Abs", _abs_impl, _abs_bprop, fuse=FuseSpec(ufunc=np.abs, scalar="abs({0})"), fresh_output=True)
SIGN = unary("Sign", np.sign, lambda x, out, d: (F.zeros_like(x),))
FLOOR = unary("Floor", np.floor, lambda x, out, d: (F.zeros_like(x),))
CEIL = unary("Ceil", np.ceil, lambda x, out, d: (F.zeros_like(x),))
ROUND = unary("Round", np.round, lambda x, out, d: (F.zeros_like(x),), fuse=FuseSpec(ufunc=np.rint, float_only=True))


def _sigmoid_impl(x):
    # tanh form: no overflow for large |x| and one transcendental per element
    return (np.tanh(x * 0.5) * 0.5 + 0.5).astype(x.dtype, copy=False)


def _relu_impl(x):
    return np.maximum(x, 0).astype(x.dtype, copy=False)


def _erf_numpy(x: np.ndarray) -> np.ndarray:
    """erf to ~1e-14 in NumPy alone: Taylor series below 2.5, the erfc continued fraction above."""
    a = np.abs(x.astype(np.float64))
    out = np.empty_like(a)
    small = a < 2.5
    s = a[small]
    x2, term = s * s, s.copy()
    total = s.copy()
    for n in range(1, 45):
        term *= -x2 / n
        total += term / (2 * n + 1)
    out[small] = total * (2.0 / np.sqrt(np.pi))
    b = a[~small]
    f = np.zeros_like(b)
    for k in range(60, 0, -1):
        f = (k / 2.0) / (b + f)
    out[~small] = 1.0 - np.exp(-b * b) / (np.sqrt(np.pi) * (b + f))
    return np.copysign(out, x)


_erf_fast = None  # SciPy's erf when installed (~20x faster; both agree to ~1e-14), loaded on first use:
# importing scipy.special costs ~0.3 s, which every `import sprout` would otherwise pay


def _load_erf():
    global _erf_fast
    try:
        from scipy.special import erf
    except ImportError:  # pragma: no cover - depends on the environment
        erf = False
    _erf_fast = erf
    return erf


def _erf_impl(x):
    fast = _erf_fast if _erf_fast is not None else _load_erf()
    out = fast(x) if fast else _erf_numpy(np.asarray(x))
    return np.asarray(out).astype(x.dtype, copy=False)


# an impl that is not one ufunc joins a fused kernel through its own kernel, copied into the buffer
CALL_IMPL_1 = FuseSpec(lines=("_np.copyto({out}, {impl}({0}), casting='unsafe')",), nin=1, transcendental=True)
ERF = unary("Erf", _erf_impl, lambda x, out, d: (F.mul(d, F.mul(F.exp(F.neg(F.square(x))), 2.0 / np.sqrt(np.pi))),),
            fuse=CALL_IMPL_1)
SIGMOID = unary("Sigmoid", _sigmoid_impl, lambda x, out, d: (_dcj(d, F.mul(out, F.sub(1, out))),),
                fuse=FuseSpec(lines=("_np.multiply({0}, 0.5, out={out})", "_np.tanh({out}, out={out})",
                                     "_np.multiply({out}, 0.5, out={out})", "_np.add({out}, 0.5, out={out})"),
                              nin=1, transcendental=True, poly="(_ftanh({0} * _F05) * _F05 + _F05)"))


def _relu_emit(ctx, node, args):
    """``maximum(x, 0)`` inline for a static float input, written into x when x is dead and big."""
    x = node.inputs[0]
    if not ctx.static_float(x) or x.type != node.outputs[0].type:
        return None
    if ctx.dead_big_input(node, x):
        return f"_np.maximum({args[0]}, 0, out={args[0]})", x.uid
    return f"_np.maximum({args[0]}, 0)", None


# relu' = sign(out) since out >= 0: two passes and two dispatches instead of greater + cast + mul
RELU = unary("ReLU", _relu_impl, lambda x, out, d: (F.mul(d, F.sign(out)),),
             fuse=FuseSpec(lines=("_np.maximum({0}, 0, out={out})",), nin=1, scalar="np.maximum({0}, _z)"),
             emit=_relu_emit, fresh_output=True)

# ---- comparison and logic (no gradient) ------------------------------------------------------
_B = mstype.bool_
EQUAL = binary("Equal", np.equal, _no_grad, out_dtype=_B)
NOT_EQUAL = binary("NotEqual", np.not_equal, _no_grad, out_dtype=_B)
GREATER = binary("Greater", np.greater, _no_grad, out_dtype=_B)
GREATER_EQUAL = binary("GreaterEqual", np.greater_equal, _no_grad, out_dtype=_B)
LESS = binary("Less", np.less, _no_grad, out_dtype=_B)
LESS_EQUAL = binary("LessEqual", np.less_equal, _no_grad, out_dtype=_B)
LOGICAL_AND = binary("LogicalAnd", np.logical_and, _no_grad, out_dtype=_B)
LOGICAL_OR = binary("LogicalOr", np.logical_or, _no_grad, out_dtype=_B)
LOGICAL_XOR = binary("LogicalXor", np.logical_xor, _no_grad, out_dtype=_B)
LOGICAL_NOT = unary("LogicalNot", np.logical_not, _no_grad, out_dtype=_B)
ISNAN = unary("IsNan", np.isnan, _no_grad, out_dtype=_B)
ISINF = unary("IsInf", np.isinf, _no_grad, out_dtype=_B)
ISFINITE = unary("IsFinite", np.isfinite, _no_grad, out_dtype=_B)
BITWISE_AND = binary("BitwiseAnd", np.bitwise_and, _no_grad, kinds="iub")
BITWISE_OR = binary("BitwiseOr", np.bitwise_or, _no_grad, kinds="iub")
BITWISE_XOR = binary("BitwiseXor", np.bitwise_xor, _no_grad, kinds="iub")


# ---- select and cast -------------------------------------------------------------------------
def _select_infer(cond, x, y):
    if not is_tensor_type(cond) or cond.dtype is not mstype.bool_:
        raise OpError(f"Select: condition must be a Bool tensor, got {cond}")
    ts = [t for t in (x, y) if is_tensor_type(t)]
    if len(ts) == 2 and ts[0].dtype is not ts[1].dtype:
        raise OpError(f"Select: x and y dtypes differ ({ts[0].dtype} vs {ts[1].dtype})")
    dt = ts[0].dtype if ts else mstype.float32
    return TensorType(broadcast_shapes("Select", cond.shape, *[t.shape for t in ts]), dt)


def _select_impl(cond, x, y):
    out = np.where(cond, x, y)
    for v in (x, y):
        if isinstance(v, np.ndarray):
            return out.astype(v.dtype, copy=False)
    return out


def _select_bprop(cond, x, y, out, d):
    zeros = F.zeros_like(d)
    return None, _unbroadcast(F.where(cond, d, zeros), x), _unbroadcast(F.where(cond, zeros, d), y)


SELECT = register(Op("Select", _select_impl, _select_infer, _select_bprop, "elementwise",
                    fuse=FuseSpec(lines=("_np.copyto({out}, {2})", "_np.copyto({out}, {1}, where={0})"), nin=3,
                                  inplace=False)))


def _cast_impl(x, dtype):
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "c" and not dtype.is_complex:  # complex to real keeps the real part (as MindSpore)
            x = x.real
        return x.astype(dtype.np, copy=False)
    return np.asarray(x, dtype.np)


def _cast_infer(x, dtype):
    if not isinstance(dtype, mstype.Type):
        raise OpError(f"Cast: dtype must be a sprout dtype such as ms.float32, got {dtype!r}")
    return TensorType(x.shape, dtype)


def _cast_bprop(x, out, d, dtype):
    if not x.dtype.is_differentiable:  # a bool source; an int one gets the cotangent cast (truncated) as in MindSpore
        return (None,)
    return (F.cast(d, x.dtype),)


CAST = register(Op("Cast", _cast_impl, _cast_infer, _cast_bprop, "elementwise",
                  fuse=FuseSpec(lines=("_np.copyto({out}, _np.real({0}), casting='unsafe')",), nin=1, attrs=True)))

# bprops right for complex values (the tape refuses complex gradients through any other elementwise op): linear
# ones, and the holomorphic ones that multiply by the conjugate derivative (_cj, _dcj); Abs and Cast take real parts
for _op in (ADD, SUB, NEG, MUL, DIV, POW, SQUARE, SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, RECIPROCAL, SIN, COS, TANH,
            SIGMOID, ABS, CAST):
    _op.extra["complex_grad"] = True

from . import functional as F  # noqa: E402  (bprops above call the functional API at run time)
