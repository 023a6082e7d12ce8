"""Learning-rate schedules: cells mapping ``global_step`` to a learning rate (ExponentialDecayLR, CosineDecayLR...)."""
from __future__ import annotations

import math

from .. import dtype as mstype
from .. import ops
from .cell import Cell


def _check_positive(value, name: str, owner: str, allow_zero: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and (value >= 0 if allow_zero else value > 0)
    if not ok:
        raise ValueError(f"For '{owner}', '{name}' must be a {'non-negative' if allow_zero else 'positive'} number, "
                         f"but got {value!r}.")


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate for that step."""

    def construct(self, global_step):
        raise NotImplementedError


def _step_float(global_step):
    return ops.cast(global_step, mstype.float32)


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_positive(learning_rate, "learning_rate", self.cls_name)
        _check_positive(decay_rate, "decay_rate", self.cls_name)
        if not isinstance(decay_steps, int) or decay_steps <= 0:
            raise ValueError(f"For '{self.cls_name}', 'decay_steps' must be a positive int, got {decay_steps!r}.")
        self.learning_rate, self.decay_rate = float(learning_rate), float(decay_rate)
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def _progress(self, global_step):
        p = ops.div(_step_float(global_step), float(self.decay_steps))
        return ops.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """lr * decay_rate ^ (step / decay_steps)."""

    def construct(self, global_step):
        return ops.mul(ops.pow(self.decay_rate, self._progress(global_step)), self.learning_rate)


class NaturalExpDecayLR(_DecayLR):
    """lr * exp(-decay_rate * p), p = step (stair: floor(step / decay_steps) * decay_steps), as MindSpore has it."""

    def construct(self, global_step):
        p = _step_float(global_step)
        if self.is_stair:
            p = ops.mul(ops.floor(ops.div(p, float(self.decay_steps))), float(self.decay_steps))
        return ops.mul(ops.exp(ops.mul(p, -self.decay_rate)), self.learning_rate)


class InverseDecayLR(_DecayLR):
    """lr / (1 + decay_rate * step / decay_steps)."""

    def construct(self, global_step):
        return ops.div(self.learning_rate, ops.add(ops.mul(self._progress(global_step), self.decay_rate), 1.0))


class CosineDecayLR(LearningRateSchedule):
    """min_lr + (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        _check_positive(min_lr, "min_lr", "CosineDecayLR", allow_zero=True)
        _check_positive(max_lr, "max_lr", "CosineDecayLR")
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', 'max_lr' must be greater than 'min_lr', got {max_lr} <= {min_lr}.")
        self.min_lr, self.max_lr, self.decay_steps = float(min_lr), float(max_lr), decay_steps

    def construct(self, global_step):
        p = ops.div(ops.minimum(_step_float(global_step), float(self.decay_steps)), float(self.decay_steps))
        cos = ops.add(ops.cos(ops.mul(p, math.pi)), 1.0)
        return ops.add(ops.mul(cos, 0.5 * (self.max_lr - self.min_lr)), self.min_lr)


class PolynomialDecayLR(LearningRateSchedule):
    """(lr - end_lr) * (1 - min(step, decay_steps) / decay_steps) ^ power + end_lr."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        _check_positive(learning_rate, "learning_rate", "PolynomialDecayLR")
        _check_positive(end_learning_rate, "end_learning_rate", "PolynomialDecayLR", allow_zero=True)
        _check_positive(power, "power", "PolynomialDecayLR")
        self.start, self.end, self.decay_steps = float(learning_rate), float(end_learning_rate), decay_steps
        self.power, self.update_decay_steps = float(power), update_decay_steps

    def construct(self, global_step):
        step = _step_float(global_step)
        steps = float(self.decay_steps)
        if self.update_decay_steps:
            steps = ops.mul(ops.maximum(ops.ceil(ops.div(step, steps)), 1.0), steps)
        else:
            step = ops.minimum(step, steps)
        frac = ops.sub(1.0, ops.div(step, steps))
        return ops.add(ops.mul(ops.pow(frac, self.power), self.start - self.end), self.end)


class WarmUpLR(LearningRateSchedule):
    """lr * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        _check_positive(learning_rate, "learning_rate", "WarmUpLR")
        if not isinstance(warmup_steps, int) or warmup_steps <= 0:
            raise ValueError(f"For 'WarmUpLR', 'warmup_steps' must be a positive int, got {warmup_steps!r}.")
        self.learning_rate, self.warmup_steps = float(learning_rate), warmup_steps

    def construct(self, global_step):
        step = ops.minimum(_step_float(global_step), float(self.warmup_steps))
        return ops.mul(ops.div(step, float(self.warmup_steps)), self.learning_rate)
