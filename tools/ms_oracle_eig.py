"""Run in MindSpore's venv: MindSpore 2.10's ops.eig / ops.eigvals -> tests/ops/data/oracle_eig.npz.

    /work/msvenv/bin/python tools/ms_oracle_eig.py

Stores each case's input and MindSpore's eigenvalues and eigenvectors (complex64 for float32/complex64 inputs,
complex128 otherwise); tests/ops/test_eig_oracle.py compares sprout up to the order and phase Eigen leaves open.
MindSpore's Tensor.eigvals is broken there (it calls eigvals without the matrix), so it is not recorded."""
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "ops" / "data" / "oracle_eig.npz"
_GENERAL = np.array([[1.0, -2.0, 0.5], [3.0, 1.0, 0.0], [0.2, 0.1, 2.0]])
_REAL = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [7.0, 8.2, 1.0]])
CASES = {
    "diag_f32": np.array([[2.0, 0.0], [0.0, 3.0]], np.float32),
    "rotation_f32": np.array([[0.0, -1.0], [1.0, 0.0]], np.float32),
    "rotation_f64": np.array([[0.0, -1.0], [1.0, 0.0]]),
    "real_f32": _REAL.astype(np.float32), "real_f64": _REAL,
    "general_f32": _GENERAL.astype(np.float32), "general_f64": _GENERAL,
    "complex_c64": np.array([[1 + 1j, 2], [0.5j, 3 - 1j]], np.complex64),
    "complex_c128": np.array([[1 + 1j, 2, 0.3j], [0.5j, 3 - 1j, 1], [0.1, -1j, -2]]),
    "batch_f32": np.stack([np.array([[0.0, -1.0], [1.0, 0.0]]), 2 * np.eye(2)]).astype(np.float32),
}


def main():
    import mindspore as ms
    from mindspore import ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    data = {}
    for name, x in CASES.items():
        w, v = ops.eig(ms.Tensor(x))
        data[name + "/x"], data[name + "/w"], data[name + "/v"] = x, w.asnumpy(), v.asnumpy()
        data[name + "/eigvals"] = ops.eigvals(ms.Tensor(x)).asnumpy()
    for dt in (np.float16, np.int32):
        try:
            ops.eig(ms.Tensor(np.eye(2, dtype=dt)))
            data[f"error_{np.dtype(dt).name}"] = np.array("")
        except TypeError as e:
            data[f"error_{np.dtype(dt).name}"] = np.array(str(e).splitlines()[0])
    np.savez(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
