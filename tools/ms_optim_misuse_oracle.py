"""Run in MindSpore's venv: which misuses of the in-place optimizer updates MindSpore 2.10 (CPU) rejects, and with
which exception type -> tests/ops/data/optim_misuse.json (the cases live in tests/ops/optim_misuse_cases.py).

    /work/msvenv/bin/python tools/ms_optim_misuse_oracle.py
"""
import json
import sys
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, ops

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ops"))
from optim_misuse_cases import CASES  # noqa: E402


def main() -> None:
    out = {}
    env = {"ops": ops, "Tensor": Tensor, "np": np,
           "P": lambda a, n: Parameter(Tensor(np.asarray(a)), name=n)}
    for name, expr in CASES.items():
        try:
            eval(expr, dict(env))  # noqa: S307 - our own fixed expressions
            out[name] = "OK"
        except Exception as e:  # the type is what the test compares
            out[name] = type(e).__name__
    (ROOT / "tests" / "ops" / "data" / "optim_misuse.json").write_text(json.dumps(out, indent=1, sort_keys=True))
    print(out)


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE)
    main()
