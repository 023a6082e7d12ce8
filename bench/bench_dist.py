"""Distributed figures (issue 12): data-parallel W4 MLP step (784-512-512-10, SGD, softmax CE) on 2 ranks vs one
process at the same global batch, the gradient all-reduce per step (default buckets vs one bucket vs one
all-reduce per tensor, and the bare in-place MPI all-reduce of the same bytes), the local CPU cost of each bucketing
(one process, CPU time: usable on a loaded machine), collective overhead over raw mpi4py, and the wall time of
launching 2 workers that init() and all-reduce once, and a semi-auto parallel (``shard``) MLP step: batch split
only, and MatMuls split Megatron-style (column then row), against one process.
Run: python bench/bench_dist.py [--steps 60] [--only dp,...]
Prints the load (uptime) with the table: the machine may be shared."""
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

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
sys.path.insert(0, _ROOT)


# ---- workers (run inside the jobs) ---------------------------------------------------------------------------
_SPENT = {"check": 0.0, "coll": 0.0, "n": 0}  # per step: wall time in the signature checks / in the MPI calls


def _time_collectives() -> None:
    """Wrap the collectives' entry so a step's time splits into the cross-rank signature checks, the MPI calls
    themselves (including the wait for the other rank) and the rest (compute, copies, Python)."""
    from sprout.communication import collective

    check, run = collective._check, collective.run

    def timed_check(*a):
        t0 = time.perf_counter()
        same_plan = check(*a)
        _SPENT["check"] += time.perf_counter() - t0
        return same_plan

    def timed_run(kind, group, x, attrs, call, site=None):
        def timed_call(b):
            t0 = time.perf_counter()
            out = call(b)
            _SPENT["coll"] += time.perf_counter() - t0
            _SPENT["n"] += 1
            return out

        return run(kind, group, x, attrs, timed_call, site)

    collective._check, collective.run = timed_check, timed_run


def _median_step(step, x, y, warm: int, steps: int, cpu: list | None = None, parts: dict | None = None) -> float:
    """Median wall time of a step; ``cpu`` (if given) receives the median CPU time of this process per step
    (robust to a shared machine: it excludes the time the rank was not scheduled, though not MPI's busy wait);
    ``parts`` the median wall time per step in the signature checks and in the MPI calls (``_time_collectives``)."""
    for _ in range(warm):
        step(x, y)
    times, cpus, checks, colls = [], [], [], []
    for _ in range(steps):
        _SPENT.update(check=0.0, coll=0.0, n=0)
        c0, t0 = time.process_time(), time.perf_counter()
        step(x, y)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        checks.append(_SPENT["check"])
        colls.append(_SPENT["coll"])
    if cpu is not None:
        cpu.append(statistics.median(cpus))
    if parts is not None:
        parts.update(check=statistics.median(checks), coll=statistics.median(colls), ncoll=_SPENT["n"])
    return statistics.median(times)


