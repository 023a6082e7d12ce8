"""Write tests/train_api/fixtures/metrics.npz with MindSpore 2.10's metric results for the cases in
tests/train_api/metric_cases.py: /work/msvenv/bin/python tools/metrics_oracle.py"""
import importlib.util
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

ROOT = Path(__file__).resolve().parents[1]


def flat(value):
    if isinstance(value, (tuple, list)):
        return [y for v in value for y in flat(v)]
    return [np.asarray(value.asnumpy() if isinstance(value, Tensor) else value, dtype=np.float64)]


def main():
    spec = importlib.util.spec_from_file_location("metric_cases", ROOT / "tests" / "train_api" / "metric_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    ns = {"nn": nn, "np": np, "Tensor": Tensor, "ms": ms}
    store = {}
    for key, ctor, updates, eval_kwargs in cases.CASES:
        metric = eval(ctor, ns)
        if eval_kwargs is None:  # a plain function (auc)
            result = metric(*[eval(a, ns) for a in updates[0]])
        else:
            for args in updates:
                metric.update(*[eval(a, ns) for a in args])
            result = metric.eval(**eval_kwargs)
        for i, v in enumerate(flat(result)):
            store[f"{key}|{i}"] = v
    for key, code in cases.ERRORS:
        try:
            exec(code, dict(ns))
            store[f"{key}|error"] = np.array("ok")
        except Exception as e:  # noqa: BLE001 - we record which exception MindSpore raises
            store[f"{key}|error"] = np.array(type(e).__name__)
    np.savez_compressed(ROOT / "tests" / "train_api" / "fixtures" / "metrics.npz", **store)
    print(len(cases.CASES), "cases", len(cases.ERRORS), "errors")


if __name__ == "__main__":
    main()
