"""mindspore.experimental.optim.lr_scheduler: epoch-based learning-rate schedules that write the optimizer's
per-group learning-rate Parameters (``optimizer.lrs``), with PyTorch's recursive (chainable) rules on ``step()``
and closed forms on ``step(epoch)``, as MindSpore 2.10."""
# As in MindSpore, the state is held in Parameters (``last_epoch`` is a Float32 Parameter) and every rule is written
# with tensor ops and selects, so ``step()`` runs the same eagerly, inside ``jit`` (AST or bytecode) and in a
# GRAPH_MODE ``construct``: a jitted training step can advance its own schedule.
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, Tensor
from .optimizer import Optimizer


def _type(value, types, name, owner):
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"For '{owner}', the '{name}' must be {' or '.join(t.__name__ for t in types)}, but got "
                        f"{type(value)}.")


def f32(value) -> Tensor:
    """A Float32 tensor of a Python number or a tensor."""
    if isinstance(value, Tensor):
        return value if value.dtype == mstype.float32 else ops.cast(value, mstype.float32)
    return Tensor(np.float32(value))


def where(cond, a, b) -> Tensor:
    """select(cond, a, b) over Float32 scalars (Python numbers or tensors)."""
    return ops.select(cond, f32(a), f32(b))


def state(value, name: str) -> Parameter:
    return Parameter(Tensor(np.float32(value)), name=name, requires_grad=False)


def read_lrs(optimizer) -> list:
    """The current learning rates as fresh tensors (not views of the Parameters the step is about to write)."""
    return [ops.mul(lr, 1.0) for lr in optimizer.lrs]


def write_lrs(optimizer, values) -> None:
    for lr, value in zip(optimizer.lrs, values):
        ops.assign(lr, f32(value))


