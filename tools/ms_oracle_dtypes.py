"""Run in MindSpore's venv: bfloat16 / complex behaviour of MindSpore 2.10 (CPU) -> tests/ops/data/oracle_dtypes.npz.

    /work/msvenv/bin/python tools/ms_oracle_dtypes.py

Stores printed text, promotion results, checkpoint bytes and values (bfloat16 values widened to float32)."""
import os
import tempfile
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

OUT = Path(__file__).resolve().parents[1] / "tests" / "ops" / "data" / "oracle_dtypes.npz"
B = ms.bfloat16

# arrays whose bfloat16 repr/str is recorded (the test rebuilds them from the same expressions)
PRINT_CASES = {
    "short": "np.array([1.5, 2.25, 3.14159])",
    "row30": "np.arange(30) * 1.1",
    "long1200": "np.arange(1200) * 0.5",
    "wide_range": "np.array([1e10, 1e-5, -3.0])",
    "specials": "np.array([np.nan, np.inf, -np.inf, 1.0])",
    "cube": "np.arange(40).reshape(2, 4, 5) * 0.3",
    "square8": "np.arange(64).reshape(8, 8) * 1.0",
    "big": "np.array([[1e5, 2], [3, 4]])",
    "neg_zero": "np.array(-0.0)",
    "scalar": "np.array(123456.0)",
}
HOLOMORPHIC = ("sin", "cos", "tanh", "sinh", "cosh", "exp", "log", "sqrt", "reciprocal", "sigmoid", "rsqrt", "log1p",
               "expm1", "asin", "acos", "atan", "asinh", "acosh")
HOLO_W1, HOLO_W2 = (0.5, -1.0, 2.0), (0.25, 1.5, -0.5)
PROMOTE_WITH = ("float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool_")


def bf16_cases(out: dict) -> None:
    for key, expr in PRINT_CASES.items():
        t = Tensor(eval(expr), B)  # noqa: S307 - our own fixed expressions
        out[f"bf16_repr_{key}"] = np.array(repr(t))
        out[f"bf16_str_{key}"] = np.array(str(t))
    x = Tensor([1.5, 2.25, 3.14159], B)
    for name in PROMOTE_WITH:
        y = Tensor(np.ones(3), getattr(ms, name))
        out[f"bf16_promote_{name}"] = np.array(str((x + y).dtype))
        out[f"bf16_promote_rev_{name}"] = np.array(str((y + x).dtype))
    out["bf16_promote_int_scalar"] = np.array(str((x + 1).dtype))
    out["bf16_promote_float_scalar"] = np.array(str((x * 2.5).dtype))
    out["bf16_asnumpy_dtype"] = np.array(str(x.asnumpy().dtype))
    out["bf16_item_type"] = np.array(type(x[0].item()).__name__)
    a = Tensor(np.array([0.7, -1.3, 2.9, 1e3]), B)
    b = Tensor(np.array([0.3, 2.1, -0.6, 7.0]), B)
    # the Python operators (MindSpore's CPU has bfloat16 kernels for these; ops.sub has none)
    for name, fn in (("add", lambda u, v: u + v), ("sub", lambda u, v: u - v), ("mul", lambda u, v: u * v),
                     ("div", lambda u, v: u / v)):
        out[f"bf16_{name}"] = fn(a, b).astype(ms.float32).asnumpy()
    out["bf16_neg"] = (-a).astype(ms.float32).asnumpy()
    out["bf16_cast_int32"] = ops.cast(a, ms.int32).asnumpy()
    out["bf16_from_f32"] = Tensor(np.array([1.00390625, 1.01171875, -2.7182817, 3e38], np.float32)).astype(
        B).astype(ms.float32).asnumpy()
    p = ms.Parameter(Tensor(np.array([1.5, -2.25, 3.0, 0.1]), B), name="w")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bf16.ckpt")
        ms.save_checkpoint([{"name": "w", "data": p}], path)
        out["bf16_ckpt_bytes"] = np.frombuffer(Path(path).read_bytes(), np.uint8).copy()
        path = os.path.join(d, "bf16.safetensors")
        ms.save_checkpoint([{"name": "w", "data": p}], path, format="safetensors")
        out["bf16_safetensors_bytes"] = np.frombuffer(Path(path).read_bytes(), np.uint8).copy()


