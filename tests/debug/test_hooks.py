"""The public observer hooks (dispatch observers, jit compile listeners, PIJit break listeners) fire, and
importing sprout (or profiling) replaces no function: the debug tools only subscribe."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.core.errors import JitWarning
from sprout.core import dispatch
from sprout.jit import events as jit_events
from sprout.profiler import Profiler

counter = 0


def _x(n=3):
    return ms.Tensor(np.ones((n,), np.float32))


class Log(dispatch.Observer):
    def __init__(self):
        self.ops, self.graphs = [], []

    def on_op(self, op, t0, t1):
        assert t0 <= t1
        self.ops.append(op.name)

    def on_graph(self, ex, t0, t1):
        assert t0 <= t1
        self.graphs.append(ex.graph.name)


def _originals():
    from sprout.capture import trace
    from sprout.capture.bytecode import runtime as rt
    from sprout.jit import api
    from sprout.jit import executable as exe
    from sprout.passes import pipeline

    return {
        "JitFunction.compile": api.JitFunction.compile.__qualname__ == "JitFunction.compile"
        and api.JitFunction.compile.__module__ == "sprout.jit.api",
        "trace": api.trace is trace.trace,
        "run_pipeline": api.run_pipeline is pipeline.run_pipeline,
        "_record_break": rt.CodeRuntime._record_break.__module__ == rt.__name__,
        "run_eager": dispatch.run_eager.__module__ == "sprout.core.dispatch",
        "_refresh": dispatch._refresh.__module__ == "sprout.core.dispatch",
        "Executable.run": exe.Executable.run.__qualname__ == "Executable.run",
        "Executable.run_differentiable": exe.Executable.run_differentiable.__qualname__
        == "Executable.run_differentiable",
    }


def test_plain_import_patches_nothing():
    code = ("import sprout, sprout.debug\nfrom sprout.jit import api\n"
            "assert api.JitFunction.compile.__module__ == 'sprout.jit.api'\n"
            "assert api.JitFunction.compile.__qualname__ == 'JitFunction.compile'\n"
            "from sprout.capture.trace import trace\nassert api.trace is trace\n"
            "from sprout.passes.pipeline import run_pipeline\nassert api.run_pipeline is run_pipeline\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    assert all(_originals().values()), _originals()


def test_profiling_patches_nothing(tmp_path):
    with Profiler(output_path=str(tmp_path)):
        ops.add(_x(), _x())
        assert all(_originals().values()), _originals()
    assert all(_originals().values())


def test_dispatch_observer_sees_eager_ops_and_graph_calls_not_traced_ops():
    @ms.jit
    def f(x):
        return ops.sin(x) + 1

    log = Log()
    dispatch.push_observer(log)
    try:
        assert dispatch._slow
        ops.mul(_x(), _x())
        f(_x())
        f(_x())
    finally:
        dispatch.pop_observer(log)
    assert not dispatch._slow
    assert log.ops == ["Mul"]          # Sin/Add went into the graph under construction
    assert log.graphs == ["f", "f"]    # the fast path is skipped while observed
    ops.mul(_x(), _x())
    assert log.ops == ["Mul"]


def test_dispatch_observer_sees_backward_ops_under_a_tape():
    log = Log()
    dispatch.push_observer(log)
    try:
        ms.grad(lambda a: (ops.exp(a) * a).sum())(_x())
    finally:
        dispatch.pop_observer(log)
    assert {"Exp", "Mul"} <= set(log.ops)


def test_compile_listener_gets_reason_stages_warnings_and_executable():
    seen = []
    jit_events.add_compile_listener(seen.append)
    try:
        @ms.jit
        def bump(x, n):
            global counter
            counter = counter + 1
            return ops.exp(x) * n

        with pytest.warns(JitWarning, match="global 'counter'"):   # still re-issued to the user
            bump(_x(), 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bump(_x(), 3)
    finally:
        jit_events.remove_compile_listener(seen.append)
    first, second = [e for e in seen if e.function.endswith("bump")]
    assert first.reason == "first call" and second.reason == "argument 'n' changed from 2 to 3"
    assert first.where.startswith("test_hooks.py:")
    names = [k for k, _ in first.stages]
    assert names[0] == "ast_convert" and names[1] == "trace" and names[-1] == "codegen"
    assert "pass:dce" in names and "ast_convert" not in [k for k, _ in second.stages]
    assert first.total_ms >= sum(ms_ for _, ms_ in first.stages) * 0.99
    assert first.nodes == len(first.executable.graph.nodes) and first.error is None
    assert [str(w.message) for w in first.warnings] and "counter" in str(first.warnings[0].message)
    assert jit_events.compile_listeners.count(seen.append) == 0


def test_compile_listener_sees_failed_compiles():
    seen = []
    jit_events.add_compile_listener(seen.append)
    try:
        @ms.jit
        def bad(x):
            return ops.matmul(x, x)

        with pytest.raises(ValueError):
            bad(ms.Tensor(np.ones((2, 3), np.float32)))
    finally:
        jit_events.remove_compile_listener(seen.append)
    [ev] = [e for e in seen if e.function.endswith("bad")]
    assert isinstance(ev.error, ValueError) and ev.executable is None


def test_break_listener_fires():
    bc = pytest.importorskip("sprout.capture.bytecode")
    seen = []
    bc.break_listeners.append(seen.append)
    try:
        def f(x):
            y = x * 2
            print("hello")   # a graph break: Python side effect
            return y + 1

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bc.compile_bytecode(f)(_x())
    finally:
        bc.break_listeners.remove(seen.append)
    assert seen and all(isinstance(r, bc.BreakRecord) and r.count >= 1 for r in seen)
    assert any(r.filename.endswith("test_hooks.py") for r in seen)


def test_debug_install_is_subscription():
    import sprout.debug as dbg

    assert dbg.events.installed()
    dbg.uninstall()
    try:
        assert not dbg.events.installed()
        assert all(_originals().values())
    finally:
        dbg.install()
    assert dbg.events.installed()
