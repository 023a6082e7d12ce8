"""MindIR interchange between sprout and MindSpore 2.10.

    /work/msvenv/bin/python tools/mindir_oracle.py make DIR    MindSpore exports lenet / mlp / resnet / mixed
                                  into DIR/<name>.mindir with DIR/<name>_io.npz (inputs, MindSpore's outputs)
    python tools/mindir_oracle.py write DIR                    sprout exports the same nets the same way
    /work/msvenv/bin/python tools/mindir_oracle.py check DIR   MindSpore loads every DIR/*.mindir, runs it with
                                  nn.GraphCell and compares with the stored outputs (exit 1 on a mismatch)
"""
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from export_nets import NAMES, build, load_io, save_io  # noqa: E402


def _export_all(ms, out_dir, who):
    os.makedirs(out_dir, exist_ok=True)
    for name in NAMES:
        net, xs = build(ms, name)
        ys = net(*xs)
        ms.export(net, *xs, file_name=os.path.join(out_dir, name), file_format="MINDIR")
        save_io(os.path.join(out_dir, f"{name}_io.npz"), xs, ys)
        print(name, "exported by", who)


def make(out_dir):
    import mindspore as ms

    _export_all(ms, out_dir, "MindSpore")


def check(in_dir):
    import mindspore as ms
    from mindspore import nn

    bad = 0
    for path in sorted(glob.glob(os.path.join(in_dir, "*.mindir"))):
        xs, want = load_io(path[:-len(".mindir")] + "_io.npz")
        cell = nn.GraphCell(ms.load(path))
        got = cell(*[ms.Tensor(x) for x in xs])
        got = [g.asnumpy() for g in (got if isinstance(got, (tuple, list)) else (got,))]
        err = max(float(np.max(np.abs(g - y))) if g.size else 0.0 for g, y in zip(got, want))
        ok = len(got) == len(want) and all(g.shape == y.shape and np.allclose(g, y, rtol=1e-4, atol=1e-5)
                                           for g, y in zip(got, want))
        bad += not ok
        print(f"{os.path.basename(path)}: MindSpore gives {len(got)} output(s), max |diff| vs sprout {err:.3g} "
              f"{'OK' if ok else 'MISMATCH'}")
    sys.exit(1 if bad else 0)


def write(out_dir):
    """sprout's side (run with sprout's Python): export the same nets from sprout into DIR for ``check``."""
    import sprout as ms

    _export_all(ms, out_dir, "sprout")


if __name__ == "__main__":
    {"make": make, "check": check, "write": write}[sys.argv[1]](sys.argv[2])
