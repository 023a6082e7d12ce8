"""The shrinker reduces a failing program to a small one that fails the same way, and prints it as a test."""
import dataclasses

import pytest

import sprout as ms

from .gen import generate
from .harness import Outcome, assert_agrees, check_program
from .shrink import edits, failure_key, reproducer, shrink


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


def _tanh_is_sigmoid(graph):
    """A planted compiler bug: a "rewrite" that turns every Tanh into a Sigmoid."""
    from sprout.core.op import REGISTRY

    sig = REGISTRY["Sigmoid"]
    return graph.replace(nodes=[dataclasses.replace(n, op=sig) if n.op.name == "Tanh" else n for n in graph.nodes])


def test_shrinks_a_planted_bug_to_its_minimal_form(monkeypatch):
    """With a wrong rewrite planted in the pass pipeline, the fuzzer finds seed 20's program disagreeing under
    jit(ast) and the shrinker reduces it (1294 characters, a helper, branches, mutable arguments) to the one
    statement that uses tanh. The expected text depends on the generator: if it changes, check the new minimal
    form by eye and update it here."""
    from sprout.passes import pipeline

    monkeypatch.setattr(pipeline, "PIPELINE",
                        pipeline.PIPELINE + [("planted", pipeline._into_subgraphs(_tanh_is_sigmoid))])
    prog = generate(20)
    res = check_program(prog, modes=("ast",), checks=("fwd",))
    bad = res.failures()
    assert [(o.check, o.mode, o.status, o.kind) for o in bad] == [("fwd", "ast", "disagree", "value")]
    small = shrink(prog, failure_key(bad[0]), budget_s=120)
    body = small.render().split("\n\n\n")[1].strip()
    assert body == "def f(y):\n    y *= ops.tanh(y)\n    return y", body
    assert [a.name for a in small.args] == ["y"] and small.weights == []
    monkeypatch.undo()
    assert not check_program(small, modes=("ast",), checks=("fwd",)).failures()  # without the bug it agrees
