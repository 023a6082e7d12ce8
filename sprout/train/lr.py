"""Dynamic learning rates as lists, one value per step (MindSpore's ``nn.exponential_decay_lr`` ...)."""
from __future__ import annotations

import math


def _positive_int(fn: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{fn}', '{name}' must be a positive int, but got {value!r}.")
    return value


def _float(fn: str, name: str, value, positive: bool = True) -> float:
    if not isinstance(value, float):
        raise TypeError(f"For '{fn}', '{name}' must be a float, but got {type(value).__name__}.")
    if (value <= 0.0) if positive else (value < 0.0):
        raise ValueError(f"For '{fn}', '{name}' must be {'positive' if positive else 'non-negative'}, "
                         f"but got {value}.")
    return value


def _decay_args(fn, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _positive_int(fn, name, value)
    _float(fn, "learning_rate", learning_rate)
    _float(fn, "decay_rate", decay_rate)
    if not isinstance(is_stair, bool):
        raise TypeError(f"For '{fn}', 'is_stair' must be a bool, but got {type(is_stair).__name__}.")


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[i]`` for the steps before ``milestone[i]`` (and from ``milestone[i-1]`` on); the list
    has ``milestone[-1]`` entries."""
    fn = "piecewise_constant_lr"
    if not isinstance(milestone, (tuple, list)) or not isinstance(learning_rates, (tuple, list)):
        raise TypeError(f"For '{fn}', 'milestone' and 'learning_rates' must be lists or tuples.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For '{fn}', the size of 'milestone' must be same with the size of 'learning_rates', "
                         f"but got 'milestone' size: {len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    out = []
    previous = 0
    for i, (stop, lr) in enumerate(zip(milestone, learning_rates)):
        _positive_int(fn, f"milestone[{i}]", stop)
        _float(fn, f"learning_rates[{i}]", lr, positive=False)
        if stop < previous:
            raise ValueError(f"For '{fn}', the value of milestone[{i}] must be greater than milestone[{i - 1}], but "
                             f"got milestone[{i}]: {stop}, milestone[{i - 1}]: {previous}.")
        out.extend([lr] * (stop - previous))
        previous = stop
    return out


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr * decay_rate ** (epoch / decay_epoch)`` with ``epoch = step // step_per_epoch``
    (the exponent floored when ``is_stair``)."""
    _decay_args("exponential_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for step in range(total_step):
        p = (step // step_per_epoch) / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr * e ** (-decay_rate * epoch)``; with ``is_stair`` the epoch is rounded down to a multiple of
    ``decay_epoch``."""
    _decay_args("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for step in range(total_step):
        epoch = step // step_per_epoch
        if is_stair:
            epoch = (epoch // decay_epoch) * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr / (1 + decay_rate * epoch / decay_epoch)`` (the ratio floored when ``is_stair``)."""
    _decay_args("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for step in range(total_step):
        epoch = step // step_per_epoch
        if is_stair:
            out.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            out.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return out


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """Half a cosine from ``max_lr`` down to ``min_lr`` over ``decay_epoch`` epochs, then ``min_lr``."""
    fn = "cosine_decay_lr"
    _float(fn, "min_lr", min_lr, positive=False)
    _float(fn, "max_lr", max_lr)
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _positive_int(fn, name, value)
    if min_lr >= max_lr:
        raise ValueError(f"For '{fn}', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' value: "
                         f"{max_lr}, 'min_lr' value: {min_lr}.")
    half = 0.5 * (max_lr - min_lr)
    out = []
    for step in range(total_step):
        epoch = min(step // step_per_epoch, decay_epoch)
        out.append(min_lr + half * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return out


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """``(lr - end_lr) * (1 - epoch / decay_epoch) ** power + end_lr``; the epoch is capped at ``decay_epoch``,
    or with ``update_decay_epoch`` the decay period grows to the next multiple of ``decay_epoch``."""
    fn = "polynomial_decay_lr"
    _float(fn, "learning_rate", learning_rate)
    _float(fn, "end_learning_rate", end_learning_rate, positive=False)
    _float(fn, "power", power)
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _positive_int(fn, name, value)
    if not isinstance(update_decay_epoch, bool):
        raise TypeError(f"For '{fn}', 'update_decay_epoch' must be a bool.")
    delta = learning_rate - end_learning_rate
    period = decay_epoch
    out = []
    for step in range(total_step):
        epoch = step // step_per_epoch
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            epoch = min(epoch, period)
        out.append(delta * (1 - epoch / period) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """Linear warm-up ``lr * min(epoch, warmup_epoch) / warmup_epoch``."""
    fn = "warmup_lr"
    _float(fn, "learning_rate", learning_rate, positive=False)
    for name, value in (("warmup_epoch", warmup_epoch), ("total_step", total_step),
                        ("step_per_epoch", step_per_epoch)):
        _positive_int(fn, name, value)
    return [learning_rate * min(step // step_per_epoch, warmup_epoch) / warmup_epoch for step in range(total_step)]


__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
