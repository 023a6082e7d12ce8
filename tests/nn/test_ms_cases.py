"""nn layers against MindSpore 2.10 fixtures (cases in tests/nn/cases/, fixtures written by
tools/nn_oracle_cases.py): same parameter names/shapes, same outputs and gradients for the same weights, eagerly
and under ``jit``; the same exception types for bad arguments."""
import pytest

import sprout as ms
from ms_cases import CASE_DIR, FIXTURES, Fixture, check_error, check_forward, check_grads

MODULES = sorted(p.stem for p in FIXTURES.glob("*.npz") if (CASE_DIR / f"{p.stem}.py").exists())
FIX = {name: Fixture(name) for name in MODULES}
CASES = [(name, case) for name in MODULES for case in FIX[name].cases()]
ERRORS = [(name, key, code) for name in MODULES for key, code in FIX[name].errors()]
# where sprout's exception type deliberately differs from MindSpore's (the reason is in the case module)
DIFFERS = {k: v for name in MODULES for k, v in getattr(FIX[name].module, "DIFFERS", {}).items()}


def _id(item):
    return f"{item[0]}-{item[1]['key']}"


@pytest.mark.parametrize("item", CASES, ids=_id)
def test_eager(item):
    name, case = item
    check_forward(FIX[name], case)
    check_grads(FIX[name], case)


@pytest.mark.parametrize("item", [c for c in CASES if c[1].get("jit", True)], ids=_id)
def test_jit(item):
    """The same cell under ``jit`` (AST capture): forward and gradients through the compiled graph."""
    name, case = item
    check_forward(FIX[name], case, run=lambda fn, xs: ms.jit(fn)(*xs))
    check_grads(FIX[name], case, wrap=ms.jit)


@pytest.mark.parametrize("item", ERRORS, ids=lambda e: f"{e[0]}-{e[1]}")
def test_error(item):
    name, key, code = item
    check_error(FIX[name], key, code, DIFFERS)
