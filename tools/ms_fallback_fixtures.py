"""Record MindSpore's results for the JIT Fallback cases (tests/capture_ast/fallback_cases.py), the seed-002
example and the canonical graph-mode patterns (tests/capture_ast/ms_patterns.py) into
tests/capture_ast/data/ms_fallback.json. Run with the MindSpore venv:
    /work/msvenv/bin/python tools/ms_fallback_fixtures.py
"""
import contextlib
import io
import json
import os
import sys

import numpy as np
import mindspore as ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "capture_ast"))
from fallback_cases import make_cases, seed_002_run  # noqa: E402
from ms_patterns import make_patterns, run_pattern  # noqa: E402


def plain(v):
    """A JSON description of a result: its Python type and values."""
    if isinstance(v, ms.Tensor):
        return {"type": "Tensor", "dtype": str(v.dtype), "shape": list(v.shape), "value": v.asnumpy().tolist()}
    if isinstance(v, np.ndarray):
        return {"type": "ndarray", "dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
    if isinstance(v, (tuple, list)):
        return {"type": type(v).__name__, "items": [plain(x) for x in v]}
    if isinstance(v, dict):
        return {"type": "dict", "keys": list(v), "items": [plain(x) for x in v.values()]}
    if isinstance(v, np.generic):
        return {"type": type(v).__name__, "value": v.item()}
    if isinstance(v, (bool, int, float, str)) or v is None:
        return {"type": type(v).__name__, "value": v}
    return {"type": type(v).__name__, "value": repr(v)}


def run(fn, args):
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            out = fn(*args)
        return {"ok": True, "result": plain(out), "printed": buf.getvalue()}
    except Exception as exc:  # noqa: BLE001 - recorded as MindSpore's behaviour
        return {"ok": False, "error": type(exc).__name__, "message": str(exc).splitlines()[0][:200]}


def seed_002():
    """Seed 002: a Network (with Parameters) created inside a jitted function."""
    run_net = seed_002_run(ms)
    x = ms.Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))
    ms.set_seed(1)
    e1, e2 = run_net(x).asnumpy(), run_net(x).asnumpy()
    ms.set_seed(1)
    jitted = ms.jit(run_net)
    j1, j2 = jitted(x).asnumpy(), jitted(x).asnumpy()
    return {"shape": list(j1.shape), "jit1_equals_eager1": bool(np.allclose(j1, e1)),
            "jit2_equals_jit1": bool(np.allclose(j2, j1)), "eager2_equals_eager1": bool(np.allclose(e2, e1))}


def main():
    out = {"mindspore": ms.__version__, "cases": {}}
    for name, c in make_cases(ms).items():
        out["cases"][name] = {"eager": run(c.fn, c.args), "jit": run(ms.jit(c.fn), c.args)}
    out["seed_002"] = seed_002()
    out["patterns"] = {}
    for name, p in make_patterns(ms).items():
        out["patterns"][name] = {"eager": run(run_pattern, (ms, p, False)), "graph": run(run_pattern, (ms, p, True))}
    path = os.path.join(ROOT, "tests", "capture_ast", "data", "ms_fallback.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
