"""The compile report: stage times, cache misses with reasons, dropped side effects, live logging."""
import logging
import warnings

import numpy as np
import pytest

import sprout as ms
import sprout.debug as dbg
from sprout import ops
from sprout.core.errors import JitWarning

counter = 0


def _x(n=3):
    return ms.Tensor(np.ones((n,), np.float32))


def test_compiles_with_stage_times_and_miss_reason():
    @ms.jit
    def scale(x, n):
        return ops.exp(x) * n

    scale(_x(), 2)
    scale(_x(), 2)
    scale(_x(), 3)
    d = dbg.report_dict()
    mine = [c for c in d["compiles"] if c["function"].endswith("scale")]
    assert len(mine) == 2
    assert mine[0]["reason"] == "first call"
    assert mine[1]["reason"] == "argument 'n' changed from 2 to 3"
    for c in mine:
        assert {"trace", "pass:simplify", "pass:dce", "codegen"} <= set(c["stages"])
        assert c["total_ms"] >= sum(c["stages"].values()) * 0.99
        assert c["nodes"] == 1 and not c["failed"]     # exp and the multiply: one small fused kernel
    assert "ast_convert" in mine[0]["stages"] and "ast_convert" not in mine[1]["stages"]
    assert any(m["reason"] == "argument 'n' changed from 2 to 3" for m in d["cache_misses"])
    assert d["cache"]["hits"] >= 1
    text = dbg.report()
    assert "argument 'n' changed from 2 to 3" in text and "stages (ms): " in text and "scale (" in text


def test_dropped_side_effects_are_reported_and_still_warn():
    @ms.jit
    def bump(x):
        global counter
        counter = counter + 1
        return x + 1

    with pytest.warns(JitWarning, match="the global 'counter' is assigned"):
        bump(_x())
    d = dbg.report_dict()
    [w] = d["dropped_side_effects"]
    assert w["function"].endswith("bump") and "global 'counter'" in w["message"]
    assert w["file"].endswith("test_report.py")
    assert "dropped side effects (1)" in dbg.report()


def test_graph_breaks_section_and_fused_section():
    d = dbg.report_dict()
    assert d["graph_breaks"] == [] or d["graph_breaks"] is None or isinstance(d["graph_breaks"], list)
    assert d["fused_groups"] == []
    assert "fused groups (0)" in dbg.report()


def test_graph_breaks_from_pijit():
    bc = pytest.importorskip("sprout.capture.bytecode")

    def f(x):
        y = x * 2
        print("hello")   # a graph break: Python side effect
        return y + 1

    g = bc.compile_bytecode(f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g(_x())
    d = dbg.report_dict()
    assert d["pijit"] is not None
    assert isinstance(d["graph_breaks"], list)
    for b in d["graph_breaks"]:
        assert {"reason", "file", "line", "source", "count"} <= set(b)


def test_failed_compile_is_recorded():
    @ms.jit
    def bad(x):
        return ops.matmul(x, x)

    with pytest.raises(ValueError):
        bad(ms.Tensor(np.ones((2, 3), np.float32)))
    [c] = [c for c in dbg.report_dict()["compiles"] if c["function"].endswith("bad")]
    assert c["failed"]


def test_quiet_by_default_and_live_log_switch(caplog):
    @ms.jit
    def quiet(x):
        return x * 3

    with caplog.at_level(logging.INFO, logger="sprout"):
        quiet(_x())
    assert not [r for r in caplog.records if r.name == "sprout"]
    ms.set_context(jit_log=True)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="sprout"):
        quiet(_x(4))
    msgs = [r.getMessage() for r in caplog.records if r.name == "sprout"]
    assert any(m.startswith("sprout: compiled ") and "quiet" in m and "ms [" in m for m in msgs), msgs


def test_reset_clears():
    @ms.jit
    def f(x):
        return x + 2

    f(_x())
    assert dbg.report_dict()["compiles"]
    dbg.reset()
    d = dbg.report_dict()
    assert d["compiles"] == [] and d["cache_misses"] == [] and d["cache"]["compiles"] == 0
