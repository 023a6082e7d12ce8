"""The remaining experimental schedulers: SequentialLR, ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts
(PyTorch's rules, as MindSpore 2.10)."""
from __future__ import annotations

import math
from bisect import bisect_right

from .lr_scheduler import LRScheduler, _eager, read_lrs, write_lrs
from .optimizer import Optimizer


class SequentialLR(LRScheduler):
    """``schedulers[i]`` drives the rate between ``milestones[i-1]`` and ``milestones[i]``; each one after the
    first restarts at epoch 0 at its milestone."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        for i, s in enumerate(schedulers):
            if s.optimizer is not optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                                 f"got scheduler at index {i} is different from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones {len(milestones)}")
        self._schedulers, self.milestones = list(schedulers), list(milestones)
        self.optimizer = optimizer
        self.last_epoch = last_epoch + 1
        self.base_lrs = [float(g["initial_lr"]) for g in optimizer.param_groups]
        self._write(self.base_lrs)
        for s in self._schedulers:  # undo the step each made when it was built
            s.last_epoch -= 1
        self._schedulers[0]._initial_step()

    def step(self):  # noqa: D102 - LRScheduler.step without an epoch
        _eager("SequentialLR")
        self.last_epoch += 1
        idx = bisect_right(self.milestones, self.last_epoch)
        if idx > 0 and self.milestones[idx - 1] == self.last_epoch:
            self._schedulers[idx].step(0)
        else:
            self._schedulers[idx].step()
        return True


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` (not below ``min_lr``) when ``step(metrics)`` has not improved on the best
    value (``mode`` min/max, ``threshold`` rel/abs) for more than ``patience`` calls; then wait ``cooldown``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"Expected {n} min_lrs, got {len(min_lr)}")
            self.min_lrs = [float(v) for v in min_lr]
        else:
            self.min_lrs = [float(min_lr)] * n
        if mode not in ("min", "max"):
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got {threshold_mode}.")
        self.optimizer, self.mode, self.factor, self.patience = optimizer, mode, factor, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = threshold, threshold_mode, cooldown, eps
        self.best = math.inf if mode == "min" else -math.inf
        self.cooldown_counter = 0
        self.wait = 0
        self.last_epoch = 0

    def _better(self, current: float) -> bool:
        t = self.threshold
        if self.mode == "min":
            return current < (self.best * (1.0 - t) if self.threshold_mode == "rel" else self.best - t)
        return current > (self.best * (1.0 + t) if self.threshold_mode == "rel" else self.best + t)

    def step(self, metrics):
        _eager("ReduceLROnPlateau")
        current = float(metrics.asnumpy()) if hasattr(metrics, "asnumpy") else float(metrics)
        self.last_epoch += 1
        if self._better(current):
            self.best, self.wait = current, 0
        else:
            self.wait += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.wait > self.patience:
            lrs = read_lrs(self.optimizer)
            new = [max(lr * self.factor, m) for lr, m in zip(lrs, self.min_lrs)]
            write_lrs(self.optimizer, [n if lr - n > self.eps else lr for lr, n in zip(lrs, new)])
            self.cooldown_counter, self.wait = self.cooldown, 0
        return True

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    get_last_lr = LRScheduler.get_last_lr


class CyclicLR(LRScheduler):
    """Cycle each group's rate between ``base_lr`` and ``max_lr`` (``step_size_up`` steps up, ``step_size_down``
    down), scaled per cycle (triangular, triangular2) or per step (exp_range, ``gamma**step``) or by ``scale_fn``."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1):
        base_lrs = self._per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["initial_lr"] = float(lr)
            write_lrs(optimizer, base_lrs)
        self.max_lrs = [float(v) for v in self._per_group(optimizer, max_lr, "max_lr")]
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.total_size, self.step_ratio = up + down, up / (up + down)
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma, self.scale_fn_custom = mode, gamma, scale_fn
        self.scale_mode = scale_mode if scale_fn is not None else "iterations" if mode == "exp_range" else "cycle"
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [float(v) for v in base_lrs]

    @staticmethod
    def _per_group(optimizer, value, name):
        n = len(optimizer.param_groups)
        if isinstance(value, (list, tuple)):
            if len(value) != n:
                raise ValueError(f"Expected {n} values for {name}, got {len(value)}")
            return list(value)
        return [value] * n

    def scale_fn(self, x):
        if self.scale_fn_custom is not None:
            return self.scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1.0 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        k = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        s = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        return [b + (m - b) * k * s for b, m in zip(self.base_lrs, self.max_lrs)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine from the base rate to ``eta_min`` over ``T_0`` epochs, restarting; each period ``T_mult`` times the
    previous. ``step(epoch)`` accepts fractional epochs."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):  # noqa: N803 - MindSpore's names
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got {T_mult}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        k = (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
        return [self.eta_min + (b - self.eta_min) * k for b in self.base_lrs]

    def step(self, epoch=None):
        _eager("CosineAnnealingWarmRestarts")
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._step_count += 1
        self._write(self.get_lr())
        return True
