"""mindspore.experimental.optim.lr_scheduler: epoch-based learning-rate schedules that write the optimizer's
per-group learning-rate Parameters (``optimizer.lrs``), with PyTorch's recursive (chainable) rules on ``step()``
and closed forms on ``step(epoch)``, as MindSpore 2.10."""
from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter

import numpy as np

from ... import ops
from ...core import dispatch
from ...core.tensor import Tensor
from .optimizer import Optimizer


def _eager(owner: str) -> None:
    if dispatch._builders:
        raise RuntimeError(f"{owner}.step() runs eagerly: call it outside jit (between jitted training steps)")


def _type(value, types, name, owner):
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"For '{owner}', the '{name}' must be {' or '.join(t.__name__ for t in types)}, but got "
                        f"{type(value)}.")


def read_lrs(optimizer) -> list:
    return [float(lr.asnumpy()) for lr in optimizer.lrs]


def write_lrs(optimizer, values) -> None:
    for lr, value in zip(optimizer.lrs, values):
        ops.assign(lr, Tensor(np.float32(value)))


class LRScheduler:
    """Base class: ``base_lrs`` (each group's ``initial_lr``), ``last_epoch``, ``step(epoch=None)`` writing the
    values of ``get_lr()`` (or ``_closed_form(epoch)`` when an epoch is given) into the optimizer's ``lrs``."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        _type(last_epoch, (int,), "last_epoch", type(self).__name__)
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", float(group["lr"].asnumpy()))
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an optimizer")
        self.optimizer = optimizer
        self.base_lrs = [float(g["initial_lr"]) for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._initial_step()

    def _initial_step(self):
        self.step()

    def _lrs(self) -> list:
        return read_lrs(self.optimizer)

    def get_lr(self) -> list:
        raise NotImplementedError(f"{type(self).__name__} must define get_lr()")

    def get_last_lr(self) -> list:
        """The learning rate of each group after the last step (scalar Float32 Tensors)."""
        return [Tensor(lr.asnumpy().copy()) for lr in self.optimizer.lrs]

    def _write(self, values) -> None:
        write_lrs(self.optimizer, values)

    def step(self, epoch=None):
        _eager(type(self).__name__)
        self._step_count += 1
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = int(epoch)
            values = self._closed_form() if hasattr(self, "_closed_form") else self.get_lr()
        self._write(values)
        return True


class StepLR(LRScheduler):
    """Multiply by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        _type(step_size, (int,), "step_size", "StepLR")
        _type(gamma, (float,), "gamma", "StepLR")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        return [lr * (self.gamma if e != 0 and e % self.step_size == 0 else 1.0) for lr in self._lrs()]

    def _closed_form(self):
        return [b * self.gamma ** (self.last_epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply by ``gamma`` at each milestone (a milestone listed k times multiplies by gamma^k)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        for m in milestones:
            _type(m, (int,), "milestones", "MultiStepLR")
        _type(gamma, (float,), "gamma", "MultiStepLR")
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [lr * self.gamma ** self.milestones.get(self.last_epoch, 0) for lr in self._lrs()]

    def _closed_form(self):
        ms = sorted(self.milestones.elements())
        return [b * self.gamma ** bisect_right(ms, self.last_epoch) for b in self.base_lrs]


class ConstantLR(LRScheduler):
    """``factor`` times the base rate until ``total_iters``, then the base rate."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        _type(total_iters, (int,), "total_iters", "ConstantLR")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        k = self.factor if e == 0 else 1.0 / self.factor if e == self.total_iters else 1.0
        return [lr * k for lr in self._lrs()]

    def _closed_form(self):
        done = self.last_epoch >= self.total_iters
        return [b * (self.factor + done * (1 - self.factor)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """From ``start_factor`` to ``end_factor`` times the base rate linearly over ``total_iters`` epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        _type(total_iters, (int,), "total_iters", "LinearLR")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, s, d = self.last_epoch, self.start_factor, self.end_factor - self.start_factor
        if e == 0:
            return [lr * s for lr in self._lrs()]
        if e > self.total_iters:
            return self._lrs()
        return [lr * (1.0 + d / (self.total_iters * s + (e - 1) * d)) for lr in self._lrs()]

    def _closed_form(self):
        d = self.end_factor - self.start_factor
        return [b * (self.start_factor + d * min(self.total_iters, self.last_epoch) / self.total_iters)
                for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        _type(gamma, (float,), "gamma", "ExponentialLR")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [lr * (1.0 if self.last_epoch == 0 else self.gamma) for lr in self._lrs()]

    def _closed_form(self):
        return [b * self.gamma ** self.last_epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """``base * (1 - epoch / total_iters) ** power`` until ``total_iters``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        _type(power, (float,), "power", "PolynomialLR")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        _type(total_iters, (int,), "total_iters", "PolynomialLR")
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t = self.last_epoch, self.total_iters
        if e == 0 or e > t:
            return self._lrs()
        k = ((1.0 - e / t) / (1.0 - (e - 1) / t)) ** self.power
        return [lr * k for lr in self._lrs()]

    def _closed_form(self):
        return [b * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for b in self.base_lrs]


def _lambdas(optimizer, lr_lambda):
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n


class LambdaLR(LRScheduler):
    """``base * lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [b * f(self.last_epoch) for f, b in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply by ``lr_lambda(epoch)`` every epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch > 0:
            return [lr * f(self.last_epoch) for f, lr in zip(self.lr_lambdas, self._lrs())]
        return self._lrs()


class CosineAnnealingLR(LRScheduler):
    """Cosine from the base rate to ``eta_min`` over ``T_max`` epochs (PyTorch's recursive form)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 - MindSpore's name
        _type(eta_min, (float, int), "eta_min", "CosineAnnealingLR")
        _type(T_max, (int,), "T_max", "CosineAnnealingLR")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, m = self.last_epoch, self.T_max, self.eta_min
        if e == 0:
            return self._lrs()
        if (e - 1 - t) % (2 * t) == 0:
            return [lr + (b - m) * (1 - math.cos(math.pi / t)) / 2 for b, lr in zip(self.base_lrs, self._lrs())]
        k = (1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
        return [k * (lr - m) + m for lr in self._lrs()]

    def _closed_form(self):
        e, t, m = self.last_epoch, self.T_max, self.eta_min
        return [m + (b - m) * (1 + math.cos(math.pi * e / t)) / 2 for b in self.base_lrs]


from .lr_scheduler_more import (  # noqa: E402,F401 - one module for users, two files
    CosineAnnealingWarmRestarts, CyclicLR, ReduceLROnPlateau, SequentialLR)
