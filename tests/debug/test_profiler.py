"""sprout.Profiler: eager ops, compiled-graph calls and compiles as Chrome trace + summary table."""
import json
import os

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.core import dispatch
from sprout.profiler import Profiler


def _x():
    return ms.Tensor(np.ones((4, 4), np.float32))


@ms.jit
def jitted(x):
    return ops.exp(x) * 2 + 1


def test_records_eager_jit_and_writes_files(tmp_path, capsys):
    out = str(tmp_path / "data")
    x = _x()
    prof = Profiler(output_path=out)
    y = ops.add(x, x)
    y = ops.mul(y, y)
    jitted(x)
    jitted(x)
    prof.stop()
    assert not dispatch._slow  # the fast path is back
    ops.add(x, x)              # not recorded
    prof.analyse()
    rows = {(r["name"], r["type"]): r for r in prof.summary()}
    assert rows[("Add", "op")]["calls"] == 1 and rows[("Mul", "op")]["calls"] == 1
    assert rows[("Graph[jitted]", "graph")]["calls"] == 2
    assert rows[("Compile[jitted]", "compile")]["calls"] == 1
    assert abs(sum(r["percent"] for r in rows.values()) - 100.0) < 1e-6
    with open(os.path.join(out, "trace_view.json")) as f:
        trace = json.load(f)
    xs = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert {e["name"] for e in xs} >= {"Add", "Mul", "Graph[jitted]", "Compile[jitted]"}
    assert all(e["dur"] >= 0 and "ts" in e and "pid" in e and "tid" in e for e in xs)
    for name in ("op_summary.csv", "op_summary.txt"):
        assert os.path.exists(os.path.join(out, name))
    printed = capsys.readouterr().out
    assert "op name" in printed and "% time" in printed and "Graph[jitted]" in printed


def test_context_manager_and_tapes(tmp_path):
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def loss(a):
        return (ops.exp(a) * a).sum()

    expect = ms.grad(loss)(x).asnumpy()
    with Profiler(output_path=str(tmp_path), start_profile=False) as prof:
        g = ms.grad(loss)(x)
        gj = ms.grad(ms.jit(loss))(x)
    np.testing.assert_allclose(g.asnumpy(), expect, rtol=1e-6)
    np.testing.assert_allclose(gj.asnumpy(), expect, rtol=1e-6)
    names = {r["name"] for r in prof.summary()}
    assert "Exp" in names and "Mul" in names and any(n.startswith("Graph[") for n in names)
    assert not dispatch._slow


def test_builder_still_wins_while_profiling(tmp_path):
    @ms.jit
    def f(x):
        return ops.sin(x) + 1

    with Profiler(output_path=str(tmp_path)) as prof:
        r = f(_x())
    np.testing.assert_allclose(r.asnumpy(), np.sin(1.0) + 1, rtol=1e-6)
    names = [r["name"] for r in prof.summary()]
    assert "Sin" not in names          # traced ops are not eager ops
    assert "Graph[f]" in names


def test_start_stop_misuse_warns(tmp_path):
    prof = Profiler(output_path=str(tmp_path), start_profile=False)
    with pytest.warns(RuntimeWarning):
        prof.stop()
    prof.start()
    with pytest.warns(RuntimeWarning):
        prof.start()
    prof.stop()
    with pytest.raises(TypeError):
        Profiler(output_path=3)
