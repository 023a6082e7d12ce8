"""Run in MindSpore's venv: MindSpore 2.10 (CPU) PyNative gradients of tests/autodiff/inplace_grad_cases.py
(``y[index] = value`` on a tensor being differentiated) -> tests/autodiff/data/ms_inplace_grads.json.

    /work/msvenv/bin/python tools/ms_oracle_inplace_grads.py"""
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "autodiff" / "data" / "ms_inplace_grads.json"
sys.path.insert(0, str(ROOT / "tests" / "autodiff"))

import inplace_grad_cases as C  # noqa: E402


def main():
    import mindspore as ms

    C.use(ms)
    out = {}
    for name, fn in C.CASES.items():
        x = ms.Tensor(np.array(C.X, np.float32))
        try:
            out[name] = {"grad": np.asarray(ms.grad(fn)(x).asnumpy()).tolist(), "value": float(fn(ms.Tensor(
                np.array(C.X, np.float32))).asnumpy())}
        except Exception as exc:  # noqa: BLE001  (recorded: the test says which cases MindSpore refuses)
            out[name] = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
