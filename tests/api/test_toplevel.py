"""The top-level names MindSpore 2.10 exports beside the core ones: ms.tensor / from_numpy / dlpack, the dtype
aliases and type kinds, lazy_inline / no_inline / recompute, data sinking and checkpoint format conversion.
Expected values and messages were read from MindSpore 2.10 (CPU)."""
import os

import numpy as np
import pytest

import sprout as ms
import sprout.dataset as ds
from sprout import nn


def test_tensor_function_builds_like_the_class():
    t = ms.tensor([1, 2, 3])
    assert t.dtype is ms.int64 and t.shape == (3,)
    assert ms.tensor(np.ones(2, np.float64), ms.float32).dtype is ms.float32
    from sprout.common.initializer import One
    assert ms.tensor(shape=(2, 3), dtype=ms.float32, init=One()).asnumpy().tolist() == [[1.0] * 3] * 2
    assert ms.tensor([1.0], device="CPU").asnumpy().tolist() == [1.0]
    with pytest.raises(ValueError, match="supported for device, but got GPU"):
        ms.tensor([1], device="GPU")


def test_from_numpy_shares_memory_and_refuses_lists():
    a = np.zeros(3, np.float32)
    t = ms.from_numpy(a)
    a[0] = 5
    assert t.asnumpy()[0] == 5
    with pytest.raises(TypeError):
        ms.from_numpy([1, 2])
    assert ms.is_tensor(t) and ms.is_tensor(ms.Parameter(t)) and not ms.is_tensor(1)
    back = ms.from_dlpack(ms.to_dlpack(ms.Tensor([1.0, 2.0])))
    assert back.asnumpy().tolist() == [1.0, 2.0]


def test_dtype_aliases_and_type_kinds():
    assert ms.int is ms.int32 and ms.long is ms.int64 and ms.float is ms.float32 and ms.bool is ms.bool_
    assert (ms.short, ms.byte, ms.ubyte, ms.ushort) == (ms.int16, ms.int8, ms.uint8, ms.uint16)
    assert (ms.intc, ms.intp, ms.uintc, ms.uintp) == (ms.int32, ms.int64, ms.uint32, ms.uint64)
    assert [repr(k) for k in (ms.number, ms.string, ms.list_, ms.tuple_, ms.type_none, ms.tensor_type)] == [
        "mindspore.number", "mindspore.string_", "mindspore.list_", "mindspore.tuple_", "mindspore.type_none",
        "mindspore.tensor"]
    assert ms.dtype_to_pytype(ms.float32) is float and ms.dtype_to_pytype(ms.uint8) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool and ms.dtype_to_pytype(ms.list_) is list
    with pytest.raises(KeyError):
        ms.dtype_to_pytype(ms.number)
    assert [str(ms.get_py_obj_dtype(v)) for v in (1, 1.0, True, "a", [1], (1,), None, int, float)] == [
        "Int64", "Float64", "Bool", "String", "List", "Tuple", "None", "Int64", "Float64"]
    assert str(ms.get_py_obj_dtype(ms.Tensor([1.0]))) == "Tensor[Float32]"
    assert ms.get_py_obj_dtype(ms.Tensor([1])).element_type() is ms.int64
    assert ms.get_py_obj_dtype(np.float32(1)) is ms.float32
    with pytest.raises(NotImplementedError, match="cannot be converted to MindSpore type"):
        ms.get_py_obj_dtype({})


def test_star_imports_do_not_shadow_python_builtins():
    scope: dict = {}
    exec("from sprout import *\nfrom sprout.common.dtype import *", scope)
    assert not {"int", "float", "bool"} & set(scope)  # the builtins stay visible under their own names
    assert scope["Tensor"] is ms.Tensor and scope["number"] is ms.number


def test_lazy_inline_marks_the_cell_and_refuses_other_functions():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self, n):
            super().__init__()
            self.dense = nn.Dense(n, n)

        def construct(self, x):
            return self.dense(x)

    b = Block(2)
    x = ms.Tensor(np.ones((1, 2), np.float32))
    assert b._lazy_inline and np.allclose(b(x).asnumpy(), ms.jit(b)(x).asnumpy())
    with pytest.raises(ValueError, match="should decorate the __init__ function, not the function: g"):
        @ms.lazy_inline
        def g(x):
            return x

    @ms.no_inline
    def double(x):
        return x * 2

    assert double.no_inline and double(ms.Tensor([1.0])).asnumpy().tolist() == [2.0]


def test_recompute_runs_the_block_and_wants_a_cell():
    dense = nn.Dense(2, 2)
    x = ms.Tensor(np.ones((1, 2), np.float32))
    assert np.array_equal(ms.recompute(dense, x).asnumpy(), dense(x).asnumpy())
    with pytest.raises(TypeError, match="inherited from Cell when use_reentrant=True"):
        ms.recompute(lambda v: v * 2, x)
    assert ms.recompute(lambda v: v * 2, x, use_reentrant=False).asnumpy().tolist() == [[2.0, 2.0]]


def _numbers(n=3):
    data = {"x": np.arange(n, dtype=np.float32).reshape(n, 1), "y": np.ones((n, 1), np.float32)}
    return ds.NumpySlicesDataset(data=data, shuffle=False)


