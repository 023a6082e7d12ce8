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


def test_profile_memory_records_host_allocations(tmp_path):
    import tracemalloc

    out = str(tmp_path / "mem")
    big = ms.Tensor(np.ones((256, 256), np.float32))
    with Profiler(output_path=out, profile_memory=True) as prof:
        kept = ops.add(big, big)  # 256 KiB held after the op
    assert not tracemalloc.is_tracing()  # the profiler started tracemalloc, so it stopped it
    assert kept.shape == (256, 256) and len(prof.memory) == len(prof.records) == 1
    held, peak = prof.memory[0]
    assert held >= 256 * 256 * 4 and peak >= held
    prof.analyse()
    with open(os.path.join(out, "memory_record.csv")) as f:
        lines = f.read().splitlines()
    assert lines[0] == "name,type,end us,allocated bytes,peak bytes" and lines[1].startswith("Add,op,")
    trace = json.load(open(os.path.join(out, "trace_view.json")))
    assert any(e["ph"] == "C" and e["args"]["allocated KB"] >= 256 for e in trace["traceEvents"])
    info = json.load(open(os.path.join(out, "profiler_info.json")))
    assert info["profile_memory"] is True and info["profiler_level"] == "Level0"
    assert info["activities"] == ["CPU", "NPU"]


def test_with_stack_records_the_callers_frames(tmp_path):
    x = _x()
    with Profiler(output_path=str(tmp_path), with_stack=True) as prof:
        ops.add(x, x)
    (stack,) = prof.stacks
    assert stack[0].startswith(__file__ + ":") and "test_with_stack_records_the_callers_frames" in stack[0]
    ev = [e for e in prof.trace()["traceEvents"] if e.get("name") == "Add"]
    assert ev[0]["args"]["stack"] == stack


def test_options_are_kept_or_refused():
    from sprout.profiler import AicoreMetrics, ExportType, ProfilerActivity, ProfilerLevel

    prof = Profiler(start_profile=False, profiler_level=ProfilerLevel.Level2, data_simplification=False,
                    sync_enable=False, activities=[ProfilerActivity.CPU], export_type=[ExportType.Text])
    assert prof.options["profiler_level"] is ProfilerLevel.Level2 and prof.options["data_simplification"] is False
    with pytest.raises(ValueError, match="l2_cache"):
        Profiler(start_profile=False, l2_cache=True)
    with pytest.raises(ValueError, match="aic_metrics"):
        Profiler(start_profile=False, aic_metrics=AicoreMetrics.PipeUtilization)
    with pytest.raises(ValueError, match="ProfilerActivity.CPU"):
        Profiler(start_profile=False, activities=[ProfilerActivity.NPU])
    with pytest.raises(ValueError, match="export_type"):
        Profiler(start_profile=False, export_type=[ExportType.Db])
    with pytest.raises(NotImplementedError, match="schedule"):
        Profiler(start_profile=False, schedule=object())
    with pytest.raises(NotImplementedError, match="record_shapes"):
        Profiler(start_profile=False, record_shapes=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'profile_mem'"):
        Profiler(start_profile=False, profile_mem=True)
    with pytest.raises(TypeError, match="profiler_level"):
        Profiler(start_profile=False, profiler_level="Level9")
    with pytest.raises(NotImplementedError, match="step_list"):
        prof.analyse(step_list=[1])
    with pytest.raises(ValueError, match="mode"):
        prof.analyse(mode="later")
