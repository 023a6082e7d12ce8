"""MindSpore's canonical graph-mode patterns (ms_patterns.py): each runs in graph mode with eager's results,
and with MindSpore 2.10's results where MindSpore records them (data/ms_fallback.json, "patterns")."""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import sprout as ms

from .ms_patterns import make_patterns, run_pattern

PATTERNS = make_patterns(ms)
with open(os.path.join(os.path.dirname(__file__), "data", "ms_fallback.json")) as _f:
    MS = json.load(_f)["patterns"]


def plain(v):
    """The same description tools/ms_fallback_fixtures.py stores for MindSpore's results."""
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
    return {"type": type(v).__name__, "value": v}


_NUMPY_SCALARS = {"int32": "int", "int64": "int", "float32": "float", "float64": "float", "bool_": "bool"}


def agree(a, b, where, numpy1=False):
    """``b`` agrees with ``a``. ``numpy1``: ``a`` was made under NumPy 1 (MindSpore's venv), whose value-based
    casting gives NumPy results other dtypes than NumPy 2's (``int32 array * 2`` is int64 there): NumPy
    values are then compared by kind and value."""
    ta, tb = a["type"], b["type"]
    if numpy1:
        ta, tb = _NUMPY_SCALARS.get(ta, ta), _NUMPY_SCALARS.get(tb, tb)
    assert ta == tb, f"{where}: {a['type']} vs {b['type']}"
    if "items" in a:
        assert len(a["items"]) == len(b["items"]) and a.get("keys") == b.get("keys"), where
        for i, (x, y) in enumerate(zip(a["items"], b["items"])):
            agree(x, y, f"{where}[{i}]", numpy1)
        return
    if "dtype" in a and not (numpy1 and a["type"] == "ndarray"):
        assert (a["dtype"], a["shape"]) == (b["dtype"], b["shape"]), f"{where}: {a} vs {b}"
    if isinstance(a["value"], str) or a["value"] is None:
        assert a["value"] == b["value"], f"{where}: {a['value']!r} vs {b['value']!r}"
    else:
        np.testing.assert_allclose(np.asarray(a["value"], np.float64), np.asarray(b["value"], np.float64),
                                   rtol=1e-5, atol=1e-6, err_msg=where)


def run(p, graph):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = run_pattern(ms, p, graph)
    return plain(out), buf.getvalue()


@pytest.mark.parametrize("name", list(PATTERNS))
def test_pattern_runs_in_graph_mode_with_eager_results(name):
    p = PATTERNS[name]
    eager, printed = run(p, False)
    graph, graph_printed = run(p, True)
    agree(eager, graph, name)
    assert graph_printed == printed


@pytest.mark.parametrize("name", [n for n in PATTERNS if MS[n]["graph"]["ok"]])
def test_pattern_matches_mindspore(name):
    graph, _ = run(PATTERNS[name], True)
    agree(MS[name]["graph"]["result"], graph, name, numpy1=True)


def test_catalogue_size():
    assert len(PATTERNS) >= 28 and all(MS[n]["graph"]["ok"] for n in PATTERNS)


# the patterns whose graph needs Python at run time (JIT Fallback): every other one compiles to graphs only
HOST = {"numpy_exp_in_cell_method", "asnumpy_round_trip", "undecorated_class_calling_asnumpy", "is_on_int_of_tensor",
        "builtins_on_tensors", "string_of_computed_tensor",
        "recursion_on_a_tensor_condition"}


@pytest.mark.parametrize("name", [n for n, p in PATTERNS.items() if p.mode is None])
def test_only_fallback_patterns_use_host_segments(name):
    from sprout.jit import host

    before = sum(r.count for r in host.records())
    run(PATTERNS[name], True)
    after = sum(r.count for r in host.records())
    assert (after > before) == (name in HOST), (name, host.records()[-1:] if after > before else "no host segment")
