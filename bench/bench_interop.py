"""Issue 13's inter-op lever measured on W4-W6: sprout jit O1 on one stream against two streams
(``inter_op_parallel_num=2``: compile-time fork/join schedule, row-split GEMMs, BLAS at cores // 2 threads), with
hand-written NumPy as the baseline, rounds interleaved in one process; medians of wall and process CPU time per
step, the load before and after, and whether the two schedules' results are bitwise equal. A third contestant
("2 streams, worker forced") makes every join wait until the worker has taken its task: its main thread's CPU time
per step (``time.thread_time``) is the critical path, a lower bound of the step's wall time on two free cores
when the machine has none to measure it on.
NumPy and the one-stream step run twice: with OpenBLAS at the thread count the process started with and at 1 thread
(what the two-stream mode sets), so the streams are also compared at equal BLAS settings. After a contestant that ran
OpenBLAS on more threads, sampling waits ``--settle`` seconds: OpenBLAS's idle helper threads spin for about 2^28
cycles after their last job, and that tail would otherwise be charged to the next contestant (docs/performance.md).
Run: python bench/bench_interop.py [--only W4,W6] [--rounds 15] [--settle 0.3]"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))
sys.path.insert(0, _HERE)

import sprout as ms  # noqa: E402
import numpy_ref as ref  # noqa: E402
import workloads  # noqa: E402
from sprout.backend import pool  # noqa: E402
from sprout.communication.blas import _openblas, blas_threads  # noqa: E402


def _prepare(w: str, streams: int):
    ms.set_context(inter_op_parallel_num=streams)
    p = workloads.WORKLOADS[w]("O1")
    p.step()  # compile under this setting
    return p


def _prepare_forced(w: str):
    """W on two streams with every join waiting for the worker to take its task: compiled while the pool's join is
    the patient one (generated code binds it), and run with it (``matmul_rows`` looks it up at each call) and with
    the back-off cleared."""
    from tests.backend.stream_forcing import patient_join

    real = pool.join
    pool.join = patient_join
    try:
        p = _prepare(w, 2)
    finally:
        pool.join = real
    step = p.step

    def run():
        pool.join, pool._skip, pool._misses = patient_join, 0, 0
        try:
            return step()
        finally:
            pool.join = real
    p.step = run
    return p


def _sample(step, n: int) -> tuple[float, float, float]:
    w, c, m = time.perf_counter(), time.process_time(), time.thread_time()
    for _ in range(n):
        step()
    return (time.perf_counter() - w) / n, (time.process_time() - c) / n, (time.thread_time() - m) / n


def run(w: str, rounds: int, settle: float) -> None:
    serial, two = _prepare(w, 1), _prepare(w, 2)
    equal = all(np.array_equal(a, b) for a, b in zip(serial.to_numpy(serial.step()), two.to_numpy(two.step())))
    base = ref.PREPARE[w]()
    forced = _prepare_forced(w)
    ms.set_context(inter_op_parallel_num=0)
    fns, start = _openblas(), blas_threads()
    # name: (step, streams, OpenBLAS threads to run it with; None: what the flag leaves)
    contestants = {"numpy": (base.step, 1, start), "numpy, BLAS 1": (base.step, 1, 1),
                   "sprout jit O1, 1 stream": (serial.step, 1, start),
                   "sprout jit O1, 1 stream, BLAS 1": (serial.step, 1, 1),
                   "sprout jit O1, 2 streams": (two.step, 2, None), "2 streams, worker forced": (forced.step, 2, None)}
    if start in (None, 1):  # nothing to compare: the BLAS-1 rows would repeat the others
        contestants = {k: v for k, v in contestants.items() if not k.endswith("BLAS 1")}
    if fns is not None:
        fns[0](1)  # calibrate on BLAS 1: at the default count a loaded machine makes one step cost 100x
    n = max(1, int(0.1 / max(1e-6, _sample(serial.step, 3)[0])))
    times: dict = {k: ([], [], []) for k in contestants}
    blas, last = {}, start
    for _ in range(rounds):
        for name, (step, streams, threads) in contestants.items():
            ms.set_context(inter_op_parallel_num=streams)
            if threads is not None and fns is not None:
                fns[0](threads)
            blas[name] = blas_threads()
            if last is not None and blas[name] is not None and blas[name] < last:
                time.sleep(settle)  # the helper threads' spin after the previous contestant's last call
            last = blas[name]
            for k, v in enumerate(_sample(step, n)):
                times[name][k].append(v)
    ms.set_context(inter_op_parallel_num=0)
    if fns is not None and start is not None:
        fns[0](start)
    stats = dict(pool.STATS)
    pool.STATS.update(dict.fromkeys(pool.STATS, 0))
    med = {k: tuple(statistics.median(x) for x in v) for k, v in times.items()}
    print(f"\n{w} ({n} steps per sample, {rounds} rounds; two-stream result bitwise equal to one stream: {equal})")
    for name, (wall, cpu, main) in med.items():
        print(f"  {name:<32} BLAS {blas[name]}  wall {wall * 1e3:8.3f} ms ({wall / med['numpy'][0]:.2f}x)"
              f"   cpu {cpu * 1e3:8.3f} ms ({cpu / med['numpy'][1]:.2f}x)"
              f"   main thread cpu {main * 1e3:8.3f} ms ({main / med['numpy'][1]:.2f}x)")
    print(f"  worker tasks: {stats}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="W4,W5,W6")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--settle", type=float, default=0.3, help="seconds to wait after lowering OpenBLAS's threads")
    args = ap.parse_args()
    print(f"load before {os.getloadavg()}, cores {os.cpu_count()}, OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS', '(default)')}")
    for w in args.only.split(","):
        run(w.strip(), args.rounds, args.settle)
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
