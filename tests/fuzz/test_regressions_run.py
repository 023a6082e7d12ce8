"""Shrunk findings of the fresh fuzz batches of the 2026-12-06 run (issue 9, helper `fuzzrun`): each program runs
eagerly, under jit(ast) and jit(bytecode) through the fuzz harness (two input sets; forward, grad-of-jit and
jit-of-grad) and must agree in every check."""
import pytest

import sprout as ms

from .harness import assert_agrees
from .test_regressions_capture import ALL_CHECKS, _prog


def _weighted(src: str, weights: str) -> str:
    """A program whose gradient function also differentiates the Parameters ``weights`` (the harness's grad-of-jit
    takes the same weights, so both checks compare the same structure)."""
    assert "weights=None)" in src
    return src.replace("weights=None)", f"weights=[{weights}])")


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


# ---- seed 100032: a third-order gradient through a tensor if whose other branch has a while loop -------------------
# The gradient of a Cond returns the taken branch's residuals and zero stand-ins for the other branch's; a stand-in
# for a stacked loop residual ([?, 3, 2]) is a [0, 3, 2] constant, and the Cond took its output types from the then
# branch only, so the else branch's backward loop indexed a [0, 3, 2] tensor and shape inference refused the index
# (IndexError at compile time, jit_of_grad and grad_of_jit under AST capture). Fixed in ops/control.py: a Cond's
# output type joins both branches' (differing sizes become symbolic).
SRC_COND_STANDIN_STACK = _prog("""
def h0(a, b):
    if a.sum() > 0:
        b = a * 2
    else:
        i = 0
        while b.sum() > -10.0 and i < 2:
            i = i + 1
            b = ops.tanh(b - a)
    return b


def h1(a, b):
    g = ops.value_and_grad(h0)(a, b)[1]
    return (g * a * b).sum()


def f(x, y):
    return ops.value_and_grad(h1)(x * 1.0, y * 1.0)[1] + x
""", [[0.25, 0.75], [1.25, 0.5], [1.0, 0.25]], "x, y", (0, 1))
ARGS_COND_STANDIN_STACK = [("x", "tensor", [[0.76, -0.82], [1.62, 0.27], [-0.52, -1.24]],
                            [[-1.89, -0.13], [-1.54, 0.1], [2.02, -0.02]]),
                           ("y", "tensor", [[0.5, 1.0], [-0.5, 0.25], [1.5, -1.0]],
                            [[-0.5, 0.75], [1.0, -1.25], [0.5, 0.5]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_higher_order_gradient_of_if_with_a_loop_in_the_branch_not_taken(check, mode):
    assert_agrees(SRC_COND_STANDIN_STACK, ARGS_COND_STANDIN_STACK, check=check, mode=mode)


# ---- seed 110232: a closure reads a variable assigned after a tensor if with an early return -----------------------
# The code after an ``if`` whose branch returns moves into the other branch, so the branch functions assign the
# variable; a variable a nested function reads is ``nonlocal`` in them, and the enclosing function no longer bound it:
# the converted code did not compile (SyntaxError: no binding for nonlocal 'v8'). Fixed in capture/ast/convert.py.
CLOSURE_AFTER_EARLY_RETURN = {
    "seed_110232": """
def f(x):
    if x.sum() > 0.25:
        x = x * 2
    elif x.sum() < -5.0:
        return x
    v8 = x * 3
    def g9():
        return v8 + 1
    return g9()
""",
    "closure_defined_before_the_if": """
def f(x):
    def g():
        return v * 2
    if x.sum() > 0.25:
        return x
    v = x * 3
    return g()
""",
    "nested_ifs": """
def f(x):
    if x.sum() > 0:
        if x[0] > 0.5:
            return x
        v = x * 2
    else:
        v = x - 1
    def g():
        return v + 1
    return g()
""",
}
X3 = [("x", "tensor", [0.76, -0.82, 1.62], [-1.89, -0.13, 0.6])]


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in CLOSURE_AFTER_EARLY_RETURN.items()])
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_closure_reads_a_variable_assigned_after_an_early_return(body, check, mode):
    assert_agrees(_prog(body, [0.25, 0.75, 1.25], "x"), X3, check=check, mode=mode)


# ---- seed 110444: a tensor maybe aliasing a Parameter (a tensor if passed it through) and a loop writing the
# Parameter ---------------------------------------------------------------------------------------------------------
# ``x = p0 if c else y`` then a tensor while assigning p0: eagerly x is p0 when c held and sees the writes. Under AST
# capture a loop-carried Parameter's body tracer did not stand for the Parameter's outer tracer (a lifted one did),
# so the write did not reach x inside the body; x, carried unchanged, was written back after the loop and its stale
# value flowed into p0 where c held: p0 kept its entry value (silently wrong forward, state and gradients). Fixed in
# ir/builder.py (GraphBuilder.seed).
PARAM_WRITTEN_IN_LOOP = {
    "ternary": """
def f(y):
    x = p0 if p0[-1] <= 0.5 else y
    i = ops.ones(())
    while i < 3:
        i = i + 1
        ops.assign(p0, y * i)
    return x * 1
""",
    "if_statement": """
def f(y):
    if y.sum() <= 5.0:
        x = p0
    else:
        x = y
    i = ops.ones(())
    while i < 3:
        i = i + 1
        ops.assign_add(p0, ops.tanh(y * i))
    return x * 2 + p0
""",
    "nested_loops": """
def f(y):
    x = p0 if p0[-1] <= 0.5 else y
    i = ops.ones(())
    while i < 3:
        i = i + 1
        j = ops.zeros(())
        while j < i:
            j = j + 1
            ops.assign(p0, y * j + i)
    return x * 1 + y
""",
    "if_in_loop": """
def f(y):
    x = p0 if y.sum() <= 5.0 else y
    i = ops.ones(())
    while i < 3:
        i = i + 1
        if y[0] > 0.5:
            ops.assign(p0, ops.sin(y * i))
    return x * 1
""",
}
P0 = "p0 = Parameter(Tensor(np.array([-0.18, 1.76, -0.06, -0.79], np.float32)), name='p0')\n"
Y4 = [("y", "tensor", [1.0, 0.5, 0.75, 1.5], [2.0, 1.5, 1.25, 2.5])]


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in PARAM_WRITTEN_IN_LOOP.items()])
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_loop_write_reaches_a_tensor_that_maybe_aliases_the_parameter(body, check, mode):
    assert_agrees(_weighted(_prog(P0 + body, [0.25, 0.75, 1.25, 0.5], "y"), "p0"), Y4, check=check, mode=mode,
                  weights=["p0"])


