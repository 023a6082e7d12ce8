"""Shared harness of the MindSpore-fixture nn tests: load a case module (tests/nn/cases/<name>.py) and its
fixture (tests/nn/fixtures/<name>.npz, written by tools/nn_oracle_cases.py), build the sprout cell with the
same constructor string, load MindSpore's parameter values into it and compare outputs and gradients."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

HERE = Path(__file__).parent
CASE_DIR = HERE / "cases"
FIXTURES = HERE / "fixtures"


def load_module(name: str):
    spec = importlib.util.spec_from_file_location(f"nn_cases_{name}", CASE_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Fixture:
    def __init__(self, name: str):
        self.module = load_module(name)
        with np.load(FIXTURES / f"{name}.npz") as data:
            self.data = {k: data[k] for k in data.files}

    def cases(self) -> list:
        return list(getattr(self.module, "CASES", []))

    def errors(self) -> list:
        return list(getattr(self.module, "ERRORS", []))

    def get(self, key: str, kind: str, idx):
        return self.data.get(f"{key}|{kind}|{idx}")

    def inputs(self, key: str) -> list:
        out, i = [], 0
        while f"{key}|in|{i}" in self.data:
            out.append(self.data[f"{key}|in|{i}"])
            i += 1
        return out

    def names(self, key: str) -> list:
        return json.loads(str(self.data[f"{key}|names"]))


def namespace() -> dict:
    return {"nn": nn, "ms": ms, "Tensor": Tensor, "np": np, "ops": ops, "mstype": ms}


def flat(out) -> list:
    if isinstance(out, (tuple, list)):
        return [y for o in out for y in flat(o)]
    return [out]


def build(fx: Fixture, case: dict):
    """The sprout cell of ``case`` with MindSpore's parameter values; checks names, shapes, requires_grad."""
    ms.set_seed(1)
    cell = eval(case["ctor"], namespace())
    if not isinstance(cell, nn.Cell):  # a functional op under test: no parameters
        return cell
    want = [(n, tuple(s), rg) for n, s, rg in fx.names(case["key"])]
    got = [(p.name, tuple(p.shape), p.requires_grad) for _, p in cell.parameters_and_names()]
    assert got == want, f"{case['key']}: parameters {got} != MindSpore {want}"
    for _, p in cell.parameters_and_names():
        p.set_data(Tensor(fx.get(case["key"], "p", p.name)))
    if case.get("train"):
        cell.set_train(True)
    return cell


def _call_cell(cell, *args):
    return cell(*args)


def caller(case: dict):
    """How the case calls its cell: a function (cell, *inputs) defined in the case module, or cell(*inputs)."""
    return case.get("call", _call_cell)


def close(got, want, what: str, rtol=1e-4, atol=1e-5) -> None:
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != MindSpore {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)


def check_forward(fx: Fixture, case: dict, run=None) -> list:
    """Build, run (``run(fn, args)`` or eagerly) and compare outputs and state with MindSpore's."""
    key = case["key"]
    cell = build(fx, case)
    call = caller(case)
    xs = [Tensor(x) for x in fx.inputs(key)]

    def fn(*args):
        return call(cell, *args)

    out = flat(fn(*xs) if run is None else run(fn, xs))
    tol = case.get("tol", (1e-4, 1e-5))
    i = 0
    while fx.get(key, "out", i) is not None:
        close(out[i], fx.get(key, "out", i), f"{key} output {i}", *tol)
        i += 1
    assert len(out) == i, f"{key}: {len(out)} outputs, MindSpore has {i}"
    for _, p in cell.parameters_and_names() if isinstance(cell, nn.Cell) else ():
        close(p, fx.get(key, "after", p.name), f"{key} parameter {p.name} after the call", *tol)
    return out


def check_grads(fx: Fixture, case: dict, wrap=None) -> None:
    """Gradients of sum(out * cotangent) w.r.t. float inputs and trainable parameters against MindSpore's."""
    key = case["key"]
    if not case.get("grad", True):
        return
    cell = build(fx, case)
    call = caller(case)
    raw = fx.inputs(key)
    xs = [Tensor(x) for x in raw]
    cots = {}
    i = 0
    while f"{key}|out|{i}" in fx.data:
        c = fx.get(key, "cot", i)
        if c is not None:
            cots[i] = Tensor(c)
        i += 1
    pos = tuple(i for i, x in enumerate(raw) if x.dtype.kind == "f")
    weights = cell.trainable_params() if isinstance(cell, nn.Cell) else []
    if not pos and not weights or not cots:
        return

    def objective(*args):
        outs = flat(call(cell, *args))
        total = 0
        for j, c in cots.items():
            total = total + (outs[j] * c).sum()
        return total

    fn = objective if wrap is None else wrap(objective)
    g = ms.grad(fn, grad_position=pos if pos else None, weights=weights if weights else None)(*xs)
    if pos and weights:
        gin, gw = g
    elif pos:
        gin, gw = g, ()
    else:
        gin, gw = (), g
    gin = gin if isinstance(gin, tuple) else (gin,)
    tol = case.get("gtol", case.get("tol", (1e-4, 1e-5)))
    compared = case.get("grad_inputs", pos)  # inputs whose gradient MindSpore defines (others it returns as 0)
    for i, gi in zip(pos, gin):
        if i in compared:
            close(gi, fx.get(key, "gin", i), f"{key} gradient of input {i}", *tol)
    for p, gp in zip(weights, gw):
        close(gp, fx.get(key, "gw", p.name), f"{key} gradient of {p.name}", *tol)


def check_error(fx: Fixture, key: str, code: str, differs: dict) -> None:
    want = str(fx.data[f"{key}|error"])
    want = differs.get(key, want)
    ns = namespace()
    if want == "ok":
        exec(code, ns)
        return
    exc = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError, "IndexError": IndexError,
           "KeyError": KeyError, "NotImplementedError": NotImplementedError}[want]
    with pytest.raises(Exception) as info:
        exec(code, ns)
    assert isinstance(info.value, exc), f"{key}: sprout raised {type(info.value).__name__}: {info.value}; " \
                                        f"MindSpore raises {want}"
