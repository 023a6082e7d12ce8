"""set_context keys real scripts pass, against MindSpore 2.10 (tests/api/data/context.json, written by
tools/ms_context_oracle.py): the same exception type, or get_context reporting the value; and set_device,
get_current_device, set_deterministic, set_recursion_limit, mindspore.runtime."""
import json
from pathlib import Path

import pytest

import sprout as ms
from sprout import context, runtime

from .cases.context_cases import CASES, SPROUT

ORACLE = json.loads((Path(__file__).parent / "data" / "context.json").read_text())
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError, "OSError": OSError}


@pytest.fixture(autouse=True)
def _fresh_context(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    context.reset_context()
    runtime._reset()
    yield
    context.reset_context()
    runtime._reset()


@pytest.mark.parametrize("key, src", CASES, ids=[f"{k}={v}" for k, v in CASES])
def test_set_context_as_mindspore(key, src):
    want = ORACLE[f"{key}={src}"]
    value = eval(src)  # noqa: S307 - the case table's own literal
    if (key, src) in SPROUT:
        kind, expected = SPROUT[(key, src)]
        want = {"raises": expected} if kind == "raises" else {"ok": expected}
    if "raises" in want:
        with pytest.raises(ERRORS[want["raises"]]) as info:
            ms.set_context(**{key: value})
        assert key in str(info.value) or key in ("jit_compile", "precision_mode") or want["raises"] == "TypeError"
        return
    ms.set_context(**{key: value})
    if "ok" in want:
        assert ms.get_context(key) == want["ok"]


def test_wrong_type_message_names_key():
    with pytest.raises(TypeError, match="max_call_depth.*int.*str"):
        ms.set_context(max_call_depth="5")
    with pytest.raises(ValueError, match="max_call_depth.*greater than 0"):
        ms.set_context(max_call_depth=-1)


def test_cpu_meaningless_keys_are_reported():
    ms.set_context(reserve_class_name_in_scope=False, graph_kernel_flags="--opt_level=1",
                   enable_auto_mixed_precision=True, variable_memory_max_size="4GB", max_device_memory="2GB",
                   mempool_block_size="1GB", enable_reduce_precision=False, pynative_synchronize=True,
                   ascend_config={"precision_mode": "allow_mix_precision"}, runtime_num_threads=3)
    assert ms.get_context("reserve_class_name_in_scope") is False
    assert ms.get_context("max_device_memory") == 2.0 and ms.get_context("variable_memory_max_size") == "4GB"
    assert ms.get_context("ascend_config") == {"precision_mode": "allow_mix_precision"}
    context.reset_context()
    assert ms.get_context("max_device_memory") == 1024.0 and ms.get_context("reserve_class_name_in_scope") is True


def test_results_unchanged_by_meaningless_keys():
    x = ms.Tensor([[1.5, -2.0], [0.25, 3.0]], ms.float32)
    before = (ms.ops.matmul(x, x) + ms.ops.exp(x)).asnumpy()
    ms.set_context(enable_auto_mixed_precision=True, enable_reduce_precision=True, enable_graph_kernel=True,
                   ascend_config={"precision_mode": "force_fp16"}, deterministic="ON")
    after = ms.jit(lambda a: ms.ops.matmul(a, a) + ms.ops.exp(a))(x)
    assert after.dtype == ms.float32
    assert (after.asnumpy() == before).all()


def test_set_device_and_current_device():
    ms.set_device("CPU")
    dev = ms.get_current_device()
    assert dev == ("CPU", 0) and dev.device_target == "CPU" and dev.device_id == 0
    ms.set_device("CPU")  # the same choice again is fine
    with pytest.raises(RuntimeError, match="cannot be changed"):
        ms.set_device("CPU", 1)
    with pytest.raises(ValueError, match="device_target"):
        ms.set_device("TPU")
    with pytest.raises(RuntimeError, match="CPU only"):
        ms.set_device("GPU")
    context.reset_context()
    with pytest.raises(ValueError, match="device_id"):
        ms.set_device("CPU", -1)
    with pytest.raises(TypeError, match="device_id"):
        ms.set_device("CPU", "0")
    ms.set_device("CPU", 2)
    assert ms.get_context("device_id") == 2 and ms.get_current_device().device_id == 2


def test_set_deterministic_and_recursion_limit():
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    with pytest.raises(TypeError, match="deterministic"):
        ms.set_deterministic("on")
    ms.set_recursion_limit(2000)
    assert ms.get_context("max_call_depth") == 2000
    with pytest.raises(ValueError, match="recursion_limit"):
        ms.set_recursion_limit(-1)
    with pytest.raises(TypeError, match="recursion_limit"):
        ms.set_recursion_limit("a")


def test_runtime():
    runtime.launch_blocking()
    assert ms.get_context("pynative_synchronize") is True
    runtime.synchronize()
    runtime.empty_cache()
    with pytest.raises(ValueError, match="threads_num"):
        runtime.dispatch_threads_num(-1)
    with pytest.raises(TypeError, match="threads_num"):
        runtime.dispatch_threads_num(2.0)
    runtime.dispatch_threads_num(4)
    assert runtime.get_dispatch_threads_num() == 4
    with pytest.raises(RuntimeError, match="repeatedly"):
        runtime.dispatch_threads_num(4)
    with pytest.raises(ValueError, match="init_size"):
        runtime.set_memory(init_size="2")
    with pytest.raises(ValueError, match="optimize_level"):
        runtime.set_memory(optimize_level="O3")
    runtime.set_memory(init_size="1GB", optimize_level="O1")
    assert ms.get_context("memory_optimize_level") == 1
    with pytest.raises(RuntimeError, match="repeatedly"):
        runtime.set_memory()
