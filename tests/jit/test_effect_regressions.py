"""The review's effect bugs (issue 9), eager == jit(ast) == jit(bytecode): a read of a Parameter moved past
an in-place assign by fusion, an assign inside a tensor-dependent if (on a Parameter: CSE merged the reads
before and after; on a tensor argument: invalid graph), writes inside tensor while loops, io order."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, jit, ops
from sprout.backend import kernels

CAPTURES = ["ast", "bytecode"]


def _run(fn, reset, *args):
    """Eager, then each capture, from the same starting state; returns the outputs and the final state."""
    results = []
    for mode in [None] + CAPTURES:
        state = reset()
        f = fn if mode is None else jit(fn, capture_mode=mode)
        out = f(*args)
        out = out if isinstance(out, tuple) else (out,)
        results.append(([o.asnumpy() for o in out], [s.asnumpy().copy() for s in state]))
    return results


def _assert_agree(results):
    (e_out, e_state), *rest = results
    for (outs, state), mode in zip(rest, CAPTURES):
        for a, b in zip(e_out, outs):
            np.testing.assert_allclose(b, a, err_msg=f"jit({mode}) output differs from eager")
        for a, b in zip(e_state, state):
            np.testing.assert_allclose(b, a, err_msg=f"jit({mode}) state differs from eager")


@pytest.fixture
def always_fuse(monkeypatch):
    monkeypatch.setattr(kernels, "choose", lambda sub, n, allow_numba=True: "numpy_blocked")


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_fusion_does_not_move_a_parameter_read_past_assign(always_fuse, level):
    n = 128  # 16 Ki elements: the group fuses
    p = Parameter(Tensor(np.ones((n, n), np.float32)), name="p")

    def f(x, v):
        a = x * 2
        u = ops.matmul(a, p)
        ops.assign(p, v)
        c = a * 3 + 1
        return u, c

    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((n, n)).astype(np.float32))
    v = Tensor(np.full((n, n), 5.0, np.float32))

    def reset():
        p.set_data(Tensor(np.ones((n, n), np.float32)))
        return [p]

    ms.set_context(jit_level=level)
    _assert_agree(_run(f, reset, x, v))
    if level == "O1":
        g = jit(f)
        reset()
        assert "FusedElementwise" in g.get_ir(x, v)


def test_assign_to_parameter_in_tensor_if_is_seen_after_the_branch():
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

    def f(y):
        a = p + 1
        if y.sum() > 0:
            ops.assign(p, y)
        return a, p + 1

    def reset():
        p.set_data(Tensor(np.zeros(3, np.float32)))
        return [p]

    for y in (np.full(3, 2.0, np.float32), np.full(3, -2.0, np.float32)):
        results = _run(f, reset, Tensor(y))
        _assert_agree(results)
    assert results[0][0][1].tolist() == [1.0, 1.0, 1.0]  # the branch was not taken for the second input


def test_assign_to_tensor_argument_in_tensor_if():
    def f(x, y):
        a = x + 1
        if y.sum() > 0:
            ops.assign(x, y)
        return a, x + 1

    y = Tensor(np.full(3, 2.0, np.float32))
    x = Tensor(np.zeros(3, np.float32))

    def reset():
        x.set_data(Tensor(np.zeros(3, np.float32))) if hasattr(x, "set_data") else None
        x._data = np.zeros(3, np.float32)
        return [x]

    results = _run(f, reset, x, y)
    _assert_agree(results)
    assert results[0][0][1].tolist() == [3.0, 3.0, 3.0]


def test_writes_inside_tensor_while_body_are_carried():
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")

    def f(x, n):
        i = ops.zeros((), ms.int32)
        while i < n:
            ops.assign_add(p, x)
            i = i + 1
        return p * 2

    def reset():
        p.set_data(Tensor(np.zeros(2, np.float32)))
        return [p]

    results = _run(f, reset, Tensor(np.ones(2, np.float32)), Tensor(np.array(3, np.int32)))
    _assert_agree(results)
    assert results[0][1][0].tolist() == [3.0, 3.0]


def test_while_condition_reads_the_value_the_body_writes():
    p = Parameter(Tensor(np.zeros((), np.float32)), name="p")

    def f(step):
        while p < 5:
            ops.assign_add(p, step)
        return p + 0

    def reset():
        p.set_data(Tensor(np.zeros((), np.float32)))
        return [p]

    results = _run(f, reset, Tensor(np.array(2.0, np.float32)))
    _assert_agree(results)
    assert float(results[0][1][0]) == 6.0


def test_write_to_a_global_tensor_is_state():
    g = Tensor(np.zeros(3, np.float32))

    def f(x):
        a = g + 1
        ops.assign(g, x)
        return a, g + 1

    def reset():
        g._data = np.zeros(3, np.float32)
        return [g]

    results = _run(f, reset, Tensor(np.ones(3, np.float32)))
    _assert_agree(results)
    assert results[0][0][1].tolist() == [2.0, 2.0, 2.0]


def test_prints_keep_their_order_around_branches(capsys):
    def f(x):
        print("first")
        if x.sum() > 0:
            print("in branch")
        print("last")
        return x + 1

    x = Tensor(np.ones(2, np.float32))
    f(x)
    expected = capsys.readouterr().out
    for mode in CAPTURES:
        jit(f, capture_mode=mode)(x)
        assert capsys.readouterr().out == expected, mode


def test_weight_gradient_through_an_assign_in_a_tensor_if():
    """grad-of-jit differentiates the graph by replaying it under a tape: the new value an assign makes must
    stay linked to the operand it replaces (the weight's gradient was silently 0)."""
    start = np.array([0.5, 1.0, -0.5], np.float32)
    p0 = Parameter(Tensor(start), name="p0")

    def f(x):
        for _ in range(3):
            if p0[0] >= 2.0:
                x = x + 1
            else:
                ops.assign(p0, p0 + 1)
        return x * p0

    x = Tensor(np.ones(3, np.float32))
    results = []
    for fn in (f, jit(f), jit(f, capture_mode="bytecode")):
        p0.set_data(Tensor(start))
        dx, (dp,) = ops.grad(lambda x, fn=fn: fn(x).sum(), weights=[p0])(x)
        results.append((dx.asnumpy(), dp.asnumpy(), p0.asnumpy().copy()))
    for got in results[1:]:
        for a, b in zip(results[0], got):
            np.testing.assert_allclose(b, a)


def test_grad_inside_jit_of_a_loop_that_assigns_then_reads():
    """A body's state write replayed while differentiating: the read after the write sees the new value."""
    start = np.array([-0.5, 0.25, 1.0], np.float32)
    p1 = Parameter(Tensor(start), name="p1")

    def h(a):
        i = a.sum() * 0
        while i < 2:
            i = i + 1
            ops.assign(p1, a - p1)
            a = a * ops.sin(p1)
        return a

    def f(x):
        return ops.GradOperation()(h)(x)

    x = Tensor(np.array([0.3, 0.6, 0.9], np.float32))
    p1.set_data(Tensor(start))
    want = f(x).asnumpy()
    for mode in CAPTURES:
        p1.set_data(Tensor(start))
        np.testing.assert_allclose(jit(f, capture_mode=mode)(x).asnumpy(), want, rtol=1e-5)


def test_assign_to_an_argument_under_grad_reaches_the_callers_tensor():
    """ops.grad passes aliases of its inputs (same array); an eager assign writes that array, so the
    caller's tensor changes. grad-of-jit and jit-of-grad must too (the write-back rebinding the alias's
    array, or a write to an Identity alias in a graph, lost it)."""
    start = np.array([1.0, -0.5, 0.25], np.float32)

    def f(x, y, z):
        if z.sum() > 0.5:
            ops.assign_add(y, ops.tanh(z))
        return x * y

    def loss(x, y, z):
        return f(x, y, z).sum()

    x, z = Tensor(np.ones(3, np.float32)), Tensor(np.full(3, 0.3, np.float32))
    runs = {"eager": ops.grad(loss, grad_position=(0, 1)),
            "grad_of_jit": ops.grad(lambda x, y, z: jit(f)(x, y, z).sum(), grad_position=(0, 1)),
            "jit_of_grad": jit(ops.grad(loss, grad_position=(0, 1)))}
    seen = {}
    for name, fn in runs.items():
        y = Tensor(start.copy())
        grads = fn(x, y, z)
        seen[name] = [g.asnumpy() for g in grads] + [y.asnumpy()]
    for name in ("grad_of_jit", "jit_of_grad"):
        for a, b in zip(seen["eager"], seen[name]):
            np.testing.assert_allclose(b, a, rtol=1e-6, err_msg=name)
    assert not np.allclose(seen["eager"][2], start)


def test_output_that_is_a_view_of_a_written_argument_sees_the_write():
    """A view of an argument is returned and the argument is then written: eagerly (as in MindSpore's PyNative
    mode) the view sees the write, and so does jit in both captures (ir/views.py); the write-back goes into the
    argument's array."""
    def f(x, v):
        old = ops.reshape(x, (4,))
        ops.assign(x, v)
        return old

    for fn in (f, jit(f), jit(f, capture_mode="bytecode")):
        x = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        out = fn(x, Tensor(np.full((2, 2), 9.0, np.float32)))
        np.testing.assert_array_equal(x.asnumpy(), 9.0)
        np.testing.assert_array_equal(out.asnumpy(), [9, 9, 9, 9])


def test_write_through_a_name_that_is_the_argument_on_one_branch_only():
    """``x = f(x) if c else x`` passes the argument through on one path: eagerly x is then the argument's
    own object and an in-place write reaches the caller; on the other path it does not (fuzz seed 467)."""
    def f(x, y):
        x = (x * 3 if ops.sum(y) < -1.0 else x)
        ops.assign_add(x, ops.tanh(y))
        return x + 1

    def g(x, y):
        z = x
        if ops.sum(y) > 0:
            z = y
        ops.assign(z, ops.ones_like(z))
        return x * 1, y * 1

    for fn in (f, g):
        for yv in (1.0, -1.0):
            seen = []
            for run in (fn, jit(fn), jit(fn, capture_mode="bytecode")):
                x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
                y = Tensor(np.full(3, yv, np.float32))
                out = run(x, y)
                out = out if isinstance(out, tuple) else (out,)
                seen.append([o.asnumpy() for o in out] + [x.asnumpy(), y.asnumpy()])
            for other in seen[1:]:
                for a, b in zip(seen[0], other):
                    np.testing.assert_allclose(b, a, rtol=1e-6)


def test_loop_variable_written_while_it_is_still_the_argument():
    """A loop variable starts as the caller's tensor, is written in place, then rebound in the body:
    eagerly only the writes before the rebinding reach the caller (fuzz seed 406)."""
    def f(x, y, s):
        i = 0
        while (ops.mean(x) < 3.0) and i < 2:
            i = i + 1
            if s > 0.3:
                ops.assign(y, ops.abs(x) + 0.5)
            y *= 2
        return x + y

    def g(x, y):
        i = 0
        while ops.mean(x) < 3.0 and i < 3:
            i = i + 1
            ops.assign_add(y, x)  # y stays the caller's object: every iteration writes it
            x = x + y
        return x

    for fn, extra in ((f, (ms.mutable(0.5),)), (g, ())):
        seen = []
        for run in (fn, jit(fn), jit(fn, capture_mode="bytecode")):
            x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
            y = Tensor(np.full(3, 0.25, np.float32))
            seen.append((run(x, y, *extra).asnumpy(), x.asnumpy(), y.asnumpy()))
        for other in seen[1:]:
            for a, b in zip(seen[0], other):
                np.testing.assert_allclose(b, a, rtol=1e-6)


def test_loop_variable_is_the_argument_until_a_branch_rebinds_it():
    """fuzz-9 / fuzz-12: whether a loop variable is still the caller's tensor is tracked through a rebinding
    on one branch of a tensor ``if`` (``x *= 2.0`` never runs: every iteration's write reaches the caller),
    and after the loop (the body never ran: ``assign`` after the loop writes the caller's tensor)."""
    def f9(x):
        i = 0
        while ops.sum(x) <= 0.5 and i < 3:
            i = i + 1
            ops.assign_add(x, x)
            if ops.ones(()) < 0.5:
                x *= 2.0
        return x * 1.0

    def f12(y):
        i = 0
        while ops.ones(()) <= 0.5 and i < 4:
            y = ops.ones((4,))
        ops.assign(y, ops.ones((4,)) * 7)
        return y * 1.0

    def f12b(y):  # the body does run and rebinds y: the write after the loop reaches only the new tensor
        i = 0
        while ops.ones(()) > 0.5 and i < 2:
            i = i + 1
            y = y * 2.0
        ops.assign(y, ops.ones((4,)) * 7)
        return y * 1.0

    cases = ((f9, [-0.5, 0.25]), (f9, [0.5, 1.0]), (f12, [0.1, 0.2, 0.3, 0.4]), (f12b, [0.1, 0.2, 0.3, 0.4]))
    for fn, start in cases:
        seen = []
        for run in (fn, jit(fn), jit(fn, capture_mode="bytecode")):
            x = Tensor(np.array(start, np.float32))
            seen.append((run(x).asnumpy(), x.asnumpy()))
        for other in seen[1:]:
            for a, b in zip(seen[0], other):
                np.testing.assert_allclose(b, a, rtol=1e-6)


def test_parameter_argument_passed_through_a_branch_sees_later_writes():
    """fuzz-10: a helper gets the Parameter as ``a``; an untaken tensor-``if`` branch would rebind ``a``, so after
    the if ``a`` is the Parameter on the other path: ``assign_sub(p0, ...)`` reaches ``a`` there."""
    def make():
        p0 = Parameter(Tensor(np.array([[-0.19, 0.56, -0.64], [-1.09, -0.26, -0.01]], np.float32)), name="p0")

        def h0(a):
            if ops.ones(()) <= 3.0:
                pass
            else:
                a += ops.ones((2, 3))
            for _ in range(3):
                ops.assign_sub(p0, ops.broadcast_to(a.mean(), (2, 3)))
            return p0 * 1.0

        return p0, lambda: h0(p0)

    seen = []
    for wrap in (lambda f: f, jit, lambda f: jit(f, capture_mode="bytecode")):
        p0, f = make()
        seen.append((wrap(f)().asnumpy(), p0.asnumpy()))
    for other in seen[1:]:
        for a, b in zip(seen[0], other):
            np.testing.assert_allclose(b, a, rtol=1e-6)
