"""Code that is not in the user's own files but programs against sprout: a model package installed in
site-packages, code exec'd from a notebook cell or a string, eval'd lambdas, Python functions called inside a
graph through ops.host_ops.py_call. Converted like user code where its source can be read; otherwise LAX
runs what cannot be traced as Python (eager's results) and STRICT refuses with a located error."""
import importlib
import json
import linecache
import os
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.capture.ast import resolve
from sprout.core import errors as core_errors
from sprout.ops.host_ops import py_call

from .helpers import assert_same

BLOCK = ("def block(x):\n"
         "    if x.sum() > 0:\n"
         "        return ops.relu(x) * {k}\n"
         "    return x - 1\n")


def _inputs():
    return [ms.Tensor(np.array([v, 2 * v], np.float32)) for v in (1.0, -1.0)]


@pytest.fixture
def strict():
    ms.set_context(jit_syntax_level=ms.STRICT)
    yield
    ms.set_context(jit_syntax_level=ms.LAX)


def test_model_code_installed_as_a_package_is_converted(tmp_path, monkeypatch):
    """Code in site-packages that programs against sprout (a model zoo installed with pip) is user code to
    the converter: its tensor control flow compiles (no host segment); NumPy's own functions stay library."""
    pkg = tmp_path / "site-packages"
    pkg.mkdir()
    (pkg / "zoo_model.py").write_text("import sprout as ms\nfrom sprout import ops\n\n" + BLOCK.format(k=2))
    monkeypatch.syspath_prepend(str(pkg))
    monkeypatch.setattr(core_errors, "_LIB_DIRS", core_errors._LIB_DIRS + (str(pkg) + os.sep,))
    core_errors.is_library.cache_clear()
    resolve._kind_of_file.cache_clear()
    try:
        zoo = importlib.import_module("zoo_model")
        assert core_errors.is_library(zoo.__file__)

        def f(x):
            return zoo.block(x) + 1

        jitted = ms.jit(f)
        for x in _inputs():
            assert_same(jitted(x), f(x))
        assert jitted.stats["host_fallbacks"] == 0 and "Cond(" in jitted.get_ir(x)
        assert resolve.function_kind(json.dumps) == "library"  # library code without sprout stays library
    finally:
        sys.modules.pop("zoo_model", None)
        core_errors.is_library.cache_clear()
        resolve._kind_of_file.cache_clear()


def test_code_exec_d_from_a_notebook_cell_is_converted():
    """A notebook/IPython cell: exec'd code whose source the shell keeps in linecache compiles like a file."""
    name = "<ipython-input-7-sprout-capture>"
    src = BLOCK.format(k=5)
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    try:
        ns = {"ms": ms, "ops": ops, "__name__": "__main__"}
        exec(compile(src, name, "exec"), ns)
        block = ns["block"]

        def f(x):
            return block(x) + 1

        jitted = ms.jit(f)
        for x in _inputs():
            assert_same(jitted(x), f(x))
        assert jitted.stats["host_fallbacks"] == 0 and "Cond(" in jitted.get_ir(x)
    finally:
        linecache.cache.pop(name, None)


def test_code_exec_d_without_source_runs_as_python_under_lax_and_is_refused_under_strict(strict):
    ns = {"ms": ms, "ops": ops}
    exec(compile(BLOCK.format(k=7), "<string>", "exec"), ns)
    block = ns["block"]

    def f(x):
        return block(x) + 1

    ms.set_context(jit_syntax_level=ms.LAX)
    jitted = ms.jit(f)
    with pytest.warns(core_errors.JitWarning, match="source of block"):
        for x in _inputs():
            assert_same(jitted(x), f(x))
    assert jitted.stats["host_fallbacks"] == 1
    ms.set_context(jit_syntax_level=ms.STRICT)
    with pytest.warns(core_errors.JitWarning), pytest.raises(core_errors.JitValueError) as info:
        ms.jit(f)(_inputs()[0])
    assert 'File "<string>", line 2' in str(info.value)


@pytest.mark.parametrize("globals_", ["sprout", "bare"])
def test_eval_d_lambda_called_with_a_cell_and_star_args(globals_):
    """apinn's report: a source-less function taking a Cell plus *args (it once generated an assignment with no
    target and folded the output to a constant). With sprout in its globals it traces as user code; without,
    it is a library function: LAX runs it as Python, STRICT refuses it."""
    ms.set_seed(3)
    cell = nn.Dense(3, 2)
    g = {"ms": ms} if globals_ == "sprout" else {}
    call = eval("lambda c, *a: c(*a)", g)

    def fn(*args):
        return call(cell, *args)

    jitted = ms.jit(fn)
    for x in (np.ones((2, 3), np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)):
        x = ms.Tensor(x)
        assert_same(jitted(x), fn(x))
        assert_same(ms.grad(jitted, grad_position=0)(x), ms.grad(fn, grad_position=0)(x), 1e-5)
    assert jitted.stats["host_fallbacks"] == (0 if globals_ == "sprout" else 1)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = cell

        def construct(self, *args):
            return call(self.inner, *args) * 2

    net = Net()
    want = net(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert_same(net(x), want)
        if globals_ == "bare":
            ms.set_context(jit_syntax_level=ms.STRICT)
            with pytest.raises(core_errors.JitTypeError, match="lambda"):
                ms.jit(fn)(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


def test_py_call_results_are_run_time_values():
    """A Python function called inside a graph sees Tensors and its Tensor/array/number results are the node's
    outputs, computed each run (not the values of the build-time probe)."""
    ms.set_seed(4)
    cell = nn.Dense(3, 2)
    seen = []

    def f(x):
        py_call(lambda a: seen.append(type(a)), (x,), {})
        y = py_call(lambda c, *a: c(*a), (cell, x), {})
        z, n = py_call(lambda a: (ms.Tensor(a.asnumpy() * 2), float(a.asnumpy().sum())), (x,), {})
        return y, z + n

    jitted = ms.jit(f)
    for x in (np.ones((2, 3), np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)):
        x = ms.Tensor(x)
        assert_same(jitted(x), f(x))
    assert set(seen) == {ms.Tensor}
    assert "PyCall(" in jitted.get_ir(x)


def test_py_call_results_a_graph_cannot_hold_run_as_python_or_are_refused(strict):
    """A str result would be fixed at its build-time value: refused (LAX then runs the function as Python);
    output kinds that change with the values are a run-time error, never a reinterpretation."""
    x = ms.Tensor(np.ones(3, np.float32))

    def text(t):
        return py_call(lambda a: (str(a.shape), a * 2), (t * 3,), {})

    with pytest.raises(core_errors.JitTypeError, match="returned a str"):
        ms.jit(text)(x)
    ms.set_context(jit_syntax_level=ms.LAX)
    jitted = ms.jit(text)
    out = jitted(x)
    assert out[0] == "(3,)" and jitted.stats["host_fallbacks"] == 1
    assert_same(out[1], x * 6)

    def changes(a):
        return a.asnumpy().astype(np.float32 if a.asnumpy().sum() == 0 else np.float64)

    with pytest.raises(RuntimeError, match="when the graph ran"):
        ms.jit(lambda t: py_call(changes, (t,), {}))(x)
