"""Gradients of int32 inputs: computed in int32 eagerly and in graphs (both captures, tensor if/while/for with
break included), equal to MindSpore 2.10's (tests/autodiff/data/ms_int_grads.json, tools/ms_oracle_int_grads.py).
Graphs used to differentiate float inputs only: an int input's gradient came out 0 under jit."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

sys.path.insert(0, str(Path(__file__).parent))
import int_grad_cases as C  # noqa: E402

C.use(ms)
ORACLE = json.loads((Path(__file__).parent / "data" / "ms_int_grads.json").read_text())
GRAD_ALL = ops.GradOperation(get_all=True)


def _as_record(grads) -> list:
    return [[str(g.dtype), np.asarray(g.asnumpy()).tolist()] for g in grads]


@pytest.mark.parametrize("name", sorted(C.CASES))
@pytest.mark.parametrize("mode", ["eager", "ast", "bytecode"])
def test_int_input_gradients_match_mindspore(name, mode):
    fn = C.CASES[name][0]
    if mode != "eager":
        fn = ms.jit(fn, capture_mode=mode)
    for _ in range(2):  # the second call runs the cached graph
        got = _as_record(GRAD_ALL(fn)(*C.inputs(name)))
        assert got == ORACLE[name]["jit"] == ORACLE[name]["pynative"], (name, mode)


def test_graph_mode_cell_with_int_parameter_written_in_loop():
    class Accumulate(nn.Cell):
        def __init__(self):
            super().__init__()
            self.seen = ms.Parameter(ms.Tensor(0, ms.int32), name="seen")

        def construct(self, x, y):
            i = ms.Tensor(0, ms.int32)
            acc = ms.Tensor(0, ms.int32)
            while i < 4:
                acc = x * y + acc
                ops.assign(self.seen, i)
                i = i + 1
            return acc

    x, y = ms.Tensor(2, ms.int32), ms.Tensor(5, ms.int32)
    eager = GRAD_ALL(Accumulate())(x, y)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        graph = GRAD_ALL(Accumulate())(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [int(g.asnumpy()) for g in eager] == [int(g.asnumpy()) for g in graph] == [20, 8]
    assert all(g.dtype == ms.int32 for g in graph)


def test_bool_input_gets_a_zero_gradient():
    def f(x, flag):
        return ops.select(flag, x * 2.0, x)

    flag = ms.Tensor(np.array([True, False]))
    x = ms.Tensor(np.array([1.0, 1.0], np.float32))
    gx, gflag = GRAD_ALL(ms.jit(f))(x, flag)
    assert gx.asnumpy().tolist() == [2.0, 1.0]
    assert gflag.dtype == ms.bool_ and not gflag.asnumpy().any()
