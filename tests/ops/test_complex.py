"""complex64/complex128 against MindSpore 2.10 (tools/ms_oracle_dtypes.py): dtype objects, construction, promotion,
printing, the complex primitives' values, and the gradients MindSpore's CPU build computes. The op table
(table_complex.py) checks every complex bprop against finite differences in all three modes."""
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, mint, ops

from modes import MODES, grad_in_mode, run_in_mode

ORACLE = np.load(Path(__file__).parent / "data" / "oracle_dtypes.npz")
PRINT = {
    "short": np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex64),
    "row30": (np.arange(30) * (1 + 0.5j)).astype(np.complex64),
    "long1200": (np.arange(1200) * (0.5 - 1j)).astype(np.complex64),
    "square8": (np.arange(64).reshape(8, 8) * (1 + 1j)).astype(np.complex64),
    "specials": np.array([np.nan + 1j, 1e10 + 1e-5j, -0.0 - 0.0j], np.complex64),
    "c128": np.array([1.123456789 + 2j, -3.5j]),
    "scalar": np.array(1.5 - 2j, np.complex64),
}
C = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex64)
RE = np.array([1.0, 2.0, -0.5], np.float32)
IM = np.array([0.5, -1.0, 2.0], np.float32)


def fixture(name):
    return ORACLE[f"cx_{name}"], str(ORACLE[f"cx_{name}_dtype"])


@pytest.mark.parametrize("key", sorted(PRINT))
def test_repr_and_str_as_mindspore(key):
    t = Tensor(PRINT[key])
    assert repr(t) == str(ORACLE[f"cx_repr_{key}"])
    assert str(t) == str(ORACLE[f"cx_str_{key}"])


def test_dtype_objects_and_construction():
    assert ms.cfloat is ms.complex64 and ms.cdouble is ms.complex128
    assert repr(ms.complex64) == "mindspore.complex64" and str(ms.complex128) == "Complex128"
    assert ms.complex64.is_complex and not ms.complex64.is_float
    assert ms.common.dtype.complex_type == (ms.complex64, ms.complex128)
    assert ms.dtype_to_pytype(ms.complex64) is complex and ms.pytype_to_dtype(complex) is ms.complex128
    assert ms.get_py_obj_dtype(1 + 2j) is ms.complex128
    assert str(Tensor(1 + 2j).dtype) == str(ORACLE["cx_scalar_dtype"])
    assert str(Tensor([1 + 2j, 3]).dtype) == str(ORACLE["cx_list_dtype"])
    t = Tensor(C)
    assert t.asnumpy().dtype == np.complex64 and isinstance(t[0].item(), complex)
    assert t.tolist() == [complex(v) for v in C] and ops.is_complex(t) and not ops.is_complex(Tensor(RE))
    assert ops.isreal(Tensor(np.array([1 + 0j, 1j]))).asnumpy().tolist() == [True, False]


@pytest.mark.parametrize("other", ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool_",
                                   "bfloat16", "complex128"])
def test_promotion_as_mindspore(other):
    c = Tensor(C)
    assert str((c + Tensor(np.ones(3), getattr(ms, other))).dtype) == str(ORACLE[f"cx_promote_{other}"])
    assert str((c + 1.5).dtype) == str(ORACLE["cx_promote_float_scalar"])


def test_python_complex_scalar_with_a_real_tensor_is_a_type_error():
    with pytest.raises(TypeError, match="Add"):
        Tensor(RE) + 1j


VALUES = {
    "complex": lambda c, re, im: ops.Complex()(re, im), "real": lambda c, re, im: ops.real(c),
    "imag": lambda c, re, im: ops.imag(c), "conj": lambda c, re, im: ops.conj(c),
    "angle": lambda c, re, im: ops.angle(c), "complex_abs": lambda c, re, im: ops.ComplexAbs()(c),
    "abs": lambda c, re, im: ops.abs(c), "polar": lambda c, re, im: ops.polar(re, im),
    "view_as_real": lambda c, re, im: ops.view_as_real(c), "mul": lambda c, re, im: c * c,
    "div": lambda c, re, im: c / (c + 1), "add": lambda c, re, im: c + re, "exp": lambda c, re, im: ops.exp(c),
    "log": lambda c, re, im: ops.log(c), "sqrt": lambda c, re, im: ops.sqrt(c), "sum": lambda c, re, im: c.sum(),
    "mean": lambda c, re, im: c.mean(), "cast_f32": lambda c, re, im: ops.cast(c, ms.float32),
    "matmul": lambda c, re, im: ops.matmul(c.reshape(3, 1), c.reshape(1, 3)),
    "real_of_real": lambda c, re, im: ops.real(re), "imag_of_real": lambda c, re, im: ops.imag(re),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(VALUES))
