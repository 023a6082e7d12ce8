"""The remaining experimental schedulers: SequentialLR, ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts
(PyTorch's rules, as MindSpore 2.10), with Parameter state and selects so they also step inside jit."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, Tensor
from .lr_scheduler import LRScheduler, f32, read_lrs, state, where, write_lrs
from .optimizer import Optimizer


def _params(scheduler) -> list:
    """The Parameters holding a scheduler's state (its last_epoch, and T_cur/T_i ... where it has them)."""
    return [v for v in vars(scheduler).values() if isinstance(v, Parameter)]


class SequentialLR(LRScheduler):
    """``schedulers[i]`` drives the rate between ``milestones[i-1]`` and ``milestones[i]``; each one after the
    first restarts at epoch 0 at its milestone. Which scheduler steps depends on ``last_epoch`` (a Parameter), so
    every step runs each scheduler's candidate steps and keeps the state and rates of the one that applies."""

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
        self.last_epoch = state(last_epoch + 1, "last_epoch_SequentialLR")
        self.base_lrs = [float(g["initial_lr"]) for g in optimizer.param_groups]
        self._write(self.base_lrs)
        for s in self._schedulers:  # undo the step each made when it was built
            ops.assign_sub(s.last_epoch, f32(1.0))
        self._schedulers[0]._initial_step()

    def _candidate(self, scheduler, before, run):
        """Run one step of ``scheduler`` from the rates ``before``; return (its rates, its new state) and put its
        state back."""
        saved = [ops.mul(p, 1.0) for p in _params(scheduler)]
        write_lrs(self.optimizer, before)
        run()
        rates, after = read_lrs(self.optimizer), [ops.mul(p, 1.0) for p in _params(scheduler)]
        for p, v in zip(_params(scheduler), saved):
            ops.assign(p, v)
        return rates, after, saved

    def step(self):  # noqa: D102 - LRScheduler.step without an epoch
        ops.assign_add(self.last_epoch, f32(1.0))
        e = self.last_epoch
        before = read_lrs(self.optimizer)
        final = before
        for i, s in enumerate(self._schedulers):
            active = ops.logical_and(ops.ge(e, float(self.milestones[i - 1])) if i else ops.ge(e, -math.inf),
                                     ops.lt(e, float(self.milestones[i])) if i < len(self.milestones)
                                     else ops.lt(e, math.inf))
            rates, after, saved = self._candidate(s, before, s.step)
            if i:  # at its milestone a later scheduler restarts: step(0)
                at_start = ops.equal(e, float(self.milestones[i - 1]))
                rates0, after0, _ = self._candidate(s, before, lambda s=s: s.step(0))
                rates = [ops.select(at_start, a, b) for a, b in zip(rates0, rates)]
                after = [ops.select(at_start, a, b) for a, b in zip(after0, after)]
            for p, new, old in zip(_params(s), after, saved):
                ops.assign(p, ops.select(active, new, old))
            final = [ops.select(active, r, f) for r, f in zip(rates, final)]
        self._write(final)
        return True


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` (not below ``min_lr``) when ``step(metrics)`` has not improved on the best
    value (``mode`` min/max, ``threshold`` rel/abs) for more than ``patience`` calls; then wait ``cooldown``.
    ``best``, ``wait``, ``cooldown_counter`` and ``last_epoch`` are Parameters: ``step`` also runs inside jit."""

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
        self.best = state(math.inf if mode == "min" else -math.inf, "best")
        self.cooldown_counter = state(0.0, "cooldown_counter")
        self.wait = state(0.0, "wait")
        self.last_epoch = state(0.0, "last_epoch_ReduceLROnPlateau")

    def _better(self, current):
        t, best = self.threshold, self.best
        if self.mode == "min":
            bound = ops.mul(best, 1.0 - t) if self.threshold_mode == "rel" else ops.sub(best, t)
            return ops.lt(current, bound)
        bound = ops.mul(best, 1.0 + t) if self.threshold_mode == "rel" else ops.add(best, t)
        return ops.gt(current, bound)

    def step(self, metrics):
        current = f32(metrics)
        ops.assign_add(self.last_epoch, f32(1.0))
        better = self._better(current)
        ops.assign(self.best, ops.select(better, current, self.best))
        ops.assign(self.wait, where(better, 0.0, ops.add(self.wait, 1.0)))
        cooling = ops.gt(self.cooldown_counter, 0.0)
        ops.assign(self.cooldown_counter, where(cooling, ops.sub(self.cooldown_counter, 1.0), self.cooldown_counter))
        ops.assign(self.wait, where(cooling, 0.0, self.wait))
        reduce = ops.gt(self.wait, float(self.patience))
        lrs = read_lrs(self.optimizer)
        new = [ops.maximum(ops.mul(lr, self.factor), f32(m)) for lr, m in zip(lrs, self.min_lrs)]
        write_lrs(self.optimizer, [ops.select(ops.logical_and(reduce, ops.gt(ops.sub(lr, n), self.eps)), n, lr)
                                   for lr, n in zip(lrs, new)])
        ops.assign(self.cooldown_counter, where(reduce, float(self.cooldown), self.cooldown_counter))
        ops.assign(self.wait, where(reduce, 0.0, self.wait))
        return True

    def in_cooldown(self):
        """Whether the scheduler is cooling down (a Bool tensor, as MindSpore's)."""
        return ops.gt(self.cooldown_counter, 0.0)

    get_last_lr = LRScheduler.get_last_lr


class CyclicLR(LRScheduler):
    """Cycle each group's rate between ``base_lr`` and ``max_lr`` (``step_size_up`` steps up, ``step_size_down``
    down), scaled per cycle (triangular, triangular2) or per step (exp_range, ``gamma**step``) or by ``scale_fn``
    (which receives a Float32 tensor)."""

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
            return f32(self.scale_fn_custom(x))
        if self.mode == "triangular":
            return f32(1.0)
        if self.mode == "triangular2":
            return ops.pow(f32(0.5), ops.sub(x, 1.0))
        return ops.pow(f32(self.gamma), x)

    def get_lr(self):
        e = self.last_epoch
        cycle = ops.floor(ops.add(ops.div(e, self.total_size), 1.0))
        x = ops.sub(ops.add(ops.div(e, self.total_size), 1.0), cycle)
        k = ops.select(ops.le(x, self.step_ratio), ops.div(x, self.step_ratio),
                       ops.div(ops.sub(x, 1.0), self.step_ratio - 1))
        s = self.scale_fn(cycle if self.scale_mode == "cycle" else e)
        base = getattr(self, "base_lrs", None) or [float(g["initial_lr"]) for g in self.optimizer.param_groups]
        return [ops.add(ops.mul(ops.mul(k, s), m - b), b) for b, m in zip(base, self.max_lrs)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine from the base rate to ``eta_min`` over ``T_0`` epochs, restarting; each period ``T_mult`` times the
    previous. ``step(epoch)`` accepts fractional epochs. ``T_cur`` and ``T_i`` are Parameters."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):  # noqa: N803 - MindSpore's names
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got {T_mult}")
        self.T_0, self.T_mult, self.eta_min = T_0, T_mult, eta_min
        self.T_i = state(T_0, "T_i")
        self.T_cur = state(last_epoch, "T_cur")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        k = ops.div(ops.add(ops.cos(ops.mul(ops.div(self.T_cur, self.T_i), math.pi)), 1.0), 2.0)
        return [ops.add(ops.mul(k, b - self.eta_min), self.eta_min) for b in self.base_lrs]

    def _at_epoch(self, epoch):
        """(T_cur, T_i) of an explicit epoch (a Float32 tensor >= 0)."""
        t0 = float(self.T_0)
        if self.T_mult == 1:
            late_cur, late_i = ops.floor_mod(epoch, t0), f32(t0)
        else:
            e64 = ops.cast(epoch, mstype.float64)
            n = ops.floor(ops.div(ops.log(ops.add(ops.mul(e64, (self.T_mult - 1) / t0), 1.0)),
                                  math.log(self.T_mult)))
            power = ops.pow(Tensor(np.float64(self.T_mult)), n)
            late_cur = f32(ops.sub(e64, ops.div(ops.mul(ops.sub(power, 1.0), t0), self.T_mult - 1)))
            late_i = f32(ops.mul(power, t0))
        late = ops.ge(epoch, t0)
        return ops.select(late, late_cur, epoch), where(late, late_i, t0)

    def step(self, epoch=None):
        if epoch is not None and not isinstance(epoch, Tensor) and epoch < 0:
            raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
        if epoch is None:  # the first step (last_epoch < 0) is step(0)
            first = ops.lt(self.last_epoch, 0.0)
            cur = ops.add(self.T_cur, 1.0)
            wrap = ops.ge(cur, self.T_i)
            cur, t_i = ops.select(wrap, ops.sub(cur, self.T_i), cur), ops.select(wrap, ops.mul(self.T_i, float(
                self.T_mult)), self.T_i)
            ops.assign(self.T_cur, where(first, 0.0, cur))
            ops.assign(self.T_i, where(first, float(self.T_0), t_i))
            ops.assign(self.last_epoch, where(first, 0.0, ops.add(self.last_epoch, 1.0)))
        else:
            e = f32(epoch)
            cur, t_i = self._at_epoch(e)
            ops.assign(self.T_cur, cur)
            ops.assign(self.T_i, t_i)
            ops.assign(self.last_epoch, ops.floor(e))
        self._write(self.get_lr())
        return True
