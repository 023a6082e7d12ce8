"""jit.graph_mode_entry: the one compiled construct per Cell class that GRAPH_MODE calls, Cell.compile and
Cell.compile_and_run share."""
import numpy as np

import sprout as ms
from sprout import Tensor, nn
from sprout.jit import graph_mode_entry


class _Affine(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.full((2,), k, np.float32)), name="w")

    def construct(self, x):
        if x.sum() > 0:
            return x * self.w
        return x - self.w


class _Jitted(_Affine):
    construct = ms.jit(_Affine.construct)


def test_compile_is_reused_by_graph_mode_calls():
    a, b = _Affine(2.0), _Affine(3.0)
    x = Tensor(np.array([1.0, 2.0], np.float32))
    entry = graph_mode_entry(a)
    before = entry.stats["compiles"]
    a.compile(x)
    assert a.compiled and entry.stats["compiles"] == before + 1
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_array_equal(a(x).asnumpy(), [2.0, 4.0])
        np.testing.assert_array_equal(a(-x).asnumpy(), [-3.0, -4.0])  # same shapes: the tensor if is in the graph
        assert entry.stats["compiles"] == before + 1
        np.testing.assert_array_equal(b(x).asnumpy(), [3.0, 6.0])  # one JitFunction, an entry per instance
        assert graph_mode_entry(b).stats_record is entry.stats_record and entry.stats["compiles"] == before + 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_compile_and_run_runs_the_graph_in_pynative_mode():
    c = _Affine(2.0)
    x = Tensor(np.array([1.0, -2.0], np.float32))
    np.testing.assert_array_equal(c.compile_and_run(x).asnumpy(), c(x).asnumpy())
    assert "Cond(" in graph_mode_entry(c).get_ir(x)


def test_a_construct_already_jitted_is_its_own_entry():
    c = _Jitted(2.0)
    entry = graph_mode_entry(c)
    assert entry.__func__ is _Affine.construct and entry.stats_record is _Jitted.construct.stats_record
