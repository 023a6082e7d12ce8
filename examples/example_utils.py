"""Pieces the example scripts share: epoch timing (a Model callback and a plain training loop) and the speed report."""
import time

import numpy as np

from sprout.train import Callback  # from mindspore.train import Callback


class EpochTimer(Callback):
    """Records the wall-clock and CPU time of every epoch (with Model.fit: training plus the validation pass)."""

    def __init__(self):
        super().__init__()
        self.times = []

    def on_train_epoch_begin(self, run_context):
        self._start = (time.perf_counter(), time.process_time())

    def on_train_epoch_end(self, run_context):
        self.times.append((time.perf_counter() - self._start[0], time.process_time() - self._start[1]))


def train_epochs(step, train_data, epochs, name):
    """Run ``step(x, y) -> loss`` over ``train_data`` for ``epochs`` epochs, printing the mean loss and wall time of
    each; returns the per-epoch wall-clock seconds."""
    times = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = [float(step(x, y).asnumpy()) for x, y in train_data.create_tuple_iterator()]
        times.append(time.perf_counter() - start)
        print(f"[{name}] epoch {epoch}: loss {np.mean(losses):.4f} ({times[-1] * 1000:.0f} ms)")
    return times


def report_speed(first, t_first, second, t_second, faster, slower):
    """Print the first epoch (it includes compilation) and the median of the others, wall clock and CPU time."""
    t1, t2 = np.array(t_first), np.array(t_second)  # one row per epoch: (wall seconds, CPU seconds)
    m1 = np.median(t1[1:] if len(t1) > 1 else t1, axis=0)
    m2 = np.median(t2[1:] if len(t2) > 1 else t2, axis=0)
    print(f"first epoch: {first} {t1[0, 0] * 1e3:.1f} ms, {second} {t2[0, 0] * 1e3:.1f} ms (includes compilation)")
    print(f"median epoch: {first} {m1[0] * 1e3:.1f} ms, {second} {m2[0] * 1e3:.1f} ms "
          f"-> {faster} is {m1[0] / m2[0]:.2f}x {slower}")
    # CPU time of this process: less disturbed by other programs on a busy machine
    print(f"median epoch CPU time: {first} {m1[1] * 1e3:.1f} ms, {second} {m2[1] * 1e3:.1f} ms "
          f"-> {faster} is {m1[1] / m2[1]:.2f}x {slower}")
    return m1, m2
