"""Variable scalars under AST capture: ``float(t)``, ``int(t)``, ``bool(t)``, ``t.item()``, ``t.tolist()`` of a traced
tensor are graph values of a Python kind (float32 / int64 / bool), usable in arithmetic, comparisons and if/while
conditions, returned as Python scalars and cutting the gradient -- as MindSpore 2.10's graph mode does, under
STRICT too (fixtures: data/ms_variable_scalars.json, tools/ms_oracle_variable_scalars.py)."""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.core import errors

from .scalar_cases import make_cases

CASES = make_cases(ms)
with open(os.path.join(os.path.dirname(__file__), "data", "ms_variable_scalars.json")) as _f:
    MS = json.load(_f)["cases"]
GRAPH = [n for n, c in CASES.items() if c.sprout == "graph"]
REFUSED = [n for n, c in CASES.items() if c.sprout != "graph"]
# MindSpore 2.10's graph refuses these (its Abs / Round primitives want a Tensor); sprout gives Python's result
MS_FAILS = {"neg_and_abs", "round_of_scalar"}


def strict(fn):
    return ms.jit(fn, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))


def check(expected, got, where, tol=1e-6):
    """Same structure, Python types, tensor dtypes and values (float32 scalars against eager's float64: ``tol``)."""
    if isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), f"{where}: {got!r} vs {expected!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            check(e, g, f"{where}[{i}]", tol)
        return
    if isinstance(expected, ms.Tensor):
        assert isinstance(got, ms.Tensor) and got.dtype == expected.dtype and got.shape == expected.shape, \
            f"{where}: {got!r} vs {expected!r}"
        np.testing.assert_allclose(got.asnumpy().astype(np.float64), expected.asnumpy().astype(np.float64),
                                   rtol=tol, atol=tol, err_msg=where)
        return
    assert type(got) is type(expected), f"{where}: {type(got).__name__} {got!r} vs {type(expected).__name__}"
    if isinstance(expected, str):
        assert got == expected, where
        return
    assert abs(got - expected) <= tol * max(1.0, abs(expected)), f"{where}: {got!r} vs {expected!r}"


def check_ms(rec, got, where):
    """``got`` against MindSpore's recorded result (types, dtypes, values)."""
    if rec["type"] in ("tuple", "list"):
        assert type(got).__name__ == rec["type"] and len(got) == len(rec["items"]), where
        for i, (r, g) in enumerate(zip(rec["items"], got)):
            check_ms(r, g, f"{where}[{i}]")
        return
    assert type(got).__name__ == rec["type"], f"{where}: {type(got).__name__} vs MindSpore's {rec['type']}"
    if rec["type"] == "Tensor":
        assert str(got.dtype) == rec["dtype"], f"{where}: {got.dtype} vs MindSpore's {rec['dtype']}"
        np.testing.assert_allclose(np.asarray(got.asnumpy(), np.float64), np.asarray(rec["value"], np.float64),
                                   rtol=1e-6, err_msg=where)
    else:
        assert got == rec["value"], f"{where}: {got!r} vs MindSpore's {rec['value']!r}"


def summed(fn):
    def total(*a):
        r = fn(*a)
        out = 0
        for v in r if isinstance(r, tuple) else (r,):
            if isinstance(v, ms.Tensor):
                out = out + v.sum()
        return out

    return total


@pytest.mark.parametrize("name", GRAPH)
def test_strict_compiles_one_graph_equal_to_eager(name):
    c = CASES[name]
    jitted = strict(c.fn)
    for _ in range(2):  # the second call runs the cached entry
        check(c.fn(*c.args), jitted(*c.args), name)
    assert jitted.stats["host_fallbacks"] == 0
    lax = ms.jit(c.fn)
    check(c.fn(*c.args), lax(*c.args), name)
    assert lax.stats["host_fallbacks"] == 0  # LAX no longer needs host segments for these


@pytest.mark.parametrize("name", [n for n in GRAPH if n not in MS_FAILS])
def test_matches_mindspore_graph_mode(name):
    c = CASES[name]
    rec = MS[name]["jit"]
    assert rec["ok"], rec
    check_ms(rec["result"], strict(c.fn)(*c.args), name)


def test_mindspore_refuses_what_sprout_computes():
    for name in MS_FAILS:
        assert not MS[name]["jit"]["ok"] and MS[name]["jit"]["error"] == "TypeError", name


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.grad])
def test_gradients_are_cut_by_the_conversion(name):
    """eager == jit == MindSpore (graph and PyNative): the scalar conversion stops the gradient."""
    c = CASES[name]
    eager = ms.grad(summed(c.fn))(*c.args)
    jitted = ms.grad(strict(summed(c.fn)))(*c.args)
    check(eager, jitted, f"grad {name}")
    for key in ("grad", "grad_pynative"):
        assert MS[name][key]["ok"], MS[name][key]
        check_ms(MS[name][key]["result"], jitted, f"{key} {name}")