def _dp_worker(batch: int, steps: int, fusion: int) -> dict:
    """fusion: 1 = the default ("auto": big gradients alone, small ones packed), 2 = one packed bucket (comm_fusion
    size 64 MB), 0 = one all-reduce per gradient (comm_fusion openstate False), 3 = no reducer (each rank trains on
    its half alone: the compute of a data-parallel step without its communication), 4 = the default without the
    cross-rank signature checks (set_context(comm_check=False))."""
    import sprout as ms
    from sprout import context, nn
    from sprout.communication import collective, get_group_size, get_rank, init

    ms.set_context(mode=ms.GRAPH_MODE, comm_check=fusion != 4)
    init()
    n, r = get_group_size(), get_rank()
    _time_collectives()
    if n > 1 and fusion != 3:
        context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    if fusion == 0:
        context.set_auto_parallel_context(comm_fusion={"openstate": False})
    elif fusion == 2:
        context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 64}})
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.01))
    rng = np.random.default_rng(r)
    x = ms.Tensor(rng.standard_normal((batch // n, 784)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch // n).astype(np.int32))
    cpu: list = []
    parts: dict = {}
    out = {"step": _median_step(step, x, y, 10, steps, cpu, parts), "cpu": cpu[0], **parts}
    if n > 1 and fusion != 3:  # the bare all-reduce of the gradient bytes, in place, as the reducer's bucket does it
        grad = np.zeros(sum(p.size for p in net.trainable_params()), np.float32)
        backend = collective.current().groups["mccl_world_group"].backend
        samples = []
        for _ in range(steps):
            backend.barrier()
            t0 = time.perf_counter()
            backend.allreduce(grad, "sum")
            samples.append(time.perf_counter() - t0)
        out["allreduce_raw"] = statistics.median(samples)
        samples = []
        g = ms.Tensor(grad)
        for _ in range(steps):
            backend.barrier()
            t0 = time.perf_counter()
            ms.ops.AllReduce()(g)
            samples.append(time.perf_counter() - t0)
        out["allreduce_op"] = statistics.median(samples)
        grads = [ms.Tensor(np.zeros(p.shape, np.float32)) for p in net.trainable_params()]
        reducer = step.grad_reducer
        samples = []
        for _ in range(steps):
            backend.barrier()
            t0 = time.perf_counter()
            reducer(tuple(grads))
            samples.append(time.perf_counter() - t0)
        out["reducer_eager"] = statistics.median(samples)
    if n > 1:
        every = collective.allgather_object(out, "hccl_world_group")
        out = {k: max(e[k] for e in every) for k in out}  # the time of a step is the slowest rank's
    return out if r == 0 else {}


def _reducer_worker(batch: int, steps: int, _unused: int) -> dict:
    """CPU time (process_time, robust to a shared machine) of the W4 DP step in one process, data parallel over a
    world of one: what each bucketing costs locally (packing, scaling, unpacking), without any communication."""
    import sprout as ms
    from sprout import context, nn
    from sprout.communication import init

    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    configs = {"default": {}, "one bucket": {"comm_fusion": {"allreduce": {"mode": "size", "config": 64}}},
               "per tensor": {"comm_fusion": {"openstate": False}}, "no reducer": None}
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((batch, 784)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))
    cells = {}
    for name, cfg in configs.items():
        context.reset_auto_parallel_context()
        if cfg is not None:
            context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, **cfg)
        ms.set_seed(0)
        net = nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10)])
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        cells[name] = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), 0.01))
    for _ in range(5):
        for cell in cells.values():
            cell(x, y)
    samples: dict = {name: [] for name in cells}
    for _ in range(steps):  # interleaved, so a change of load hits every variant alike
        for name, cell in cells.items():
            t0 = time.process_time()
            cell(x, y)
            samples[name].append(time.process_time() - t0)
    return {name: statistics.median(v) for name, v in samples.items()}


