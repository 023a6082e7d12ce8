"""The launcher's command line and checks (no processes started, except one --join False job)."""
import shutil
import sys
import time
import tomllib
from pathlib import Path

import pytest

from sprout import msrun

from .conftest import ROOT, run_job


def _args(*argv):
    return msrun.parser().parse_args(list(argv))


def test_defaults_are_msruns():
    a = _args("train.py", "--lr", "0.1")
    assert (a.worker_num, a.local_worker_num, a.master_addr, a.master_port, a.node_rank, a.log_dir, a.join,
            a.cluster_time_out, a.bind_core, a.tail_worker_log) == (8, 8, "127.0.0.1", 8118, -1, "", False, 600,
                                                                    False, "-1")
    assert a.task_script_args == ["--lr", "0.1"]


def test_command_gives_each_rank_msruns_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    cmd, env = msrun.build_command(_args("--worker_num", "2", "--local_worker_num", "2", "--bind_core", "True",
                                         "train.py", "x"), str(tmp_path))
    assert cmd[:2] == ["mpiexec", "-print-all-exitcodes"] and "-outfile-pattern" not in cmd
    assert "-bind-to" in cmd
    sections = " ".join(cmd).split(" : ")
    assert "-env RANK_ID 1 -env DEVICE_ID 1" in sections[1]
    # one node: each rank appends its own output to its log file (no forwarding through hydra)
    assert f"-env SPROUT_WORKER_LOG {tmp_path}/worker_1.log sh -c {msrun._TO_LOG} sh" in sections[1]
    assert sections[1].endswith(f"{sys.executable} -m sprout.run train.py x")
    assert env["RANK_SIZE"] == env["MS_WORKER_NUM"] == "2" and env["MS_ROLE"] == "MS_WORKER"
    assert env["OPENBLAS_NUM_THREADS"] == str(max(1, msrun._cores() // 2))
    cmd, _ = msrun.build_command(_args("--worker_num", "2", "--local_worker_num", "2", "--bind_core",
                                       '{"device0": ["0"], "device1": ["1-1"]}', "pytest", "-q"), str(tmp_path))
    assert "taskset -c 1 pytest -q" in " ".join(cmd)
    cmd, _ = msrun.build_command(_args("--worker_num", "4", "--local_worker_num", "2", "--node_rank", "0",
                                       "t.py"), str(tmp_path))
    assert ["-launcher", "manual"] == cmd[cmd.index("-launcher"):cmd.index("-launcher") + 2]
    assert cmd[2:4] == ["-outfile-pattern", f"{tmp_path}/worker_%r.log"]  # several nodes: hydra forwards the logs


@pytest.mark.parametrize("argv,text", [
    (("--worker_num", "2", "--local_worker_num", "4", "t.py"), "exceeded local worker number"),
    (("--worker_num", "4", "--local_worker_num", "2", "t.py"), "needs --node_rank"),
    (("--worker_num", "5", "--local_worker_num", "2", "--node_rank", "0", "t.py"), "multiple"),
    (("--sim_level", "1", "t.py"), "Dryrun is not supported"),
    (("--rank_table_file", "r.json", "t.py"), "rank_table_file"),
])
def test_bad_launches(argv, text):
    with pytest.raises((ValueError, RuntimeError), match=text):
        msrun._check(_args(*argv))


def test_exit_code_parsing():
    assert msrun._exit_codes("[mpiexec@vm] Exit codes: [vm] 0,768\n", 2) == [0, 3]
    assert msrun._exit_codes("nothing", 2) is None
    assert msrun._summary([0, 3], [], 3) == "rank 1: exited 3"
    assert msrun._summary(None, [(1, 1)], 1) == "rank 1: ended the job (MPI_Abort 1)"


def test_aborting_ranks_are_read_from_their_logs(tmp_path):
    logs = [tmp_path / "worker_0.log", tmp_path / "worker_1.log", tmp_path / "worker_2.log"]
    logs[0].write_text("training\n")
    logs[1].write_text("[rank 1] ValueError: boom\n[rank 1] uncaught ValueError: ending the whole job (MPI_Abort)\n")
    logs[2].write_text("Abort(3) on node 2 (rank 2 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 3)\n")
    assert msrun._aborts([str(p) for p in logs] + [str(tmp_path / "missing.log")]) == [(1, 1), (2, 3)]


def test_console_script_is_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["sprout-msrun"] == "sprout.msrun:main"


@pytest.mark.skipif(shutil.which("mpiexec") is None, reason="MPICH's mpiexec is not installed")
def test_join_false_returns_before_the_job_ends(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import time\nfrom sprout.communication import init, get_rank\ninit()\ntime.sleep(1.5)\n"
                      "print('finished', get_rank(), flush=True)\n")
    t0 = time.monotonic()
    res = run_job([sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2",
                   "--log_dir", str(tmp_path / "logs"), str(script)], 30, cwd=tmp_path)
    assert res.returncode == 0 and "runs in the background" in res.stdout
    log = Path(tmp_path / "logs" / "worker_1.log")
    deadline = t0 + 30
    while "finished 1" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "finished 1" in log.read_text()


def test_the_launcher_process_does_not_import_sprout():
    from sprout._launch import launcher_process

    assert launcher_process(["-m", "--worker_num", "2"], ["python", "-X", "importtime", "-m", "sprout.msrun", "t.py"])
    assert not launcher_process(["-m", "t.py"], ["python", "-m", "sprout.run", "t.py"])
    assert launcher_process(["/venv/bin/sprout-msrun", "t.py"], ["python", "/venv/bin/sprout-msrun", "t.py"])
    assert not launcher_process(["train.py"], ["python", "train.py"])
    res = run_job([sys.executable, "-X", "importtime", "-m", "sprout.msrun", "--help"], 60)
    assert res.returncode == 0 and "--worker_num" in res.stdout
    assert "sprout.msrun" in res.stderr and "sprout.ops" not in res.stderr and "numpy" not in res.stderr
