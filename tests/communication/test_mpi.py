"""Real MPI jobs (``mpiexec -n 2`` / ``-n 4`` and the msrun launcher), each under a hard timeout: results
bitwise equal to the simulated mesh, failures that end the job with the culprit named, and an unmodified
MindSpore data-parallel script trained by 2 workers equal to one process."""
import re
import shutil
import sys
import time

import numpy as np
import pytest

from .conftest import SCRIPTS, run_job

pytestmark = pytest.mark.skipif(shutil.which("mpiexec") is None, reason="MPICH's mpiexec is not installed")


def _load(path):
    with np.load(path) as f:
        return [f[k] for k in sorted(f.files, key=lambda k: int(k.split("_")[1]))]


@pytest.mark.parametrize("n", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_collectives_are_bitwise_equal_to_the_simulated_mesh(mpirun, tmp_path, n):
    res = mpirun(n, "collectives.py", tmp_path / "mpi.npz", timeout=60)
    assert res.returncode == 0, res.stderr
    sim = run_job([sys.executable, str(SCRIPTS / "collectives.py"), "--simulate", str(n), str(tmp_path / "sim.npz")],
                  60)
    assert sim.returncode == 0, sim.stderr
    got, want = _load(tmp_path / "mpi.npz"), _load(tmp_path / "sim.npz")
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, i
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


def test_a_rank_that_raises_ends_the_job_at_once_with_its_traceback(mpirun):
    res = mpirun(2, "failures.py", "raise", timeout=30)
    assert res.returncode != 0
    assert "[rank 1] ValueError: boom on rank 1" in res.stderr
    assert "ending the whole job" in res.stderr
    raised = float(res.stdout.split("rank 1 raises at")[1].split()[0])
    assert time.time() - raised < 10  # the job ended (plain MPI would hang here until the test's timeout)


def test_a_hung_rank_is_named_by_the_others(mpirun):
    res = mpirun(2, "failures.py", "hang", timeout=40)
    assert res.returncode != 0
    assert "[rank 0] AllReduce #2 waited" in res.stderr
    assert "ranks not yet in it: [1] (rank 1: last in AllReduce #1" in res.stderr


def test_a_rank_that_exits_early_is_named(mpirun):
    res = mpirun(2, "failures.py", "exit", env={"TEST_COMM_TIMEOUT": "60"}, timeout=40)
    assert res.returncode != 0
    assert "ranks [1] exited while this rank waits in AllReduce #2" in res.stderr


@pytest.mark.parametrize("mode,rank1", [("shape", "float32[3]"), ("dtype", "float64[4]")])
def test_mismatched_buffers_raise_on_every_rank(mpirun, mode, rank1):
    res = mpirun(2, "failures.py", mode, timeout=30)
    assert res.returncode != 0
    text = f"rank 0: AllReduce float32[4] (op='sum') (#2); rank 1: AllReduce {rank1}"
    assert "[rank 0] sprout.communication.state.CollectiveMismatchError: AllReduce #2" in res.stderr
    assert text in res.stderr


def test_msrun_trains_an_unmodified_mindspore_script_like_one_process(tmp_path):
    cmd = [sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2", "--join", "True",
           "--log_dir", str(tmp_path / "logs"), str(SCRIPTS / "dp_train.py"), str(tmp_path / "dp")]
    res = run_job(cmd, 90, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["mpiexec.log", "worker_0.log", "worker_1.log"]
    one = run_job([sys.executable, "-m", "sprout.run", str(SCRIPTS / "dp_train.py"), str(tmp_path / "one")], 90,
                  cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    w0, w1, single = (_load(tmp_path / f"{name}.npz") for name in ("dp_rank0", "dp_rank1", "one_rank0"))
    for a, b, s in zip(w0, w1, single):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, s, rtol=1e-5, atol=1e-6)


def test_msrun_reports_the_failed_rank(tmp_path):
    """No timing assumption: each rank writes its own log file, so the failing rank's traceback and MPI_Abort line
    are on disk before the job is torn down (the timeout only guards against a hang)."""
    cmd = [sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2", "--join", "True",
           "--log_dir", str(tmp_path / "logs"), str(SCRIPTS / "failures.py"), "raise"]
    res = run_job(cmd, 180, cwd=tmp_path)
    assert res.returncode != 0
    assert "rank 1: ended the job (MPI_Abort 1)" in res.stderr
    assert "boom on rank 1" in (tmp_path / "logs" / "worker_1.log").read_text()
    assert "boom on rank 1" in res.stdout  # --join True shows the worker logs


def test_parallel_optimizer_under_mpiexec_gives_the_weights_of_plain_data_parallel(tmp_path):
    """Model.train of the unmodified script with enable_parallel_optimizer: real ReduceScatter / AllGather."""
    for tag, extra in (("plain", []), ("sharded", ["parallel_optimizer"])):
        cmd = ["mpiexec", "-n", "2", sys.executable, "-m", "sprout.run", str(SCRIPTS / "dp_train.py"),
               str(tmp_path / tag), *extra]
        res = run_job(cmd, 120, cwd=tmp_path)
        assert res.returncode == 0, res.stdout + res.stderr
    for r in (0, 1):
        for a, b in zip(_load(tmp_path / f"plain_rank{r}.npz"), _load(tmp_path / f"sharded_rank{r}.npz")):
            np.testing.assert_array_equal(a, b)


@pytest.mark.slow
def test_msrun_over_a_hostfile_and_per_node_launch_on_loopback(tmp_path):
    (tmp_path / "hosts").write_text("127.0.0.1:1\nlocalhost:1\n")
    script = tmp_path / "hello.py"
    script.write_text("import os\nimport numpy as np\nimport mindspore as ms\nfrom mindspore import ops\n"
                      "from mindspore.communication import init, get_rank\ninit()\n"
                      "x = ops.AllReduce()(ms.Tensor(np.ones(2, np.float32) * (get_rank() + 1)))\n"
                      "print('rank', get_rank(), os.environ['RANK_ID'], os.environ['DEVICE_ID'], x.asnumpy().sum())\n")
    base = [sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "1", "--join", "True"]
    res = run_job(base + ["--hostfile", str(tmp_path / "hosts"), "--log_dir", str(tmp_path / "a"), str(script)], 60,
                  cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "rank 0 0 0 6.0" in res.stdout and "rank 1 1 0 6.0" in res.stdout
    import subprocess
    import os
    node1 = subprocess.Popen(base + ["--node_rank", "1", "--master_port", "8347", str(script)], cwd=tmp_path,
                             env=dict(os.environ, PYTHONPATH=str(SCRIPTS.parents[2])), start_new_session=True)
    try:
        res = run_job(base + ["--node_rank", "0", "--master_port", "8347", "--log_dir", str(tmp_path / "b"),
                              str(script)], 60, cwd=tmp_path)
        assert node1.wait(timeout=30) == 0
    finally:
        if node1.poll() is None:
            os.killpg(node1.pid, 9)
    assert res.returncode == 0, res.stderr
    assert "rank 1 1 0 6.0" in (tmp_path / "b" / "worker_1.log").read_text()


@pytest.mark.parametrize("n", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_shard_training_under_mpiexec_equals_one_process_and_its_sliced_checkpoints_merge(tmp_path, n):
    """Semi-auto parallel with sharded MatMuls under ``mpiexec -n N``: weights equal the one-process run on every
    rank; each rank saved its slices (integrated_save=False); transform_checkpoints merges them back."""
    import sprout as ms

    script = str(SCRIPTS / "shard_train.py")
    res = run_job(["mpiexec", "-n", str(n), sys.executable, "-m", "sprout.run", script, str(tmp_path / "mpi"),
                   str(tmp_path / "ckpt")], 90, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    one = run_job([sys.executable, "-m", "sprout.run", script, str(tmp_path / "one"), str(tmp_path / "one_ckpt")],
                  60, cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    want = np.load(tmp_path / "one_rank0.npz")
    for r in range(n):
        got = np.load(tmp_path / f"mpi_rank{r}.npz")
        for k in want.files:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=f"rank {r} {k}")
    ckpt = tmp_path / "ckpt"
    w1 = ms.load_checkpoint(str(ckpt / "rank_0" / "net.ckpt"))["w1"].asnumpy()
    assert w1.shape == (8, 16 // n)  # the column block of rank 0
    ms.transform_checkpoints(str(ckpt), str(tmp_path / "merged"), "net", str(ckpt / "strategy.json"), None)
    merged = ms.load_checkpoint(str(tmp_path / "merged" / "rank_0" / "net0.ckpt"))
    for k, name in zip(("arr_0", "arr_1", "arr_2"), ("w1", "b1", "w2")):
        np.testing.assert_allclose(merged[name].asnumpy(), want[k], rtol=1e-5, atol=1e-6, err_msg=name)


def test_plain_mpiexec_caps_blas_threads_per_rank_unless_the_user_set_them(tmp_path):
    import os
    import subprocess

    from sprout.communication.blas import blas_threads, cores

    if blas_threads() is None or cores() < 2:
        pytest.skip("NumPy's BLAS is not OpenBLAS, or one core (nothing to cap)")
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                                             "MKL_NUM_THREADS")}
    env["PYTHONPATH"] = str(SCRIPTS.parents[2])
    cmd = ["mpiexec", "-n", "2", sys.executable, str(SCRIPTS / "blas_threads.py")]
    for extra, want in (({}, max(1, cores() // 2)), ({"OPENBLAS_NUM_THREADS": str(cores())}, cores())):
        res = subprocess.run(cmd, env=dict(env, **extra), capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert res.returncode == 0, res.stderr
        found = sorted(re.findall(r"rank (\d+) blas (\d+) cores (\d+)", res.stdout))  # hydra may join the lines
        assert found == [(str(r), str(want), str(cores())) for r in (0, 1)], res.stdout
