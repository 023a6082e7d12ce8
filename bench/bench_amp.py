"""Mixed precision: O2 (float16 compute) vs O0 (float32) training steps on the MLP (W4) and LeNet-5 (W5) workloads,
eager and jitted: median seconds per step, first step, and peak memory above the live set (tracemalloc).
Run: python bench/bench_amp.py [--quick]; the same on MindSpore: /work/msvenv/bin/python bench/bench_amp.py
--framework mindspore (PyNative and its jit; no memory figures). Rounds are interleaved across the four
contestants of a workload."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if "--framework" in sys.argv[:-1]:
    os.environ["BENCH_FRAMEWORK"] = sys.argv[sys.argv.index("--framework") + 1]
import workloads as W  # noqa: E402  (imports sprout as ms)
from common import Options, fmt_bytes, fmt_time, measure_group  # noqa: E402

ms, ref = W.ms, W.ref


def prepare(make_net, data, level: str, use_jit: bool):
    def build():
        x, y, params = data()
        net = make_net()
        amp_net = ms.amp.auto_mixed_precision(net, level)  # O2: float16 everywhere, float32 output
        step = W._train_step(amp_net, params, "" if use_jit else None)  # loss + SGD, jitted at the default level
        xt, yt = ms.Tensor(x), ms.Tensor(y)
        return W._prepared(lambda: step(xt, yt), state=W._state(net.trainable_params()))
    return build


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--framework", default="sprout", choices=("sprout", "mindspore"))
    args = parser.parse_args(argv)
    mindspore = W.FRAMEWORK == "mindspore"
    opts = Options(repeat=5 if args.quick else 11, budget=2.0 if args.quick else 6.0, memory=not mindspore)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{W.FRAMEWORK}; load before: {load}")
    for name, make_net, data in (("W4 MLP 784-512-512-10, batch 64", W.mlp_net, ref.mlp_data),
                                 ("W5 LeNet-5 32x32, batch 32", W.LeNet5, ref.lenet_data)):
        contestants = [(f"{mode} {level}", prepare(make_net, data, level, mode == "jit"), True)
                       for mode in ("eager", "jit") for level in ("O0", "O2")]
        result = measure_group(contestants, opts)
        print(f"\n{name}")
        print("| contestant | median step | first step | peak memory | loss after step 1 |")
        print("|---|---|---|---|---|")
        for label, m in result.items():
            loss = f"{float(np.asarray(m.arrays[0]).reshape(-1)[0]):.5f}" if m.arrays else "-"
            print(f"| {label} | {fmt_time(m.median)} | {fmt_time(m.first)} | {fmt_bytes(m.peak)} | {loss} |"
                  + (f" {m.error}" if m.error else ""))
        for mode in ("eager", "jit"):
            o0, o2 = result[f"{mode} O0"], result[f"{mode} O2"]
            if o0.median and o2.median:
                memory = f", O2 peak / O0 peak = {o2.peak / o0.peak:.2f}" if o0.peak and o2.peak else ""
                print(f"{mode}: O2 time / O0 time = {o2.median / o0.median:.2f}{memory}")
    print(f"\nload after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
