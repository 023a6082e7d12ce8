"""mindspore.runtime memory statistics (the process's heap and resident set on the CPU), streams and events
(synchronous execution), and the version names."""
import time

import numpy as np
import pytest

import sprout as ms
from sprout import runtime


def test_version_is_the_mindspore_api_level():
    assert ms.__version__ == ms.version.__version__ == "2.10.0"
    assert ms.version.sprout_version == "0.1.0"


def _status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))


def test_allocated_memory_follows_a_large_tensor():
    before = ms.memory_allocated()
    t = ms.Tensor(np.ones(4_000_000))  # 32 MB of float64
    during = ms.memory_allocated()
    assert during - before >= 32_000_000
    assert ms.max_memory_allocated() >= during
    del t
    assert ms.memory_allocated() < during - 30_000_000


def test_reserved_memory_is_the_resident_set_and_its_peak_resets():
    assert abs(ms.memory_reserved() - _status("VmRSS")) < 8 << 20
    big = np.ones(8_000_000)  # 64 MB touched: the resident peak rises
    big += 1
    peak = ms.max_memory_reserved()
    assert peak >= ms.memory_reserved() and peak == _status("VmHWM")
    del big
    ms.empty_cache()  # free heap pages go back to the OS
    ms.reset_max_memory_reserved()
    assert ms.max_memory_reserved() < peak - 50_000_000
    assert ms.max_memory_reserved() >= ms.memory_reserved() - (1 << 20)


def test_memory_stats_and_summary():
    s = ms.memory_stats()
    assert set(s) == {"total_reserved_memory", "total_allocated_memory", "total_idle_memory",
                      "total_eager_free_memory", "max_reserved_memory", "max_allocated_memory",
                      "common_mem_pool_stats", "persistent_mem_pool_stats"}
    assert s["total_reserved_memory"] > 0 and s["total_allocated_memory"] > 0
    assert s["max_reserved_memory"] >= s["total_reserved_memory"] - (1 << 20)
    text = ms.memory_summary()
    lines = text.splitlines()
    assert lines[1] == "|               Memory summary                |" and lines[-1] == "|" + "=" * 45 + "|"
    assert "| Reserved memory      |" in text and "MB" in text
    assert runtime.memory_stats is ms.memory_stats


def test_streams_are_synchronous():
    s = ms.Stream(priority=2)
    assert s.query() and s.synchronize() is None and s != ms.default_stream()
    assert ms.current_stream() == ms.default_stream() == ms.communication_stream()
    assert ms.Stream(stream=s) == s and hash(ms.Stream(stream=s)) == hash(s)
    with ms.StreamCtx(s):
        assert ms.current_stream() == s
        with ms.StreamCtx(None):
            assert ms.current_stream() == s
    assert ms.current_stream() == ms.default_stream()
    ms.set_cur_stream(s)
    try:
        assert ms.current_stream() is s
    finally:
        ms.set_cur_stream(ms.default_stream())
    assert repr(ms.default_stream()) == "Stream(device_name=CPU, device_id:0, stream id:0)"
    s.wait_stream(ms.default_stream())
    with pytest.raises(TypeError, match="priority"):
        ms.Stream(priority="a")
    with pytest.raises(TypeError, match="ctx_stream"):
        ms.StreamCtx(1)
    with pytest.raises(TypeError, match="wait_stream"):
        s.wait_stream(1)


def test_events_time_the_work_between_them():
    start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
    start.record()
    time.sleep(0.03)
    ms.current_stream().record_event(end)
    ms_elapsed = start.elapsed_time(end)
    assert ms_elapsed >= 29.0  # sleep waits at least 30 ms
    assert start.query() and end.synchronize() is None and start.wait() is None
    ev = ms.default_stream().record_event()
    assert isinstance(ev, ms.Event) and ev.query()
    with pytest.raises(RuntimeError, match="enable_timing"):
        start.elapsed_time(ev)
    with pytest.raises(RuntimeError, match="recorded"):
        start.elapsed_time(ms.Event(enable_timing=True))
    with pytest.raises(TypeError, match="enable_timing"):
        ms.Event(enable_timing=1)
    with pytest.raises(TypeError, match="stream"):
        start.record(1)
    with pytest.raises(TypeError, match="event"):
        ms.default_stream().wait_event(None)


def test_ms_memory_recycle_drops_compiled_graphs():
    calls = []

    @ms.jit
    def f(x):
        calls.append(1)  # runs while tracing: once per compile
        return x * 2

    x = ms.Tensor(np.ones(3, np.float32))
    f(x)
    f(x)
    assert len(calls) == 1
    ms.ms_memory_recycle()
    np.testing.assert_array_equal(f(x).asnumpy(), [2.0, 2.0, 2.0])
    assert len(calls) == 2  # compiled again after the recycle
