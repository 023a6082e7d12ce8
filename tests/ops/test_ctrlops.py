"""WhileLoop / ForiLoop / Scan, Custom(pyfunc), PyFunc, Morph, TensorDump and DumpGradient against MindSpore 2.10's
recorded behaviour (tests/ops/data/oracle_ctrlops.json, tools/ms_oracle_ctrlops.py), in every mode (eager, jit by
AST, jit by bytecode), gradients against finite differences, and misuse against MindSpore's exception types."""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import ops
import ctrlops_cases as C
from modes import MODES, grad_in_mode, run_in_mode

C.use(ms)
ORACLE = json.loads((Path(__file__).parent / "data" / "oracle_ctrlops.json").read_text())
X, Y = C.X, C.Y


def _close(got: list, want: list, what: str, rtol=1e-5, atol=1e-6) -> None:
    assert len(got) == len(want), what
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64), rtol=rtol, atol=atol,
                                   err_msg=what)


def _values(out) -> list:
    return [o.asnumpy() for o in C.flat(out)]


def _fd(fn, x: np.ndarray, eps=1e-3) -> np.ndarray:
    g = np.zeros(x.shape, np.float64)
    for i in np.ndindex(x.shape):
        hi, lo = x.astype(np.float64), x.astype(np.float64)
        hi[i] += eps
        lo[i] -= eps
        up = float(C.first(fn(ms.Tensor(hi))).sum().asnumpy())
        down = float(C.first(fn(ms.Tensor(lo))).sum().asnumpy())
        g[i] = (up - down) / (2 * eps)
    return g


# ---- loops ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(C.LOOPS))
@pytest.mark.parametrize("mode", MODES)
def test_loop_matches_mindspore(name, mode):
    fn, rec = C.LOOPS[name], ORACLE["loops"][name]
    x = ms.Tensor(X)
    _close(_values(run_in_mode(fn, [x], mode)), rec["graph"], f"{name} forward ({mode})")

    def loss(a):
        return C.first(fn(a)).sum()

    (g,) = grad_in_mode(loss, [x], mode, (0,))
    want = rec.get("grad_graph", rec.get("grad_eager"))  # MindSpore fails on some: its other mode's gradient
    if want is None:  # MindSpore's PyNative cannot run it, its graph gradient fails: finite differences
        want = _fd(fn, X)
    _close([g.asnumpy()], [want], f"{name} gradient ({mode})", rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(C.LOOPS))
def test_loop_gradient_matches_finite_differences(name):
    fn = ms.jit(C.LOOPS[name])
    g = ms.grad(lambda a: C.first(fn(a)).sum())(ms.Tensor(X.astype(np.float64)))
    np.testing.assert_allclose(g.asnumpy(), _fd(fn, X), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name, node", [("while_tensor", True), ("while_counter", True), ("fori_loop", True),
                                        ("fori_tensor", False), ("scan_loop", True), ("fori_unroll", False),
                                        ("scan_xs", False), ("while_tuple", False)])
def test_loops_lower_onto_the_while_node_unless_unrolled(name, node):
    ir = ms.jit(C.LOOPS[name]).get_ir(ms.Tensor(X))
    assert ("WhileLoop(" in ir) == node, ir


def test_fori_loop_over_bounds_the_graph_takes_is_one_node():
    def fn(v, lo, hi):
        return ops.ForiLoop()(lo, hi, C.f_body, v)

    args = [ms.Tensor(X), ms.Tensor(1), ms.Tensor(4)]
    assert "WhileLoop(" in ms.jit(fn).get_ir(*args)
    for mode in MODES:
        _close(_values(run_in_mode(fn, args, mode)), ORACLE["loops"]["fori_tensor"]["graph"], mode)


def test_fori_loop_with_an_empty_range_returns_the_initial_value():
    x = ms.Tensor(X)
    for mode in MODES:
        out = run_in_mode(lambda v: ops.ForiLoop()(3, 1, C.f_body, v), [x], mode)
        np.testing.assert_array_equal(out.asnumpy(), X, err_msg=mode)
        out = run_in_mode(lambda v, lo, hi: ops.ForiLoop()(lo, hi, C.f_body, v), [x, ms.Tensor(3), ms.Tensor(1)],
                          mode)
        np.testing.assert_array_equal(out.asnumpy(), X, err_msg=mode)


def test_scan_of_an_empty_sequence_returns_the_initial_carry():
    x = ms.Tensor(X)
    carry, ys = ops.Scan()(C.s_body, x, [])
    assert carry is x and ys == []


def test_scan_unroll_false_refuses_mixed_elements_in_a_graph():
    def fn(v):
        return ops.Scan()(C.s_body, v, [v, v[:2], v], None, False)[0]

    with pytest.raises(ValueError, match="Scan.*one shape and dtype"):
        ms.jit(fn)(ms.Tensor(X))


def test_while_loop_body_changing_shape_is_a_value_error_in_a_graph():
    def fn(v):
        return ops.WhileLoop()(C.w_cond, lambda a: a.sum(), v)

    with pytest.raises(ValueError, match="WhileLoop"):
        ms.jit(fn)(ms.Tensor(X))


