"""Tests for sprout.train.serialization: MindSpore .ckpt / .safetensors save, load and load_param_into_net."""
import json
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from sprout.core.tensor import Parameter, Tensor
from sprout.train import _ckpt_proto as proto
from sprout.train import serialization as ser
from sprout.train.serialization import CheckpointLoadError, load_checkpoint, load_param_into_net, save_checkpoint

FIXTURES = Path(__file__).parent / "fixtures"


class Net:
    """A stand-in Cell: it only needs parameters_and_names(). (Swap for sprout.nn cells once they exist.)"""

    def __init__(self, **arrays):
        self.params = {name: Parameter(Tensor(np.asarray(a)), name=name) for name, a in arrays.items()}

    def parameters_and_names(self):
        yield from self.params.items()

    def values(self):
        return {name: p.asnumpy().copy() for name, p in self.params.items()}


DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]


def sample(dtype, shape=(2, 3), seed=0):
    rng = np.random.default_rng(seed)
    if dtype is np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return rng.standard_normal(shape).astype(dtype)


def assert_same(got, want):
    got = got.asnumpy() if hasattr(got, "asnumpy") else got
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_round_trip_every_dtype(tmp_path, fmt, dtype):
    values = {"a.weight": sample(dtype), "a.scalar": sample(dtype, ()), "a.empty": np.zeros((0, 3), dtype),
              "a.cube": sample(dtype, (2, 3, 4), seed=1)}
    path = tmp_path / f"m.{fmt}"
    save_checkpoint(values, str(path), format=fmt)
    loaded = load_checkpoint(str(path), format=fmt)
    assert sorted(loaded) == sorted(values)
    for name, want in values.items():
        assert isinstance(loaded[name], Parameter) and loaded[name].name == name
        assert_same(loaded[name], want)


def test_round_trip_odd_layouts(tmp_path):
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    values = {"transposed": base.T, "big_endian": base.astype(">f4"), "strided": base[:, ::2]}
    save_checkpoint(values, str(tmp_path / "odd.ckpt"))
    loaded = load_checkpoint(str(tmp_path / "odd.ckpt"))
    assert_same(loaded["transposed"], np.ascontiguousarray(base.T))
    assert_same(loaded["big_endian"], base)
    assert_same(loaded["strided"], np.ascontiguousarray(base[:, ::2]))


def test_append_dict_types_and_string(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint({"w": np.ones(2, np.float32)}, path,
                    append_dict={"epoch_num": 5, "lr": 0.25, "best": True, "name": "résumé ✓", "empty": "",
                                 "step": Tensor(np.array([3], np.int32))})
    loaded = load_checkpoint(path)
    assert list(loaded) == ["w", "epoch_num", "lr", "best", "name", "empty", "step"]
    assert_same(loaded["epoch_num"], np.array(5, np.int64))
    assert_same(loaded["lr"], np.array(0.25, np.float32))
    assert_same(loaded["best"], np.array(True))
    assert_same(loaded["step"], np.array([3], np.int32))
    assert loaded["name"] == "résumé ✓" and loaded["empty"] == ""
    with pytest.raises(TypeError, match="append_dict"):
        save_checkpoint({"w": np.ones(2)}, path, append_dict={"bad": [1, 2]})


def test_suffix_is_added(tmp_path):
    save_checkpoint({"w": np.ones(2, np.float32)}, str(tmp_path / "model"))
    save_checkpoint({"w": np.ones(2, np.float32)}, str(tmp_path / "model"), format="safetensors")
    assert sorted(os.listdir(tmp_path)) == ["model.ckpt", "model.safetensors"]
    with pytest.raises(ValueError, match="format"):
        load_checkpoint(str(tmp_path / "model.ckpt"), format="safetensors")


def test_save_obj_forms_and_choice_func(tmp_path):
    w, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1.0, 2.0], np.float32)
    net = Net(**{"dense.weight": w, "dense.bias": b})
    forms = {
        "cell": net,
        "list_of_dicts": [{"name": "dense.weight", "data": Tensor(w)}, {"name": "dense.bias", "data": b}],
        "list_of_params": [p for _, p in net.parameters_and_names()],
        "dict": {"dense.weight": net.params["dense.weight"], "dense.bias": b},
    }
    for tag, obj in forms.items():
        path = str(tmp_path / f"{tag}.ckpt")
        save_checkpoint(obj, path)
        loaded = load_checkpoint(path)
        assert list(loaded) == ["dense.weight", "dense.bias"], tag
        assert_same(loaded["dense.weight"], w)
        assert_same(loaded["dense.bias"], b)
    save_checkpoint(net, str(tmp_path / "w_only.ckpt"), choice_func=lambda n: n.endswith("weight"))
    assert list(load_checkpoint(str(tmp_path / "w_only.ckpt"))) == ["dense.weight"]
    with pytest.raises(TypeError, match="save_obj"):
        save_checkpoint(42, str(tmp_path / "x.ckpt"))