SRC_S110444 = _weighted(_prog("""
def h1(a):
    return a if a[-1] <= 0.5 else ops.ones((4,)) * 1.0


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.array([-0.18, 1.76, -0.06, -0.79], np.float32)), name='w0')

    def construct(self, y):
        x = h1(self.w0)
        i = ops.ones(())
        while i < 4:
            i = i + 1
            ops.assign(self.w0, y * i)
        return x + y


net = Net()
""", [0.25, 0.75, 1.25, 0.5], "y", entry="net"), "net.w0")


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_110444(check, mode):
    assert_agrees(SRC_S110444, Y4, check=check, mode=mode, entry="net", weights=["net.w0"])


# ---- seed 110593: a Python float that is NaN (or inf) in a bytecode guard -------------------------------------------
# ``float(t)`` of a NaN tensor is a Python value PIJit guards on; the guard's source spelled it ``nan`` (NameError
# at the first call, also for JIT Fallback under AST capture), and a NaN never equals itself. Fixed in
# capture/bytecode/guards.py (NaN compared by class and text, inf as a bound constant).
NONFINITE_FLOAT_GUARD = {
    "nan": """
def f(x):
    for e in x:
        x = x * float(ops.log(e.sum() - 3.0))
    return x + 1
""",
    "inf": """
def f(x):
    for e in x:
        k = float(ops.exp(e.sum() * 100.0))
        x = x + (1.0 if k > 1e30 else 0.5) * e
    return x * 2
""",
}
X3_NONFINITE = [("x", "tensor", [1.0, 2.0, 0.5], [4.5, 5.0, 6.0])]
# The inf case's gradient was NaN through the host segment (0 * inf: the unused exp output got a zero cotangent)
# until ef878d5 gave unused outputs no cotangent.
NONFINITE_CASES = [pytest.param(body, check, mode, id=f"{check}-{mode}-{k}")
                   for k, body in NONFINITE_FLOAT_GUARD.items() for check, mode in ALL_CHECKS]


