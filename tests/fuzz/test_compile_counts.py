"""The fuzz run counts how much compiled (issue 9): under jit_syntax_level=LAX (the default) what AST capture cannot
express runs as Python host segments and the program still agrees with eager, so agreement alone would hide a
regression that demotes code to Python. These fixed-seed runs pin the counts exactly: a change that makes AST capture
refuse more (or PIJit break more) fails here; one that compiles more updates the numbers (and says so)."""
import pytest

import sprout as ms

from . import harness as H
from .gen import FEATURES
from .program import Arg, SourceProgram
from .runner import Summary, run_many


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


def _row(graph, host=0, brk=0, strict=None):
    return {"graph": graph, "host": host, "break": brk, "strict_refused": host if strict is None else strict}


def test_default_programs_compile_whole_under_ast_capture():
    s = run_many(range(260000, 260004), checks=("fwd", "jit_of_grad"))
    assert s.by_status == {"agree": 4}
    assert s.compilation() == {("fwd", "ast"): _row(4), ("fwd", "bytecode"): _row(1, brk=3),
                               ("jit_of_grad", "ast"): _row(4), ("jit_of_grad", "bytecode"): _row(1, brk=3)}


def test_host_only_constructs_are_counted_with_their_reasons():
    s = run_many(range(260000, 260004), checks=("fwd",), features=frozenset(FEATURES))
    assert s.by_status == {"agree": 4}
    # float(t) / int(t) / t.item() are variable scalars in the graph (was host=3 when they needed host segments)
    assert s.compilation() == {("fwd", "ast"): _row(2, host=2), ("fwd", "bytecode"): _row(0, brk=4)}
    ast = {r: n for (m, r), n in s.reasons.items() if m == "ast"}
    assert ast == {"JitTypeError: round(x, ndigits) of a traced float is not supported in a graph": 2}
    text = s.table()
    assert "top reasons under ast capture (programs):" in text and "STRICT refused" in text


def test_one_outcome_records_host_segments_and_the_strict_refusal():
    src = "import numpy as np\nimport sprout as ms\nfrom sprout import ops\n\n\ndef f(x):\n" \
          "    return x * round(float(x.sum()), 1)\n"
    prog = SourceProgram(src, [Arg("x", "tensor", [0.5, 1.25], [0.25, -1.0])])
    res = H.check_program(prog, checks=("fwd",))
    o = {o.mode: o for o in res.outcomes}
    assert o["ast"].status == "agree" and o["ast"].compiled == "host" and o["ast"].strict == "refused"
    assert o["ast"].reasons == ("JitTypeError: round(x, ndigits) of a traced float is not supported in a graph",)
    assert o["bytecode"].compiled == "break" and o["bytecode"].reasons == (
        "JitTypeError: round(x, ndigits) of a traced float is not supported in a graph",  # a float resumed as input
        "float(tensor) needs the tensor's value")
    s = Summary()
    s.add(0, res)
    assert s.compilation() == {("fwd", "ast"): _row(0, host=1), ("fwd", "bytecode"): _row(0, brk=1)}
