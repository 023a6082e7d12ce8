"""Write tests/experimental/data/optim.npz: every parameter after each step of each case in
tests/experimental/optim_cases.py under MindSpore 2.10's mindspore.experimental.optim, and the exception type of
each rejected construction: /work/msvenv/bin/python tools/ms_exp_optim_oracle.py"""
import importlib.util
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.experimental import optim

ROOT = Path(__file__).resolve().parents[1]


def _optimizer(cases):
    params = cases.make_params(Parameter, Tensor, np)
    return optim.SGD(eval(cases.G2, {"params": params}), lr=0.1)  # noqa: S307 - our own case table


def _lrs(opt, sched):
    return (np.array([float(v.asnumpy()) for v in sched.get_last_lr()], np.float32),
            np.array([float(g["lr"].asnumpy()) for g in opt.param_groups], np.float32))


def schedulers(cases, store):
    from mindspore.experimental.optim import lr_scheduler

    for key, ctor, calls in cases.SCHEDULERS:
        opt = _optimizer(cases)
        try:
            sched = eval(ctor, {"lr_scheduler": lr_scheduler, "opt": opt})  # noqa: S307
            store[f"sched|{key}|init|last"], store[f"sched|{key}|init|group"] = _lrs(opt, sched)
            for i, args in enumerate(calls):
                sched.step(*args)
                store[f"sched|{key}|{i}|last"], store[f"sched|{key}|{i}|group"] = _lrs(opt, sched)
        except Exception as e:  # noqa: BLE001
            print(f"{key}: MindSpore cannot run it: {type(e).__name__}: {str(e).strip().splitlines()[-1][:160]}")
    for key, code in cases.SCHEDULER_ERRORS:
        try:
            eval(code, {"lr_scheduler": lr_scheduler, "opt": _optimizer(cases)})  # noqa: S307
            store[f"sched|{key}|error"] = np.array("ok")
        except Exception as e:  # noqa: BLE001 - we record which exception MindSpore raises
            store[f"sched|{key}|error"] = np.array(type(e).__name__)


def main():
    spec = importlib.util.spec_from_file_location("optim_cases", ROOT / "tests" / "experimental" / "optim_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    store = {}
    for key, ctor in cases.CASES:
        params = cases.make_params(Parameter, Tensor, np)
        try:
            opt = eval(ctor, {"optim": optim, "params": params})  # noqa: S307 - our own case table
            for step in range(cases.STEPS):
                grads = cases.gradient_arrays(step, np)
                opt(tuple(Tensor(grads[p.name]) for p in opt.parameters))
                for p in params:
                    store[f"{key}|{step}|{p.name}"] = p.asnumpy().copy()
        except Exception as e:  # noqa: BLE001
            print(f"{key}: MindSpore cannot run it: {type(e).__name__}: {str(e).strip().splitlines()[-1][:160]}")
    for key, code in cases.ERRORS:
        try:
            eval(code, {"optim": optim, "params": cases.make_params(Parameter, Tensor, np)})  # noqa: S307
            store[f"{key}|error"] = np.array("ok")
        except Exception as e:  # noqa: BLE001 - we record which exception MindSpore raises
            store[f"{key}|error"] = np.array(type(e).__name__)
    schedulers(cases, store)
    out = ROOT / "tests" / "experimental" / "data"
    out.mkdir(exist_ok=True)
    np.savez_compressed(out / "optim.npz", **store)
    print(len(cases.CASES), "cases", len(cases.ERRORS), "errors")


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    main()
