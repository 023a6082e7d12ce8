"""ONE table for every registered op (``table_*.py`` next to this file): forward against a NumPy
reference in every mode (eager, jit/AST, PIJit/bytecode; each jitted mode also equal to eager), the
infer rule against the eager result, backward against central finite differences eagerly and
grad-of-jit equal to the eager gradient. A registered op without a table entry fails the suite."""
import copy
import dataclasses
import importlib
import pkgutil
import zlib
from pathlib import Path

import numpy as np
import pytest

import sprout
import sprout as ms
from sprout.core.op import REGISTRY
from modes import MODES, jitted, run_in_mode
from optable import (Case, assert_close, check_infer, finite_differences, float_outputs, intercept, scalar_objective,
                     to_numpy)

HERE = Path(__file__).parent


def _import_every_sprout_module() -> None:
    """Ops register when their module is imported: import them all so none can hide from the table."""
    for info in pkgutil.walk_packages(sprout.__path__, "sprout."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional dependency (numba ...) is missing: that module registers nothing
            pass


def _load_tables():
    cases, entries = [], {}
    for path in sorted(HERE.glob("table_*.py")):
        module = importlib.import_module(path.stem)
        cases += getattr(module, "CASES", [])
        entries.update(getattr(module, "ENTRIES", {}))
    return cases, entries


_import_every_sprout_module()
CASES, ENTRIES = _load_tables()


def _seed(case: Case) -> int:
    return zlib.crc32(case.id.encode())


def _defined_in_sprout(op) -> bool:
    """Ops that tests register for themselves (defined in a test file) are not sprout's."""
    root = str(Path(sprout.__file__).parent)
    for fn in (op.infer, op.impl):
        code = getattr(fn, "__code__", None)
        if code is not None:
            return code.co_filename.startswith(root)
    return True


def _ops_without_entries() -> list:
    covered = {c.op for c in CASES} | set(ENTRIES)
    return sorted(name for name, op in REGISTRY.items() if name not in covered and _defined_in_sprout(op))


def test_every_registered_op_has_a_table_entry():
    covered = {c.op for c in CASES} | set(ENTRIES)
    missing = _ops_without_entries()
    assert not missing, f"registered ops without an op-table entry: {missing}"
    unknown = sorted(covered - set(REGISTRY))
    assert not unknown, f"op-table entries for ops that are not registered: {unknown}"


def test_a_new_sprout_op_without_an_entry_is_reported():
    """The guard above is not vacuous: an op registered from a sprout module with no case is caught."""
    from sprout.core.op import Op, register

    ns: dict = {}
    exec(compile("def impl(x):\n    return x\n", str(Path(sprout.__file__).parent / "ops" / "_new.py"), "exec"), ns)
    register(Op("TableGuardProbe", ns["impl"], ns["impl"]))
    try:
        assert "TableGuardProbe" in _ops_without_entries()
    finally:
        del REGISTRY["TableGuardProbe"]


def test_table_entries_are_well_formed():
    for case in CASES:
        assert (case.ref is None) != (case.check is None), f"{case.id}: give exactly one of ref and check"
        if case.check is not None:
            assert len(case.why) > 20, f"{case.id}: a case without a reference must say why (why=...)"


# ---- modes ------------------------------------------------------------------------------------------
# Every case also runs under jit (AST capture) and PIJit (bytecode capture) and must agree with eager:
# integer/bool outputs exactly, float outputs within ``_ULPS`` ulps of their dtype. The jitted graph
# calls the same NumPy kernels as eager, but graph passes may regroup float work (fused elementwise
# chains, x**2 -> x*x, common subexpressions) and NumPy's pairwise summation depends on the memory
# layout it is given, so the last bits may differ; the same bound serves as an absolute floor for
# values that cancel to ~0 (the table's inputs are O(1)). Random ops: the same seed gives the same
# draws in every mode (the graph draws from the same generator, in program order), the case's property
# check holds, and a second call without reseeding draws new numbers. Side-effect ops (Assign,
# optimizer kernels): the outputs and every Parameter argument's final value agree with eager.
_ULPS = 4


def _mode_tol(dtype: np.dtype) -> tuple[float, float]:
    eps = float(np.finfo(dtype).eps)
    return _ULPS * eps, _ULPS * eps


JIT_MODES = [m for m in MODES if m != "eager"]


def _leaves(out) -> list:
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _leaves(o)]
    return [out]


def assert_same_as_eager(got, want, what: str) -> None:
    """``got`` (a jitted mode) equals ``want`` (eager): same structure, dtype and shape; exact for
    integers and bools, within ``_mode_tol`` for floats."""
    g_leaves, w_leaves = _leaves(got), _leaves(want)
    assert len(g_leaves) == len(w_leaves), f"{what}: {len(g_leaves)} outputs vs eager {len(w_leaves)}"
    for i, (g, w) in enumerate(zip(g_leaves, w_leaves)):
        where = f"{what} output {i}"
        if not isinstance(w, ms.Tensor):
            assert not isinstance(g, ms.Tensor) and g == w, f"{where}: {g!r} vs eager {w!r}"
            continue
        assert isinstance(g, ms.Tensor), f"{where}: {type(g).__name__} vs eager Tensor"
        gv, wv = g.asnumpy(), w.asnumpy()
        assert gv.dtype == wv.dtype and gv.shape == wv.shape, f"{where}: {gv.dtype}{gv.shape} vs {wv.dtype}{wv.shape}"
        if wv.dtype.kind in "biu":
            np.testing.assert_array_equal(gv, wv, err_msg=where)
        else:
            rtol, atol = _mode_tol(wv.dtype)
            np.testing.assert_allclose(gv, wv, rtol=rtol, atol=atol, err_msg=where)


