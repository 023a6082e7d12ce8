"""bfloat16: printing, promotion, checkpoints and values against MindSpore 2.10 (tools/ms_oracle_dtypes.py), and
the float32-compute-round-once rule (core/bf16.py) eagerly, under jit (AST and bytecode) and in gradients."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

from modes import MODES, grad_in_mode, run_in_mode

ORACLE = np.load(Path(__file__).parent / "data" / "oracle_dtypes.npz")
B = ms.bfloat16
BF = np.dtype(ml_dtypes.bfloat16)
PRINT_CASES = {
    "short": np.array([1.5, 2.25, 3.14159]),
    "row30": np.arange(30) * 1.1,
    "long1200": np.arange(1200) * 0.5,
    "wide_range": np.array([1e10, 1e-5, -3.0]),
    "specials": np.array([np.nan, np.inf, -np.inf, 1.0]),
    "cube": np.arange(40).reshape(2, 4, 5) * 0.3,
    "square8": np.arange(64).reshape(8, 8) * 1.0,
    "big": np.array([[1e5, 2], [3, 4]]),
    "neg_zero": np.array(-0.0),
    "scalar": np.array(123456.0),
}


def bf(a) -> np.ndarray:
    """Round to bfloat16 and widen back: the value a bfloat16 result must have."""
    return np.asarray(a, np.float32).astype(BF).astype(np.float32)


def wide(t: Tensor) -> np.ndarray:
    assert t.dtype == B
    return t.asnumpy().astype(np.float32)


@pytest.mark.parametrize("key", sorted(PRINT_CASES))
def test_repr_and_str_as_mindspore(key):
    t = Tensor(PRINT_CASES[key], B)
    assert repr(t) == str(ORACLE[f"bf16_repr_{key}"])
    assert str(t) == str(ORACLE[f"bf16_str_{key}"])


@pytest.mark.parametrize("other", ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool_"])
def test_promotion_as_mindspore(other):
    x = Tensor([1.5, 2.25, 3.14159], B)
    y = Tensor(np.ones(3), getattr(ms, other))
    assert str((x + y).dtype) == str(ORACLE[f"bf16_promote_{other}"])
    assert str((y + x).dtype) == str(ORACLE[f"bf16_promote_rev_{other}"])
    assert str((x + 1).dtype) == str(ORACLE["bf16_promote_int_scalar"])
    assert str((x * 2.5).dtype) == str(ORACLE["bf16_promote_float_scalar"])


def test_dtype_object_and_conversions():
    assert repr(B) == "mindspore.bfloat16" and str(B) == "BFloat16"
    assert B in ms.common.dtype.float_type and B.is_float
    assert ms.dtype_to_nptype(B) is ml_dtypes.bfloat16 and ms.common.dtype.np_bfloat16 is ml_dtypes.bfloat16
    assert ms.dtype_to_pytype(B) is float
    x = Tensor([1.5, 2.25, 3.14159], B)
    assert str(x.asnumpy().dtype) == str(ORACLE["bf16_asnumpy_dtype"])
    assert type(x[0].item()).__name__ == str(ORACLE["bf16_item_type"])
    assert x.itemsize == 2 and x.nbytes == 6 and x.is_floating_point()
    assert x.float().dtype == ms.float32 and Tensor([1, 2]).bfloat16().dtype == B
    assert x.astype(ms.float32).dtype == ms.float32 and ms.tensor([1.0], B).dtype == B
    assert Tensor(np.array([1.0, 2.0], BF)).dtype == B  # built from a NumPy bfloat16 array
    np.testing.assert_array_equal(wide(Tensor(np.array([1.00390625, 1.01171875, -2.7182817, 3e38], np.float32))
                                       .astype(B)), ORACLE["bf16_from_f32"])


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div"])
def test_arithmetic_values_as_mindspore(name):
    a = Tensor(np.array([0.7, -1.3, 2.9, 1e3]), B)
    b = Tensor(np.array([0.3, 2.1, -0.6, 7.0]), B)
    got = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[name]
    np.testing.assert_array_equal(wide(got), ORACLE[f"bf16_{name}"])
    np.testing.assert_array_equal(wide(-a), ORACLE["bf16_neg"])
    np.testing.assert_array_equal(ops.cast(a, ms.int32).asnumpy(), ORACLE["bf16_cast_int32"])


RNG = np.random.default_rng(3)
X = RNG.uniform(-2, 2, (4, 6)).astype(np.float32)
W = RNG.uniform(-1, 1, (6, 3)).astype(np.float32)


def _net(x, w):
    h = ops.matmul(x, w)
    return ops.softmax(ops.exp(h * 0.5) + h.sum(axis=0), axis=-1)


def _reference(x, w):
    """Each op in float32 on the bfloat16 inputs, rounded once per op."""
    h = bf(bf(x) @ bf(w))
    e = bf(np.exp(bf(h * np.float32(0.5))))
    s = bf(e + bf(h.sum(axis=0)))
    z = np.exp(s - s.max(axis=-1, keepdims=True))
    return bf(z / z.sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("mode", MODES)
def test_ops_compute_in_float32_and_round_once(mode):
    out = run_in_mode(_net, [Tensor(X, B), Tensor(W, B)], mode)
    np.testing.assert_array_equal(wide(out), _reference(X, W))


@pytest.mark.parametrize("mode", MODES)
def test_sum_accumulates_in_float32(mode):
    # ml_dtypes' own add.reduce rounds every step: 100000 ones would sum to 256
    out = run_in_mode(lambda x: x.sum(), [Tensor(np.ones(100000), B)], mode)
    assert out.dtype == B and float(out.asnumpy().astype(np.float32)) == float(bf(100000.0))


@pytest.mark.parametrize("mode", MODES)
def test_gradients_are_bfloat16(mode):
    x = Tensor(X, B)
    g = grad_in_mode(lambda x: (ops.exp(x) * x).sum(), [x], mode, (0,))
    g = g[0] if isinstance(g, tuple) else g
    xb = bf(X)  # d/dx exp(x) x = exp(x) (1 + x): a few bfloat16 roundings away
    np.testing.assert_allclose(wide(g), np.exp(xb) * (1 + xb), rtol=2 ** -6, atol=2 ** -8)


def test_mixed_float16_bfloat16_is_float32():
    a, b = Tensor([1.5], ms.float16), Tensor([2.5], B)
    out = ms.jit(lambda u, v: u * v)(a, b)
    assert out.dtype == ms.float32 and out.asnumpy()[0] == 3.75


def test_checkpoint_bytes_as_mindspore(tmp_path):
    p = ms.Parameter(Tensor(np.array([1.5, -2.25, 3.0, 0.1]), B), name="w")
    path = tmp_path / "bf16.ckpt"
    ms.save_checkpoint([{"name": "w", "data": p}], str(path))
    assert path.read_bytes() == ORACLE["bf16_ckpt_bytes"].tobytes()
    loaded = ms.load_checkpoint(str(path))["w"]
    assert loaded.dtype == B and loaded.asnumpy().tobytes() == p.asnumpy().tobytes()
    path = tmp_path / "bf16.safetensors"
    ms.save_checkpoint([{"name": "w", "data": p}], str(path), format="safetensors")
    assert path.read_bytes() == ORACLE["bf16_safetensors_bytes"].tobytes()
    loaded = ms.load_checkpoint(str(path), format="safetensors")["w"]
    assert loaded.dtype == B and loaded.asnumpy().tobytes() == p.asnumpy().tobytes()
    net = nn.Dense(4, 1)  # a bfloat16 checkpoint loads into a float32 network (cast), as in MindSpore
    ms.save_checkpoint([{"name": "weight", "data": Tensor(np.ones((1, 4)), B)}], str(tmp_path / "n.ckpt"))
    ms.load_param_into_net(net, ms.load_checkpoint(str(tmp_path / "n.ckpt")))
    assert net.weight.dtype == ms.float32 and net.weight.asnumpy().tolist() == [[1.0] * 4]


def test_to_float_and_amp_accept_bfloat16():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros").to_float(B)
    out = net(Tensor(np.array([[0.1, 0.2, 0.3]], np.float32)))
    assert out.dtype == B and wide(out).tolist() == [[float(bf(0.6))] * 2]
    o2 = ms.amp.auto_mixed_precision(nn.Dense(3, 2), "O2", dtype=B)
    assert o2(Tensor(np.ones((1, 3), np.float32))).dtype == ms.float32
    with pytest.raises(ValueError, match="dtype"):
        ms.amp.auto_mixed_precision(nn.Dense(3, 2), "O2", dtype=ms.float32)


def test_bfloat16_use_keeps_eager_semantics():
    """Once bfloat16 exists, eager ops are checked for it, but nothing else changes: no tape or graph is taken to
    be active, so grad's argument aliases still write through to the argument eagerly."""
    from sprout.core import dispatch

    Tensor([1.0], B)
    assert dispatch._bf16_on and not dispatch._slow

    def f(x):
        ops.assign_sub(x, ops.ones((3, 2)))
        return (x * 2).sum()

    x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    ms.grad(f)(x)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(3, 2) - 1)
