"""mindspore.numpy / mint / experimental calls against real MindSpore 2.10 (tests/api/data/<area>.npz, written by
tools/ms_oracle_api.py from tests/api/cases/<area>.py): the same dtype, shape and values, or the same exception
type; the same result under jit (AST and bytecode); and gradients equal to MindSpore's (or to finite differences
where MindSpore's fail)."""
import linecache
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
import sprout.numpy as mnp
from sprout import nn, ops

try:
    from sprout import mint
except ImportError:  # mint lands after mindspore.numpy
    mint = None

from .cases import flatten, load_cases

DATA = Path(__file__).parent / "data"
AREAS = load_cases()
_STORES: dict = {}
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError, "RuntimeError": RuntimeError,
          "ZeroDivisionError": ZeroDivisionError, "NotImplementedError": NotImplementedError}


def _store(area):
    if area not in _STORES:
        path = DATA / f"{area}.npz"
        _STORES[area] = dict(np.load(path, allow_pickle=False)) if path.exists() else None
    return _STORES[area]


def _base():
    return {"ops": ops, "ms": ms, "np": np, "Tensor": ms.Tensor, "nn": nn, "mnp": mnp, "mint": mint,
            "F": mint.nn.functional if mint else None}


def _inputs(store, case):
    prefix = f"{case.key}|in|"
    return {k[len(prefix):]: v for k, v in store.items() if k.startswith(prefix)}


def _namespace(values):
    ns = _base()
    for k, v in values.items():
        ns[k] = ms.Parameter(ms.Tensor(v), name=k) if k.startswith("p_") else ms.Tensor(v)
    return ns


PARAMS = [(area, case) for area, cases in sorted(AREAS.items()) for case in cases]


def _expected(store, case, values):
    """[arrays] to match, or an exception class."""
    if case.raises:
        return ERRORS[case.raises]
    if case.numpy:
        ns = {"np": np, **values}
        return [np.asarray(o) for o in flatten(eval(case.numpy, ns))]  # noqa: S307 - our own case table
    raised = store.get(f"{case.key}|raises")
    if raised is not None:
        return ERRORS.get(str(raised), Exception)
    n = int(store[f"{case.key}|n"])
    return [store[f"{case.key}|out|{i}"] for i in range(n)]


def _compare(got, want, case, what):
    assert len(got) == len(want), f"{what}: {len(got)} outputs, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        tag = f"{what} output {i}"
        assert g.dtype == w.dtype, f"{tag}: dtype {g.dtype}, expected {w.dtype}"
        assert g.shape == w.shape, f"{tag}: shape {g.shape}, expected {w.shape}"
        if case.check == "shape":
            continue
        if w.dtype.kind in "biuU":
            np.testing.assert_array_equal(g, w, err_msg=tag)
        else:
            np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.atol, err_msg=tag)


@pytest.mark.parametrize("area, case", PARAMS, ids=[f"{a}-{c.key}" for a, c in PARAMS])
def test_matches_mindspore(area, case):
    store = _store(area)
    assert store is not None, f"missing data/{area}.npz: run tools/ms_oracle_api.py {area}"
    values = _inputs(store, case)
    want = _expected(store, case, values)
    ms.set_seed(0)
    if isinstance(want, type):
        with pytest.raises(want):
            flatten(eval(case.expr, _namespace(values)))  # noqa: S307
        return
    got = flatten(eval(case.expr, _namespace(values)))  # noqa: S307
    _compare(got, want, case, case.key)


def _compiled(case, names):
    """``case.expr`` as a real function (its source registered with linecache for jit's AST capture)."""
    src = f"def api_case({', '.join(names)}):\n    return {case.expr}\n"
    filename = f"<api case {case.key}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = _base()
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - the case table's own expression
    return ns["api_case"]


JIT_PARAMS = [(a, c) for a, c in PARAMS if c.check == "close" and c.jit and c.inputs and not any(
    k.startswith("p_") for k in c.inputs)]


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
@pytest.mark.parametrize("area, case", JIT_PARAMS, ids=[f"{a}-{c.key}" for a, c in JIT_PARAMS])
def test_same_under_jit(area, case, mode):
    store = _store(area)
    if store is None or (f"{case.key}|n" not in store and not case.numpy):
        pytest.skip("MindSpore raised: nothing to compile")
    values = _inputs(store, case)
    names = sorted(values)
    fn = _compiled(case, names)
    args = [ms.Tensor(values[k]) for k in names]
    want = flatten(fn(*args))
    jitted = ms.jit(fn, capture_mode=mode) if mode == "bytecode" else ms.jit(fn)
    got = flatten(jitted(*args))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        what = f"{case.key} output {i} [{mode}]"
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what}: {g.dtype}{g.shape} vs eager {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=what)


GRAD_PARAMS = [(a, c) for a, c in PARAMS if c.grad]


def _loss_fn(case, values, names, cots):
    def loss(*args):
        ns = _namespace(values)
        ns.update(zip(names, args))
        outs = eval(case.expr, ns)  # noqa: S307
        outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
        total = 0
        for o, c in zip(outs, cots):
            if c is not None:
                total = total + (o * ms.Tensor(c)).sum()
        return total

    return loss


@pytest.mark.parametrize("area, case", GRAD_PARAMS, ids=[f"{a}-{c.key}" for a, c in GRAD_PARAMS])
def test_gradients(area, case):
    """Gradients of sum(out * cot) w.r.t. the float inputs: MindSpore's where it computes them, else central
    finite differences in float64."""
    store = _store(area)
    values = _inputs(store, case)
    names = [k for k, v in values.items() if v.dtype.kind == "f" and not k.startswith("p_")]
    outs = flatten(eval(case.expr, _namespace(values)))  # noqa: S307
    cots = [case.cotangent(o) if o.dtype.kind == "f" else None for o in outs]
    loss = _loss_fn(case, values, names, cots)
    args = [ms.Tensor(values[k]) for k in names]
    grads = ms.grad(loss, grad_position=tuple(range(len(names))))(*args)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for k, g in zip(names, grads):
        want = None if case.fd else store.get(f"{case.key}|grad|{k}")
        if want is not None:
            np.testing.assert_allclose(g.asnumpy(), want, rtol=1e-4, atol=1e-5, err_msg=f"{case.key} d/d{k}")
            continue
        num = _finite_difference(case, values, k, cots)
        np.testing.assert_allclose(g.asnumpy(), num, rtol=2e-2, atol=2e-3, err_msg=f"{case.key} d/d{k} (fd)")


def _finite_difference(case, values, name, cots, eps=1e-3):
    base = {k: v.astype(np.float64) if v.dtype.kind == "f" else v for k, v in values.items()}

    def f(x):
        vals = dict(base)
        vals[name] = x
        outs = flatten(eval(case.expr, _namespace(vals)))  # noqa: S307
        return sum(float((o.astype(np.float64) * c).sum()) for o, c in zip(outs, cots) if c is not None)

    x = base[name].copy()
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        hi = f(x)
        x[i] = old - eps
        lo = f(x)
        x[i] = old
        g[i] = (hi - lo) / (2 * eps)
    return g
