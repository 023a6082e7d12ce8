"""Write tests/nn/fixtures/optim.npz with MindSpore 2.10's parameters and optimizer state after three steps of each
case in tests/nn/optim_cases.py: /work/msvenv/bin/python tools/optim_oracle.py"""
import importlib.util
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn

ROOT = Path(__file__).resolve().parents[1]


def make_params():
    rng = np.random.default_rng(0)
    return [Parameter(Tensor(rng.standard_normal((4, 16)).astype(np.float32)), name="w"),
            Parameter(Tensor(rng.standard_normal(2).astype(np.float32)), name="bias"),
            Parameter(Tensor(rng.uniform(0.5, 1.5, 2).astype(np.float32)), name="norm.gamma")]


def gradients(step, order):
    """Step ``step``'s gradients of w, bias, norm.gamma, in the order of the optimizer's ``parameters``."""
    rng = np.random.default_rng(100 + step)
    by_name = {name: Tensor(rng.standard_normal(s).astype(np.float32) * (1.0 + step))
               for name, s in (("w", (4, 16)), ("bias", (2,)), ("norm.gamma", (2,)))}
    return tuple(by_name[p.name] for p in order)


def main():
    spec = importlib.util.spec_from_file_location("optim_cases", ROOT / "tests" / "nn" / "optim_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    store = {}
    for key, ctor in cases.CASES:
        ms.set_seed(0)
        params = make_params()
        try:
            opt = eval(ctor, {"nn": nn, "params": params, "ms": ms})
            for step in range(3):
                opt(gradients(step, opt.parameters))
        except Exception as e:  # noqa: BLE001 - kernels missing from MindSpore's CPU build: no fixture
            print(f"{key}: MindSpore cannot run it: {type(e).__name__}: {str(e).strip().splitlines()[-1][:160]}")
            continue
        for p in opt.get_parameters():
            store[f"{key}|{p.name}"] = p.asnumpy().copy()
        for p in params:
            store[f"{key}|{p.name}"] = p.asnumpy().copy()
    for key, code in cases.ERRORS:
        try:
            exec(code, {"nn": nn, "params": make_params(), "ms": ms})
            store[f"{key}|error"] = np.array("ok")
        except Exception as e:  # noqa: BLE001 - we record which exception MindSpore raises
            store[f"{key}|error"] = np.array(type(e).__name__)
    np.savez_compressed(ROOT / "tests" / "nn" / "fixtures" / "optim.npz", **store)
    print(len(cases.CASES), "cases", len(cases.ERRORS), "errors")


if __name__ == "__main__":
    main()
