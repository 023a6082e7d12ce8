"""Regenerate tests/ops/data/oracle_<area>.npz with real MindSpore:
    /work/msvenv/bin/python tools/ms_oracle_ops.py [area ...]
Each case of tests/ops/oracle/cases_<area>.py is evaluated under MindSpore; its inputs, its outputs (or
the exception type it raised) are stored for tests/ops/test_oracle.py, which runs the same expressions
under sprout."""
import sys
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ops"))

import mindspore as ms  # noqa: E402
from mindspore import Tensor, ops, nn  # noqa: E402,F401
from oracle import flatten, helpers, load_cases  # noqa: E402


def namespace(values, case, area):
    ns = {"ops": ops, "ms": ms, "np": np, "Tensor": Tensor, "nn": nn, **helpers(area)}
    for k, v in values.items():
        ns[k] = ms.Parameter(Tensor(v), name=k) if k.startswith("p_") else Tensor(v)
    return ns


def run(area, cases):
    store = {}
    for case in cases:
        values = case.make()
        for k, v in values.items():
            store[f"{case.key}|in|{k}"] = v
        ms.set_seed(0)
        try:
            out = eval(case.expr, namespace(values, case, area))  # noqa: S307 - our own case table
            outs = flatten(out)  # MindSpore may raise only when the value is read
        except Exception as exc:  # noqa: BLE001
            store[f"{case.key}|raises"] = np.array(type(exc).__name__)
            if case.check != "raises":
                print(f"{area}:{case.key}: MindSpore raised {type(exc).__name__}: {str(exc)[:200]}")
            continue
        if case.check == "raises":
            print(f"{area}:{case.key}: MindSpore did not raise")
        store[f"{case.key}|n"] = np.array(len(outs))
        for i, o in enumerate(outs):
            store[f"{case.key}|out|{i}"] = o
    path = ROOT / "tests" / "ops" / "data" / f"oracle_{area}.npz"
    np.savez_compressed(path, **store)
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    wanted = sys.argv[1:]
    for area, cases in load_cases().items():
        if not wanted or area in wanted:
            try:
                run(area, cases)
            except Exception:  # noqa: BLE001
                traceback.print_exc()
