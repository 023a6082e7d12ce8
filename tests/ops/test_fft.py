"""The FFT family against MindSpore 2.10's outputs and gradients (tools/ms_oracle_fft.py), in every mode, and its
argument checks. table_fft.py checks the primitives against NumPy and finite differences."""
import sys
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

from modes import MODES, grad_in_mode, run_in_mode

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from ms_oracle_fft import FFT_CASES, FWS_CASES, INPUTS  # noqa: E402

ORACLE = np.load(Path(__file__).parent / "data" / "oracle_fft.npz")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FFT_CASES))
def test_values_as_mindspore(name, mode):
    fn, kwargs, key = FFT_CASES[name]
    got = run_in_mode(lambda t: getattr(ops, fn)(t, **kwargs), [Tensor(INPUTS[key])], mode)
    assert str(got.dtype) == str(ORACLE[f"{name}_dtype"])
    np.testing.assert_allclose(got.asnumpy(), ORACLE[name], rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(n for n, (_, _, key) in FFT_CASES.items() if key != "i"))
def test_gradients_as_mindspore(name, mode):
    fn, kwargs, key = FFT_CASES[name]

    def loss(t):
        y = getattr(ops, fn)(t, **kwargs)
        if y.dtype.is_complex:
            y = ops.ComplexAbs()(y)
        w = Tensor(np.linspace(0.5, 1.5, y.size, dtype=np.float32).reshape(y.shape))
        return (y * w).sum()

    g = grad_in_mode(loss, [Tensor(INPUTS[key])], mode, (0,))
    g = g[0] if isinstance(g, tuple) else g
    np.testing.assert_allclose(g.asnumpy(), ORACLE[f"{name}_grad"], rtol=1e-4, atol=1e-4)


def test_dtypes():
    assert ops.fft(Tensor(np.ones(4))).dtype == ms.complex128
    assert ops.fft(Tensor(np.ones(4), ms.float16)).dtype == ms.complex64
    assert ops.fft(Tensor(np.ones(4), ms.bfloat16)).dtype == ms.complex64
    assert ops.irfft(Tensor(np.ones(3, np.complex128))).dtype == ms.float64
    assert ops.fft(Tensor(np.ones(4, np.int16))).dtype == ms.complex64


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "uint16", "uint32", "uint64"])
@pytest.mark.parametrize("name", ["fft", "rfft", "ihfft", "fftn", "hfft"])
def test_dtypes_without_a_mindspore_kernel_raise_type_error(name, dtype):
    """MindSpore 2.10's CPU FFT kernels take int16/int32/int64 and floats only (TypeError for these)."""
    with pytest.raises(TypeError, match=f"{name}.*dtype"):
        getattr(ops, name)(Tensor(np.ones(4, dtype)))


@pytest.mark.parametrize("call, exc, needle", [
    (lambda x: ops.fft(x, norm="bad"), ValueError, "fft.*norm"),
    (lambda x: ops.fft(x, dim=3), ValueError, "fft.*dim 3"),
    (lambda x: ops.fft(x, n=0), ValueError, r"fft.*argument\[n\]"),
    (lambda x: ops.rfft2(x, s=(2,)), ValueError, "rfft2.*same length"),
    (lambda x: ops.fftn(x, dim=(0, 0)), ValueError, "fftn.*repeat"),
    (lambda x: ops.fft(x.asnumpy()), TypeError, "fft.*Tensor"),
    (lambda x: ops.irfft(x[:, :1]), ValueError, "irfft.*at least 2"),
])
def test_misuse(call, exc, needle):
    with pytest.raises(exc, match=needle):
        call(Tensor(INPUTS["x"]))


def test_round_trips():
    x = Tensor(INPUTS["x"])
    np.testing.assert_allclose(ops.irfftn(ops.rfftn(x), s=x.shape).asnumpy(), INPUTS["x"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ops.real(ops.ifft2(ops.fft2(x))).asnumpy(), INPUTS["x"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ops.hfft(ops.ihfft(x), n=4).asnumpy(), INPUTS["x"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(FWS_CASES))
def test_fft_with_size_as_mindspore(name):
    args, kwargs, key = FWS_CASES[name]
    got = ops.FFTWithSize(*args, **kwargs)(Tensor(INPUTS[key]))
    np.testing.assert_allclose(got.asnumpy(), ORACLE[name], rtol=2e-5, atol=2e-5)


def test_fft_with_size_misuse():
    with pytest.raises(RuntimeError, match="signal_ndim"):
        ops.FFTWithSize(4, False, False)(Tensor(INPUTS["c"]))
    with pytest.raises(TypeError, match="rfft mode"):
        ops.FFTWithSize(1, False, True)(Tensor(INPUTS["c"]))
    with pytest.raises(TypeError, match="fft/ifft mode"):
        ops.FFTWithSize(1, False, False)(Tensor(INPUTS["x"]))
