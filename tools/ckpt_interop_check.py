"""Hand check that sprout and real MindSpore read each other's checkpoints (not used by the package or tests).

Usage (from the repository root, with MindSpore installed in a separate virtualenv):
    python tools/ckpt_interop_check.py [--ms-python /tmp/msvenv/bin/python]
    python tools/ckpt_interop_check.py --make-fixture tests/train/fixtures

The sprout side runs in this interpreter; the MindSpore side runs in a subprocess of the MindSpore venv,
so mindspore is never imported next to sprout.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sprout.train import serialization as ser

TYPES = {"Float16": np.float16, "Float32": np.float32, "Float64": np.float64, "Int8": np.int8, "Int16": np.int16,
         "Int32": np.int32, "Int64": np.int64, "UInt8": np.uint8, "Bool": np.bool_}

# Runs inside the MindSpore venv. argv: mode, directory.
MS_SCRIPT = r'''
import json, os, sys
import numpy as np
import mindspore as ms
from mindspore import nn, Parameter, Tensor
mode, d = sys.argv[1], sys.argv[2]

def describe(v):
    if isinstance(v, str):
        return {"str": v}
    a = v.asnumpy()
    return {"dtype": str(v.dtype), "shape": list(a.shape), "values": a.astype(np.float64).ravel().tolist()}

if mode == "load":  # load what sprout wrote and report it
    out = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".ckpt") or name.endswith(".safetensors"):
            fmt = "safetensors" if name.endswith(".safetensors") else "ckpt"
            params = ms.load_checkpoint(os.path.join(d, name), format=fmt, crc_check=("crc" in name))
            out[name] = {k: describe(v) for k, v in params.items()}
    net = nn.Dense(3, 2)
    not_loaded = ms.load_param_into_net(net, ms.load_checkpoint(os.path.join(d, "dense.ckpt")))
    out["dense_into_net"] = {"not_loaded": [list(x) for x in not_loaded],
                             "weight": net.weight.asnumpy().ravel().tolist()}
    # the same values saved by MindSpore, to compare bytes with sprout's file
    src = ms.load_checkpoint(os.path.join(d, "all_dtypes_crc.ckpt"), crc_check=True)
    src = [{"name": k, "data": v} for k, v in src.items()]
    ms.save_checkpoint(src, os.path.join(d, "ms_resaved.ckpt"))
    ms.save_checkpoint(src, os.path.join(d, "ms_resaved_crc.ckpt"), crc_check=True)
    ms.save_checkpoint(src, os.path.join(d, "ms_resaved.safetensors"), format="safetensors")
    print(json.dumps(out))
elif mode == "fixture":  # write the fixture: a real network plus append_dict entries
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2)
            self.steps = Parameter(Tensor(np.array([[1, -2], [300, -40000]], np.int32)), name="steps",
                                   requires_grad=False)
            self.half = Parameter(Tensor(np.array([0.5, -1.25, 65504.0], np.float16)), name="half")
            self.mask = Parameter(Tensor(np.array([True, False, True])), name="mask", requires_grad=False)
            self.codes = Parameter(Tensor(np.array([0, 7, 255], np.uint8)), name="codes", requires_grad=False)
    net = Net()
    net.dense.weight.set_data(Tensor(np.array([[0.1, -0.2, 0.3], [1.5, -2.5, 1e-7]], np.float32)))
    net.dense.bias.set_data(Tensor(np.array([0.25, -3.0], np.float32)))
    append = {"epoch_num": 7, "learning_rate": 0.125, "is_best": True, "tag": "mindspore-fixture"}
    ms.save_checkpoint(net, os.path.join(d, "ms_net.ckpt"), append_dict=append)
    ms.save_checkpoint(net, os.path.join(d, "ms_net_crc.ckpt"), crc_check=True)
    ms.save_checkpoint(net, os.path.join(d, "ms_net.safetensors"), format="safetensors")
    loaded = ms.load_checkpoint(os.path.join(d, "ms_net.ckpt"))
    expected = {k: describe(v) for k, v in loaded.items()}
    with open(os.path.join(d, "ms_net_expected.json"), "w") as f:
        json.dump({"mindspore_version": ms.__version__, "entries": expected}, f, indent=1)
    print("fixture written with MindSpore", ms.__version__)
'''


def _run_ms(ms_python: str, mode: str, directory: str) -> str:
    proc = subprocess.run([ms_python, "-c", MS_SCRIPT, mode, directory], capture_output=True, text=True,
                          check=False)
    if proc.returncode:
        sys.exit(f"MindSpore side failed:\n{proc.stderr[-3000:]}")
    return proc.stdout.strip().splitlines()[-1]


def _sample_values() -> dict:
    rng = np.random.default_rng(0)
    vals = {}
    for name, t in TYPES.items():
        if t is np.bool_:
            vals["p_" + name] = rng.random((2, 3)) > 0.5
        elif np.issubdtype(t, np.integer):
            info = np.iinfo(t)
            vals["p_" + name] = np.array([[info.min, -1 if info.min < 0 else 1, info.max], [0, 5, 9]], dtype=t)
        else:
            vals["p_" + name] = rng.standard_normal((2, 3)).astype(t)
    vals["scalar_f32"] = np.array(2.5, np.float32)
    vals["empty"] = np.zeros((0, 4), np.float32)
    return vals


def _compare(name, got, want):
    ok = isinstance(want, str) and got == {"str": want}
    if not isinstance(want, str):
        ok = (got["shape"] == list(want.shape) and got["dtype"] == ser._type_name(want.dtype)
              and np.array_equal(np.array(got["values"]), want.astype(np.float64).ravel()))
    print(f"  {'ok ' if ok else 'BAD'} {name}" + ("" if ok else f": {got}"))
    return ok


def check(ms_python: str) -> bool:
    good = True
    with tempfile.TemporaryDirectory() as d:
        vals = _sample_values()
        ser.save_checkpoint(vals, os.path.join(d, "all_dtypes.ckpt"),
                            append_dict={"epoch": 3, "lr": 0.5, "flag": True, "note": "sprout"})
        ser.save_checkpoint(vals, os.path.join(d, "all_dtypes_crc.ckpt"), crc_check=True)
        ser.save_checkpoint(vals, os.path.join(d, "all_dtypes.safetensors"), format="safetensors")
        big = {"big": np.arange(4000, dtype=np.float32).reshape(100, 40)}
        old, ser.SLICE_BYTES = ser.SLICE_BYTES, 1000  # force MindSpore-style slicing into several entries
        try:
            ser.save_checkpoint(big, os.path.join(d, "sliced.ckpt"))
        finally:
            ser.SLICE_BYTES = old
        dense = {"weight": np.arange(6, dtype=np.float32).reshape(2, 3), "bias": np.array([1, 2], np.float32)}
        ser.save_checkpoint(dense, os.path.join(d, "dense"))  # suffix added
        report = json.loads(_run_ms(ms_python, "load", d))

        expect_extra = {"epoch": np.array(3, np.int64), "lr": np.array(0.5, np.float32),
                        "flag": np.array(True), "note": "sprout"}
        for fname, want_all in [("all_dtypes.ckpt", {**vals, **expect_extra}), ("all_dtypes_crc.ckpt", vals),
                                ("all_dtypes.safetensors", vals), ("sliced.ckpt", big), ("dense.ckpt", dense)]:
            print(f"MindSpore loads sprout's {fname}:")
            got_all = report[fname]
            good &= set(got_all) == set(want_all)
            for name, want in want_all.items():
                good &= _compare(name, got_all.get(name, {}), want)
        net_report = report["dense_into_net"]
        ok = net_report["not_loaded"] == [[], []] and net_report["weight"] == list(range(6))
        print(f"  {'ok ' if ok else 'BAD'} load_param_into_net(nn.Dense(3, 2), ...)")
        good &= ok
        # MindSpore writes no entry at all for an empty tensor (sprout does) in a .ckpt, so leave it out there
        nonempty = {k: v for k, v in vals.items() if v.size}
        for fname, kwargs in [("resaved.ckpt", {}), ("resaved_crc.ckpt", {"crc_check": True}),
                              ("resaved.safetensors", {"format": "safetensors"})]:
            ser.save_checkpoint(vals if "format" in kwargs else nonempty, os.path.join(d, "sprout_" + fname), **kwargs)
            with open(os.path.join(d, "sprout_" + fname), "rb") as f_sp, open(os.path.join(d, "ms_" + fname),
                                                                              "rb") as f_ms:
                same = f_sp.read() == f_ms.read()
            print(f"  {'ok ' if same else 'BAD'} {fname}: sprout's bytes == MindSpore's bytes for the same tensors")
            good &= same
    return good


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ms-python", default="/tmp/msvenv/bin/python")
    ap.add_argument("--make-fixture", metavar="DIR")
    args = ap.parse_args()
    if args.make_fixture:
        os.makedirs(args.make_fixture, exist_ok=True)
        print(_run_ms(args.ms_python, "fixture", os.path.abspath(args.make_fixture)))
        return
    ok = check(args.ms_python)
    print("ALL OK" if ok else "MISMATCHES FOUND")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