COMPLEX_PRINT = {
    "short": "np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex64)",
    "row30": "(np.arange(30) * (1 + 0.5j)).astype(np.complex64)",
    "long1200": "(np.arange(1200) * (0.5 - 1j)).astype(np.complex64)",
    "square8": "(np.arange(64).reshape(8, 8) * (1 + 1j)).astype(np.complex64)",
    "specials": "np.array([np.nan + 1j, 1e10 + 1e-5j, -0.0 - 0.0j], np.complex64)",
    "c128": "np.array([1.123456789 + 2j, -3.5j])",
    "scalar": "np.array(1.5 - 2j, np.complex64)",
}


def complex_cases(out: dict) -> None:
    for key, expr in COMPLEX_PRINT.items():
        t = Tensor(eval(expr))  # noqa: S307 - our own fixed expressions
        out[f"cx_repr_{key}"] = np.array(repr(t))
        out[f"cx_str_{key}"] = np.array(str(t))
    out["cx_scalar_dtype"] = np.array(str(Tensor(1 + 2j).dtype))
    out["cx_list_dtype"] = np.array(str(Tensor([1 + 2j, 3]).dtype))
    c = Tensor(np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex64))
    for name in PROMOTE_WITH + ("bfloat16", "complex128"):
        out[f"cx_promote_{name}"] = np.array(str((c + Tensor(np.ones(3), getattr(ms, name))).dtype))
    out["cx_promote_float_scalar"] = np.array(str((c + 1.5).dtype))
    re = Tensor(np.array([1.0, 2.0, -0.5], np.float32))
    im = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
    values = {
        "complex": ops.Complex()(re, im), "real": ops.real(c), "imag": ops.imag(c), "conj": ops.conj(c),
        "angle": ops.angle(c), "complex_abs": ops.ComplexAbs()(c), "abs": ops.abs(c), "polar": ops.polar(re, im),
        "view_as_real": ops.view_as_real(c), "mul": c * c, "div": c / (c + 1), "add": c + re, "exp": ops.exp(c),
        "log": ops.log(c), "sqrt": ops.sqrt(c), "sum": c.sum(), "mean": c.mean(),
        "matmul": ops.matmul(c.reshape(3, 1), c.reshape(1, 3)), "cast_f32": ops.cast(c, ms.float32),
        "real_of_real": ops.real(re), "imag_of_real": ops.imag(re),
    }
    for name, t in values.items():
        out[f"cx_{name}"] = t.asnumpy()
        out[f"cx_{name}_dtype"] = np.array(str(t.dtype))
    # gradients MindSpore's CPU build computes (its Mul/MatMul/RealDiv complex gradients are missing or wrong)
    grads = {
        "complex_abs": (lambda z: ops.ComplexAbs()(z).sum(), c),
        "abs": (lambda z: ops.real(ops.abs(z)).sum(), c),
        "exp": (lambda z: ops.real(ops.exp(z)).sum(), c),
        "imag": (lambda z: ops.imag(z).sum(), c),
        "sum": (lambda z: ops.real(z.sum()), c),
        "angle_re": (lambda a: ops.angle(ops.Complex()(a, im)).sum(), re),
        # positive magnitudes: MindSpore's Polar gradient w.r.t. a negative abs has the wrong sign
        "polar_abs": (lambda a: ops.real(ops.polar(a, im)).sum(), ops.abs(re)),
        "polar_angle": (lambda a: ops.imag(ops.polar(ops.abs(re), a)).sum(), im),
        "view_as_real": (lambda a: (ops.view_as_real(ops.Complex()(a, im)) * Tensor([[1.0, 2.0]])).sum(), re),
    }
    for name, (fn, x) in grads.items():
        out[f"cx_grad_{name}"] = ms.grad(fn)(x).asnumpy()
    # holomorphic ops: gradient of sum(W1 * Re f(z) + W2 * Im f(z)) (MindSpore's CPU build refuses tan, atanh, pow,
    # exp2 and gets log2/log10 wrong: those are checked against finite differences only)
    w1, w2 = Tensor(np.array(HOLO_W1, np.float32)), Tensor(np.array(HOLO_W2, np.float32))
    for name in HOLOMORPHIC:
        fn = getattr(ops, name)
        out[f"cx_holo_{name}"] = ms.grad(lambda z, f=fn: (ops.real(f(z)) * w1).sum() + (ops.imag(f(z)) * w2).sum())(
            c).asnumpy()


def main() -> None:
    out: dict = {}
    bf16_cases(out)
    complex_cases(out)
    np.savez(OUT, **out)
    print(f"wrote {len(out)} arrays to {OUT}")


if __name__ == "__main__":
    main()
