"""Loss-scale managers for ``Model`` / ``build_train_network``: FixedLossScaleManager, DynamicLossScaleManager."""
from __future__ import annotations

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


def _nn():
    from .. import nn
    return nn


class LossScaleManager:
    """Base class: ``get_loss_scale``, ``update_loss_scale(overflow)`` and ``get_update_cell`` (the cell that
    adjusts the scale inside the training step, or None)."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale. With ``drop_overflow_update=True`` (the default) a step whose gradients overflow is
    skipped (the train step becomes a TrainOneStepWithLossScaleCell); with False the optimizer divides the scale
    out itself (pass the same ``loss_scale`` to it) and every step updates."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to do."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return _nn().FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale that halves (``/ scale_factor``, not below 1) on overflow and grows (``* scale_factor``) after
    ``scale_window`` steps without one. The scale used in training lives in the update cell; ``Model`` also calls
    ``update_loss_scale`` after each step so ``get_loss_scale`` follows it."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be a positive int, but got "
                             f"{scale_window}.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale Continuous overflow {self.bad_step} times, has exceeded maximum "
                               "threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        return True

    def get_update_cell(self):
        return _nn().DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
