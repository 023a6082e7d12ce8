"""The four bugs the issue-9 review reproduced, as regression tests (xfail until their owners fix them;
``strict`` so the fixer removes the marker). Later fuzz findings live in ``test_regressions.py``."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, ops
from sprout.backend import kernels
from sprout.core.dispatch import bind
from sprout.core.op import REGISTRY
from sprout.ir import callop  # noqa: F401 - registers GraphCall


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


@pytest.fixture
def always_fuse(monkeypatch):
    """Every fusion group gets a fused kernel (the cost model would leave small groups unfused)."""
    monkeypatch.setattr(kernels, "choose", lambda sub, n, allow_numba=True: "numpy_blocked")


# ---- 1. fusion moves a Parameter read past an in-place assign ---------------------------------------
def test_fusion_keeps_parameter_read_before_assign(always_fuse):
    def run(jit_level):
        p = Parameter(Tensor(np.ones((128, 128), np.float32)), name="p")

        def f(x, v):
            a = x * 2
            u = ops.matmul(a, p)
            ops.assign(p, v)
            c = a * 3 + 1
            return u, c

        g = f if jit_level is None else ms.jit(f, jit_level=jit_level)
        x = Tensor(np.arange(128 * 128, dtype=np.float32).reshape(128, 128) / 1000)
        u, c = g(x, Tensor(np.full((128, 128), 5, np.float32)))
        return u.asnumpy(), c.asnumpy(), p.asnumpy()

    want = run(None)
    for got, exp in zip(run("O1"), want):
        np.testing.assert_allclose(got, exp, rtol=1e-5)


# ---- 2. assign inside a tensor-dependent if ---------------------------------------------------------


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_parameter_assign_in_tensor_if_not_merged_by_cse(mode):
    def make():
        p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

        def f(y):
            a = p + 1
            if y.sum() > 0:
                ops.assign(p, y)
            return a, p + 1

        return f

    y = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    want = [o.asnumpy() for o in make()(y)]
    got = [o.asnumpy() for o in ms.jit(make(), capture_mode=mode)(y)]
    np.testing.assert_allclose(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1])  # [2, 3, 4]: p was assigned y


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_tensor_argument_assign_in_tensor_if(mode):
    def f(x, y):
        a = x + 1
        if y.sum() > 0:
            ops.assign(x, y)
        return a, x + 1

    y = np.array([1.0, 2.0, 3.0], np.float32)
    xe, xj = Tensor(np.zeros(3, np.float32)), Tensor(np.zeros(3, np.float32))
    want = f(xe, Tensor(y))
    got = ms.jit(f, capture_mode=mode)(xj, Tensor(y))  # AST today: KeyError in codegen
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy())
    np.testing.assert_allclose(xj.asnumpy(), xe.asnumpy())


# ---- 3. backward by replay re-drew dropout masks (fixed: forward + residuals, autodiff/control.py) ---------
def _drop_cond(x):
    if x.sum() > 0:
        y = ops.dropout(x, p=0.5)
    else:
        y = x
    return y


def _drop_while(x):
    y = x
    n = x.sum() * 0
    while n < 1:
        y = ops.dropout(y, p=0.5)
        n = n + 1
    return y


def _drop_plain(x):
    return ops.dropout(x, p=0.5) * 1.0


def _dropout_grad_matches_mask(fn):
    """grad of sum(fn(x)) with keep_prob 0.5 must be 2 where the forward kept x (x > 0 everywhere), else 0."""
    x = Tensor(1.0 + np.arange(64, dtype=np.float32) / 64)

    def loss(x):
        y = fn(x)
        return y.sum(), y

    ms.set_seed(3)
    (_, y), dx = ms.value_and_grad(loss, has_aux=True)(x)
    np.testing.assert_array_equal(dx.asnumpy(), (y.asnumpy() != 0) * np.float32(2))


@pytest.mark.parametrize("mode", ["eager", "ast", "bytecode"])
def test_dropout_grad_in_cond(mode):
    _dropout_grad_matches_mask(_drop_cond if mode == "eager" else ms.jit(_drop_cond, capture_mode=mode))


@pytest.mark.parametrize("mode", ["eager", "ast", "bytecode"])
def test_dropout_grad_in_while_loop(mode):
    _dropout_grad_matches_mask(_drop_while if mode == "eager" else ms.jit(_drop_while, capture_mode=mode))


@pytest.mark.parametrize("mode", ["eager", "ast", "bytecode"])
def test_dropout_grad_straight_line(mode):
    _dropout_grad_matches_mask(_drop_plain if mode == "eager" else ms.jit(_drop_plain, capture_mode=mode))


def test_dropout_grad_graph_call():
    """A GraphCall node's gradient (its callee split into forward + residuals and backward) uses the
    forward's mask, in grad-of-jit and jit-of-grad."""
    x = Tensor(1.0 + np.arange(64, dtype=np.float32) / 64)
    graph = ms.jit(lambda x: ops.dropout(x, p=0.5)).explain(x).executable.graph
    op = REGISTRY["GraphCall"]

    def through_call(x):
        return bind(op, (x,), {"graph": graph})[0]

    _dropout_grad_matches_mask(ms.jit(through_call))

    def loss(x):
        y = through_call(x)
        return y.sum(), y

    ms.set_seed(3)
    (_, y), dx = ms.jit(ms.value_and_grad(loss, has_aux=True))(x)
    np.testing.assert_array_equal(dx.asnumpy(), (y.asnumpy() != 0) * np.float32(2))


# ---- 4. set_context(jit_level=...) after the first call --------------------------------------------
@pytest.mark.parametrize("first,then", [("O0", "O1"), ("O1", "O0")])
def test_jit_level_change_after_first_call_recompiles(always_fuse, first, then):
    @ms.jit
    def f(x):
        return x * 2 + 1

    x = Tensor(np.ones((128, 128), np.float32))
    ms.set_context(jit_level=first)
    f(x)
    assert ("FusedElementwise" in f.get_ir(x)) == (first != "O0")
    ms.set_context(jit_level=then)
    f(x)
    assert ("FusedElementwise" in f.get_ir(x)) == (then != "O0")