@pytest.mark.parametrize("name", REFUSED)
def test_strict_refuses_what_needs_a_python_value_and_lax_runs_it(name):
    c = CASES[name]
    with pytest.raises(getattr(errors, c.sprout)) as info:
        strict(c.fn)(*c.args)
    assert info.value.loc is not None and info.value.loc.filename.endswith("scalar_cases.py"), str(info.value)
    try:
        expected = c.fn(*c.args)
    except ValueError as exc:  # eager refuses it too (more than one element): LAX raises eager's error
        with pytest.raises(type(exc)):
            ms.jit(c.fn)(*c.args)
        assert not MS[name]["jit"]["ok"] and MS[name]["jit"]["error"] == "ValueError"
        return
    lax = ms.jit(c.fn)
    check(expected, lax(*c.args), name)
    assert lax.stats["host_fallbacks"] == 1
    assert MS[name]["jit"]["ok"]  # MindSpore 2.10 runs these (dynamic shapes, variable loops): a documented gap


def test_ir_of_a_conversion_in_an_if_condition():
    def g(x):
        if x.sum().item() > 0:
            return x + 1
        return x - 1

    ir = strict(g).get_ir(CASES["if_on_item"].args[0])
    lines = [ln.split("#")[0].strip() for ln in ir.splitlines()]
    assert lines[:4] == ["graph g(%0:f32[3]) {", "%1:f32[] = ReduceSum(%0, axis=(), keep_dims=False)",
                         "%2:f32[] = StopGradient(%1)", "%3:bool[] = Greater(%2, 0)"], ir
    assert lines[4].startswith("%4:f32[3] = Cond(%3, "), ir


def test_brief_examples_under_context_strict():
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        @ms.jit
        def f(x):
            s = float(x.sum())
            return x * s

        @ms.jit
        def g(x):
            if x.sum().item() > 0:
                return x + 1
            return x - 1

        x = ms.Tensor(np.ones(3, np.float32))
        np.testing.assert_array_equal(f(x).asnumpy(), [3, 3, 3])
        np.testing.assert_array_equal(g(x).asnumpy(), [2, 2, 2])
        np.testing.assert_array_equal(g(-x).asnumpy(), [-2, -2, -2])  # same graph, the other branch
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)


def test_python_kind_is_seen_by_isinstance_type_and_print():
    def f(x):
        s = float(x.sum()) * 0.5
        n = int(x[0])
        print("s =", s, [n], not s)
        return isinstance(s, float), isinstance(s, ms.Tensor), type(n) is int, isinstance(n, (int, float))

    x = CASES["scale_by_float"].args[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        expected = f(x)
        got = strict(f)(x)
    assert expected == got == (True, False, True, True)
    assert out.getvalue() == "s = 3.0 [1] False\n" * 2


def test_in_a_cell_and_a_while_condition():
    class Net(nn.Cell):
        def construct(self, x):
            n = 0
            while x.sum().item() < 10:
                x = x * 2
                n = n + 1
            return x, n

    x = ms.Tensor(np.array([0.5, 1.0], np.float32))
    check(Net()(x), strict(Net().construct)(x), "cell")
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)
    try:
        got = Net()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)
    np.testing.assert_array_equal(got[0].asnumpy(), [4.0, 8.0])
    assert got[1] == 3 and type(got[1]) is int


def test_scalar_placed_where_a_constant_is_needed_is_refused_naming_the_op():
    def f(x):
        return ops.ones((2, int(x[0])), ms.float32)

    with pytest.raises(errors.JitValueError, match="must be known while compiling"):
        strict(f)(CASES["scale_by_float"].args[0])


def test_item_with_an_index_and_round_with_ndigits_stay_refused():
    x = CASES["scale_by_float"].args[0]
    with pytest.raises(errors.JitValueError, match="item"):
        strict(lambda v: v.item(1) + 1)(x)
    with pytest.raises(errors.JitTypeError, match="round"):
        strict(lambda v: round(float(v.sum()), 1))(x)
    assert ms.jit(lambda v: round(float(v.sum()) / 7, 2))(x) == 0.86  # LAX: Python's result
    with pytest.raises(errors.JitTypeError, match="round"):
        strict(lambda v: round(int(v.sum()), -1))(x)  # an int rounds to tens: refused, not returned unchanged
    assert ms.jit(lambda v: round(int(v.sum()), -1))(x) == 10
    assert strict(lambda v: round(int(v.sum()), 1) + round(bool(v[0])))(x) == 7


def test_tolist_of_a_large_tensor_is_refused_not_unrolled():
    x = ms.Tensor(np.arange(2048, dtype=np.float32).reshape(32, 64))
    with pytest.raises(errors.JitValueError, match="2048 elements"):
        strict(lambda v: v.tolist())(x)
    lax = ms.jit(lambda v: v.tolist())
    assert lax(x) == x.tolist() and lax.stats["host_fallbacks"] == 1
