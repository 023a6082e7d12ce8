"""Run in MindSpore's venv: MindSpore 2.10's FFT functions (values and gradients) -> tests/ops/data/oracle_fft.npz.

    /work/msvenv/bin/python tools/ms_oracle_fft.py

The same cases (name -> (function, kwargs, input)) are rebuilt by tests/ops/test_fft.py from FFT_CASES below."""
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "ops" / "data" / "oracle_fft.npz"
X = (np.arange(12, dtype=np.float32).reshape(3, 4) * 0.37 - 1.1) ** 2 / 3 - 0.5
Y = np.cos(np.arange(12, dtype=np.float32).reshape(3, 4))
C = (X + 1j * Y).astype(np.complex64)
# name: (function, kwargs, input key); "x" real float32, "c" complex64, "i" int64
FFT_CASES = {
    "fft": ("fft", {}, "x"), "fft_n6_dim0": ("fft", {"n": 6, "dim": 0}, "c"), "fft_int": ("fft", {}, "i"),
    "fft_ortho": ("fft", {"norm": "ortho"}, "c"), "ifft_n3_forward": ("ifft", {"n": 3, "norm": "forward"}, "c"),
    "fft2": ("fft2", {}, "c"), "ifft2_s": ("ifft2", {"s": (2, 5)}, "c"), "fftn": ("fftn", {}, "x"),
    "ifftn_dim0": ("ifftn", {"dim": (0,)}, "c"), "rfft": ("rfft", {}, "x"), "rfft_n7": ("rfft", {"n": 7}, "x"),
    "irfft": ("irfft", {}, "c"), "irfft_n5_ortho": ("irfft", {"n": 5, "norm": "ortho"}, "c"),
    "rfft2": ("rfft2", {}, "x"), "irfft2": ("irfft2", {}, "c"), "rfftn_s": ("rfftn", {"s": (2, 6)}, "x"),
    "irfftn": ("irfftn", {}, "c"), "hfft": ("hfft", {}, "c"), "hfft_n7": ("hfft", {"n": 7}, "c"),
    "ihfft": ("ihfft", {}, "x"), "hfft2": ("hfft2", {}, "c"), "ihfft2": ("ihfft2", {}, "x"),
    "hfftn_forward": ("hfftn", {"norm": "forward"}, "c"), "ihfftn": ("ihfftn", {}, "x"),
}
INPUTS = {"x": X, "c": C, "i": np.arange(5, dtype=np.int64)}
# ops.FFTWithSize(signal_ndim, inverse, real, **kwargs) on input key
FWS_CASES = {
    "fws_c2c": ((1, False, False), {}, "c"), "fws_c2c_inv_ortho": ((2, True, False), {"norm": "ortho"}, "c"),
    "fws_r2c": ((1, False, True), {}, "x"), "fws_r2c_full": ((2, False, True), {"onesided": False}, "x"),
    "fws_c2r": ((1, True, True), {}, "c"), "fws_c2r_sizes": ((2, True, True), {"signal_sizes": (3, 6)}, "c"),
    "fws_c2r_full": ((1, True, True), {"onesided": False}, "c"),
}


def main() -> None:
    import mindspore as ms
    from mindspore import Tensor, ops

    out = {}
    for name, (fn, kwargs, key) in FFT_CASES.items():
        got = getattr(ops, fn)(Tensor(INPUTS[key]), **kwargs)
        out[name] = got.asnumpy()
        out[f"{name}_dtype"] = np.array(str(got.dtype))
        if key == "i":
            continue

        def loss(t, fn=fn, kwargs=kwargs):
            y = getattr(ops, fn)(t, **kwargs)
            if y.dtype in (ms.complex64, ms.complex128):
                y = ops.ComplexAbs()(y)
            w = Tensor(np.linspace(0.5, 1.5, y.size, dtype=np.float32).reshape(y.shape))
            return (y * w).sum()

        out[f"{name}_grad"] = ms.grad(loss)(Tensor(INPUTS[key])).asnumpy()
    for name, (args, kwargs, key) in FWS_CASES.items():
        out[name] = ops.FFTWithSize(*args, **kwargs)(Tensor(INPUTS[key])).asnumpy()
    np.savez(OUT, **out)
    print(f"wrote {len(out)} arrays to {OUT}")


if __name__ == "__main__":
    main()