@pytest.mark.parametrize("body, check, mode", NONFINITE_CASES)
def test_nonfinite_python_float_in_a_guard(body, check, mode):
    assert_agrees(_prog(body, [0.25, 0.75, 1.25], "x"), X3_NONFINITE, check=check, mode=mode)


# ---- seed 110876 (fuzz-25, fixed): a write in nested tensor whiles through a list item that maybe aliases the
# Parameter ----------------------------------------------------------------------------------------------------------
# ``xs[-1]`` is p0 when a tensor ternary's predicate is false; a helper called in an inner while does
# ``assign_sub(p0, xs[-1])``: eagerly p0 - p0 = 0 on the first call, then 0 stays. Under AST capture p0 ends at another
# value (forward, state and gradients differ; bytecode capture agrees). Found at 094bec2. Cause: the inner while's
# write reached the outer while's loop-carried Parameter, but that tracer's record of the top graph's Parameter lives
# with the outer body's builder, so the spread stopped there and the ternary's output (a maybe-alias) kept p0's old
# value (ir/builder.py GraphBuilder._spread).
SRC_S110876 = _weighted(_prog("""
p0 = Parameter(Tensor(np.array([[0.62, -0.77], [-0.74, 0.72]], np.float32)), name='p0')


def h0(a):
    ops.assign_sub(p0, a)
    return ops.ones((2, 2))


def f():
    x = p0
    xs8 = [ops.ones((2, 2)), ops.ones((2, 2)), (ops.ones((2, 2)) if (ops.ones(()) < 0.5) else x)]
    i16 = ops.ones(())
    while True and i16 < 2:
        i16 = i16 + 1
        i17 = 0
        while (ops.ones(()) >= 0.5) and i17 < 3:
            i17 = i17 + 1
            v19 = h0(xs8[-1])
    return x
""", [[0.25, 0.75], [1.25, 0.5]], "", ()), "p0")
SRC_S110876_MIN = _weighted(_prog("""
p0 = Parameter(Tensor(np.array([[0.62, -0.77], [-0.74, 0.72]], np.float32)), name='p0')


def f(x):
    y = ops.ones((2, 2)) if (ops.ones(()) < 0.5) else p0
    i = ops.ones(())
    while i < 2:
        i = i + 1
        j = ops.ones(())
        while j < 3:
            j = j + 1
            ops.assign_sub(p0, y * x)
    return p0 * 1
""", [[0.25, 0.75], [1.25, 0.5]], "x"), "p0")
X_S110876_MIN = [("x", "tensor", [[1.0, 0.5], [0.75, 1.5]], [[2.0, 1.5], [1.25, 2.5]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_110876_write_through_a_maybe_aliased_list_item_in_nested_loops(check, mode):
    assert_agrees(SRC_S110876, [], check=check, mode=mode, weights=["p0"])


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_maybe_alias_of_a_parameter_written_two_tensor_whiles_deep(check, mode):
    assert_agrees(SRC_S110876_MIN, X_S110876_MIN, check=check, mode=mode, weights=["p0"])


# ---- seed 120064 (fuzz-26, fixed): a jitted output simplified onto a Parameter's buffer ----------------------------
# ``value_and_grad(h0)(p0 * 1.0, ...)`` under bytecode capture: the tensor if in h0 breaks the graph, the segment before
# it returns ``p0 * 1.0``, which `simplify` (x*1 -> x) had turned into p0's own array; h0's assign_add then changed
# ``a`` under the gradient (eager -0.0, jit 1.0). simplify now leaves graph outputs their own node.
SRC_S120064 = _prog("""
p0 = Parameter(Tensor(np.array([[0.36, 1.26], [1.39, -0.3]], np.float32)), name='p0')


def h0(a, b, c=0.5):
    xs4 = [ops.ones((2, 2)), (ops.ones((2, 2)) if (ops.ones(()) < 0.5) else ops.ones((2, 2))), ops.ones((2, 2))]
    ops.assign_add(p0, ops.ones((2, 2)))
    b = (ops.ones((2,)) - a)
    return b.abs()


def f():
    ops.assign(p0, ops.ones((2, 2)))
    x = ops.value_and_grad(h0)((p0 * 1.0), (ops.ones((2, 2)) * 1.0))[1]
    return x
""", [[0.25, 0.75], [1.25, 0.5]], "", ())


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_120064_segment_output_simplified_onto_a_parameter(check, mode):
    assert_agrees(SRC_S120064, [], check=check, mode=mode)


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_output_times_one_is_not_the_parameters_buffer(mode):
    """`return p0 * 1.0` is a new tensor: an in-place write to p0 after the call leaves it as it was."""
    import numpy as np

    from sprout import Parameter, Tensor, ops

    p0 = Parameter(Tensor(np.zeros((2,), np.float32)), name="p0")

    def f():
        return p0 * 1.0, p0 + 0.0

    a, b = ms.jit(f, capture_mode=mode)()
    ops.assign_add(p0, Tensor(np.ones((2,), np.float32)))
    assert a.asnumpy().tolist() == [0.0, 0.0] and b.asnumpy().tolist() == [0.0, 0.0]
    assert p0.asnumpy().tolist() == [1.0, 1.0]


# ---- seed 140352 (fuzz-27): gradients through a tensor if around a while near float32 overflow ----------------------
# x grows as x * x**3 per iteration; the forward reaches 1.3e37 and the last v19 (x**384, 3.6e59 in float64) overflows
# to inf. Nothing reads v19 after the if: eagerly its last value is never differentiated (3.4e21 at (1, 0)). AST
# capture made it a result of the Cond, so the branch's backward ran with its zero cotangent: 0 * inf = NaN (at (1, 0)
# and (1, 1)). Fixed in capture/ast/convert.py: a name nothing reads after a tensor if is not a result of the Cond.
# Found on dc56f83.
SRC_S140352 = _prog("""
def h0(a):
    return (a * a)


def f(x, n):
    k2 = n + 2
    v19 = x
    if (ops.ones(()) > 0.5):
        j23 = 0
        while j23 < k2:
            j23 += 1
            x = (x * v19)
            v19 = (x * (h0(x) * 1.0))
    return x
""", [[0.25, 0.75, 1.25], [0.5, 1.0, 0.25]], "x, n")
X_S140352 = [("x", "tensor", [[0.5, 0.19, 0.39], [1.43, 1.95, -1.23]], [[-0.26, -1.13, -0.36], [1.68, -0.65, 1.28]]),
             ("n", "int", 2, 2)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_140352_gradient_near_float32_overflow(check, mode):
    assert_agrees(SRC_S140352, X_S140352, check=check, mode=mode)


# shrunk: y's last value in the branch overflows and nothing reads it after the if; eagerly it is never
# differentiated, as a Cond result its zero cotangent met the inf (NaN in x's gradient)
SRC_DEAD_IN_IF = _prog("""
def f(x):
    if x.sum() > 0:
        y = x * 1e20
        x = x + y * 1e-20
        y = (y * y) * y
    else:
        y = x
    return x * 1.0
""", [0.25, 0.75, 1.25], "x")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_value_dead_after_a_tensor_if_is_not_differentiated(check, mode):
    assert_agrees(SRC_DEAD_IN_IF, [("x", "tensor", [1.0, 2.0, 0.5], [0.5, -0.25, 1.5])], check=check, mode=mode)


@pytest.mark.parametrize("mode", ["ast"])
def test_names_read_after_a_tensor_if_stay_its_results(mode):
    """Only names nothing reads afterwards are dropped: kept are one read after the if, one read by a closure
    called after it, one read in the next iteration of an enclosing loop (before the if,
    or by the if itself)."""
    import numpy as np

    from sprout import Tensor

    def f(x):
        acc = x * 0.0
        b = x

        def g():
            return b

        k = 0
        while k < 2:
            k += 1
            acc = acc + x
            if x.sum() > 0:
                a, b = x * 2.0, x * 3.0
            else:
                a, b = x * 4.0, x * 5.0
            x = a
        return x + g() + acc

    def in_loop(x):  # v is read only in the if: by the if itself in the next iteration
        v = x
        for _ in range(3):
            if x.sum() > 0:
                v = v * 2
                x = x + v
        return x

    x = Tensor(np.array([1.0, 2.0], np.float32))
    for fn in (f, in_loop):  # fullgraph: a capture error is raised, not run as host code
        assert ms.jit(fn, capture_mode=mode, fullgraph=True)(x).asnumpy().tolist() == fn(x).asnumpy().tolist()


# ---- seed 141049 (fuzz-28): a name bound to a Parameter inside a tensor while, written after the loop ----------------
# ``v1 = p1`` in the loop body makes v1 the Parameter itself eagerly, so the later ``assign(p1, ones)`` shows through
# v1 (mean 1.0). AST capture returned the loop's output, a value of p1 from before the write (mean 0.0717): a loop
# output that passes a Parameter through was not recorded as its alias (it is one when the body ran). Fixed in
# capture/loop_alias.py: a carried flag per (loop variable, object it may be). Found on dc56f83.
SRC_S141049 = _prog("""
p1 = Parameter(Tensor(np.array([[0.28, -1.18, -0.32], [1.05, 0.53, 0.07]], np.float32)), name='p1')


def h0(a, c=1.5):
    ops.assign(p1, ops.ones((2, 3)))
    return ops.ones((2, 3))


def f():
    i4 = ops.ones(())
    while i4 < 3:
        i4 = i4 + 1
        v1 = p1
    return h0(ops.ones((2, 3)), 0.75), ops.broadcast_to(v1.mean(), (3,))
""", [[0.25, 0.75, 1.25], [0.5, 1.0, 0.25]], "", ())


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_141049_parameter_bound_in_a_tensor_while_then_written(check, mode):
    assert_agrees(SRC_S141049, [], check=check, mode=mode)


# ---- fuzz-28 variants: a loop variable bound to an outer object in a tensor while (fixed, capture/loop_alias.py) -----
# After the loop the variable is that object when the iteration that ran last bound it: a write to either then
# reaches the other. Bound directly, through a tensor if in the body, in a nested while, to a tensor of the enclosing
# graph, through another loop variable (a swap), and written in the body after an earlier iteration bound it.
_P1 = "p1 = Parameter(Tensor(np.array([0.28, -1.18, 0.5], np.float32)), name='p1')\n\n\n"
_LOOP_HEAD = """def f(x):
    y = x * 5
    i = ops.ones(())
    v1 = x * 2
    v2 = x * 3
    while i < 4:
        i = i + 1
"""
_ASSIGN_P1 = "    ops.assign(p1, x * 0.5)\n"
_LOOP_ALIAS = {  # variant: (the rest of the loop body, the code after the loop)
    "direct": ("        v1 = p1\n", _ASSIGN_P1 + "    return v1 * 1.0\n"),
    "if_in_body": ("        if i > 3:\n            v1 = p1\n", _ASSIGN_P1 + "    return v1 * 1.0\n"),
    "if_in_body_write_after": ("        if x.sum() > 0.5:\n            v1 = p1\n",
                               "    ops.assign_add(v1, x)\n    return v1 * 1.0 + p1\n"),
    "nested_while": ("        j = ops.zeros(())\n        while j < 2:\n            j = j + 1\n            v1 = p1\n",
                     _ASSIGN_P1 + "    return v1 * 1.0\n"),
    "outer_tensor": ("        v1 = y\n", "    ops.assign(y, x * 0.5)\n    return v1 * 1.0\n"),
    "swap": ("        v1, v2 = v2, p1\n", _ASSIGN_P1 + "    return v1 * 1.0 + v2\n"),
    "written_in_body": ("        ops.assign_add(v1, x)\n        v1 = p1\n", "    return v1 * 1.0 + p1\n"),
}
X_LOOP_ALIAS = [("x", "tensor", [0.5, 1.25, -0.75], [-1.5, 0.25, 0.5])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
@pytest.mark.parametrize("variant", sorted(_LOOP_ALIAS))
def test_loop_variable_bound_to_an_outer_object_in_a_tensor_while(variant, check, mode):
    body, after = _LOOP_ALIAS[variant]
    assert_agrees(_prog(_P1 + _LOOP_HEAD + body + after, [0.25, 0.75, 1.25], "x"), X_LOOP_ALIAS, check=check,
                  mode=mode)


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_tensor_if_binding_a_parameter_then_written(check, mode):
    """The Cond counterpart (worked before the fix; kept beside the while variants): the if's result is p1 only
    on the path that bound it."""
    src = _P1 + """def f(x):
    if x.sum() > 0:
        v1 = p1
    else:
        v1 = x * 2
    ops.assign(p1, x * 0.5)
    return v1 * 1.0
"""
    assert_agrees(_prog(src, [0.25, 0.75, 1.25], "x"), X_LOOP_ALIAS, check=check, mode=mode)


# ---- seed 150320: a Parameter iterated row by row in a Python loop while each row's step assigns it ----------------
# ``for e8 in v3`` (v3 is p0) with ``ops.assign(p0, x - e8)`` in the body and an (empty) tensor while before it: under
# bytecode capture and a tape (grad_of_jit) the gradient and p0's final value differed from eager's (0.70 eager, -0.99
# jit at (1, 0)): the second pass of the outer loop iterated stale rows, eager reads row k after the previous assign.
# Forward, jit_of_grad and AST capture agreed. Found on 4023ea3; agrees since ac26ee4 (a view crossing a PIJit graph
# break stays a view), kept as its shrunk regression test.
SRC_S150320 = _prog("""
p0 = Parameter(Tensor(np.array([[0.56, 1.17], [0.84, 0.29], [-0.69, -0.73]], np.float32)), name='p0')


def f(x):
    v2 = p0
    v3 = v2
    j6 = 0
    while j6 < 3:
        j6 += 1
        for e8 in v3:
            i9 = ops.ones(())
            while i9 < 4:
                i9 = i9 + 1
            y = ops.mul(x, v3)
            ops.assign(p0, ops.sub(x, e8))
    return y
""", [[0.25, 0.75], [1.25, 0.5], [1.0, 0.25]], "x")
X_S150320 = [("x", "tensor", [[-0.06, -0.99], [-0.23, 0.2], [0.67, 0.42]], [[-1.07, 0.24], [0.89, -0.15], [1.61, 1.6]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_150320_parameter_iterated_and_assigned_per_row(check, mode):
    assert_agrees(SRC_S150320, X_S150320, check=check, mode=mode)