# ---- Custom / PyFunc / Morph ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_custom_pyfunc_matches_mindspore(mode):
    cc, multi = C.custom_callables(), C.custom_multi()
    x, y = ms.Tensor(X), ms.Tensor(Y)
    _close(_values(run_in_mode(lambda a, b: cc(a, b), [x, y], mode)), ORACLE["custom"]["affine"], mode)
    grads = grad_in_mode(lambda a, b: (cc(a, b) * a).sum(), [x, y], mode, (0, 1))
    _close(_values(grads), ORACLE["custom"]["affine_grad"], mode)
    _close(_values(run_in_mode(lambda a: multi(a), [x], mode)), ORACLE["custom"]["multi"], mode)


def test_custom_output_that_contradicts_out_shape_is_an_error():
    wrong = ops.Custom(C.np_affine, out_shape=(4,), out_dtype=ms.float32, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="np_affine.*float32\\[3\\].*float32\\[4\\]"):
        wrong(ms.Tensor(X), ms.Tensor(Y))
    wrong = ops.Custom(C.np_affine, out_shape=(3,), out_dtype=ms.float64, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="np_affine"):
        ms.jit(lambda a, b: wrong(a, b))(ms.Tensor(X), ms.Tensor(Y))


@pytest.mark.parametrize("kind", ["aot", "akg", "tbe", "aicpu", "hybrid"])
def test_custom_device_kinds_are_refused_by_name(kind):
    with pytest.raises(NotImplementedError, match=f"func_type '{kind}'"):
        ops.Custom("kernel.so:f", out_shape=(3,), out_dtype=ms.float32, func_type=kind)


def test_stateful_pyfunc_runs_once_per_call_in_program_order_in_graphs():
    seen: list = []

    def log(a):
        seen.append(float(a.sum()))
        return a * 2

    t = ms.float32
    logged = ops.PyFunc(log, [t], [(3,)], [t], [(3,)])

    def fn(x):
        logged((x,))
        logged((x + 1,))  # same call twice: neither dropped (unused) nor merged
        return x * 3

    for mode in MODES:
        seen.clear()
        run_in_mode(fn, [ms.Tensor(X)], mode)
        assert seen == pytest.approx([X.sum(), (X + 1).sum()], rel=1e-6), mode


@pytest.mark.parametrize("name", ["plain", "custom"])
@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_morph_matches_mindspore(name, mode):
    fn = {"plain": C.morph_plain, "custom": C.morph_custom}[name]
    x, y = ms.Tensor(X), ms.Tensor(Y)
    _close(_values(run_in_mode(fn, [x, y], mode)), ORACLE["morph"][name], mode)
    _close(_values(grad_in_mode(lambda a, b: fn(a, b).sum(), [x, y], mode, (0, 1))), ORACLE["morph"][name + "_grad"],
           mode)
    jit_of_grad = ms.jit(ms.grad(lambda a, b: fn(a, b).sum(), grad_position=(0, 1)))
    _close(_values(jit_of_grad(x, y)), ORACLE["morph"][name + "_grad"], "jit of grad")


# ---- TensorDump / DumpGradient --------------------------------------------------------------------
def _dump_program(x, y):
    ops.TensorDump()("a", x)
    ops.TensorDump()("sub/b.npy", (x * 2).astype(ms.int32))
    ops.TensorDump("in")("c", x.astype(ms.bfloat16))

    ms.grad(_grad_dumped, grad_position=(0, 1))(x, y)


def _grad_dumped(a, b):
    a = ops.DumpGradient()("g.npy", a, "out")
    return (a * b * a).sum()


