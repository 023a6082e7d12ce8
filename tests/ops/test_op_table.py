"""ONE table for every registered op (``table_*.py`` next to this file): forward against a NumPy
reference in every mode, the infer rule against the eager result, backward against central finite
differences. A registered op without a table entry fails the suite."""
import copy
import importlib
import pkgutil
import zlib
from pathlib import Path

import numpy as np
import pytest

import sprout
import sprout as ms
from sprout.core.op import REGISTRY
from modes import MODES, run_in_mode
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


def test_every_registered_op_has_a_table_entry():
    covered = {c.op for c in CASES} | set(ENTRIES)
    missing = sorted(name for name, op in REGISTRY.items() if name not in covered and _defined_in_sprout(op))
    assert not missing, f"registered ops without an op-table entry: {missing}"
    unknown = sorted(covered - set(REGISTRY))
    assert not unknown, f"op-table entries for ops that are not registered: {unknown}"


def test_table_entries_are_well_formed():
    for case in CASES:
        assert (case.ref is None) != (case.check is None), f"{case.id}: give exactly one of ref and check"
        if case.check is not None:
            assert len(case.why) > 20, f"{case.id}: a case without a reference must say why (why=...)"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward(case: Case, mode: str):
    values = case.make_inputs(_seed(case))
    pristine = copy.deepcopy(values)  # kernels that update in place must not change the reference's inputs
    args = case.wrap(values)
    if mode == "eager":
        with intercept(case.op) as calls:
            out = case.fn(*args)
        check_infer(case.op, calls)
    else:
        out = run_in_mode(case.fn, args, mode)
    if case.ref is not None:
        assert_close(to_numpy(out), case.ref(*pristine), case.rtol, case.atol, f"{case.id} [{mode}]")
    else:
        case.check(out, pristine)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_backward(case: Case):
    values = case.make_inputs(_seed(case))
    positions = case.grad_positions(values)
    if not positions:
        pytest.skip("not differentiable (integer/bool outputs, or declared grad=())")
    assert REGISTRY[case.op].bprop is not None, f"{case.op} has float inputs to differentiate but no bprop"
    args = case.wrap(values)
    if not float_outputs(case.fn(*args)):
        pytest.skip("no float output to differentiate")
    loss, numeric = scalar_objective(case, values, positions)
    grads = ms.grad(loss, grad_position=tuple(range(len(positions))))(*[args[p] for p in positions])
    if case.grad_ref is not None:
        expected = case.grad_ref(*values)
    else:
        expected = finite_differences(numeric, [np.asarray(values[p], np.float64) for p in positions], case.fd_eps)
    for p, g, e in zip(positions, grads, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=case.fd_tol, atol=case.fd_tol,
                                   err_msg=f"{case.id}: gradient of input {p}")


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
