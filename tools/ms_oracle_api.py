"""Regenerate tests/api/data/<area>.npz with real MindSpore 2.10:
    /work/msvenv/bin/python tools/ms_oracle_api.py [area ...]
Each case of tests/api/cases/<area>.py is evaluated under MindSpore (names: mnp = mindspore.numpy, mint,
F = mint.nn.functional, ops, nn, ms, np, Tensor); its inputs, outputs (or the exception type and message) and,
for grad cases, the gradients of sum(out * cot) w.r.t. its float inputs are stored for
tests/api/test_api_oracle.py."""
import sys
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
import mindspore.numpy as mnp  # noqa: E402
from mindspore import Tensor, mint, nn, ops  # noqa: E402
from api.cases import flatten, load_cases  # noqa: E402


def namespace(values):
    ns = {"ops": ops, "ms": ms, "np": np, "Tensor": Tensor, "nn": nn, "mnp": mnp, "mint": mint,
          "F": mint.nn.functional}
    for k, v in values.items():
        ns[k] = ms.Parameter(Tensor(v), name=k) if k.startswith("p_") else Tensor(v)
    return ns


NO_KERNEL = ("unregistered", "only supports Ascend")


def gradients(case, values, outs, expr):
    names = [k for k, v in values.items() if v.dtype.kind == "f" and not k.startswith("p_")]
    cots = [case.cotangent(o) if o.dtype.kind == "f" else None for o in outs]

    def loss(*args):
        ns = namespace(values)
        ns.update(zip(names, args))
        res = [o for o in _tensors(eval(expr, ns))]  # noqa: S307 - our own case table
        total = 0
        for o, c in zip(res, cots):
            if c is not None:
                total = total + (o * Tensor(c)).sum()
        return total

    args = [Tensor(values[k]) for k in names]
    g = ms.grad(loss, grad_position=tuple(range(len(names))))(*args)
    g = g if isinstance(g, tuple) else (g,)
    return dict(zip(names, [x.asnumpy() for x in g]))


def _tensors(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o)]
    return [out]


def _evaluate(expr, values):
    ms.set_seed(0)
    return flatten(eval(expr, namespace(values)))  # noqa: S307 - our own case table


def run(area, cases):
    store = {}
    for case in cases:
        values = case.make()
        for k, v in values.items():
            store[f"{case.key}|in|{k}"] = v
        expr, outs, err = case.expr, None, None
        try:
            outs = _evaluate(expr, values)
        except Exception as exc:  # noqa: BLE001
            err = exc
        if err is not None and case.alt and any(s in str(err) for s in NO_KERNEL):
            # MindSpore 2.10's CPU build has no kernel for this mint op: the case's equivalent call instead
            expr, err = case.alt, None
            store[f"{case.key}|alt"] = np.array(expr)
            try:
                outs = _evaluate(expr, values)
            except Exception as exc:  # noqa: BLE001
                err = exc
        if err is not None:
            store[f"{case.key}|raises"] = np.array(type(err).__name__)
            store[f"{case.key}|message"] = np.array(str(err).strip().splitlines()[0][:300] if str(err) else "")
            if case.check != "raises":
                print(f"{area}:{case.key}: MindSpore raised {type(err).__name__}: {str(err)[:200]}")
            continue
        if case.check == "raises":
            print(f"{area}:{case.key}: MindSpore did not raise")
        store[f"{case.key}|n"] = np.array(len(outs))
        for i, o in enumerate(outs):
            store[f"{case.key}|out|{i}"] = o
        if case.grad:
            try:
                for k, g in gradients(case, values, outs, expr).items():
                    store[f"{case.key}|grad|{k}"] = g
            except Exception as exc:  # noqa: BLE001
                print(f"{area}:{case.key}: MindSpore gradient failed {type(exc).__name__}: {str(exc)[:200]}")
    path = ROOT / "tests" / "api" / "data" / f"{area}.npz"
    np.savez_compressed(path, **store)
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    # synchronous: an operator's error surfaces in its own case, not at the next one's read
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU", pynative_synchronize=True)
    for area, cases in load_cases(sys.argv[1:] or None).items():
        try:
            run(area, cases)
        except Exception:  # noqa: BLE001
            traceback.print_exc()