def _run(case: Case, mode: str, seed: int):
    """(output, final Parameter values, pristine inputs) of one run of ``case`` in ``mode``."""
    values = case.make_inputs(_seed(case))
    pristine = copy.deepcopy(values)  # kernels that update in place must not change the reference's inputs
    args = case.wrap(values)
    ms.set_seed(seed)  # random ops: every mode draws the same numbers
    if mode == "eager":
        with intercept(case.op) as calls:
            out = case.fn(*args)
        check_infer(case.op, calls)
    else:
        out = run_in_mode(case.fn, args, mode)
    params = [a.asnumpy().copy() for a in args if isinstance(a, ms.Parameter)]
    return out, params, pristine


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward(case: Case, mode: str):
    seed = _seed(case) % 2 ** 31
    out, params, pristine = _run(case, mode, seed)
    if case.ref is not None:
        assert_close(to_numpy(out), case.ref(*pristine), case.rtol, case.atol, f"{case.id} [{mode}]")
    else:
        case.check(out, pristine)
    if mode != "eager":
        want, want_params, _ = _run(case, "eager", seed)
        assert_same_as_eager(out, want, f"{case.id} [{mode}]")
        assert_same_as_eager([ms.Tensor(p) for p in params], [ms.Tensor(p) for p in want_params],
                             f"{case.id} [{mode}] Parameters")
        again, _, _ = _run(case, mode, seed)  # the cached graph / guarded entry gives the same result
        assert_same_as_eager(again, want, f"{case.id} [{mode}, cached]")
        if REGISTRY[case.op].kind == "random":  # not folded into a constant: the next call draws anew
            fresh = run_in_mode(case.fn, case.wrap(case.make_inputs(_seed(case))), mode)
            assert not np.array_equal(to_numpy(_leaves(fresh)[0]), to_numpy(_leaves(out)[0])), \
                f"{case.id} [{mode}]: two calls without reseeding drew the same numbers"


def _differentiable(case: Case):
    values = case.make_inputs(_seed(case))
    positions = case.grad_positions(values)
    if not positions:
        pytest.skip("not differentiable (integer/bool outputs, or declared grad=())")
    assert REGISTRY[case.op].bprop is not None, f"{case.op} has float inputs to differentiate but no bprop"
    args = case.wrap(values)
    if not float_outputs(case.fn(*args)):
        pytest.skip("no float output to differentiate")
    return values, positions, args


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_backward(case: Case):
    """Eager gradients against central finite differences (or the case's analytic ``grad_ref``)."""
    values, positions, args = _differentiable(case)
    loss, numeric = scalar_objective(case, values, positions)
    grads = ms.grad(loss, grad_position=tuple(range(len(positions))))(*[args[p] for p in positions])
    if case.grad_ref is not None:
        expected = case.grad_ref(*values)
    else:
        expected = finite_differences(numeric, [np.asarray(values[p], np.float64) for p in positions], case.fd_eps)
    for p, g, e in zip(positions, grads, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=case.fd_tol, atol=case.fd_tol,
                                   err_msg=f"{case.id}: gradient of input {p}")


@pytest.mark.parametrize("mode", JIT_MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_backward_through_jit(case: Case, mode: str):
    """``ms.grad`` of the same objective with the case's callable jitted (the compiled graph's backward,
    with a non-trivial cotangent) equals the eager gradient (checked against finite differences above)."""
    values, positions, args = _differentiable(case)
    pos = tuple(range(len(positions)))
    loss, _ = scalar_objective(case, values, positions)
    want = ms.grad(loss, grad_position=pos)(*[args[p] for p in positions])
    jloss, _ = scalar_objective(dataclasses.replace(case, fn=jitted(case.fn, mode)), values, positions)
    got = ms.grad(jloss, grad_position=pos)(*[args[p] for p in positions])
    assert_same_as_eager(got, want, f"{case.id} [{mode}] gradient")


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry(name: str):
    """Entries given as a callable (ops built only through jit, such as control flow) check themselves."""
    ENTRIES[name]()


def _symbolic(value):
    """The TensorType of an array with its leading dimension unknown (a dynamic batch; a leading 1 is
    not a batch, and graph capture never makes a size-1 axis symbolic)."""
    from sprout.core.types import TensorType

    t = ms.Tensor(value)
    shape = tuple(t.shape)
    return TensorType((None,) + shape[1:] if shape and shape[0] > 1 else shape, t.dtype)


@pytest.mark.parametrize("case", [c for c in CASES if c.check is None], ids=lambda c: c.id)
def test_infer_with_a_symbolic_leading_dimension(case: Case):
    """Graph capture types ops on shapes with unknown dimensions: infer must accept None and agree with
    the eager result on every dimension it does claim to know."""
    values = case.make_inputs(_seed(case))
    with intercept(case.op) as calls:
        case.fn(*case.wrap(values))
    op = REGISTRY[case.op]
    for args, attrs, out in calls:
        types = [_symbolic(a) if isinstance(a, np.ndarray) else a for a in args]
        predicted = op.infer(*types, **attrs)
        preds = predicted if op.n_out != 1 else (predicted,)
        outs = out if op.n_out != 1 else (out,)
        for p, o in zip(preds, outs):
            o = np.asarray(o)
            assert len(p.shape) == o.ndim, f"{case.op}: symbolic infer rank {p.shape} vs eager {o.shape}"
            for d, e in zip(p.shape, o.shape):
                assert d is None or d == e, f"{case.op}: symbolic infer {p.shape} contradicts eager {o.shape}"
