"""``x[i] = v`` on a jitted function's tensor argument, against MindSpore 2.10 (CPU): PyNative and PIJit
(capture_mode="bytecode") both leave the argument written, and so do sprout's eager and bytecode capture (the write
is an update of the argument, as ``ops.assign`` on it is); MindSpore's AST graph mode leaves the argument unchanged
(graph-mode setitem makes a new tensor), and sprout's AST capture does the same (issue 9)."""
import numpy as np

import sprout as ms


def _write_row(x):
    x[0] = 7.0
    return x * 2


def _run(capture):
    x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
    fn = _write_row if capture is None else ms.jit(_write_row, capture_mode=capture)
    out = fn(x)
    return out.asnumpy(), x.asnumpy()


def test_eager_writes_the_argument():
    out, x = _run(None)
    np.testing.assert_array_equal(x, [[7, 7], [2, 3]])
    np.testing.assert_array_equal(out, [[14, 14], [4, 6]])


def test_ast_capture_leaves_the_argument_as_mindspore_graph_mode_does():
    out, x = _run("ast")
    np.testing.assert_array_equal(out, [[14, 14], [4, 6]])
    np.testing.assert_array_equal(x, [[0, 1], [2, 3]])


def test_bytecode_capture_writes_the_argument_as_eager_does():
    out, x = _run("bytecode")
    np.testing.assert_array_equal(out, [[14, 14], [4, 6]])
    np.testing.assert_array_equal(x, [[7, 7], [2, 3]])
