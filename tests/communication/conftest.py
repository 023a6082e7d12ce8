"""Fixtures for the distributed tests: a fresh (uninitialized) communication state for the calling thread,
clean parallel contexts, and ``mpirun``: a real ``mpiexec -n N`` job under a hard timeout."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import sprout as ms
from sprout import context
from sprout.communication.state import CommState, set_thread_state

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = Path(__file__).resolve().parent / "scripts"


@pytest.fixture
def fresh_comm():
    """This thread sees an uninitialized communication state (the process's stays as it was)."""
    set_thread_state(CommState(env={}))
    try:
        yield
    finally:
        set_thread_state(None)


@pytest.fixture(autouse=True)
def _clean_contexts():
    yield
    context.reset_auto_parallel_context()
    context.reset_algo_parameters()
    ms.set_context(mode=ms.PYNATIVE_MODE, comm_timeout=300.0, comm_check=True)


def run_job(cmd: list, timeout: float, cwd=None, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``cmd`` (an mpiexec / launcher command) in its own process group; on timeout kill the whole group
    (mpiexec ignores SIGTERM while ranks hang) and fail."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env.update(env_extra or {})
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{' '.join(cmd)} did not end within {timeout}s\nstdout:\n{out}\nstderr:\n{err}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@pytest.fixture
def mpirun(tmp_path):
    """``mpirun(n, script, *args, timeout=...)`` runs ``tests/communication/scripts/<script>`` on n ranks."""
    def run(n: int, script: str, *args, timeout: float = 30.0, env: dict | None = None):
        cmd = ["mpiexec", "-n", str(n), sys.executable, str(SCRIPTS / script), *map(str, args)]
        return run_job(cmd, timeout, cwd=tmp_path, env_extra=env)

    return run
