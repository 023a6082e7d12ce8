"""Record MindSpore 2.10's graph-mode results (jit_syntax_level=STRICT) for the variable-scalar cases
(tests/capture_ast/scalar_cases.py: ``float(t)``, ``int(t)``, ``bool(t)``, ``t.item()``, ``t.tolist()``) and their
gradients into tests/capture_ast/data/ms_variable_scalars.json. Run with the MindSpore venv:
    /work/msvenv/bin/python tools/ms_oracle_variable_scalars.py
"""
import json
import os
import sys

import mindspore as ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "capture_ast"))
from scalar_cases import make_cases  # noqa: E402
from ms_fallback_fixtures import plain  # noqa: E402  (this script's directory is on sys.path)


def run(fn, args):
    try:
        return {"ok": True, "result": plain(fn(*args))}
    except Exception as exc:  # noqa: BLE001 - recorded as MindSpore's behaviour
        return {"ok": False, "error": type(exc).__name__, "message": str(exc).strip().splitlines()[0][:200]}


def summed(fn):
    """``fn``'s tensor results summed into one scalar to differentiate (a closure: MindSpore's graph resolves it)."""
    def total(*a):
        r = fn(*a)
        r = r if isinstance(r, tuple) else (r,)
        s = 0
        for v in r:
            if isinstance(v, ms.Tensor):
                s = s + v.sum()
        return s

    return total


def main():
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)
    out = {"mindspore": ms.__version__, "cases": {}}
    for name, c in make_cases(ms).items():
        rec = {"jit": run(ms.jit(c.fn), c.args)}
        if c.grad:
            total = summed(c.fn)
            rec["grad"] = run(ms.jit(ms.grad(total)), c.args)
            ms.set_context(mode=ms.PYNATIVE_MODE)
            rec["grad_pynative"] = run(ms.grad(total), c.args)
            ms.set_context(mode=ms.GRAPH_MODE)
        out["cases"][name] = rec
    path = os.path.join(ROOT, "tests", "capture_ast", "data", "ms_variable_scalars.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