def test_data_sink_runs_sink_size_steps_per_call_cycling_the_dataset():
    seen = []

    def step(x, y):
        seen.append(float(x.asnumpy()[0]))
        return x + y

    sink = ms.data_sink(step, _numbers(), sink_size=2)
    outs = [float(sink().asnumpy()[0]) for _ in range(3)]
    assert seen == [0.0, 1.0, 2.0, 0.0, 1.0, 2.0] and outs == [2.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="'sink_size' must be a positive integer, but got 0"):
        ms.data_sink(step, _numbers(), sink_size=0)
    jitted = ms.data_sink(lambda x, y: x * y + 1, _numbers(), jit_config=ms.JitConfig(jit_level="O1"))
    assert [float(jitted().asnumpy()[0]) for _ in range(2)] == [1.0, 2.0]
    right = ms.data_sink(step, _numbers(), input_signature=(ms.Tensor(np.ones(1, np.float32)),) * 2)
    assert float(right().asnumpy()[0]) == 1.0
    wrong = ms.data_sink(step, _numbers(), input_signature=(ms.Tensor(np.ones(2, np.float32)),) * 2)
    with pytest.raises(TypeError, match="column 0 is Float32\\[1\\], but input_signature expects Float32\\[2\\]"):
        wrong()


def test_dataset_helper_with_and_without_sink_mode():
    batched = _numbers(5).batch(2)
    plain = ms.DatasetHelper(batched, dataset_sink_mode=False)
    assert [[t.shape for t in b] for b in plain] == [[(2, 1), (2, 1)], [(2, 1), (2, 1)], [(1, 1), (1, 1)]]
    with pytest.raises(RuntimeError, match="should be called in dataset sink mode"):
        ms.connect_network_with_dataset(nn.Dense(1, 1), plain)
    helper = ms.DatasetHelper(batched, dataset_sink_mode=True, sink_size=3)
    calls = []
    net = ms.connect_network_with_dataset(lambda x, y: calls.append(x.shape[0]) or x.sum(), helper)
    results = [float(net(*inputs).asnumpy()) for inputs in helper]
    assert helper.sink_size() == 3 and calls == [2, 2, 1] and results == [4.0]


def test_checkpoint_format_conversion_round_trip(tmp_path):
    net = nn.Dense(2, 3)
    os.makedirs(tmp_path / "rank0")
    ms.save_checkpoint(net, str(tmp_path / "rank0" / "a.ckpt"))
    [st] = ms.ckpt_to_safetensors(str(tmp_path / "rank0" / "a.ckpt"), str(tmp_path / "out"), {"weight": "w2"})
    loaded = ms.load_checkpoint(st, format="safetensors")
    assert sorted(loaded) == ["bias", "w2"] and np.array_equal(loaded["w2"].asnumpy(), net.weight.asnumpy())
    assert ms.ckpt_to_safetensors(str(tmp_path), str(tmp_path / "all")) == [
        str(tmp_path / "all" / "rank0" / "a.safetensors")]
    [back] = ms.safetensors_to_ckpt(st, str(tmp_path / "back"))
    assert np.array_equal(ms.load_checkpoint(back)["w2"].asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError, match="must be a valid path or file"):
        ms.ckpt_to_safetensors(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="must be a .safetensors file"):
        ms.safetensors_to_ckpt(str(tmp_path / "rank0" / "a.ckpt"))
    with pytest.raises(ValueError, match="no directories starting with 'rank'"):
        ms.ckpt_to_safetensors(str(tmp_path / "out"))


def test_mindspore_names_ratchet():
    """Every public name of MindSpore 2.10's main namespaces (tests/api/data/ms210_names.json, from
    tools/ms_oracle_names.py) exists in sprout unless listed in ms210_not_provided.json: a name that exists stays."""
    import importlib
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"
    names = json.loads((data / "ms210_names.json").read_text())
    allowed = json.loads((data / "ms210_not_provided.json").read_text())
    for namespace, listed in names.items():
        obj = ms.Tensor if namespace == "Tensor" else (
            importlib.import_module(f"sprout.{namespace}") if namespace else ms)
        missing = {n for n in listed if not hasattr(obj, n)}
        assert missing <= set(allowed[namespace]), (namespace or "ms", sorted(missing - set(allowed[namespace])))


def test_load_checkpoint_async(tmp_path):
    net = nn.Dense(2, 3)
    path = str(tmp_path / "n.ckpt")
    ms.save_checkpoint(net, path)
    target = nn.Dense(2, 3)
    pending = ms.load_checkpoint_async(path, net=target)
    loaded = pending.result(timeout=60)
    assert pending.done() and sorted(loaded) == ["bias", "weight"]
    assert np.array_equal(target.weight.asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError):
        ms.load_checkpoint_async(str(tmp_path / "missing.ckpt")).result(timeout=60)
    assert ms.async_ckpt_thread_status() is False


def test_run_check_reports_success(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert "sprout version:" in out and "calculation is correct" in out and "platform [CPU]" in out


def test_frombuffer_and_swap_tensors():
    buf = bytearray(np.arange(6, dtype=np.float32).tobytes())
    t = ms.frombuffer(buf, ms.float32, count=3, offset=8)
    assert t.asnumpy().tolist() == [2.0, 3.0, 4.0]
    buf[8:12] = np.float32(9).tobytes()
    assert t.asnumpy()[0] == 9.0  # shares the buffer's memory
    assert ms.frombuffer(bytes(8), ms.int32).asnumpy().tolist() == [0, 0]
    for bad in ({"count": -2}, {"offset": 24}, {"count": 7}):
        with pytest.raises(RuntimeError):
            ms.frombuffer(buf, ms.float32, **bad)
    a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4, 5])
    ids = id(a), id(b)
    ms.swap_tensors(a, b)
    assert a.asnumpy().tolist() == [3, 4, 5] and b.asnumpy().tolist() == [1.0, 2.0] and (id(a), id(b)) == ids
    with pytest.raises(RuntimeError):
        ms.swap_tensors(a, ms.Parameter(ms.Tensor([1.0]), name="p"))
    with pytest.raises(TypeError):
        ms.swap_tensors(a, 1)
