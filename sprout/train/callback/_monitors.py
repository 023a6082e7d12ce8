"""LossMonitor, TimeMonitor (MindSpore's exact printed lines) and a ProgressBar callback."""
from __future__ import annotations

import math
import sys
import time

from ._callback import Callback, handle_loss


def _check_non_negative_int(owner: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{owner}: '{name}' must be a non-negative int, got {value!r}")
    return value


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps (0 disables it), and the
    evaluation metrics at the end of an epoch during ``Model.fit``. A NaN/inf loss raises ValueError."""

    def __init__(self, per_print_times=1):
        super().__init__()
        self._per_print_times = _check_non_negative_int("LossMonitor", "per_print_times", per_print_times)
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, training process "
                             "cannot continue, terminating training.")
        every = self._per_print_times
        if every == 0:
            return
        # a new train() call restarts cur_step_num: move the last print point back below it
        while cb_params.cur_step_num <= self._last_print_time:
            self._last_print_time -= max(every, cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
        if cb_params.cur_step_num - self._last_print_time >= every:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {int(cb_params.cur_epoch_num)}, metrics: {metrics}")


class TimeMonitor(Callback):
    """Print ``Train epoch time: T ms, per step time: P ms`` after each epoch (``Eval ...`` during
    evaluation). ``data_size`` is the step count used when cb_params has no ``batch_num``; with
    ``data_time=True`` the mean time spent waiting for data per step is appended."""

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        if data_size is not None:
            if isinstance(data_size, bool) or not isinstance(data_size, int) or data_size <= 0:
                raise ValueError(f"TimeMonitor: 'data_size' must be a positive int or None, got {data_size!r}")
        if not isinstance(data_time, bool):
            raise TypeError(f"TimeMonitor: 'data_time' must be a bool, got {type(data_time).__name__}")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context):
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        if self.data_time:
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        steps = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        if not isinstance(steps, int) or steps <= 0:
            raise ValueError("TimeMonitor: the number of steps per epoch is unknown; pass data_size")
        mode = cb_params.get("mode", "").title()
        line = f"{mode} epoch time: {epoch_ms:5.3f} ms, per step time: {epoch_ms / steps:5.3f} ms"
        if self.data_time:
            line += f" (data time: {self.data_time_sum * 1000 / steps:5.3f} ms)"
        print(line, flush=True)


class ProgressBar(Callback):
    """A per-epoch progress bar for training (sprout's own; MindSpore has none). Uses ``tqdm`` when it is
    installed (and ``use_tqdm`` is not False); otherwise writes a plain text bar to ``file`` (stderr by
    default), redrawn in place on a terminal and printed once per epoch otherwise."""

    def __init__(self, use_tqdm=None, file=None, width=30):
        super().__init__()
        self._file = file
        self._width = width
        self._tqdm = None
        if use_tqdm is not False:
            try:
                from tqdm import tqdm
                self._tqdm = tqdm
            except ImportError:
                if use_tqdm:
                    raise ImportError("ProgressBar(use_tqdm=True) needs the tqdm package") from None
        self._bar = None
        self._start = 0.0

    @property
    def uses_tqdm(self) -> bool:
        return self._tqdm is not None

    def _out(self):
        return self._file if self._file is not None else sys.stderr

    def on_train_epoch_begin(self, run_context):
        cb = run_context.original_args()
        self._start = time.time()
        desc = f"epoch {cb.cur_epoch_num}/{cb.get('epoch_num', '?')}"
        if self._tqdm is not None:
            self._bar = self._tqdm(total=cb.batch_num, desc=desc, file=self._out(), leave=True)

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss = handle_loss(cb.get("net_outputs"))
        if self._bar is not None:
            self._bar.update(1)
            if isinstance(loss, float):
                self._bar.set_postfix(loss=f"{loss:.4f}")
            return
        out = self._out()
        if getattr(out, "isatty", lambda: False)():
            out.write("\r" + self._text(cb, loss))
            out.flush()

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        if self._bar is not None:
            self._bar.close()
            self._bar = None
            return
        out = self._out()
        prefix = "\r" if getattr(out, "isatty", lambda: False)() else ""
        out.write(prefix + self._text(cb, handle_loss(cb.get("net_outputs"))) + "\n")
        out.flush()

    def _text(self, cb, loss) -> str:
        total = max(int(cb.batch_num), 1)
        done = (cb.cur_step_num - 1) % total + 1 if cb.cur_step_num else 0
        filled = int(self._width * done / total)
        bar = "=" * filled + ">" * (filled < self._width) + " " * (self._width - filled - 1)
        loss_text = f", loss {loss:.4f}" if isinstance(loss, float) else ""
        elapsed = time.time() - self._start
        return f"epoch {cb.cur_epoch_num}/{cb.get('epoch_num', '?')} [{bar}] {done}/{total}{loss_text}, {elapsed:.1f}s"
