"""Regenerate tests/core/data/float8_oracle.npz with real MindSpore 2.10 (CPU):
    /work/msvenv/bin/python tools/ms_oracle_float8.py
For ms.float8_e4m3fn, ms.float8_e5m2 and ms.hifloat8: the stored byte of every input value (Tensor(values, dtype)
converted by MindSpore), the repr of a few tensors, and the exception type and message of the ops MindSpore's CPU
refuses on them. tests/core/test_float8.py compares sprout with these."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

OUT = Path(__file__).resolve().parents[1] / "tests" / "core" / "data" / "float8_oracle.npz"
DTYPES = {"float8_e4m3fn": ms.float8_e4m3fn, "float8_e5m2": ms.float8_e5m2, "hifloat8": ms.hifloat8}


def inputs() -> np.ndarray:
    rng = np.random.default_rng(8)
    mags = np.exp2(rng.uniform(-28, 18, 4000))
    grid = np.concatenate([mags, -mags, np.arange(-600, 601), np.exp2(np.arange(-30, 20, 0.25)),
                           [0.0, -0.0, np.inf, -np.inf, np.nan, 448, 464, 480, 57344, 61440, 2.0 ** 15,
                            2.0 ** 15 * 1.01]])
    return grid.astype(np.float32)


def stored_bytes(t) -> np.ndarray:
    return np.frombuffer(t.asnumpy().tobytes(), np.uint8).copy()


CALLS = {"add": "t + t", "neg": "-t", "cast": "ops.cast(t, ms.float32)",
         "cast_to": "ops.cast(Tensor([1.0], ms.float32), dt)", "astype": "t.astype(ms.float32)",
         "zeros": "ops.zeros((2,), dt)", "mul_scalar": "ops.mul(t, 2.0)",
         "item": "t[0:1].item()", "tolist": "t.tolist()", "reshape": "t.reshape(2, 1)", "getitem": "t[0]"}


def one_call(name: str, call: str) -> str:
    """``call`` in a fresh process: MindSpore runs PyNative ops asynchronously and an op's error is raised again by
    every later op of the process."""
    dt = DTYPES[name]
    t = Tensor([1.0, 2.5], dt)
    try:
        repr(eval(CALLS[call], {"t": t, "dt": dt, "ms": ms, "ops": ops, "Tensor": Tensor}))  # noqa: S307
        return "ok"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"


def refusals(name: str) -> dict:
    out = {}
    for call in CALLS:
        run = subprocess.run([sys.executable, __file__, name, call], capture_output=True, text=True, check=True)
        out[call] = run.stdout.strip().splitlines()[-1]
    return out


def main():
    x = inputs()
    store = {"inputs": x}
    reprs, refused = {}, {}
    for name, dt in DTYPES.items():
        store[f"{name}|bytes"] = stored_bytes(Tensor(x, dt))
        store[f"{name}|bytes_from_int"] = stored_bytes(Tensor(np.arange(-300, 301, 7, dtype=np.int32), dt))
        store[f"{name}|bytes_from_list"] = stored_bytes(Tensor([0.1, -2.7, 300.0, 1e-3, 7.0], dt))
        reprs[name] = {"vec": repr(Tensor([0.1, -2.7, 300.0, 1e-3, 7.0, float("nan"), float("-inf"), -1e6], dt)),
                       "mat": repr(Tensor([[1.0, 2.5], [3.0, -0.5]], dt)), "scalar": repr(Tensor(2.5, dt)),
                       "empty": repr(Tensor(np.zeros((0,), np.float32), dt)), "dtype": repr(dt), "str": str(dt),
                       "float_type": dt in ms.dtype.float_type, "itemsize": Tensor([1.0], dt).itemsize,
                       "is_floating_point": dt.is_floating_point}
        refused[name] = refusals(name)
    store["meta"] = np.array(json.dumps({"repr": reprs, "refused": refused}))
    np.savez_compressed(OUT, **store)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    if len(sys.argv) == 3:
        print(one_call(*sys.argv[1:]))
    else:
        main()
