"""Backends: generated Python == reference interpreter == eager, readable source, located failures."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.backend import compile_subgraph
from sprout.backend.interpret import GraphRuntimeError, interpret
from sprout.backend.pycodegen import generate
from sprout.capture.trace import trace
from sprout.core.op import Op, register
from sprout.core.types import TensorType
from sprout.passes import run_pipeline

rng = np.random.default_rng(0)


def rand(*shape):
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


def f_arith(x, y):
    return (x * y - x / (ops.abs(y) + 1)) ** 2 + ops.maximum(x, y)


def f_reduce(x, y):
    return ops.reduce_sum(ops.exp(ops.tanh(x)), 1) + ops.mean(y, 0)


def f_shape(x, y):
    z = ops.transpose(ops.reshape(x, (4, 3)), (1, 0))
    return ops.concat((z, y), 1)[1:, ::2]


def f_matmul(x, y):
    return ops.relu(ops.matmul(x, ops.transpose(y, (1, 0))) + 1.0)


def f_compare(x, y):
    return ops.where(x > y, x, y * 2), ops.cast(x >= 0, ms.int32)


def f_multi(x, y):
    a, b = ops.split_sizes(x, (1, 2), 0)
    return ops.sigmoid(a) * 2, b + y[:2]


CASES = [(f_arith, (3, 4), (3, 4)), (f_reduce, (3, 4), (5, 3)), (f_shape, (3, 4), (3, 2)),
         (f_matmul, (2, 3), (4, 3)), (f_compare, (3, 4), (3, 4)), (f_multi, (3, 4), (3, 4))]


@pytest.mark.parametrize("fn,sx,sy", CASES, ids=[c[0].__name__ for c in CASES])
def test_codegen_equals_interpreter_equals_eager(fn, sx, sy):
    x, y = rand(*sx), rand(*sy)
    g = run_pipeline(trace(fn, (x, y), {}, name=fn.__name__).graph, check=True)
    gen = generate(g)
    got = gen.function("graph_fn")(x.asnumpy(), y.asnumpy())
    ref = interpret(g, x.asnumpy(), y.asnumpy())
    eager = fn(x, y)
    eager = eager if isinstance(eager, tuple) else (eager,)
    assert len(got) == len(ref) == len(eager)
    for a, b, e in zip(got, ref, eager):
        np.testing.assert_allclose(a, b, rtol=1e-6)
        np.testing.assert_allclose(a, e.asnumpy(), rtol=1e-6)
        assert np.asarray(a).dtype == e.asnumpy().dtype


def test_source_is_readable_with_user_lines():
    g = trace(f_matmul, (rand(2, 3), rand(4, 3)), {}, name="f_matmul").graph
    src = generate(g).source
    assert src.splitlines()[0] == "def graph_fn(x0, x1):"
    assert "v0 = x1.transpose((1, 0))  # test_backend.py:36" in src
    assert "v1 = x0 @ v0" in src


def test_big_intermediates_are_reused_in_place_and_stay_correct():
    def chain(x):
        y = x * 2
        z = y + 1
        w = ops.exp(z) * y  # y still alive here: must not be overwritten early
        return w - z

    x = rand(256, 256)
    g = trace(chain, (x,), {}, name="chain").graph
    src = generate(g).source
    assert "out=" in src
    got = generate(g).function("graph_fn")(x.asnumpy())[0]
    np.testing.assert_allclose(got, chain(x).asnumpy(), rtol=1e-5)


def _boom(x):
    raise FloatingPointError("boom")


BOOM = register(Op("TestBoom", _boom, lambda x: x, None, kind="opaque"))


def test_runtime_failure_names_node_and_user_line():
    def f(x):
        y = x + 1
        return BOOM(y)  # explodes at run time

    g = trace(f, (rand(2),), {}, name="f").graph
    with pytest.raises(GraphRuntimeError) as info:
        interpret(g, np.ones(2, np.float32))
    assert "TestBoom" in str(info.value) and "explodes at run time" in str(info.value)
    jf = ms.jit(f)
    with pytest.raises(GraphRuntimeError) as info:
        jf(rand(2))
    assert "TestBoom (node 1 of graph f)" in str(info.value) and "test_backend.py" in str(info.value)


def test_compile_subgraph_returns_array_callable():
    from sprout.ir.builder import trace_subgraph
    g, _ = trace_subgraph(lambda a, b: (a * b, a - b), [TensorType((2,), ms.float32)] * 2)
    fn = compile_subgraph(g)
    out = fn(np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32))
    assert isinstance(out, tuple) and np.allclose(out[0], [3, 8]) and np.allclose(out[1], [-2, -2])
