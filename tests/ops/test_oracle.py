"""Functional API calls against real MindSpore 2.10: every case of ``oracle/cases_<area>.py`` runs under
sprout and must give MindSpore's stored result (``data/oracle_<area>.npz``, written by
``tools/ms_oracle_ops.py``): the same dtype and shape, values within the case's tolerance; or, where
MindSpore raised, the same exception type."""
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from oracle import flatten, helpers, load_cases

DATA = Path(__file__).parent / "data"
AREAS = load_cases()
_STORES: dict = {}


def _store(area):
    if area not in _STORES:
        path = DATA / f"oracle_{area}.npz"
        _STORES[area] = dict(np.load(path, allow_pickle=False)) if path.exists() else None
    return _STORES[area]


PARAMS = [(area, case) for area, cases in sorted(AREAS.items()) for case in cases]


def _namespace(store, case, area):
    ns = {"ops": ops, "ms": ms, "np": np, "Tensor": ms.Tensor, "nn": nn, **helpers(area)}
    prefix = f"{case.key}|in|"
    for k, v in store.items():
        if k.startswith(prefix):
            name = k[len(prefix):]
            ns[name] = ms.Parameter(ms.Tensor(v), name=name) if name.startswith("p_") else ms.Tensor(v)
    return ns


@pytest.mark.parametrize("area, case", PARAMS, ids=[f"{a}-{c.key}" for a, c in PARAMS])
def test_matches_mindspore(area, case):
    store = _store(area)
    assert store is not None, f"missing data/oracle_{area}.npz: run tools/ms_oracle_ops.py {area}"
    raised = store.get(f"{case.key}|raises")
    if f"{case.key}|n" not in store and raised is None:
        pytest.fail(f"{case.key}: no stored MindSpore result (rerun tools/ms_oracle_ops.py {area})")
    ns = _namespace(store, case, area)
    ms.set_seed(0)
    if raised is not None:
        kind = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError,
                "RuntimeError": RuntimeError}.get(str(raised), Exception)
        with pytest.raises(kind, match=case.match or None):
            eval(case.expr, ns)  # noqa: S307
        return
    outs = flatten(eval(case.expr, ns))  # noqa: S307
    n = int(store[f"{case.key}|n"])
    assert len(outs) == n, f"{case.key}: {len(outs)} outputs, MindSpore {n}"
    for i, got in enumerate(outs):
        want = store[f"{case.key}|out|{i}"]
        what = f"{case.key} output {i}"
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, MindSpore {want.dtype}"
        assert got.shape == want.shape, f"{what}: shape {got.shape}, MindSpore {want.shape}"
        if case.check == "shape":
            continue
        if want.dtype.kind in "biu":
            np.testing.assert_array_equal(got, want, err_msg=what)
        else:
            np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol, err_msg=what)


def _compiled(case, names, area):
    """``case.expr`` as a real function (source registered with linecache, so jit's AST capture can read it)."""
    import linecache

    src = f"def oracle_case({', '.join(names)}):\n    return {case.expr}\n"
    filename = f"<oracle {case.key}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"ops": ops, "ms": ms, "np": np, "Tensor": ms.Tensor, "nn": nn, **helpers(area)}
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - the case table's own expression
    return ns["oracle_case"]


JIT_PARAMS = [(a, c) for a, c in PARAMS
              if c.check == "close" and c.jit and not any(k.startswith("p_") for k in c.inputs)]


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
@pytest.mark.parametrize("area, case", JIT_PARAMS, ids=[f"{a}-{c.key}" for a, c in JIT_PARAMS])
def test_same_under_jit(area, case, mode):
    """The same call inside ``jit`` (AST or bytecode capture) gives the eager result."""
    store = _store(area)
    if store is None or f"{case.key}|n" not in store:
        pytest.skip("no stored MindSpore result")
    ns = _namespace(store, case, area)
    names = sorted(k for k in case.inputs)
    fn = _compiled(case, names, area)
    args = [ns[k] for k in names]
    want = flatten(fn(*args))
    got = flatten(ms.jit(fn, capture_mode=mode)(*args) if mode == "bytecode" else ms.jit(fn)(*args))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        what = f"{case.key} output {i} [{mode}]"
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what}: {g.dtype}{g.shape} vs eager {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=what)


RAISE_JIT = [(a, c) for a, c in PARAMS if c.check == "raises" and c.match and c.jit]


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
@pytest.mark.parametrize("area, case", RAISE_JIT, ids=[f"{a}-{c.key}" for a, c in RAISE_JIT])
def test_rejected_under_jit(area, case, mode):
    """A misuse MindSpore rejects is rejected inside jit too, with the eager exception type and message."""
    store = _store(area)
    ns = _namespace(store, case, area)
    names = sorted(case.inputs)
    fn = _compiled(case, names, area)
    kind = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError,
            "RuntimeError": RuntimeError}[str(store[f"{case.key}|raises"])]
    jitted = ms.jit(fn, capture_mode=mode) if mode == "bytecode" else ms.jit(fn)
    with pytest.raises(kind, match=case.match):
        jitted(*[ns[k] for k in names])
