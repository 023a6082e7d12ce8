"""PIJit (bytecode capture): graph breaks, guards, cache, fullgraph errors, gradients, the report."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.capture.bytecode import GraphBreakError, compile_bytecode, report, reset_report
from sprout.capture.bytecode import runtime as rt_mod


@pytest.fixture(autouse=True)
def _fresh_report():
    rt_mod._RUNTIMES.clear()
    reset_report()
    yield


def T(*vals):
    return ms.Tensor(np.array(vals, np.float32))


def same(a, b):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, ms.Tensor):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    else:
        assert a == b


def seed_tensor_cal():
    return ops.matmul(ops.ones((2, 3)), ops.ones((3, 4))) + ops.ones((2, 4))


def test_seed_tensor_cal_one_graph():
    f = compile_bytecode(seed_tensor_cal)
    for _ in range(3):
        out = f()
        assert out.shape == (2, 4)
        assert (out.asnumpy() == 4.0).all()
    rep = f.report()
    assert rep.captures == 1 and rep.compiles == 1 and rep.hits == 2 and rep.n_breaks == 0


def test_output_is_not_shared_between_calls():
    f = compile_bytecode(seed_tensor_cal)
    a = f()
    a[0, 0] = 100.0
    assert f().asnumpy()[0, 0] == 4.0


# ---- functions AST capture refuses run, with the eager result ------------------------------------------
def with_print(x):
    y = x * 2
    print("value", y.asnumpy().sum())
    return y + 1


def with_numpy(x):
    y = ops.exp(x)
    z = np.tanh(y.asnumpy()) * 2
    return ms.Tensor(z) + y


def with_try(x):
    try:
        y = x.asnumpy()[10]
    except IndexError:
        y = None
    return x * 3 if y is None else x


def with_block(x, path):
    with open(path, "w") as fh:
        fh.write("ok")
        y = x + 1
    return y * y


def data_branch(x):
    s = x.sum()
    if s > 0:
        y = x * 2
    else:
        y = -x
    while (y.sum() < 20).all():
        y = y * 2
    return y


def helper_with_break(a):
    print("inside helper")
    return a * a


def calls_breaking_helper(x):
    y = x + 1
    z = helper_with_break(y)
    return z - x


@pytest.mark.parametrize("fn", [with_print, with_numpy, with_try, data_branch, calls_breaking_helper])
def test_refused_by_ast_runs_with_eager_result(fn, capsys):
    f = compile_bytecode(fn)
    for x in (T(1.0, 2.0, 3.0), T(-1.0, 0.5, 2.0), T(1.0, 2.0, 3.0)):
        same(f(x), fn(x))
    assert f.report().n_breaks >= 1


def test_with_block_side_effect(tmp_path):
    f = compile_bytecode(with_block)
    p = tmp_path / "out.txt"
    same(f(T(1.0, 2.0), str(p)), with_block(T(1.0, 2.0), str(p)))
    p.unlink()
    f(T(1.0, 2.0), str(p))
    assert p.read_text() == "ok"


def test_python_side_effects_happen_every_call(capsys):
    f = compile_bytecode(with_print)
    for _ in range(3):
        f(T(1.0, 2.0))
    assert capsys.readouterr().out.count("value 6.0") == 3


# ---- breaks: reasons, locations, counts ---------------------------------------------------------------
def test_break_reasons_and_counts():
    f = compile_bytecode(with_print)
    f(T(1.0))
    f(T(1.0))
    rep = f.report()
    reasons = [b.reason for b in rep.graph_breaks]
    assert any("asnumpy" in r for r in reasons)
    rec = next(b for b in rep.graph_breaks if "asnumpy" in r_(b))
    assert rec.filename == __file__ and "y.asnumpy()" in rec.source and rec.count == 1  # found once, replayed after
    assert rep.captures == sum(len(v) for v in f.rt.entries.values())
    assert rep.hits == rep.captures  # the second call replays every segment
    assert report().n_breaks == rep.n_breaks
    assert "asnumpy" in report().text()


def r_(b):
    return b.reason


def test_branch_on_tensor_is_a_break():
    f = compile_bytecode(data_branch)
    f(T(1.0, 2.0))
    assert any("branch on a tensor" in b.reason for b in f.report().graph_breaks)


def test_fullgraph_raises_located_error():
    f = compile_bytecode(with_print, fullgraph=True)
    with pytest.raises(GraphBreakError) as info:
        f(T(1.0))
    assert isinstance(info.value, RuntimeError)
    text = str(info.value)
    assert "asnumpy" in text and f"line {with_print.__code__.co_firstlineno + 2}" in text and "y.asnumpy()" in text


def test_fullgraph_inside_inlined_helper_points_at_helper():
    f = compile_bytecode(calls_breaking_helper, fullgraph=True)
    with pytest.raises(GraphBreakError) as info:
        f(T(1.0))
    assert 'print("inside helper")' in str(info.value)


def test_fullgraph_accepts_clean_function():
    f = compile_bytecode(seed_tensor_cal, fullgraph=True)
    assert (f().asnumpy() == 4).all()


# ---- guards ---------------------------------------------------------------------------------------------
SCALE = 2.0


def uses_global(x):
    return x * SCALE


def test_changed_global_recompiles():
    global SCALE
    f = compile_bytecode(uses_global)
    same(f(T(1.0)), T(2.0))
    SCALE = 3.0
    try:
        same(f(T(1.0)), T(3.0))
    finally:
        SCALE = 2.0
    same(f(T(1.0)), T(2.0))
    rep = f.report()
    assert rep.captures == 2 and rep.hits == 1
    assert any("SCALE" in g.guard for g in rep.guard_failures.values())


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.value = 5

    def construct(self, x):
        return x + self.value


def test_changed_cell_attribute_is_seen():
    net = Net()
    f = compile_bytecode(net.construct)
    same(f(T(1.0, 2.0, 3.0)), T(6.0, 7.0, 8.0))
    net.value = 1
    same(f(T(1.0, 2.0, 3.0)), T(2.0, 3.0, 4.0))
    fails = list(f.report().guard_failures.values())
    assert fails and "self.value == 5" in fails[0].guard


def test_shape_and_dtype_guards_pick_entries():
    f = compile_bytecode(lambda x: x * 2)
    a, b = T(1.0, 2.0), ms.Tensor(np.ones((2, 2), np.float32))
    c = ms.Tensor(np.array([1, 2], np.int32))
    for x in (a, b, c, a, b, c):
        same(f(x), x * 2)
    rep = f.report()
    assert rep.captures == 3 and rep.hits == 3
    assert f(c).dtype == ms.int32


def test_python_constant_argument_is_guarded():
    f = compile_bytecode(lambda x, n: x * n)
    same(f(T(1.0), 2), T(2.0))
    same(f(T(1.0), 3), T(3.0))
    same(f(T(1.0), 2), T(2.0))
    assert f.report().captures == 2


def test_symbolic_batch_dimension_stops_recompiles():
    f = compile_bytecode(lambda x: x * 2 + 1)
    after = ms.get_context("jit_dynamic_after")
    for n in range(2, 10):
        same(f(ms.Tensor(np.ones((n, 3), np.float32))), ms.Tensor(np.full((n, 3), 3.0, np.float32)))
    rep = f.report()
    assert rep.captures == after + 1
    assert any(None in g.inputs[0].type.shape for g in f.graphs())


def test_lru_eviction(monkeypatch):
    monkeypatch.setitem(ms.context._flags, "pijit_cache_size", 3)
    f = compile_bytecode(lambda x, n: x + n)
    for n in range(6):
        f(T(1.0), n)
    rep = f.report()
    assert rep.evictions == 3 and f.entries()[0] == 3
    f(T(1.0), 5)  # most recent: still cached
    assert f.report().captures == 6
    f(T(1.0), 0)  # evicted: captured again
    assert f.report().captures == 7


# ---- Python structure: calls, loops, containers, closures -------------------------------------------------
def _mul_add(a, b, k=1):
    return a * b + k


def structured(x, n):
    acc = x
    for i in range(n):
        acc = _mul_add(acc, x, k=i)
    ys = [acc * k for k in (1, 2)]
    d = {"a": ys[0], "b": ys[1]}
    scale = 0.5

    def inner(t):
        return t * scale

    a, *rest = ys
    return inner(d["a"] + d["b"]), len(rest), tuple(t.shape for t in ys)


def test_structured_python_is_captured_without_breaks():
    f = compile_bytecode(structured)
    x = T(1.0, 2.0)
    same(f(x, 3), structured(x, 3))
    same(f(x, 3), structured(x, 3))
    rep = f.report()
    assert rep.n_breaks == 0 and rep.captures == 1 and rep.hits == 1


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def construct(self, x):
        return self.helper(x) * self.w

    def helper(self, x):
        return ops.relu(x) + 1


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        y = self.block(x)
        return y.sum()


def test_cells_inlined_and_parameters_read_live():
    net = Outer()
    f = compile_bytecode(net.construct)
    x = T(-1.0, 3.0)
    same(f(x), net.construct(x))
    net.block.w.set_data(ms.Tensor(np.array([3.0, 3.0], np.float32)))
    same(f(x), net.construct(x))
    assert f.report().captures == 1 and f.report().n_breaks == 0


# ---- gradients --------------------------------------------------------------------------------------------
def grad_fn(x, y):
    a = ops.sin(x) * y
    print("between segments")
    return (a * a).sum() + y.sum()


def test_gradients_through_a_break():
    f = compile_bytecode(grad_fn)
    x, y = T(0.5, 1.0, 2.0), T(1.0, 2.0, 3.0)
    expect = ms.grad(grad_fn, grad_position=(0, 1))(x, y)
    for _ in range(2):
        same(ms.grad(f, grad_position=(0, 1))(x, y), expect)
    assert f.report().n_breaks == 1


def test_gradients_with_parameters():
    net = Block()
    f = compile_bytecode(net.construct)

    def loss(x):
        return f(x).sum()

    x = T(-1.0, 3.0)
    g_jit = ms.grad(loss, grad_position=None, weights=[net.w])(x)
    g_eager = ms.grad(lambda x: net.construct(x).sum(), grad_position=None, weights=[net.w])(x)
    same(g_jit, g_eager)


def host_scale(x):
    h = ops.tanh(x)
    scale = float(np.abs(h.asnumpy()).max())
    return h / scale + scale


def test_changing_host_float_becomes_a_graph_input():
    f = compile_bytecode(host_scale)
    for k in range(1, 7):
        x = T(0.1 * k, -0.2 * k)
        same(f(x), host_scale(x))
    captures = f.report().captures
    for k in range(7, 12):
        x = T(0.1 * k, -0.2 * k)
        same(f(x), host_scale(x))
    assert f.report().captures == captures