def test_values_as_mindspore(name, mode):
    want, dtype = fixture(name)
    got = run_in_mode(VALUES[name], [Tensor(C), Tensor(RE), Tensor(IM)], mode)
    assert str(got.dtype) == dtype
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-6, atol=1e-6)


def test_class_and_method_spellings():
    c, re, im = Tensor(C), Tensor(RE), Tensor(IM)
    np.testing.assert_array_equal(ops.Real()(c).asnumpy(), c.real().asnumpy())
    np.testing.assert_array_equal(ops.Imag()(c).asnumpy(), mint.imag(c).asnumpy())
    np.testing.assert_array_equal(ops.Conj()(c).asnumpy(), c.conj().asnumpy())
    np.testing.assert_array_equal(ops.Angle()(c).asnumpy(), c.angle().asnumpy())
    np.testing.assert_array_equal(ops.Polar()(re, im).asnumpy(), mint.polar(re, im).asnumpy())
    np.testing.assert_array_equal(mint.real(c).asnumpy(), C.real)
    m = Tensor(np.array([[1 + 1j, 2 - 1j]], np.complex64))
    np.testing.assert_array_equal(m.mH.asnumpy(), np.conj(m.asnumpy()).T)
    np.testing.assert_array_equal(m.H.asnumpy(), np.conj(m.asnumpy()).T)


def test_conjugate_transpose():
    m = np.array([[1 + 2j, 3 - 1j, 0.5j]], np.complex64)
    np.testing.assert_array_equal(ops.ConjugateTranspose()(Tensor(m), (1, 0)).asnumpy(), np.conj(m).T)
    assert ops.ConjugateTranspose()(Tensor(np.ones((2, 3), np.float32)), (1, 0)).shape == (3, 2)
    with pytest.raises(ValueError, match="ConjugateTranspose"):
        ops.ConjugateTranspose()(Tensor(m), (0,))
    g = ms.grad(lambda z: ops.real(ops.ConjugateTranspose()(z, (1, 0)) * Tensor(np.array([[1], [2], [3]],
                                                                                          np.complex64))).sum())
    np.testing.assert_allclose(g(Tensor(m)).asnumpy(), [[1, 2, 3]])  # d Re(conj(z) w)/dz = w (real w)


def test_misuse_raises_as_mindspore():
    with pytest.raises(TypeError, match="view_as_real"):
        ops.view_as_real(Tensor(RE))
    with pytest.raises(TypeError, match="Angle"):
        ops.angle(Tensor(RE))
    with pytest.raises(TypeError, match="Polar.*abs"):
        ops.polar(Tensor([1, 2]), Tensor([0, 1]))
    with pytest.raises(TypeError, match="Complex"):
        ops.Complex()(Tensor(RE), Tensor(IM.astype(np.float64)))
    with pytest.raises(TypeError, match="ComplexAbs"):
        ops.ComplexAbs()(Tensor(RE))
    with pytest.raises(TypeError, match="view_as_real"):
        ms.jit(ops.view_as_real)(Tensor(RE))


