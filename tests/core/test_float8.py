"""ms.float8_e4m3fn, ms.float8_e5m2 and ms.hifloat8 against MindSpore 2.10 CPU (tools/ms_oracle_float8.py): the
stored byte of every converted value, the printed tensors, and the TypeError every op raises on them."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import ops, Tensor

sys.path.append(str(Path(__file__).resolve().parents[1]))  # the shared mode plumbing (tests/capture_bytecode)
from capture_bytecode.modes import MODES, run_in_mode  # noqa: E402

DATA = np.load(Path(__file__).parent / "data" / "float8_oracle.npz")
META = json.loads(str(DATA["meta"]))
NAMES = ("float8_e4m3fn", "float8_e5m2", "hifloat8")


def stored(t) -> np.ndarray:
    return t.asnumpy().view(np.uint8)


@pytest.mark.parametrize("name", NAMES)
def test_conversion_stores_mindspores_bytes(name):
    dt = getattr(ms, name)
    np.testing.assert_array_equal(stored(Tensor(DATA["inputs"], dt)), DATA[f"{name}|bytes"])
    np.testing.assert_array_equal(stored(Tensor(np.arange(-300, 301, 7, dtype=np.int32), dt)),
                                  DATA[f"{name}|bytes_from_int"])
    np.testing.assert_array_equal(stored(Tensor([0.1, -2.7, 300.0, 1e-3, 7.0], dt)), DATA[f"{name}|bytes_from_list"])


@pytest.mark.parametrize("name", NAMES)
def test_dtype_and_printing_as_mindspore(name):
    dt, want = getattr(ms, name), META["repr"][name]
    assert repr(dt) == want["dtype"] and str(dt) == want["str"]
    assert (dt in ms.dtype.float_type) == want["float_type"] and dt.is_float == want["is_floating_point"]
    assert Tensor([1.0], dt).itemsize == want["itemsize"]
    assert repr(Tensor([0.1, -2.7, 300.0, 1e-3, 7.0, float("nan"), float("-inf"), -1e6], dt)) == want["vec"]
    assert repr(Tensor([[1.0, 2.5], [3.0, -0.5]], dt)) == want["mat"]
    assert repr(Tensor(2.5, dt)) == want["scalar"]
    assert repr(Tensor(np.zeros((0,), np.float32), dt)) == want["empty"]


def test_hifloat8_decodes_every_pattern_it_encodes():
    """Every byte MindSpore produced decodes (printing) to a value that encodes back to the same byte."""
    from sprout.core.float8 import hif8_encode, hif8_values

    seen = np.unique(DATA["hifloat8|bytes"])
    values = hif8_values()[seen]
    back = hif8_encode(values).view(np.uint8)
    np.testing.assert_array_equal(back[~np.isnan(values)], seen[~np.isnan(values)])
    assert len(seen) > 200


CALLS = {"add": lambda t, dt: t + t, "neg": lambda t, dt: -t, "cast": lambda t, dt: ops.cast(t, ms.float32),
         "cast_to": lambda t, dt: ops.cast(Tensor([1.0], ms.float32), dt), "astype": lambda t, dt: t.astype(ms.float32),
         "zeros": lambda t, dt: ops.zeros((2,), dt), "mul_scalar": lambda t, dt: ops.mul(t, 2.0),
         "reshape": lambda t, dt: t.reshape(2, 1), "getitem": lambda t, dt: t[0]}
OP_NAMES = {"add": "Add", "neg": "Neg", "cast": "Cast", "cast_to": "Cast", "astype": "Cast", "zeros": "Fill",
            "mul_scalar": "Mul", "reshape": "Reshape", "getitem": "GetItem"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("name", NAMES)
def test_every_op_refuses_them_as_mindspore_cpu(name, call, mode):
    """MindSpore 2.10's CPU kernels raise TypeError for every op on (or producing) an 8-bit float; sprout raises
    TypeError naming the op and the dtype, eagerly and in both captures."""
    assert META["refused"][name][call].startswith("TypeError")
    dt = getattr(ms, name)
    t = Tensor([1.0, 2.5], dt)
    with pytest.raises(TypeError, match=f"{OP_NAMES[call]}: {dt} tensors are not supported on CPU"):
        run_in_mode(lambda x: CALLS[call](x, dt), [t], mode)


@pytest.mark.parametrize("name", NAMES)
def test_host_reads_refused_copies_kept(name):
    dt = getattr(ms, name)
    t = Tensor([1.0, 2.5], dt)
    for read in ("item", "tolist"):
        assert META["refused"][name][read].startswith("TypeError")
        with pytest.raises(TypeError, match=f"Tensor.{read}: {dt} tensors are not supported"):
            getattr(Tensor([1.5], dt), read)()
    with pytest.raises(TypeError, match="is a Cast"):
        Tensor(t, ms.float32)
    p = ms.Parameter(t, name="w")
    assert p.dtype is dt and repr(Tensor(t)) == repr(t)
    np.testing.assert_array_equal(stored(p), stored(t))