def _shard_worker(batch: int, steps: int, split: int) -> dict:
    """A 784-512-512-10 MLP of MatMul primitives trained by TrainOneStepCell (SGD, MSE) under semi-auto parallel:
    ``split`` 0 = batch split only (data parallel through the SPMD pass), 1 = first MatMul's weight split by
    columns, second by rows (one AllReduce of the partial sums), batch split as well."""
    import sprout as ms
    from sprout import context, nn, ops
    from sprout.communication import collective, get_group_size, get_rank, init

    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    n, r = get_group_size(), get_rank()
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel")

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(0)
            self.w1 = ms.Parameter(ms.Tensor(rng.standard_normal((784, 512)).astype(np.float32) * 0.03), "w1")
            self.w2 = ms.Parameter(ms.Tensor(rng.standard_normal((512, 512)).astype(np.float32) * 0.04), "w2")
            self.w3 = ms.Parameter(ms.Tensor(rng.standard_normal((512, 10)).astype(np.float32) * 0.04), "w3")
            self.mm1, self.mm2, self.mm3, self.relu = ops.MatMul(), ops.MatMul(), ops.MatMul(), ops.ReLU()
            if split and n > 1:
                self.mm1.shard(((1, 1), (1, n)))
                self.mm2.shard(((1, n), (n, 1)))

        def construct(self, x):
            return self.mm3(self.relu(self.mm2(self.relu(self.mm1(x, self.w1)), self.w2)), self.w3)

    net = MLP()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    rng = np.random.default_rng(r)
    x = ms.Tensor(rng.standard_normal((batch // n, 784)).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((batch // n, 10)).astype(np.float32))
    out = {"step": _median_step(step, x, y, 5, steps)}
    if n > 1:
        every = collective.allgather_object(out, "hccl_world_group")
        out = {k: max(e[k] for e in every) for k in out}
    return out if r == 0 else {}


def _latency_worker(steps: int) -> dict:
    import sprout as ms
    from mpi4py import MPI

    from sprout.communication import init

    init()
    comm = MPI.COMM_WORLD
    out = {}
    for size in (1024, 1 << 18):
        buf = np.ones(size, np.float32)
        t = ms.Tensor(buf)
        raw, op = [], []
        for _ in range(steps * 5):
            comm.Barrier()
            t0 = time.perf_counter()
            comm.Allreduce(MPI.IN_PLACE, buf, MPI.SUM)
            raw.append(time.perf_counter() - t0)
            comm.Barrier()
            t0 = time.perf_counter()
            ms.ops.AllReduce()(t)
            op.append(time.perf_counter() - t0)
        out[f"raw_{size * 4}"] = statistics.median(raw)
        out[f"op_{size * 4}"] = statistics.median(op)
    every = comm.allgather(out)
    return {k: max(e[k] for e in every) for k in out} if comm.rank == 0 else {}


# ---- driver ----------------------------------------------------------------------------------------------------
def _job(cmd: list, threads: int) -> dict:
    env = dict(os.environ, PYTHONPATH=_ROOT, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1])


def _worker_cmd(*args) -> list:
    return [sys.executable, os.path.abspath(__file__), "--worker", *map(str, args)]


def _ms(s: float) -> str:
    return f"{s * 1e3:.2f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} us"


def _table(header: list, rows: list) -> None:
    print("\n| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def bench_dp(steps: int) -> list:
    rows = []
    cpu_rows = []
    parts_rows = []
    for batch in (64, 256, 1024):
        one2 = _job(_worker_cmd("dp", batch, steps, 1), threads=2)["step"]
        one1_res = _job(_worker_cmd("dp", batch, steps, 1), threads=1)
        one1 = one1_res["step"]
        half = _job(_worker_cmd("dp", batch // 2, steps, 1), threads=1)
        alone = _job(["mpiexec", "-n", "2"] + _worker_cmd("dp", batch, steps, 3), threads=1)
        two = _job(["mpiexec", "-n", "2"] + _worker_cmd("dp", batch, steps, 1), threads=1)
        cpu_rows.append([f"global batch {batch}", _ms(one1_res["cpu"]), _ms(half["cpu"]), _ms(alone["cpu"]),
                         _ms(two["cpu"]), _ms(two["cpu"] - alone["cpu"])])
        per = _job(["mpiexec", "-n", "2"] + _worker_cmd("dp", batch, steps, 0), threads=1)
        one_bucket = _job(["mpiexec", "-n", "2"] + _worker_cmd("dp", batch, steps, 2), threads=1)
        unchecked = _job(["mpiexec", "-n", "2"] + _worker_cmd("dp", batch, steps, 4), threads=1)
        for name, res in (("default buckets", two), ("one bucket", one_bucket), ("per tensor", per),
                          ("default, comm_check=False", unchecked)):
            parts_rows.append([f"global batch {batch}, {name}", _ms(res["step"]), _ms(res["cpu"]), str(res["ncoll"]),
                               _ms(res["check"]), _ms(res["coll"]), _ms(res["step"] - res["check"] - res["coll"]),
                               _ms(alone["step"])])
        rows.append([f"W4 DP step, global batch {batch}", _ms(one2), _ms(one1), _ms(two["step"]),
                     f"{one2 / two['step']:.2f}x", f"{one1 / two['step']:.2f}x", _ms(per["step"]),
                     _ms(one_bucket["step"]), _ms(two["reducer_eager"]), _ms(two["allreduce_op"]),
                     _ms(two["allreduce_raw"])])
    _table(["workload", "1 proc, 2 BLAS threads", "1 proc, 1 thread", "2 ranks x 1 thread (default buckets)",
            "speed-up vs 2 threads", "vs 1 thread", "2 ranks, all-reduce per tensor", "2 ranks, one bucket",
            "reducer call (eager)", "AllReduce op, 2.55 MiB", "raw in-place MPI all-reduce"], rows)
    _table(["W4 DP, CPU time per step (process_time; the slowest rank)", "1 proc, 1 thread, whole batch",
            "1 proc, 1 thread, half batch", "2 ranks, no reducer (compute only)", "2 ranks, data parallel",
            "DP's CPU cost per rank (incl. MPI's busy wait)"], cpu_rows)
    _table(["W4 DP step on 2 ranks, where a step's wall time goes (medians; the slowest rank's)", "step", "CPU",
            "collectives", "signature checks", "inside MPI calls (incl. waiting for the other rank)",
            "the rest (compute, copies, Python)", "2 ranks without reducer"], parts_rows)
    return rows


def bench_shard(steps: int) -> list:
    rows = []
    for batch in (64, 256):
        one = _job(_worker_cmd("shard", batch, steps, 0), threads=2)["step"]
        one1 = _job(_worker_cmd("shard", batch, steps, 0), threads=1)["step"]
        dp = _job(["mpiexec", "-n", "2"] + _worker_cmd("shard", batch, steps, 0), threads=1)["step"]
        mp = _job(["mpiexec", "-n", "2"] + _worker_cmd("shard", batch, steps, 1), threads=1)["step"]
        rows.append([f"MLP 784-512-512-10 step, batch {batch}", _ms(one), _ms(one1), _ms(dp), _ms(mp),
                     f"{one / dp:.2f}x / {one1 / dp:.2f}x", f"{one / mp:.2f}x / {one1 / mp:.2f}x"])
    print("| workload (semi-auto parallel) | 1 proc, 2 BLAS threads | 1 proc, 1 thread | 2 ranks, batch split | "
          "2 ranks, MatMuls split (column, row) + batch | speed-up batch split (vs 2 / 1 threads) | speed-up MatMul "
          "split (vs 2 / 1 threads) |")
    print("|" + " --- |" * 7)
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return rows


def bench_reducer(steps: int) -> None:
    print("| W4 DP step, 1 process, 1 thread, CPU time (reducer over a world of one) | default buckets | one bucket "
          "| all-reduce per tensor | no reducer |")
    print("|" + " --- |" * 5)
    for batch in (256, 1024):
        res = _job(_worker_cmd("reducer", batch, steps, 0), threads=1)
        print(f"| batch {batch} | " + " | ".join(_ms(res[k]) for k in ("default", "one bucket", "per tensor",
                                                                        "no reducer")) + " |")


def bench_latency(steps: int) -> None:
    res = _job(["mpiexec", "-n", "2"] + _worker_cmd("latency", steps, 0, 0), threads=1)
    print("| all-reduce (2 ranks) | raw mpi4py in place | sprout ops.AllReduce (checked, eager) | overhead |")
    print("| --- | --- | --- | --- |")
    for size in (4096, 1 << 20):
        raw, op = res[f"raw_{size}"], res[f"op_{size}"]
        print(f"| {size // 1024} KiB | {_ms(raw)} | {_ms(op)} | {_ms(op - raw)} |")


def bench_launch(repeat: int) -> None:
    """Wall time of starting 2 workers that init() and all-reduce once, and CPU time (user + sys, children
    included: robust to a loaded machine). Twice: sprout imported from this checkout as it is, and from a copy
    compiled to bytecode first (``compileall``, what ``pip install`` does). Under PYTHONDONTWRITEBYTECODE=1 a
    checkout never gets ``__pycache__``, so every process compiles all of sprout's modules from source: about 2/3 of
    ``import sprout`` (2026-12-06: 0.45 s vs 0.16 s CPU at load 13)."""
    import resource
    import shutil
    import compileall

    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "hello.py")
        with open(script, "w") as f:
            f.write("import numpy as np\nimport sprout as ms\nfrom sprout.communication import init\ninit()\n"
                    "ms.ops.AllReduce()(ms.Tensor(np.ones(4, np.float32)))\n")
        compiled = os.path.join(tmp, "compiled")
        shutil.copytree(os.path.join(_ROOT, "sprout"), os.path.join(compiled, "sprout"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(os.path.join(compiled, "sprout"), quiet=1)
        cmds = {"python -m sprout.msrun, 2 workers (--join True)":
                [sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2", "--join",
                 "True", "--log_dir", tmp, script],
                "mpiexec -n 2 python script.py": ["mpiexec", "-n", "2", sys.executable, script],
                "python -c 'import sprout' (one process)": [sys.executable, "-c", "import sprout"]}
        rows = {(name, where): ([], []) for name in cmds for where in ("source", "bytecode")}
        for _ in range(repeat):  # interleaved, so a change of load hits every variant alike
            for name, cmd in cmds.items():
                for where, path in (("source", _ROOT), ("bytecode", compiled)):
                    env = dict(os.environ, PYTHONPATH=path)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t0 = time.perf_counter()
                    subprocess.run(cmd, env=env, capture_output=True, check=True, cwd=tmp, timeout=120)
                    rows[name, where][0].append(time.perf_counter() - t0)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    rows[name, where][1].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        print(f"| launch (init + one all-reduce; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE')})"
              " | sprout from | median wall | min wall | median CPU (all processes) |")
        print("| --- | --- | --- | --- | --- |")
        for (name, where), (walls, cpus) in rows.items():
            print(f"| {name} | {where} | {statistics.median(walls):.2f} s | {min(walls):.2f} s | "
                  f"{statistics.median(cpus):.2f} s |")


def bench_failures(repeat: int) -> None:
    """Seconds from a rank's uncaught exception (rank 1 raises while rank 0 waits in an all-reduce) to the end of
    the whole job, and from a hung rank's timeout (comm_timeout 1 s) to the end."""
    script = os.path.join(_ROOT, "tests", "communication", "scripts", "failures.py")
    env = dict(os.environ, PYTHONPATH=_ROOT, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", TEST_COMM_TIMEOUT="1")
    raised, hung = [], []
    for _ in range(repeat):
        proc = subprocess.run(["mpiexec", "-n", "2", sys.executable, script, "raise"], env=env, capture_output=True,
                              text=True, timeout=120)
        end = time.time()
        raised.append(end - float(proc.stdout.split("rank 1 raises at")[1].split()[0]))
        t0 = time.time()
        subprocess.run(["mpiexec", "-n", "2", sys.executable, script, "hang"], env=env, capture_output=True,
                       timeout=120)
        hung.append(time.time() - t0)
    print("| failure (2 ranks) | median | max |")
    print("| --- | --- | --- |")
    print(f"| a rank raises -> whole job ended | {_ms(statistics.median(raised))} | {_ms(max(raised))} |")
    print(f"| a rank hangs, comm_timeout 1 s -> job ended (wall incl. start-up) | {statistics.median(hung):.2f} s | "
          f"{max(hung):.2f} s |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        kind, a, b, c = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        if kind == "shard":
            out = _shard_worker(a, b, c)
        elif kind == "reducer":
            out = _reducer_worker(a, b, c)
        else:
            out = _dp_worker(a, b, c) if kind == "dp" else _latency_worker(a)
        if out:
            print(json.dumps(out), flush=True)
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--only", default="reducer,dp,latency,launch,failures,shard")
    args = p.parse_args()
    only = set(args.only.split(","))
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min average), {os.cpu_count()} cores")
    if "launch" in only:
        bench_launch(5)
    if "latency" in only:
        bench_latency(args.steps)
    if "failures" in only:
        bench_failures(3)
    if "reducer" in only:
        bench_reducer(args.steps)
    if "dp" in only:
        bench_dp(args.steps)
    if "shard" in only:
        bench_shard(args.steps)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