GRADS = {
    "complex_abs": (lambda z: ops.ComplexAbs()(z).sum(), "c"),
    "abs": (lambda z: ops.real(ops.abs(z)).sum(), "c"),
    "exp": (lambda z: ops.real(ops.exp(z)).sum(), "c"),
    "imag": (lambda z: ops.imag(z).sum(), "c"),
    "sum": (lambda z: ops.real(z.sum()), "c"),
    "angle_re": (lambda a: ops.angle(ops.Complex()(a, Tensor(IM))).sum(), "re"),
    "polar_abs": (lambda a: ops.real(ops.polar(a, Tensor(IM))).sum(), "|re|"),
    "polar_angle": (lambda a: ops.imag(ops.polar(Tensor(np.abs(RE)), a)).sum(), "im"),
    "view_as_real": (lambda a: (ops.view_as_real(ops.Complex()(a, Tensor(IM))) * Tensor([[1.0, 2.0]])).sum(), "re"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_as_mindspore(name, mode):
    fn, which = GRADS[name]
    x = Tensor({"c": C, "re": RE, "|re|": np.abs(RE), "im": IM}[which])
    g = grad_in_mode(fn, [x], mode, (0,))
    g = g[0] if isinstance(g, tuple) else g
    assert g.dtype == x.dtype
    np.testing.assert_allclose(g.asnumpy(), ORACLE[f"cx_grad_{name}"], rtol=1e-6, atol=1e-6)


def test_gradients_where_mindspore_cpu_is_wrong():
    """MindSpore 2.10 CPU: a complex Mul has no gradient (TypeError), MatMul's is doubled, RealDiv's zero. The
    convention's values (also checked against finite differences in the op table):"""
    c = Tensor(C)
    mm = ms.grad(lambda z: ops.real(ops.matmul(z.reshape(1, 3), c.reshape(3, 1))).sum())(c)
    np.testing.assert_allclose(mm.asnumpy(), np.conj(C), rtol=1e-6)
    dv = ms.grad(lambda z: ops.imag(z / c).sum())(c)
    np.testing.assert_allclose(dv.asnumpy(), 1j / np.conj(C), rtol=1e-6)
    sq = ms.grad(lambda z: ops.real(z * z).sum())(c)
    np.testing.assert_allclose(sq.asnumpy(), 2 * np.conj(C), rtol=1e-6)
    # MindSpore gives sign(abs) * cos(angle) for a negative magnitude; d/d abs of Re(abs e^{i angle}) is cos(angle)
    pa = ms.grad(lambda a: ops.real(ops.polar(a, Tensor(IM))).sum())(Tensor(RE))
    np.testing.assert_allclose(pa.asnumpy(), np.cos(IM), rtol=1e-6)


HOLOMORPHIC = ("sin", "cos", "tanh", "sinh", "cosh", "exp", "log", "sqrt", "reciprocal", "sigmoid", "rsqrt", "log1p",
               "expm1", "asin", "acos", "atan", "asinh", "acosh")  # tools/ms_oracle_dtypes.py HOLOMORPHIC
W1, W2 = Tensor(np.array([0.5, -1.0, 2.0], np.float32)), Tensor(np.array([0.25, 1.5, -0.5], np.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", HOLOMORPHIC)
def test_holomorphic_gradients_as_mindspore(name, mode):
    """dout * conj(f'(z)) for a loss mixing real and imaginary parts, equal to MindSpore 2.10's CPU gradients (acosh
    at Re z < 0 checks the branch: 1 / (sqrt(z - 1) sqrt(z + 1)), not 1 / sqrt(z^2 - 1))."""
    fn = getattr(ops, name)
    g = grad_in_mode(lambda z: (ops.real(fn(z)) * W1).sum() + (ops.imag(fn(z)) * W2).sum(), [Tensor(C)], mode, (0,))
    g = g[0] if isinstance(g, tuple) else g
    assert g.dtype == ms.complex64
    np.testing.assert_allclose(g.asnumpy(), ORACLE[f"cx_holo_{name}"], rtol=2e-5, atol=2e-5)


def _fd_grad(loss, z0):
    """dL/dx + i dL/dy by central differences in float64."""
    g = np.zeros(z0.shape, np.complex128)
    for k in range(z0.size):
        for unit in (1, 1j):
            e = np.zeros(z0.shape, np.complex128)
            e.flat[k] = 1e-6 * unit
            g.flat[k] += unit * (float(loss(Tensor(z0 + e)).asnumpy()) - float(loss(Tensor(z0 - e)).asnumpy())) / 2e-6
    return g


@pytest.mark.parametrize("name, fn", [
    ("tan", ops.tan), ("atanh", ops.atanh), ("pow", lambda z: ops.pow(z, z)), ("pow_scalar", lambda z: z ** 2.5),
    ("exp2", ops.exp2), ("square", ops.square), ("log2", ops.log2), ("log10", ops.log10),
    ("cumprod", lambda z: ops.cumprod(z, 0)), ("prod", lambda z: ops.prod(z, keep_dims=True))])
def test_gradients_mindspore_cpu_refuses_or_gets_wrong(name, fn):
    """MindSpore 2.10 CPU raises TypeError for the complex gradients of tan, atanh, pow, exp2 and prod (and for
    square's forward), gives log2/log10 gradients off by a non-conjugated factor and cumprod's without the
    conjugate; sprout's agree with finite differences."""
    z0 = C.astype(np.complex128)
    loss = lambda z: (ops.real(fn(z)) * W1.astype(ms.float64)).sum() + (ops.imag(fn(z)) * W2.astype(ms.float64)).sum()  # noqa: E731
    g = ms.grad(loss)(Tensor(z0))
    np.testing.assert_allclose(g.asnumpy(), _fd_grad(loss, z0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op_name, fn", [("Erf", lambda z: ops.real(ops.erf(z)).sum()),
                                        ("Sign", lambda z: ops.imag(ops.sign(z) * 2).sum())])
def test_gradient_through_an_op_without_a_complex_rule_is_refused(op_name, fn, mode):
    """An op whose bprop is written for real values would pass back dout * f'(z) without the conjugate (a silently
    wrong gradient): the tape refuses it, eagerly and in both captures, naming the op."""
    with pytest.raises(TypeError, match=f"{op_name}: the gradient for complex inputs is not implemented"):
        grad_in_mode(fn, [Tensor(C)], mode, (0,))


def test_complex_values_through_shape_ops_keep_their_gradients():
    """Shape ops only move cotangents: no refusal, and the convention's value."""
    g = ms.grad(lambda z: ops.real(ops.reshape(ops.transpose(z.reshape(1, 3), (1, 0)), (3,)) * Tensor(C)).sum())(
        Tensor(C))
    np.testing.assert_allclose(g.asnumpy(), np.conj(C), rtol=1e-6)
