"""``python -m sprout.msrun`` / ``sprout-msrun``: MindSpore's msrun launcher (same flags) driving MPICH's
``mpiexec``. Each rank gets msrun's environment (RANK_ID, RANK_SIZE, MS_WORKER_NUM, DEVICE_ID ...), its output in
``log_dir/worker_{rank}.log`` and BLAS threads capped to its share of the cores. One node: one mpiexec. Several
nodes: ``--hostfile`` (mpiexec over ssh from this node), or msrun's model of one launcher per node
(``--node_rank``): node 0 runs mpiexec with hydra's manual launcher and hands each node its proxy command."""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

# the rank's command with its stdout and stderr appended to its own log file
_TO_LOG = 'exec "$@" >>"$SPROUT_WORKER_LOG" 2>&1'
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")


def _bool_or_dict(value):
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        parsed = json.loads(value)
    except (TypeError, json.JSONDecodeError):
        raise argparse.ArgumentTypeError(f"expected True, False or a JSON dict, got {value!r}") from None
    if not isinstance(parsed, dict):
        raise argparse.ArgumentTypeError(f"expected True, False or a JSON dict, got {value!r}")
    return parsed


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m sprout.msrun",
                                description="Start a distributed sprout (or MindSpore) training job over MPI, with "
                                            "MindSpore msrun's flags.")
    p.add_argument("--worker_num", type=int, default=8, help="total number of processes (ranks)")
    p.add_argument("--local_worker_num", type=int, default=8, help="processes on this node")
    p.add_argument("--master_addr", default="127.0.0.1", help="address of node 0 (multi-node launch)")
    p.add_argument("--master_port", type=int, default=8118, help="port node 0 serves the node commands on")
    p.add_argument("--node_rank", type=int, default=-1, help="this node's index (multi-node launch)")
    p.add_argument("--log_dir", default="", help="directory of the worker_{rank}.log files (default: cwd)")
    p.add_argument("--join", type=ast.literal_eval, default=False, choices=[True, False],
                   help="wait for the job, show the worker logs and exit with its status (default False: return "
                        "after spawning)")
    p.add_argument("--cluster_time_out", type=int, default=600,
                   help="seconds for every node to join and every rank to reach init() (a rank waiting longer exits)")
    p.add_argument("--bind_core", type=_bool_or_dict, default=False,
                   help="True: pin each rank to cores; or a JSON dict {\"device0\": [\"0-1\"], ...}")
    p.add_argument("--bind_numa", type=_bool_or_dict, default=False, help="True: pin each rank to a NUMA node")
    p.add_argument("--sim_level", type=int, default=-1, choices=[-1, 0, 1, 2, 3], help=argparse.SUPPRESS)
    p.add_argument("--sim_rank_id", type=int, default=-1, help=argparse.SUPPRESS)
    p.add_argument("--rank_table_file", default="", help=argparse.SUPPRESS)
    p.add_argument("--worker_log_name", default="",
                   help="log file name stem instead of 'worker' ({ip} and {hostname} are replaced)")
    p.add_argument("--tail_worker_log", default="-1",
                   help="with --join True: the ranks whose logs are shown ('-1': all; '0,1': those)")
    p.add_argument("--hostfile", default="",
                   help="(sprout) MPICH hostfile: start every node's ranks from here over ssh")
    p.add_argument("task_script", help="the script (run with python -m sprout.run) or a command such as pytest")
    p.add_argument("task_script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    return p


def _check(args) -> None:
    if args.worker_num < 1 or args.local_worker_num < 1:
        raise ValueError("msrun: --worker_num and --local_worker_num must be positive")
    if args.local_worker_num > args.worker_num:
        raise ValueError(f"Total worker number is {args.worker_num}, but got exceeded local worker number: "
                         f"{args.local_worker_num}.")
    if args.sim_level != -1 or args.sim_rank_id != -1:
        raise RuntimeError("Dryrun is not supported on CPU device for a distributed job.")
    if args.rank_table_file:
        raise ValueError("msrun: --rank_table_file (Ascend rank tables) is not supported; ranks are assigned by MPI")
    if isinstance(args.bind_numa, dict):
        raise ValueError("msrun: --bind_numa with a JSON configuration is not supported; use True or False")
    multi = args.local_worker_num < args.worker_num
    if multi and args.worker_num % args.local_worker_num:
        raise ValueError("msrun: --worker_num must be a multiple of --local_worker_num (every node runs the same "
                         "number of ranks)")
    if multi and not args.hostfile and args.node_rank < 0:
        raise ValueError("msrun: a job over several nodes needs --node_rank on every node (or --hostfile on one)")
    if args.node_rank >= args.worker_num // args.local_worker_num:
        raise ValueError(f"msrun: --node_rank {args.node_rank} is not below the number of nodes "
                         f"{args.worker_num // args.local_worker_num}")
    if shutil.which("mpiexec") is None:
        raise RuntimeError("msrun: mpiexec was not found on PATH; install sprout's 'dist' extra (mpi4py and the "
                           "MPICH wheel)")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _log_stem(args) -> str:
    if not args.worker_log_name:
        return "worker"
    name = args.worker_log_name.replace("{hostname}", socket.gethostname())
    if "{ip}" in name:
        name = name.replace("{ip}", _local_ip(args.master_addr))
    return name


def _local_ip(master: str) -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((master, 9))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def _task(args) -> list:
    script = args.task_script
    if script.endswith(".py"):
        return [sys.executable, "-m", "sprout.run", script] + list(args.task_script_args)
    return [script] + list(args.task_script_args)


def _core_list(spec: list) -> str:
    cores = []
    for item in spec:
        for part in re.sub(r"\s+", "", str(item)).split(","):
            lo, _, hi = part.partition("-")
            cores.extend(range(int(lo), int(hi or lo) + 1))
    return ",".join(str(c) for c in cores)


def build_command(args, log_dir: str) -> tuple[list, dict]:
    """The mpiexec command line (MPMD form: one section per rank with its own RANK_ID/DEVICE_ID) and the
    environment shared by every rank."""
    n, local = args.worker_num, args.local_worker_num
    env = {"MS_ROLE": "MS_WORKER", "MS_WORKER_NUM": str(n), "RANK_SIZE": str(n), "MS_SCHED_HOST": args.master_addr,
           "MS_SCHED_PORT": str(args.master_port), "MS_TOPO_TIMEOUT": str(args.cluster_time_out),
           "LOCAL_RANK_SIZE": str(local)}
    threads = str(max(1, _cores() // local))
    for var in _THREAD_VARS:  # D4: two ranks with two BLAS threads each on two cores ran 26x slower
        env[var] = os.environ.get(var, threads)
    stem = os.path.join(log_dir, _log_stem(args))
    # one node: each rank writes its log file itself (nothing of a failing rank's last words can be lost in
    # hydra's forwarding when the job is torn down); over several nodes hydra forwards every rank's output here
    direct = local == n and not args.hostfile
    cmd = ["mpiexec", "-print-all-exitcodes"]
    if not direct:
        cmd += ["-outfile-pattern", f"{stem}_%r.log", "-errfile-pattern", f"{stem}_%r.log"]
    if args.hostfile:
        cmd += ["-f", args.hostfile, "-ppn", str(local)]
    elif local < n:
        cmd += ["-launcher", "manual", "-hosts", ",".join(f"sprout-node{k}" for k in range(n // local)),
                "-ppn", str(local)]
    if args.bind_core is True:
        cmd += ["-bind-to", "core"]
    elif args.bind_numa is True:
        cmd += ["-bind-to", "numa"]
    for key, value in env.items():
        cmd += ["-genv", key, value]
    task = _task(args)
    for r in range(n):
        if r:
            cmd.append(":")
        local_rank = r % local
        cmd += ["-n", "1", "-env", "RANK_ID", str(r), "-env", "DEVICE_ID", str(local_rank), "-env", "MS_NODE_ID",
                str(r), "-env", "LOCAL_RANK", str(local_rank)]
        if direct:
            cmd += ["-env", "SPROUT_WORKER_LOG", f"{stem}_{r}.log", "sh", "-c", _TO_LOG, "sh"]
        if isinstance(args.bind_core, dict):
            cores = args.bind_core.get(f"device{local_rank}")
            if cores is None:
                raise ValueError(f"msrun: --bind_core gives no cores for device{local_rank}")
            cmd += ["taskset", "-c", _core_list(cores)]
        cmd += task
    return cmd, env


class _Tail(threading.Thread):
    """Copy new lines of the worker logs to the console while the job runs (msrun --join True)."""

    def __init__(self, paths: list):
        super().__init__(daemon=True)
        self.paths, self.stop = paths, threading.Event()

    def run(self) -> None:
        offsets = dict.fromkeys(self.paths, 0)
        while True:
            done = self.stop.is_set()
            for path in self.paths:
                try:
                    with open(path, "rb") as f:
                        f.seek(offsets[path])
                        chunk = f.read()
                except OSError:
                    continue
                if chunk:
                    offsets[path] += len(chunk)
                    sys.stdout.write(chunk.decode(errors="replace"))
                    sys.stdout.flush()
            if done:
                return
            self.stop.wait(0.1)


def _suppress():
    import contextlib

    return contextlib.suppress(OSError)


def _signal(proc: subprocess.Popen, sig) -> None:
    if proc.poll() is None:
        with _suppress():
            os.kill(proc.pid, sig)


def _kill_group(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        with _suppress():
            os.killpg(proc.pid, signal.SIGKILL)


def _exit_codes(text: str, n: int) -> list | None:
    """Per-rank exit codes from hydra's ``Exit codes: [host] a,b  [host] c`` line (in rank order)."""
    m = re.search(r"Exit codes:(.*)", text)
    if not m:
        return None
    codes = [int(c) for c in re.findall(r"-?\d+", re.sub(r"\[[^\]]*\]", "", m.group(1)))]
    return [c >> 8 if c > 255 else c for c in codes][:n] if len(codes) >= n else None


def _aborts(log_paths: list) -> list:
    """(rank, code) of every rank whose log says it called MPI_Abort (an uncaught exception, the watchdog)."""
    found = []
    for path in log_paths:
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for code, rank in re.findall(r"Abort\((\d+)\) on node \d+ \(rank (\d+) in comm 0\)", text):
            found.append((int(rank), int(code)))
        # sprout's excepthook says so before it calls MPI_Abort(1) (the line MPICH prints may come after the kill)
        found.extend((int(rank), 1) for rank in re.findall(r"^\[rank (\d+)\] uncaught \w+: ending the whole job",
                                                           text, re.M))
    return sorted(set(found))


def _summary(codes: list | None, aborts: list, rc: int) -> str:
    parts = [f"rank {r}: ended the job (MPI_Abort {c})" for r, c in aborts]
    if codes is not None and not aborts:
        parts += [f"rank {r}: exited {c}" for r, c in enumerate(codes) if c]
    return "; ".join(parts) or f"the job ended with exit code {rc}"


def _serve_nodes(args, commands: dict, deadline: float) -> None:
    """Node 0: hand node k its hydra proxy command (one line) on master_port."""
    pending = {k: v for k, v in commands.items() if k != 0}
    with socket.create_server(("", args.master_port), reuse_port=False) as srv:
        srv.settimeout(1.0)
        while pending and time.monotonic() < deadline:
            try:
                conn, _ = srv.accept()
            except TimeoutError:
                continue
            with conn:
                node = int(conn.recv(64).decode().strip() or -1)
                cmd = pending.pop(node, None)
                conn.sendall((cmd or "").encode() + b"\n")
    if pending:
        raise RuntimeError(f"msrun: nodes {sorted(pending)} did not join within --cluster_time_out "
                           f"{args.cluster_time_out}s")


def _fetch_command(args) -> str:
    deadline = time.monotonic() + args.cluster_time_out
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((args.master_addr, args.master_port), timeout=5) as s:
                s.sendall(f"{args.node_rank}\n".encode())
                data = b""
                while not data.endswith(b"\n"):
                    part = s.recv(4096)
                    if not part:
                        break
                    data += part
            if data.strip():
                return data.decode().strip()
            raise RuntimeError(f"msrun: node 0 has no command for node {args.node_rank}")
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"msrun: could not reach node 0 at {args.master_addr}:{args.master_port} within "
                       f"--cluster_time_out {args.cluster_time_out}s")


def _start_manual(args, cmd: list, env: dict, log_paths: list) -> subprocess.Popen:
    """Node 0 of a --node_rank launch: mpiexec prints one proxy command per node; run ours, serve the rest."""
    hydra = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    commands: dict = {}
    for line in hydra.stdout:
        if line.startswith("HYDRA_LAUNCH_END"):
            break
        if line.startswith("HYDRA_LAUNCH:"):
            text = line.split(":", 1)[1].strip()
            text = re.sub(r"--control-port \S+?:(\d+)", rf"--control-port {args.master_addr}:\1", text)
            commands[int(re.search(r"--proxy-id (\d+)", text).group(1))] = text
    hydra._sprout_lines = []
    threading.Thread(target=lambda: hydra._sprout_lines.extend(hydra.stdout), daemon=True).start()
    threading.Thread(target=lambda: hydra._sprout_lines.extend(hydra.stderr), daemon=True).start()
    proxy = subprocess.Popen(commands[0].split(), env=env, start_new_session=True)
    threading.Thread(target=_serve_nodes, args=(args, commands, time.monotonic() + args.cluster_time_out),
                     daemon=True).start()
    hydra._sprout_proxy = proxy
    return hydra


def run(args) -> int:
    _check(args)
    log_dir = os.path.abspath(args.log_dir or os.getcwd())
    os.makedirs(log_dir, exist_ok=True)
    stem = os.path.join(log_dir, _log_stem(args))
    if args.local_worker_num < args.worker_num and not args.hostfile and args.node_rank > 0:
        command = _fetch_command(args)  # a node other than 0: run the proxy node 0 handed us
        print(f"msrun: node {args.node_rank} joins the job of {args.master_addr}:{args.master_port}", flush=True)
        return subprocess.call(command.split())
    cmd, extra = build_command(args, log_dir)
    env = dict(os.environ, **extra)
    ranks = range(args.worker_num)  # hydra forwards every rank's output to this node's log files
    log_paths = [f"{stem}_{r}.log" for r in ranks]
    for path in log_paths:  # hydra writes over an old log in place: start each run with empty files
        open(path, "w").close()
    for r, path in zip(ranks, log_paths):
        print(f"Start worker process with rank id:{r}, log file:{path}. Environment variable [RANK_ID={r}] is "
              f"exported.", flush=True)
    if args.local_worker_num < args.worker_num and not args.hostfile:
        proc = _start_manual(args, cmd, env, log_paths)
    elif not args.join:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(log_dir, "mpiexec.log"), "w"), start_new_session=True)
        print(f"msrun: the job runs in the background (mpiexec pid {proc.pid}); its launcher messages go to "
              f"{os.path.join(log_dir, 'mpiexec.log')}", flush=True)
        return 0
    else:
        # mpiexec's own messages (exit codes) go to a file: a rank left over in its own session must not keep the
        # launcher waiting on a pipe after mpiexec has ended
        out = open(os.path.join(log_dir, "mpiexec.log"), "w+")
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        proc._sprout_output = out
    return _join(args, proc, ranks, log_paths, log_dir)


def _launcher_text(proc: subprocess.Popen) -> str:
    if getattr(proc, "_sprout_output", None) is not None:
        proc._sprout_output.seek(0)
        return proc._sprout_output.read()
    return "".join(getattr(proc, "_sprout_lines", []))


def _join(args, proc: subprocess.Popen, ranks, log_paths: list, log_dir: str) -> int:
    shown = [p for r, p in zip(ranks, log_paths)
             if args.tail_worker_log == "-1" or str(r) in args.tail_worker_log.split(",")] if args.join else []

    def interrupt():  # hydra passes Ctrl-C on to every rank (a second one forces it); SIGKILL as the last resort
        for delay in (0.5, 1.5):
            threading.Timer(delay, _signal, (proc, signal.SIGINT)).start()
        threading.Timer(4.0, _kill_group, (proc,)).start()

    tail = _Tail(shown)
    tail.start()

    def forward(sig, frame):  # Ctrl+C / kill: end the whole job, not only the launcher
        interrupt()

    old = signal.signal(signal.SIGINT, forward), signal.signal(signal.SIGTERM, forward)
    try:
        proc.wait()
    finally:
        signal.signal(signal.SIGINT, old[0])
        signal.signal(signal.SIGTERM, old[1])
        tail.stop.set()
        tail.join()
    proxy = getattr(proc, "_sprout_proxy", None)
    if proxy is not None:
        proxy.wait()
    rc = proc.returncode
    if rc == 0:
        return 0
    codes = _exit_codes(_launcher_text(proc), args.worker_num)
    summary = _summary(codes, _aborts(log_paths), rc)
    sys.stderr.write(f"msrun: Distributed job exited with exception ({summary}). Please check logs in "
                     f"directory: {log_dir}.\n")
    return rc if rc > 0 else 1


def main(argv: list | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except (ValueError, RuntimeError) as exc:
        sys.stderr.write(f"msrun: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