class LRScheduler:
    """Base class: ``base_lrs`` (each group's ``initial_lr``), ``last_epoch`` (a Float32 Parameter),
    ``step(epoch=None)`` writing the values of ``get_lr()`` (or ``_closed_form()`` when an epoch is given) into the
    optimizer's ``lrs``."""

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
        self.last_epoch = state(last_epoch, f"last_epoch_{type(self).__name__}")
        self._initial_step()

    def _initial_step(self):
        self.step()

    def _lrs(self) -> list:
        return read_lrs(self.optimizer)

    def get_lr(self) -> list:
        raise NotImplementedError(f"{type(self).__name__} must define get_lr()")

    def get_last_lr(self) -> list:
        """The learning rate of each group after the last step (scalar Float32 Tensors)."""
        return read_lrs(self.optimizer)

    def _write(self, values) -> None:
        write_lrs(self.optimizer, values)

    def step(self, epoch=None):
        if epoch is None:
            ops.assign_add(self.last_epoch, f32(1.0))
            values = self.get_lr()
        else:
            ops.assign(self.last_epoch, f32(epoch))
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
        hit = ops.logical_and(ops.ne(e, 0.0), ops.equal(ops.floor_mod(e, float(self.step_size)), 0.0))
        k = where(hit, self.gamma, 1.0)
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        k = ops.pow(f32(self.gamma), ops.floor(ops.div(self.last_epoch, float(self.step_size))))
        return [ops.mul(k, b) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply by ``gamma`` at each milestone (a milestone listed k times multiplies by gamma^k)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        for m in milestones:
            _type(m, (int,), "milestones", "MultiStepLR")
        _type(gamma, (float,), "gamma", "MultiStepLR")
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        count = f32(0.0)
        for m, times in self.milestones.items():
            count = ops.add(count, where(ops.equal(self.last_epoch, float(m)), float(times), 0.0))
        k = ops.pow(f32(self.gamma), count)
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        passed = f32(0.0)  # bisect_right(sorted milestones, epoch): milestones at or before the epoch
        for m, times in self.milestones.items():
            passed = ops.add(passed, where(ops.ge(self.last_epoch, float(m)), float(times), 0.0))
        k = ops.pow(f32(self.gamma), passed)
        return [ops.mul(k, b) for b in self.base_lrs]


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
        k = where(ops.equal(e, 0.0), self.factor,
                  where(ops.equal(e, float(self.total_iters)), 1.0 / self.factor, 1.0))
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        k = where(ops.ge(self.last_epoch, float(self.total_iters)), 1.0, self.factor)
        return [ops.mul(k, b) for b in self.base_lrs]


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
        denominator = ops.add(ops.mul(ops.sub(e, 1.0), d), self.total_iters * s)
        safe = where(ops.equal(denominator, 0.0), 1.0, denominator)  # only in the branches not taken
        k = where(ops.equal(e, 0.0), s, where(ops.gt(e, float(self.total_iters)), 1.0, ops.add(ops.div(d, safe), 1.0)))
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        d = self.end_factor - self.start_factor
        done = ops.minimum(self.last_epoch, f32(float(self.total_iters)))
        k = ops.add(ops.mul(done, d / self.total_iters), self.start_factor)
        return [ops.mul(k, b) for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        _type(gamma, (float,), "gamma", "ExponentialLR")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        k = where(ops.equal(self.last_epoch, 0.0), 1.0, self.gamma)
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        k = ops.pow(f32(self.gamma), self.last_epoch)
        return [ops.mul(k, b) for b in self.base_lrs]


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
        e, t = self.last_epoch, float(self.total_iters)
        keep = ops.logical_or(ops.equal(e, 0.0), ops.gt(e, t))
        before = ops.sub(1.0, ops.div(ops.sub(e, 1.0), t))
        ratio = ops.div(ops.sub(1.0, ops.div(e, t)), where(ops.equal(before, 0.0), 1.0, before))
        k = where(keep, 1.0, ops.pow(ratio, self.power))
        return [ops.mul(lr, k) for lr in self._lrs()]

    def _closed_form(self):
        t = float(self.total_iters)
        k = ops.pow(ops.sub(1.0, ops.div(ops.minimum(self.last_epoch, f32(t)), t)), self.power)
        return [ops.mul(k, b) for b in self.base_lrs]


def _lambdas(optimizer, lr_lambda):
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n


class LambdaLR(LRScheduler):
    """``base * lr_lambda(epoch)`` (one function, or one per group); as in MindSpore the function receives the
    epoch as a Float32 tensor."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [ops.mul(f32(f(self.last_epoch)), b) for f, b in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply by ``lr_lambda(epoch)`` every epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        later = ops.gt(self.last_epoch, 0.0)
        return [ops.mul(lr, where(later, f(self.last_epoch), 1.0)) for f, lr in zip(self.lr_lambdas, self._lrs())]


class CosineAnnealingLR(LRScheduler):
    """Cosine from the base rate to ``eta_min`` over ``T_max`` epochs (PyTorch's recursive form)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 - MindSpore's name
        _type(eta_min, (float, int), "eta_min", "CosineAnnealingLR")
        _type(T_max, (int,), "T_max", "CosineAnnealingLR")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, m = self.last_epoch, float(self.T_max), self.eta_min
        restart = ops.equal(ops.floor_mod(ops.sub(e, 1.0 + t), 2.0 * t), 0.0)
        now = ops.add(ops.cos(ops.mul(e, math.pi / t)), 1.0)
        before = ops.add(ops.cos(ops.mul(ops.sub(e, 1.0), math.pi / t)), 1.0)
        k = ops.div(now, where(ops.equal(before, 0.0), 1.0, before))
        out = []
        for b, lr in zip(self.base_lrs, self._lrs()):
            bump = ops.add(lr, (b - m) * (1 - math.cos(math.pi / t)) / 2)
            follow = ops.add(ops.mul(k, ops.sub(lr, m)), m)
            out.append(ops.select(ops.equal(e, 0.0), lr, ops.select(restart, bump, follow)))
        return out

    def _closed_form(self):
        e, t, m = self.last_epoch, float(self.T_max), self.eta_min
        k = ops.div(ops.add(ops.cos(ops.mul(e, math.pi / t)), 1.0), 2.0)
        return [ops.add(ops.mul(k, b - m), m) for b in self.base_lrs]


from .lr_scheduler_more import (  # noqa: E402,F401 - one module for users, two files
    CosineAnnealingWarmRestarts, CyclicLR, ReduceLROnPlateau, SequentialLR)
