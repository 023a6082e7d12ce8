"""Write the MindSpore fixtures of the nn case modules (tests/nn/cases/*.py) with real MindSpore 2.10:

    /work/msvenv/bin/python tools/nn_oracle_cases.py [module ...]    # default: every module

For each case the cell is built from the same constructor string sprout's tests use; the fixture
(tests/nn/fixtures/<module>.npz) stores its parameters (names, shapes, values), the inputs, the outputs,
the gradients of sum(out * cotangent) w.r.t. the float inputs and trainable parameters, and the
parameters after the call (state updated in train mode). For each error case it stores the name of the
exception MindSpore raises (or "ok")."""
import importlib.util
import json
import sys
import zlib
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "nn" / "cases"
FIXTURES = ROOT / "tests" / "nn" / "fixtures"


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"cases_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_input(spec, rng, previous=()):
    if isinstance(spec, dict) and "near" in spec:  # input #near plus a little noise (correlated images ...)
        base = previous[spec["near"]]
        return (base + rng.standard_normal(base.shape) * spec.get("noise", 0.1)).astype(base.dtype)
    if isinstance(spec, tuple):
        return rng.standard_normal(spec).astype(np.float32)
    if "value" in spec:
        return np.asarray(eval(spec["value"], {"np": np}))
    dtype = spec.get("dtype", "float32")
    if "high" in spec:
        return rng.integers(spec.get("low", 0), spec["high"], spec["shape"]).astype(dtype)
    if "uniform" in spec:
        lo, hi = spec["uniform"]
        return rng.uniform(lo, hi, spec["shape"]).astype(dtype)
    return rng.standard_normal(spec["shape"]).astype(dtype)


def flat(out):
    if not isinstance(out, (tuple, list)):
        return [out]
    res = []
    for o in out:
        if isinstance(o, (tuple, list)):
            for p in o:
                res.append(p)
        else:
            res.append(o)
    return res


def call_cell(cell, *args):
    return cell(*args)


def namespace():
    return {"nn": nn, "ms": ms, "Tensor": Tensor, "np": np, "ops": ops, "mstype": ms}


def run_case(case, store):
    ms.set_context(mode=ms.GRAPH_MODE if case.get("ms_graph") else ms.PYNATIVE_MODE)
    key = case["key"]
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    ms.set_seed(1)
    ns = namespace()
    cell = eval(case["ctor"], ns)
    if case.get("randomize"):
        for p in cell.get_parameters():
            lo, hi = (0.5, 1.5) if "var" in p.name else (-1.0, 1.0)
            p.set_data(Tensor(rng.uniform(lo, hi, p.shape).astype(np.float32)))
    params = list(cell.parameters_and_names()) if isinstance(cell, nn.Cell) else []
    store[f"{key}|names"] = np.array(json.dumps([(p.name, list(p.shape), p.requires_grad) for _, p in params]))
    for _, p in params:
        store[f"{key}|p|{p.name}"] = p.asnumpy().copy()
    xs = []
    for spec in case.get("inputs", []):
        xs.append(make_input(spec, rng, xs))
    for i, x in enumerate(xs):
        store[f"{key}|in|{i}"] = x
    call = case.get("call", call_cell)
    if case.get("train"):
        cell.set_train(True)  # (cases that test a function never set train)
    out = flat(call(cell, *[Tensor(x) for x in xs]))
    ms.runtime.synchronize()
    for i, o in enumerate(out):
        store[f"{key}|out|{i}"] = o.asnumpy().copy() if isinstance(o, Tensor) else np.asarray(o)
    for _, p in params:
        store[f"{key}|after|{p.name}"] = p.asnumpy().copy()
    if not case.get("grad", True):
        return
    fouts = [i for i, o in enumerate(out) if isinstance(o, Tensor) and o.dtype in (ms.float32, ms.float64)]
    cots = [rng.standard_normal(out[i].shape).astype(np.float32) for i in fouts]
    for i, c in zip(fouts, cots):
        store[f"{key}|cot|{i}"] = c
    pos = tuple(i for i, x in enumerate(xs) if x.dtype.kind == "f")
    weights = cell.trainable_params() if isinstance(cell, nn.Cell) else []
    if not pos and not weights or not fouts:
        return

    def objective(*args):
        o = flat(call(cell, *args))
        total = 0
        for i, c in zip(fouts, cots):
            total = total + (o[i] * Tensor(c)).sum()
        return total

    g = ms.grad(objective, grad_position=pos if pos else None, weights=weights if weights else None)(
        *[Tensor(x) for x in xs])
    if pos and weights:
        gin, gw = g
    elif pos:
        gin, gw = g, ()
    else:
        gin, gw = (), g
    gin = gin if isinstance(gin, tuple) else (gin,)
    for i, gi in zip(pos, gin):
        store[f"{key}|gin|{i}"] = gi.asnumpy().copy()
    for p, gp in zip(weights, gw):
        g = gp.asnumpy().copy()
        if p.name in case.get("row_grad", {}):  # a sparse (row) gradient: one row per looked-up index
            ids = xs[case["row_grad"][p.name]].reshape(-1)
            dense = np.zeros(p.shape, g.dtype)
            for row, i in zip(g, ids):
                if 0 <= i < p.shape[0]:
                    dense[i] += row
            g = dense
        store[f"{key}|gw|{p.name}"] = g


def run_error(key, code, store):
    ns = namespace()
    ms.set_seed(1)
    try:
        exec(code, ns)
        ms.runtime.synchronize()  # kernels report some errors asynchronously: surface them here
        store[f"{key}|error"] = np.array("ok")
    except Exception as e:  # noqa: BLE001 - we record which exception MindSpore raises
        store[f"{key}|error"] = np.array(type(e).__name__)


def main(names):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    paths = [CASES / f"{n}.py" for n in names] if names else sorted(CASES.glob("*.py"))
    for path in paths:
        if path.stem.startswith("_"):
            continue
        module = load(path)
        store = {}
        for case in getattr(module, "CASES", []):
            try:
                run_case(case, store)
            except Exception as e:
                print(f"{path.stem}:{case['key']}: MindSpore failed: {type(e).__name__}: {str(e)[:300]}")
                raise
        for key, code in getattr(module, "ERRORS", []):
            run_error(key, code, store)
        np.savez_compressed(FIXTURES / f"{path.stem}.npz", **store)
        print(path.stem, len(getattr(module, "CASES", [])), "cases", len(getattr(module, "ERRORS", [])), "errors")


if __name__ == "__main__":
    main(sys.argv[1:])
