"""A Python number carried through a graph loop leaves the jitted function as a Python number in both captures.

MindSpore 2.10 GRAPH_MODE (measured on CPU) returns ``int``/``float`` for ``ops.ForiLoop`` with a tensor bound
or ``unroll=False`` and an int ``init_val``, for ``ops.WhileLoop`` over a tuple of ints, and for a float counter
of a ``while`` on a tensor condition; AST capture did, bytecode capture returned 0-d Tensors."""
import pytest

from sprout import Tensor, ops

from .modes import MODES, run_in_mode


def _inc(i, v):
    return v + 1


def fori_tensor_bound(x):
    return ops.ForiLoop()(0, x, _inc, 5)


def fori_not_unrolled(x):
    return ops.ForiLoop()(0, 3, _inc, 5, unroll=False) + x.sum() * 0


def while_loop_tuple(x):
    return ops.WhileLoop()(lambda v: v[0] < x, lambda v: (v[0] + 1, v[1] + 2), (0, 0))


def float_counter_of_tensor_while(x):
    s = 1.5
    while x.sum() > 0:
        x = x - 1
        s = s * 2
    return s, x


def int_counter_of_tensor_while(x):
    s = 1
    while x.sum() > 0:
        x = x - 1
        s = s + 2
    return s


def _plain(v):
    if isinstance(v, tuple):
        return tuple(_plain(a) for a in v)
    if isinstance(v, Tensor):
        return ("Tensor", str(v.dtype), v.asnumpy().tolist())
    return (type(v).__name__, v)


@pytest.mark.parametrize("fn", [fori_tensor_bound, fori_not_unrolled, while_loop_tuple,
                                float_counter_of_tensor_while, int_counter_of_tensor_while])
def test_python_numbers_stay_python_numbers(fn):
    for n in (3, 5):  # the second call runs the cached entry (float locals become graph inputs there)
        got = {m: _plain(run_in_mode(fn, (Tensor(n),), m)) for m in MODES}
        assert got["ast"] == got["eager"], got
        assert got["bytecode"] == got["eager"], got


def test_kinds_match_mindspore():
    assert type(run_in_mode(fori_tensor_bound, (Tensor(3),), "bytecode")) is int
    assert run_in_mode(while_loop_tuple, (Tensor(3),), "bytecode") == (3, 6)
    out = run_in_mode(float_counter_of_tensor_while, (Tensor(3),), "bytecode")
    assert type(out[0]) is float and out[0] == 12.0


def _round_with_ndigits(x):
    return round(x, 1)


def _round(x):
    return round(x)


@pytest.mark.parametrize("mode", MODES)
def test_round_of_a_tensor_with_ndigits_is_a_type_error(mode):
    """``round(t, n)``: a TypeError saying only ``round(t)`` is supported, in every mode (was a message naming a
    sprout-internal function)."""
    with pytest.raises(TypeError, match=r"only one tensor is supported as input \(got ndigits=1\)"):
        run_in_mode(_round_with_ndigits, (Tensor([1.25, 2.5]),), mode)
    assert run_in_mode(_round, (Tensor([1.5, 2.5]),), mode).asnumpy().tolist() == [2.0, 2.0]
