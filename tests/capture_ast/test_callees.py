"""Functions and Cells reached from jitted code (through a gradient transform, a Partial, a HyperMap, a Cell call,
a helper, or a callable handed to a higher-order builtin such as ``map``/``sorted``/``functools.reduce``) are
captured exactly as the caller is: their tensor ``if``/``while`` become graph control flow, so STRICT compiles
them and LAX needs no host segment; results and gradients equal eager's on two input sets."""
import functools
import itertools

import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, ParameterTuple, Tensor, nn, ops
from sprout.core.errors import JitValueError
from sprout.ops import composite as C


def helper_if(x):
    if x.max() > 1:
        return x * x
    return x * 3


def f_if(x, y):
    if x.sum() > y.sum():
        return x * y
    return x + y * 2


def f_while(x, y):
    i = 0
    while x.sum() < y.sum() and i < 10:
        x = x * 1.5 + 0.1
        i += 1
    return x * y


class IfCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")

    def construct(self, x):
        if (x * self.w).sum() > 0:
            return x * self.w
        return x - self.w


class WhileCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, 0.25], np.float32)), name="w")
        self.inner = IfCell()

    def construct(self, x):
        n = 0
        while n < 3 and x.sum() < 10:
            x = self.inner(x) * self.w + x
            n += 1
        return x


NET = WhileCell()
WEIGHTS = ParameterTuple(NET.trainable_params())


def _has_aux(x, y):
    def fa(a):
        out = f_if(a, y)
        return out.sum(), out * 2
    return ops.value_and_grad(fa, has_aux=True)(x)


def _sorted_by_key(x, y):
    xs = [x, y * 2, x + y]
    xs.sort(key=len)  # keys known while compiling (len is the graph's len of a tensor)
    return sorted(xs, key=lambda t: t.ndim)[0] + max([x, y], key=lambda t: t.shape[0])


PROGRAMS = {
    "grad_of_if": lambda x, y: ops.grad(f_if, grad_position=(0, 1))(x, y),
    "grad_of_while": lambda x, y: ops.grad(f_while)(x, y),
    "GradOperation_get_all": lambda x, y: C.GradOperation(get_all=True)(f_if)(x, y),
    "grad_of_lambda_calling_helper": lambda x, y: ops.grad(lambda a: helper_if(a) * y)(x),
    "second_order": lambda x, y: ops.grad(ops.grad(lambda a: (helper_if(a) * y).sum()))(x),
    "value_and_grad_has_aux": _has_aux,
    "ops_partial": lambda x, y: ops.partial(f_if, x)(y),
    "functools_partial": lambda x, y: functools.partial(f_while, y=y)(x),
    "grad_of_functools_partial": lambda x, y: ops.grad(functools.partial(f_if, y=y))(x),
    "HyperMap": lambda x, y: C.HyperMap()(helper_if, (x, y)),
    "map": lambda x, y: tuple(map(helper_if, (x, y))),
    "map_of_a_cell": lambda x, y: list(map(IfCell(), [x, y])),
    "filter": lambda x, y: tuple(filter(lambda t: helper_if(t).shape[0] == 2, [x, y])),
    "functools_reduce": lambda x, y: functools.reduce(lambda a, b: helper_if(a) + b, [x, y], y),
    "itertools_starmap": lambda x, y: tuple(itertools.starmap(f_if, [(x, y), (y, x)])),
    "sorted_and_max_keys": _sorted_by_key,
    "cell_call": lambda x, y: NET(x) + y,
    "GradOperation_weights": lambda x, y: C.GradOperation(get_by_list=True)(NET, WEIGHTS)(x),
    "grad_position_and_weights": lambda x, y: ops.grad(NET, grad_position=0, weights=WEIGHTS)(x),
    "value_and_grad_of_cell": lambda x, y: ops.value_and_grad(NET, None, NET.trainable_params())(x),
}
INPUTS = [(Tensor(np.array([0.5, 1.5], np.float32)), Tensor(np.array([2.0, 1.0], np.float32))),
          (Tensor(np.array([-0.5, 0.25], np.float32)), Tensor(np.array([2.0, 1.0], np.float32)))]


def flat(v):
    if isinstance(v, (tuple, list)):
        return [a for x in v for a in flat(x)]
    return [v.asnumpy() if isinstance(v, Tensor) else np.asarray(v)]


@pytest.mark.parametrize("level", ["STRICT", "LAX"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_callee_is_captured_as_its_caller(name, level):
    fn = PROGRAMS[name]
    jitted = ms.jit(fn, jit_config=ms.JitConfig(jit_syntax_level=level))
    for x, y in INPUTS:
        want, got = flat(fn(x, y)), flat(jitted(x, y))
        assert len(want) == len(got), name
        for a, b in zip(want, got):
            assert a.shape == b.shape
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6, err_msg=name)
    assert jitted.stats["host_fallbacks"] == 0


def test_map_helper_becomes_graph_control_flow():
    jitted = ms.jit(PROGRAMS["map"], jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    assert jitted.get_ir(*INPUTS[0]).count("Cond(") == 2


def test_refusal_inside_a_mapped_helper_is_located_in_the_helper():
    def bad(t):
        return t * len(str(t.sum()))

    def f(x):
        return tuple(map(bad, (x, x + 1)))

    x = INPUTS[0][0]
    with pytest.raises(JitValueError) as info:
        ms.jit(f, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))(x)
    loc = info.value.loc
    assert loc is not None and loc.filename == __file__ and "str(t.sum())" in loc.source_line, str(info.value)
    lax = ms.jit(f)
    for a, b in zip(lax(x), f(x)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())
    assert lax.stats["host_fallbacks"] == 1


@pytest.mark.parametrize("level", ["STRICT", "LAX"])
def test_graph_mode_grad_net_over_nested_cells(level):
    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = C.GradOperation(get_all=True, get_by_list=True)
            self.params = ParameterTuple(net.trainable_params())

        def construct(self, x):
            return self.grad_op(self.net, self.params)(x)

    gn = GradNet(WhileCell())
    gn.set_jit_config(ms.JitConfig(jit_syntax_level=level))
    x = INPUTS[0][0]
    want = flat(gn(x))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = flat(gn(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(want, got):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


def test_lambdas_inside_a_larger_expression_are_converted():
    """A lambda whose line is not a statement of its own (in a dict or list literal over several lines, two with
    the same parameters on one line) is found in its file and converted: its tensor conditional is a graph."""
    fs = {"a": [lambda x: x * 2 if x.sum() > 0 else x - 1, lambda x: x * 3 if x.sum() > 0 else x - 2],
          "b": lambda x: helper_if(x) + 1}
    for f in (*fs["a"], fs["b"]):
        jitted = ms.jit(f, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
        for x, _ in INPUTS:
            np.testing.assert_allclose(jitted(x).asnumpy(), f(x).asnumpy())
        assert "Cond(" in jitted.get_ir(INPUTS[0][0])
