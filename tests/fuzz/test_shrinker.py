"""The shrinker reduces a failing program to a small one that fails the same way, and prints it as a test."""
import pytest

import sprout as ms

from .gen import generate
from .harness import Outcome, assert_agrees
from .shrink import edits, reproducer, shrink


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


def _eager_ok(prog) -> bool:
    from .harness import check_program

    return not check_program(prog, checks=(), modes=()).invalid


def test_shrinks_to_the_failing_construct():
    """With "the program uses ops.tanh and eager runs it" as the failure, shrinking keeps a tanh and little else."""
    prog = next(p for p in (generate(s) for s in range(50)) if "ops.tanh(" in p.render() and len(p.render()) > 1200)
    before = prog.render()

    def still(p):
        return "ops.tanh(" in p.render() and _eager_ok(p)

    small = shrink(prog, ("fwd", "ast", "disagree", "value", ""), predicate=still, budget_s=120)
    after = small.render()
    assert "ops.tanh(" in after and _eager_ok(small)
    assert len(after) < len(before) / 2, (len(before), len(after))
    assert len(edits(small)) < len(edits(prog))
    assert prog.render() == before  # the input program is not modified


def test_reproducer_is_a_runnable_test():
    prog = generate(5)
    small = shrink(prog, (), predicate=lambda p: _eager_ok(p) and "return" in p.render(), budget_s=60)
    text = reproducer(small, Outcome("fwd", "ast", "disagree", "call 1 output: \"x\"", "value"), "T1", "AST capture")
    assert '@pytest.mark.xfail(strict=True, reason="fuzz-T1: AST capture")' in text
    ns = {"pytest": pytest, "assert_agrees": assert_agrees}
    exec(compile(text, "<reproducer>", "exec"), ns)
    ns["test_fuzz_T1"]()  # this program agrees under AST capture: the test body passes