@pytest.mark.parametrize("mode", MODES)
def test_dumps_match_mindspore(mode, tmp_path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        if mode == "eager":
            _dump_program(ms.Tensor(X), ms.Tensor(Y))
        else:  # the forward dumps inside a jitted function, the gradient dump through grad of a jitted function
            def forward(x):
                ops.TensorDump()("a", x)
                ops.TensorDump()("sub/b.npy", (x * 2).astype(ms.int32))
                ops.TensorDump("in")("c", x.astype(ms.bfloat16))
                return x

            run_in_mode(forward, [ms.Tensor(X)], mode)
            grad_in_mode(_grad_dumped, [ms.Tensor(X), ms.Tensor(Y)], mode, (0, 1))
        files = sorted((str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.npy")),
                       key=lambda f: int(f[:-4].rsplit("_", 1)[1]))
    finally:
        os.chdir(cwd)
    want = sorted(ORACLE["dump"], key=lambda f: int(f[:-4].rsplit("_", 1)[1]))
    assert [f[:-4].rsplit("_", 1)[0] for f in files] == [f[:-4].rsplit("_", 1)[0] for f in want]  # ids count up
    for f, w in zip(files, want):
        arr = np.load(tmp_path / f)
        assert str(arr.dtype) == ORACLE["dump"][w][0], f
        np.testing.assert_allclose(arr, ORACLE["dump"][w][1], rtol=1e-6, err_msg=f)


def test_dump_in_a_tensor_while_writes_once_per_iteration(tmp_path):
    def fn(x):
        while x.sum() < 4:
            ops.TensorDump()(str(tmp_path / "it"), x)
            x = x * 2
        return x

    ms.jit(fn)(ms.Tensor(np.array([0.5, 0.25], np.float32)))
    files = sorted(tmp_path.glob("it_float32_*.npy"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
    assert [np.load(p).tolist() for p in files] == [[0.5, 0.25], [1.0, 0.5], [2.0, 1.0]]


# ---- misuse ---------------------------------------------------------------------------------------
# MindSpore's own text, reproduced word for word (the others name the op and the argument in sprout's words)
_SAME_TEXT = {"while_cond_not_function", "while_body_not_function", "fori_lower_float", "fori_upper_bool",
              "fori_body_not_function", "scan_body_not_function", "tensordump_file_int", "tensordump_file_empty",
              "tensordump_not_tensor", "morph_pynative", "morph_bprop_varargs"}
_NAMES = {"while": "WhileLoop", "fori": "ForiLoop", "scan": "Scan", "custom": "Custom", "tensordump": "TensorDump",
          "pyfunc": "PyFunc", "morph": "Morph"}


@pytest.mark.parametrize("case", sorted(C.misuse_cases()))
def test_misuse_raises_mindsporess_exception_type(case):
    kind, text = ORACLE["misuse"][case]
    with pytest.raises(Exception) as info:
        C.misuse_cases()[case]()
    assert type(info.value).__name__ == kind, (case, info.value)
    message = str(info.value).splitlines()[0]
    if case in _SAME_TEXT:
        assert message == text
    else:
        assert _NAMES[case.split("_")[0]] in message, message


def test_gradient_dump_inside_a_jitted_gradient(tmp_path):
    def dumped(a, b):
        a = ops.DumpGradient()(str(tmp_path / "jg"), a, "in")
        return (a * b * a).sum()

    for capture in ("ast", "bytecode"):
        ms.jit(ms.grad(dumped, grad_position=(0, 1)), capture_mode=capture)(ms.Tensor(X), ms.Tensor(Y))
    files = list(tmp_path.glob("jg_float32_*.npy"))
    assert len(files) == 2
    for p in files:
        np.testing.assert_allclose(np.load(p), ORACLE["dump"]["g_float32_3.npy"][1], rtol=1e-6)


@pytest.mark.parametrize("call, exc, text", [
    (lambda x: ops.Scan()(C.sn_body, x, [x, x], 3), ValueError, "Scan.*'length' \\(3\\).*\\(2\\)"),
    (lambda x: ops.Scan()(C.sn_body, x, None), TypeError, "Scan.*'length' must be an int"),
    (lambda x: ops.Scan()(C.sn_body, x, None, -1), ValueError, "Scan.*non-negative"),
    (lambda x: ops.Scan()(C.sn_body, x, None, 2.0), TypeError, "Scan.*'length'"),
    (lambda x: ops.ForiLoop()(0, 2, C.f_body, x, "yes"), TypeError, "ForiLoop.*'unroll'"),
    (lambda x: ops.Custom(C.np_affine, (3,), ms.float32, "pyfunc", reg_info={})(x, x), NotImplementedError,
     "Custom.*reg_info"),
    (lambda x: ops.Custom(C.np_affine, (3,), ms.float32, "pyfunc")(x, C.Y), TypeError, "Custom.*input 1"),
    (lambda x: ops.PyFunc(np.cumsum, [ms.float64], [(3,)], [ms.float64], [(3,)])((x,)), TypeError,
     "PyFunc.*Float32\\[3\\].*Float64\\[3\\]"),
    (lambda x: ops.PyFunc(np.cumsum, [ms.float32], [(3,), (3,)], [], []), ValueError, "PyFunc.*in_shapes"),
    (lambda x: ops.DumpGradient()("g", x, "all"), ValueError, "DumpGradient.*input_output"),
    (lambda x: ops.DumpGradient()("g", C.X, "out"), TypeError, "DumpGradient.*'x'"),
])
def test_sprout_argument_checks(call, exc, text):
    with pytest.raises(exc, match=text):
        call(ms.Tensor(X))


def test_custom_bprop_must_give_one_gradient_per_input():
    bad = ops.Custom(C.np_affine, (3,), ms.float32, "pyfunc", bprop=lambda a, b, out, dout: (dout,))
    with pytest.raises(RuntimeError, match="Custom.*np_affine.*1 gradients for 2 inputs"):
        ms.grad(lambda a: bad(a, ms.Tensor(Y)).sum())(ms.Tensor(X))


def test_morph_infer_rules_must_agree_with_fn():
    def wrong_shape(*shapes):
        return [7]

    with pytest.raises(ValueError, match="Morph.*morph_fn.*\\[7\\].*\\[3\\]"):
        ms.jit(lambda a, b: ops.Morph(C.morph_fn, wrong_shape, C.morph_infer)(a, b))(ms.Tensor(X), ms.Tensor(Y))