def test_large_tensors_are_sliced_like_mindspore(tmp_path, monkeypatch):
    monkeypatch.setattr(ser, "SLICE_BYTES", 1000)
    big = np.arange(2500, dtype=np.float64).reshape(50, 50)
    path = tmp_path / "big.ckpt"
    save_checkpoint({"big": big, "small": np.ones(3, np.int8)}, str(path))
    records = proto.parse_records(path.read_bytes())
    assert [r[0] for r in records] == ["big"] * 20 + ["small"]
    assert all(r[1] == [50, 50] and len(r[3]) == 1000 for r in records[:20])
    loaded = load_checkpoint(str(path))
    assert_same(loaded["big"], big)
    assert_same(loaded["small"], np.ones(3, np.int8))


def test_crc_round_trip(tmp_path):
    path = tmp_path / "c.ckpt"
    save_checkpoint({"w": sample(np.float32)}, str(path), crc_check=True)
    assert path.read_bytes()[-17:-10] == b"crc_num"
    assert_same(load_checkpoint(str(path), crc_check=True)["w"], sample(np.float32))
    spath = tmp_path / "c.safetensors"
    save_checkpoint({"w": sample(np.float32)}, str(spath), crc_check=True, format="safetensors")
    assert_same(load_checkpoint(str(spath), crc_check=True, format="safetensors")["w"], sample(np.float32))


# ---------------------------------------------------------------- files written by real MindSpore

def _expected():
    entries = json.loads((FIXTURES / "ms_net_expected.json").read_text())["entries"]
    out = {}
    for name, e in entries.items():
        if "str" in e:
            out[name] = e["str"]
        else:
            dt = proto.TYPE_TO_NP[e["dtype"]].newbyteorder("=")
            out[name] = np.array(e["values"], dtype=np.float64).astype(dt).reshape(e["shape"])
    return out


def test_mindspore_written_ckpt_loads_exactly():
    want = _expected()
    loaded = load_checkpoint(str(FIXTURES / "ms_net.ckpt"))
    assert list(loaded) == list(want)
    assert loaded["tag"] == "mindspore-fixture"
    for name, value in want.items():
        if not isinstance(value, str):
            assert_same(loaded[name], value)
    assert_same(loaded["dense.weight"], np.array([[0.1, -0.2, 0.3], [1.5, -2.5, 1e-7]], np.float32))
    assert_same(loaded["steps"], np.array([[1, -2], [300, -40000]], np.int32))
    assert_same(loaded["epoch_num"], np.array(7, np.int64))


@pytest.mark.parametrize("fname,kwargs", [("ms_net_crc.ckpt", {"crc_check": True}),
                                          ("ms_net.safetensors", {"format": "safetensors"})])
def test_mindspore_written_crc_and_safetensors_load(fname, kwargs):
    want = {k: v for k, v in _expected().items() if not isinstance(v, str) and "_" not in k}
    loaded = load_checkpoint(str(FIXTURES / fname), **kwargs)
    assert sorted(loaded) == sorted(want)
    for name, value in want.items():
        assert_same(loaded[name], value)


@pytest.mark.parametrize("fname,kwargs", [("ms_net.ckpt", {}), ("ms_net_crc.ckpt", {"crc_check": True})])
def test_resaving_mindspore_file_is_byte_identical(tmp_path, fname, kwargs):
    loaded = load_checkpoint(str(FIXTURES / fname), **kwargs)
    save_checkpoint(loaded, str(tmp_path / "again.ckpt"), **kwargs)
    assert (tmp_path / "again.ckpt").read_bytes() == (FIXTURES / fname).read_bytes()


