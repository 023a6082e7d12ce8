"""Under jit_syntax_level=STRICT a graph returns a dict as the tuple of its values (at any depth), as MindSpore
2.10 does (measured: a GRAPH_MODE Cell with ``set_jit_config(JitConfig(jit_syntax_level="STRICT"))`` or the
context's STRICT, and ``jit(fullgraph=True)``); LAX and COMPATIBLE keep the dict."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn


class DictNet(nn.Cell):
    def construct(self, x):
        return {"a": x * 2, "b": (1, x)}


class NestedNet(nn.Cell):
    def construct(self, x):
        return x, {"a": x + 1, "c": {"d": 3}}


def _np(v):
    if isinstance(v, (tuple, list)):
        return type(v)(_np(a) for a in v)
    if isinstance(v, dict):
        return {k: _np(a) for k, a in v.items()}
    return v.asnumpy().tolist() if isinstance(v, Tensor) else v


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


@pytest.mark.parametrize("level, dicts", [("STRICT", False), ("COMPATIBLE", True), ("LAX", True)])
def test_cell_jit_config(graph_mode, level, dicts):
    x = Tensor(np.array([1.0, 2.0], np.float32))
    net = DictNet()
    net.set_jit_config(ms.JitConfig(jit_syntax_level=level))
    out = _np(net(x))
    want = {"a": [2.0, 4.0], "b": (1, [1.0, 2.0])}
    assert out == (want if dicts else tuple(want.values()))
    nested = NestedNet()
    nested.set_jit_config(ms.JitConfig(jit_syntax_level=level))
    out = _np(nested(x))
    want = ([1.0, 2.0], {"a": [2.0, 3.0], "c": {"d": 3}})
    assert out == (want if dicts else ([1.0, 2.0], ([2.0, 3.0], (3,))))


def test_context_strict_and_fullgraph(graph_mode):
    x = Tensor(np.array([1.0], np.float32))
    ms.set_context(jit_syntax_level=ms.STRICT)
    assert _np(DictNet()(x)) == ([2.0], (1, [1.0]))
    ms.set_context(jit_syntax_level=ms.LAX)

    @ms.jit(fullgraph=True)
    def f(t):
        return {"a": t}

    assert _np(f(x)) == ([1.0],)
    assert _np(ms.jit(lambda t: {"a": t})(x)) == {"a": [1.0]}
