"""repr/str/print of tensors, exactly as MindSpore 2.10 prints them (strings captured from the real
MindSpore on CPU and stored in data/mindspore_print.json)."""
import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

# name -> {"source": constructor, "repr": ..., "str": ...}, captured from MindSpore 2.10
CASES = json.loads((Path(__file__).parent / "data" / "mindspore_print.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_repr_matches_mindspore(name):
    case = CASES[name]
    assert repr(eval(case["source"])) == case["repr"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_str_and_print_match_mindspore(name):
    want_str = CASES[name]["str"]
    t = eval(CASES[name]["source"])
    assert str(t) == want_str
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(t)
    assert buf.getvalue() == want_str + "\n"


def test_parameter_and_dtype_text():
    p = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")

    assert repr(p) == 'Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)'
    assert str(p) == 'Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)'
    assert repr(ms.float32) == 'mindspore.float32' and str(ms.float32) == 'Float32'
    assert repr(ms.bool_) == 'mindspore.bool'
    assert str([Tensor(np.ones(2, np.float32))]) == ("[Tensor(shape=[2], dtype=Float32, "
                                                     "value= [ 1.00000000e+00,  1.00000000e+00])]")


def test_ops_print_writes_each_argument_on_its_own_line():
    # captured from MindSpore 2.10: ops.Print()("x is", x, 3, Tensor(2)); it returns None
    x = Tensor(np.array([[1, 5, 3], [4, 2, 6]], np.float32))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = ops.Print()("x is", x, 3, Tensor(2))
    assert result is None
    assert buf.getvalue() == (
        "x is\n"
        "Tensor(shape=[2, 3], dtype=Float32, value=\n"
        "[[ 1.00000000e+00,  5.00000000e+00,  3.00000000e+00],\n"
        " [ 4.00000000e+00,  2.00000000e+00,  6.00000000e+00]])\n"
        "3\n"
        "Tensor(shape=[], dtype=Int64, value= 2)\n")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert ops.print_("scalar", Tensor(2.5), [1, 2]) is None
    assert buf.getvalue() == "scalar\nTensor(shape=[], dtype=Float32, value= 2.5)\n[1, 2]\n"
