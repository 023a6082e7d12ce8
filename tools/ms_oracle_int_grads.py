"""Run in MindSpore's venv: MindSpore 2.10 (CPU) gradients of tests/autodiff/int_grad_cases.py (int32 inputs),
PyNative and jit (AST capture) -> tests/autodiff/data/ms_int_grads.json.

    /work/msvenv/bin/python tools/ms_oracle_int_grads.py"""
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "autodiff" / "data" / "ms_int_grads.json"
sys.path.insert(0, str(ROOT / "tests" / "autodiff"))

import int_grad_cases as C  # noqa: E402


def _record(grads) -> list:
    return [[str(g.dtype), np.asarray(g.asnumpy()).tolist()] for g in grads]


def main():
    import mindspore as ms
    from mindspore import ops

    C.use(ms)
    grad_all = ops.GradOperation(get_all=True)
    out = {}
    for name, (fn, _) in C.CASES.items():
        out[name] = {"pynative": _record(grad_all(fn)(*C.inputs(name))),
                     "jit": _record(grad_all(ms.jit(fn))(*C.inputs(name)))}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
