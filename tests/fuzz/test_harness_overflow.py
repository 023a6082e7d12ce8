"""The fuzz harness's float32-overflow rule (issue 9, fuzz-27): a check whose only difference from eager is where
values are non-finite is ``invalid`` when eager's own float32 run makes an infinity out of finite operands; without
such an overflow a NaN-vs-finite difference stays a disagreement, and finite values must agree either way."""
import numpy as np
import pytest

import sprout as ms

from . import harness as H
from .program import Arg, SourceProgram
from .test_regressions_capture import _fresh_context, _prog  # noqa: F401 - an autouse fixture

# out[0][0] overflows in eager float32 when x[0] is 1e20 (x * x = 1e40 > 3.4e38); the rest is ordinary
SRC_SQUARE = _prog("""
def f(x):
    return x * x, x[1:] + 1.0
""", [0.25, 0.75, 1.25], "x")
BIG = [("x", "tensor", [1e20, 2.0, 3.0], [1e20, 0.5, 1.5])]
SMALL = [("x", "tensor", [1.0, 2.0, 3.0], [0.25, 0.5, 1.5])]


def _fake_jit(monkeypatch, nan_at: int, shift: float = 0.0):
    """The harness's "jit" is eager with NaN at ``nan_at`` of the first output and ``shift`` added to the second
    (a compiler bug giving NaN, and maybe also a wrong finite value)."""
    def fake(fn, mode):
        if mode == "eager":
            return fn

        def broken(*a):
            sq, inc = (t.asnumpy().copy() for t in fn(*a))
            sq[nan_at] = np.nan
            inc[-1] += np.float32(shift)
            return ms.Tensor(sq), ms.Tensor(inc)
        return broken
    monkeypatch.setattr(H, "_jit", fake)


def _outcome(src, args):
    res = H.check_program(SourceProgram(src, [Arg(*a) for a in args]), modes=("ast",), checks=("fwd",))
    return res.outcomes[0]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_nan_where_eager_overflowed_is_invalid(monkeypatch):
    _fake_jit(monkeypatch, 0)
    o = _outcome(SRC_SQUARE, BIG)
    assert o.status == "invalid" and "float32 overflow" in o.detail and "Mul" in o.detail


def test_nan_against_a_finite_value_without_overflow_disagrees(monkeypatch):
    _fake_jit(monkeypatch, 1)
    o = _outcome(SRC_SQUARE, SMALL)
    assert o.status == "disagree" and "non-finite values differ" in o.detail


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_wrong_finite_value_beside_an_overflow_disagrees(monkeypatch):
    _fake_jit(monkeypatch, 0, shift=0.5)
    o = _outcome(SRC_SQUARE, BIG)
    assert o.status == "disagree" and "non-finite" not in o.detail


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_overflow_watch_sees_overflows_and_poles_only():
    from sprout import Tensor, ops

    def made(fn) -> list:
        out: list = []
        with H.overflow_watch(out):
            fn()
        return out

    assert made(lambda: Tensor(np.array([1e20], np.float32)) * Tensor(np.array([1e20], np.float32)))
    assert made(lambda: ops.exp(Tensor(np.array([100.0], np.float32))))
    assert made(lambda: Tensor(np.array([1.0], np.float32)) / Tensor(np.array([0.0], np.float32)))
    assert not made(lambda: Tensor(np.array([1e10], np.float32)) * Tensor(np.array([1e10], np.float32)))
    assert not made(lambda: Tensor(np.array([np.inf], np.float32)) * 2.0)  # an infinity already there


# A tensor while whose last v is never read: the loop's backward used to run the body's backward for every carried
# value in every iteration, so the last v's zero cotangent met its overflowed residual (0 * inf = NaN) where eager's
# tape never visits it (eager: 3.4e21). The compiler now skips structurally zero cotangents (autodiff/absent.py):
# every check agrees, nothing is left to the float32 overflow rule (tests/autodiff/test_while_dead_cotangent.py).
SRC_LOOP_OVERFLOW = _prog("""
def f(x):
    v = x
    j = ops.zeros(())
    while j < 4:
        j = j + 1
        x = x * v
        v = x * (x * x)
    return x
""", [0.25, 0.75, 1.25], "x")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_dead_overflowed_loop_value_agrees():
    prog = SourceProgram(SRC_LOOP_OVERFLOW, [Arg("x", "tensor", [1.43, 0.5, -1.23], [0.3, 1.2, 0.9])])
    res = H.check_program(prog)
    assert [o for o in res.outcomes if o.status != "agree"] == []


def test_the_run_summary_counts_overflow_checks():
    from .runner import Summary

    s = Summary()
    prog = SourceProgram(SRC_SQUARE, [Arg(*a) for a in SMALL])
    s.add(1, H.Result(prog, SRC_SQUARE, [H.Outcome("fwd", "ast", "agree"),
                                         H.Outcome("jit_of_grad", "ast", "invalid", H.OVERFLOW + ": eager's Mul")]))
    assert s.overflow == {("jit_of_grad", "ast"): 1}
    assert "float32 overflow, non-finite values differ (not test cases): jit_of_grad/ast 1" in s.table()