def test_mindspore_file_into_net():
    net = Net(**{"dense.weight": np.zeros((2, 3), np.float32), "dense.bias": np.zeros(2, np.float16),
                 "other": np.zeros(1, np.float32)})
    loaded = load_checkpoint(str(FIXTURES / "ms_net.ckpt"), net=net)
    assert_same(net.params["dense.weight"], loaded["dense.weight"].asnumpy())
    assert_same(net.params["dense.bias"], np.array([0.25, -3.0], np.float16))  # cast to the net's dtype
    not_loaded, unused = load_param_into_net(net, loaded)
    assert not_loaded == ["other"]
    assert unused == ["steps", "half", "mask", "codes", "epoch_num", "learning_rate", "is_best", "tag"]


def test_loading_never_unpickles(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("pickle used")
    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr(pickle, "load", boom)
    monkeypatch.setattr(np, "load", boom)
    load_checkpoint(str(FIXTURES / "ms_net.ckpt"))
    load_checkpoint(str(FIXTURES / "ms_net.safetensors"), format="safetensors")


# ---------------------------------------------------------------- damaged files

def _write(tmp_path, data: bytes, name="bad.ckpt"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _entry(tag, dims, type_name, content: bytes) -> bytes:
    return proto.entry_header(tag, dims, type_name, len(content)) + content


def test_truncated_file_raises_and_changes_nothing(tmp_path):
    good = (FIXTURES / "ms_net.ckpt").read_bytes()
    net = Net(**{"dense.weight": np.full((2, 3), 9, np.float32), "dense.bias": np.full(2, 9, np.float32)})
    before = net.values()
    records_end = {0}
    with pytest.raises(ValueError, match="no checkpoint entries"):
        load_checkpoint(_write(tmp_path, b""), net=net)
    for cut in range(1, len(good)):
        try:
            proto.parse_records(good[:cut])
            records_end.add(cut)  # a cut exactly between entries is a valid (shorter) checkpoint
        except proto.ProtoError:
            path = _write(tmp_path, good[:cut])
            with pytest.raises(ValueError, match="bad.ckpt") as info:
                load_checkpoint(path, net=net)
            assert "truncated or corrupted" in str(info.value)
            for name, value in before.items():
                assert_same(net.params[name], value)
    assert len(records_end) == 10  # cut points between MindSpore's 10 entries only


@pytest.mark.parametrize("case", ["bad_varint", "length_past_end", "unknown_dtype", "size_mismatch",
                                  "missing_type", "map_tensor", "bad_utf8"])
def test_corrupted_bytes_raise_value_error(tmp_path, case):
    ok = _entry("w", [2], "Float32", np.ones(2, np.float32).tobytes())
    data = {
        "bad_varint": ok + b"\x0a" + b"\xff" * 11,
        "length_past_end": ok + b"\x0a\x40" + b"\x00" * 10,
        "unknown_dtype": ok + _entry("v", [2], "Float33", b"\0" * 8),
        "size_mismatch": ok + _entry("v", [3], "Float32", b"\0" * 8),
        "missing_type": ok + b"\x0a\x07\x0a\x01v\x12\x02\x1a\x00",
        "map_tensor": ok + b"\x0a\x05\x0a\x01m\x1a\x00",
        "bad_utf8": ok + _entry("v", [], "Int8", b"\1").replace(b"\x0a\x01v", b"\x0a\x01\xff"),
    }[case]
    path = _write(tmp_path, data)
    net = Net(w=np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="bad.ckpt"):
        load_checkpoint(path, net=net)
    assert_same(net.params["w"], np.zeros(2, np.float32))


def test_flipped_byte_caught_by_crc(tmp_path):
    data = bytearray((FIXTURES / "ms_net_crc.ckpt").read_bytes())
    data[-18] ^= 0x01  # last content byte before the trailer: still parses, so only the CRC can tell
    path = _write(tmp_path, bytes(data))
    with pytest.raises(ValueError, match="CRC32"):
        load_checkpoint(path, crc_check=True)
    assert load_checkpoint(path)["steps"] is not None  # without crc_check MindSpore ignores the trailer


def test_corrupted_safetensors(tmp_path):
    good = (FIXTURES / "ms_net.safetensors").read_bytes()
    for data in (good[:-5], good[:20], b"\xff" * 8 + good[8:]):
        path = _write(tmp_path, data, "bad.safetensors")
        with pytest.raises(ValueError, match="bad.safetensors"):
            load_checkpoint(path, format="safetensors")


def test_packed_dims_and_unknown_fields_accepted(tmp_path):
    content = np.arange(6, dtype=np.int16).tobytes()
    tensor = b"\x0a\x02\x02\x03" + b"\x12\x05Int16" + b"\x1a\x0c" + content + b"\x25\x00\x00\x00\x00"
    value = b"\x0a\x01t" + b"\x12" + bytes([len(tensor)]) + tensor + b"\x20\x07"
    path = _write(tmp_path, b"\x0a" + bytes([len(value)]) + value)
    assert_same(load_checkpoint(path)["t"], np.arange(6, dtype=np.int16).reshape(2, 3))


# ---------------------------------------------------------------- atomic writes

def test_failed_write_leaves_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "m.ckpt"
    save_checkpoint({"w": np.ones(3, np.float32)}, str(path))
    old = path.read_bytes()
    calls, original = [], proto.entry_header

    def failing_header(*args):
        calls.append(args)
        if len(calls) == 2:  # the first entry is already in the temp file by then
            raise OSError("disk full")
        return original(*args)

    monkeypatch.setattr(proto, "entry_header", failing_header)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint({"w": np.zeros(3, np.float32), "v": np.zeros(3, np.float32)}, str(path))
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["m.ckpt"]  # no temp file left behind


def test_failed_replace_leaves_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "m.safetensors"
    save_checkpoint({"w": np.ones(3, np.float32)}, str(path), format="safetensors")
    old = path.read_bytes()

    def failing_replace(src, dst):
        raise OSError("rename failed")
    monkeypatch.setattr(ser.os, "replace", failing_replace)
    with pytest.raises(OSError, match="rename failed"):
        save_checkpoint({"w": np.zeros(3, np.float32)}, str(path), format="safetensors")
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["m.safetensors"]


# ---------------------------------------------------------------- load_param_into_net

def test_load_param_into_net_reports_and_casts():
    net = Net(w=np.zeros((2, 2), np.float32), b=np.zeros(2, np.int64), accu_grads_w=np.zeros(1), extra=np.zeros(1))
    pdict = {"w": Parameter(Tensor(np.eye(2)), name="w"), "b": Parameter(Tensor(np.array([1, 2], np.int8)), name="b"),
             "unused": Parameter(Tensor(np.ones(1)), name="unused"), "note": "text"}
    not_loaded, unused = load_param_into_net(net, pdict)
    assert not_loaded == ["extra"]  # accu_grads* are never reported
    assert unused == ["unused", "note"]
    assert_same(net.params["w"], np.eye(2, dtype=np.float32))
    assert_same(net.params["b"], np.array([1, 2], np.int64))


@pytest.mark.parametrize("new,strict,match", [
    (np.zeros((3, 2), np.float32), False, r"'w' has shape \(2, 2\) in the network but shape \(3, 2\)"),
    (np.zeros((2, 2), np.float64), True, "strict_load"),
    (np.zeros((2, 2), np.int32), False, "type Float32 in the network but Int32"),
])
def test_load_param_into_net_errors_change_nothing(new, strict, match):
    net = Net(a=np.zeros(2, np.float32), w=np.zeros((2, 2), np.float32))
    pdict = {"a": Parameter(Tensor(np.ones(2, np.float32)), name="a"), "w": Parameter(Tensor(new), name="w")}
    with pytest.raises(CheckpointLoadError, match=match) as info:
        load_param_into_net(net, pdict, strict_load=strict)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, ValueError)
    assert_same(net.params["a"], np.zeros(2, np.float32))  # 'a' came first and still was not assigned


def test_trailing_unit_dims_are_squeezed():
    net = Net(w=np.zeros((2, 3), np.float32))
    load_param_into_net(net, {"w": Parameter(Tensor(np.ones((2, 3, 1, 1), np.float32)), name="w")})
    assert_same(net.params["w"], np.ones((2, 3), np.float32))


def test_prefix_fallback_matches_mindspore():
    net = Net(weight=np.zeros(2, np.float32), bias=np.zeros(1, np.float32))
    pdict = {n: Parameter(Tensor(np.full(s, 7, np.float32)), name=n)
             for n, s in [("backbone.weight", 2), ("backbone.bias", 1)]}
    not_loaded, unused = load_param_into_net(net, pdict)
    assert not_loaded == []
    assert unused == ["backbone.weight", "backbone.bias"]  # MindSpore 2.10 does not update this list here
    assert_same(net.params["weight"], np.full(2, 7, np.float32))
    net2 = Net(weight=np.zeros(2, np.float32))
    assert load_param_into_net(net2, pdict, strict_load=True) == (["weight"], ["backbone.weight", "backbone.bias"])
    assert_same(net2.params["weight"], np.zeros(2, np.float32))


# ---------------------------------------------------------------- filters and options

@pytest.fixture
def multi(tmp_path):
    path = str(tmp_path / "multi.ckpt")
    save_checkpoint({n: np.zeros(1, np.float32) for n in ["conv1.w", "conv2.w", "fc.w", "fc.b"]}, path)
    return path


def test_specify_filter_prefix_and_choice_func(multi):
    assert list(load_checkpoint(multi, specify_prefix="conv")) == ["conv1.w", "conv2.w"]
    assert list(load_checkpoint(multi, filter_prefix=["conv", "fc.b"])) == ["fc.w"]
    assert list(load_checkpoint(multi, specify_prefix=("conv", "fc"), filter_prefix="conv2")) == \
        ["conv1.w", "fc.w", "fc.b"]
    assert list(load_checkpoint(multi, choice_func=lambda n: n.endswith("b"))) == ["fc.b"]
    # as in MindSpore, choice_func is ignored when a prefix argument is given
    assert list(load_checkpoint(multi, specify_prefix="fc", choice_func=lambda n: False)) == ["fc.w", "fc.b"]
    with pytest.raises(ValueError, match="empty"):
        load_checkpoint(multi, specify_prefix="nothing")
    with pytest.raises(ValueError):
        load_checkpoint(multi, filter_prefix=[])
    with pytest.raises(ValueError):
        load_checkpoint(multi, filter_prefix=["fc", ""])
    with pytest.raises(TypeError):
        load_checkpoint(multi, specify_prefix=3)


def test_prefixes_also_filter_safetensors(tmp_path):
    path = str(tmp_path / "m.safetensors")
    save_checkpoint({n: np.zeros(1, np.float32) for n in ["conv1.w", "fc.w", "fc.b"]}, path, format="safetensors")
    assert list(load_checkpoint(path, format="safetensors", filter_prefix="fc")) == ["conv1.w"]
    assert list(load_checkpoint(path, format="safetensors", choice_func=lambda n: n != "fc.b")) == ["conv1.w", "fc.w"]


def test_filter_with_net_and_strict_load(multi):
    net = Net(**{"conv1.w": np.ones(1, np.float32), "fc.w": np.ones(1, np.float32)})
    load_checkpoint(multi, net=net, filter_prefix="conv")
    assert_same(net.params["conv1.w"], np.ones(1, np.float32))
    assert_same(net.params["fc.w"], np.zeros(1, np.float32))


def test_unsupported_options_say_so(tmp_path, multi):
    path = str(tmp_path / "x.ckpt")
    for kwargs in ({"enc_key": b"0" * 16}, {"async_save": True}, {"async_save": "thread"}):
        with pytest.raises(NotImplementedError, match="sprout does not support"):
            save_checkpoint({"w": np.ones(1)}, path, **kwargs)
    with pytest.raises(NotImplementedError, match="sprout does not support"):
        load_checkpoint(multi, dec_key=b"0" * 16)
    with pytest.raises(ValueError, match="format"):
        save_checkpoint({"w": np.ones(1)}, path, format="h5")
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(TypeError, match="string entry"):
        save_checkpoint({"w": np.ones(1)}, str(tmp_path / "s.safetensors"), format="safetensors",
                        append_dict={"s": "text"})
    assert not os.path.exists(path)
