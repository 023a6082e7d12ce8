"""Dataset throughput: JPEG images/s through ImageFolderDataset + map with 1 and 2 workers (threads, processes),
and MindSpore's pipeline on the same files when its venv is there. Run: python bench/bench_dataset.py [--quick]

D1 decode only (vision.Decode); D2 the ImageNet training transform (RandomCropDecodeResize(224), random flip,
Normalize, HWC2CHW). Images: 224x224 JPEG (quality 90), generated. Each configuration runs one full pass per
round, rounds interleaved across configurations; the table gives the median images/s and the load average.
On a loaded machine the measured speed-up of processes says little, so the table also gives what two
processes reach on free cores, from the CPU time per image (one worker's, and the main process's with two
worker processes)."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
MSPY = "/work/msvenv/bin/python"

CONFIGS = [("1 worker", 1, False), ("2 threads", 2, False), ("2 processes", 2, True)]

_MS_SCRIPT = """
import json, sys, time, statistics
import mindspore.dataset as ds, mindspore.dataset.vision as V
root, rounds = sys.argv[1], int(sys.argv[2])
def ops(kind):
    if kind == "D1":
        return [V.Decode()]
    return [V.RandomCropDecodeResize(224), V.RandomHorizontalFlip(),
            V.Normalize([123.7, 116.3, 103.5], [58.4, 57.1, 57.4]), V.HWC2CHW()]
out = {}
for kind in ("D1", "D2"):
    for w in (1, 2):
        rates = []
        for _ in range(rounds):
            d = ds.ImageFolderDataset(root, shuffle=False, num_parallel_workers=1).map(
                ops(kind), "image", num_parallel_workers=w)
            t = time.perf_counter(); n = sum(1 for _ in d.create_tuple_iterator(output_numpy=True, num_epochs=1))
            rates.append(n / (time.perf_counter() - t))
        out[f"{kind} {w}"] = statistics.median(rates)
print(json.dumps(out))
"""


def make_images(root: str, n: int) -> None:
    from PIL import Image
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:224, 0:224]
    for c in range(2):
        os.makedirs(os.path.join(root, f"c{c}"), exist_ok=True)
        for i in range(n // 2):
            base = np.stack([(x * (c + 1) + i) % 256, (y * 2 + 3 * i) % 256, ((x + y) // 2) % 256], -1)
            img = np.clip(base + rng.normal(0, 25, base.shape), 0, 255).astype(np.uint8)
            Image.fromarray(img).save(os.path.join(root, f"c{c}", f"{i:04d}.jpg"), quality=90)


def pipeline(root: str, kind: str, workers: int, processes: bool):
    import sprout.dataset as ds
    import sprout.dataset.vision as V
    ops = [V.Decode()] if kind == "D1" else [
        V.RandomCropDecodeResize(224), V.RandomHorizontalFlip(),
        V.Normalize([123.7, 116.3, 103.5], [58.4, 57.1, 57.4]), V.HWC2CHW()]
    return ds.ImageFolderDataset(root, shuffle=False).map(ops, "image", num_parallel_workers=workers,
                                                          python_multiprocessing=processes)


def rate(data) -> tuple[float, float]:
    """(images/s, CPU ms the main process spent per image)."""
    start, cpu = time.perf_counter(), time.process_time()
    n = sum(1 for _ in data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    return n / (time.perf_counter() - start), (time.process_time() - cpu) * 1000 / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="32 images, 3 rounds")
    parser.add_argument("--images", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    n, rounds = (32, 3) if args.quick else (args.images, args.rounds)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as root:
        make_images(root, n)
        rates = {(k, c[0]): [] for k in ("D1", "D2") for c in CONFIGS}
        for _ in range(rounds):  # interleaved, so load changes hit every configuration alike
            for kind in ("D1", "D2"):
                for name, workers, processes in CONFIGS:
                    rates[(kind, name)].append(rate(pipeline(root, kind, workers, processes)))
        peer = {}
        if os.path.exists(MSPY):
            proc = subprocess.run([MSPY, "-c", _MS_SCRIPT, root, str(rounds)], capture_output=True, text=True,
                                  timeout=1800)
            if proc.returncode == 0:
                peer = json.loads(proc.stdout.strip().splitlines()[-1])
    load_after = os.getloadavg()
    print(f"{n} JPEG images 224x224, {rounds} rounds, {os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after\n")
    print("| workload | sprout 1 worker | sprout 2 threads | sprout 2 processes | speed-up (2 processes) "
          "| 2 processes on free cores | MindSpore 1 worker | MindSpore 2 workers |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, label in (("D1", "D1 decode"), ("D2", "D2 ImageNet train transform")):
        med = {name: statistics.median(r[0] for r in rates[(kind, name)]) for name, _, _ in CONFIGS}
        cpu = {name: statistics.median(r[1] for r in rates[(kind, name)]) for name, _, _ in CONFIGS}
        # what two processes reach when each gets a core: bounded by the workers' share of one worker's CPU
        # time per image and by the main process's CPU time per image (receiving rows)
        free = 1000.0 / max(cpu["1 worker"] / 2, cpu["2 processes"])
        ms_cols = [f"{peer[f'{kind} {w}']:.0f}" if peer else "-" for w in (1, 2)]
        print(f"| {label} (images/s) | {med['1 worker']:.0f} | {med['2 threads']:.0f} | {med['2 processes']:.0f} | "
              f"{med['2 processes'] / med['1 worker']:.2f}x | {free:.0f} ({free / (1000.0 / cpu['1 worker']):.2f}x; "
              f"main process {cpu['2 processes']:.2f} ms/image) | {ms_cols[0]} | {ms_cols[1]} |")


if __name__ == "__main__":
    main()
