"""The fuzz harness's per-run limit counts the process's CPU time (a loaded machine does not make a slow program a
hang); a wall-clock backstop stops a run that waits without computing."""
import signal
import time

import pytest

from .harness import Hang, time_limit


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_busy_run_hits_the_cpu_limit():
    with pytest.raises(Hang, match="CPU time"):
        with time_limit(0.2, wall_s=120):
            _spin(60)


def test_waiting_uses_no_cpu_time():
    """1 s asleep is past a 0.2 s CPU limit in wall-clock terms only: no Hang."""
    before = time.process_time()
    with time_limit(0.2, wall_s=120):
        time.sleep(1.0)
    assert time.process_time() - before < 0.2


def test_a_wait_hits_the_wall_clock_backstop():
    with pytest.raises(Hang, match="wall-clock"):
        with time_limit(60, wall_s=0.3):
            time.sleep(30)


def test_handlers_and_timers_are_restored():
    old = signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)
    with time_limit(5):
        pass
    assert (signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)) == old
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
