"""Loss-scaled training: Fixed/DynamicLossScaleUpdateCell and TrainOneStepWithLossScaleCell (skips overflowed steps)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..autodiff.api import vjp_immediate
from ..core.tensor import Parameter, Tensor
from ..ops.classes_amp import float_status
from .cell import Cell
from .wrap import TrainOneStepCell


class DynamicLossScaleUpdateCell(Cell):
    """Adjusts the loss scale after each step (MindSpore's rule): on overflow it divides the scale by
    ``scale_factor`` (never below 1) and restarts the window; after ``scale_window`` steps in a row without
    overflow it multiplies the scale by ``scale_factor``. ``construct(loss_scale, overflow)`` writes the new
    scale into the ``loss_scale`` Parameter and returns ``overflow``."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = ops.select(overflow, ops.maximum(loss_scale / self.scale_factor, self.minimum_loss_scale),
                                 loss_scale)
        should_inc = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        restart = ops.logical_or(overflow, should_inc)
        ops.assign(self.last_overflow_iter, ops.select(restart, self.cur_iter, self.last_overflow_iter))
        grow = ops.logical_and(should_inc, ops.logical_not(overflow))
        ops.assign(loss_scale, ops.select(grow, on_overflow * self.scale_factor, on_overflow))
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes; ``construct(loss_scale, overflow)`` returns ``overflow``."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One loss-scaled step: the backward starts from ``scale`` instead of 1, the gradients are divided by it,
    and when any gradient is inf/NaN the optimizer is skipped (the update cell then lowers the scale).
    Returns ``(loss, overflow, scale)`` where ``scale`` is the value this step used.

    ``scale_sense`` is an update cell (``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``) or a
    Tensor of shape () or (1,) (a fixed scale you may change with ``set_sense_scale``). Overflow is detected as
    MindSpore's GPU backend does (any non-finite gradient element); in data-parallel training the flags of all
    devices are summed by ``allreduce_overflow`` when the ``dist`` layer provides it."""

    def __init__(self, network, optimizer, scale_sense):
        from ..parallel._utils import parallel_optimizer_enabled

        if parallel_optimizer_enabled():  # each rank would test only its slice of the gradients for overflow
            raise NotImplementedError("TrainOneStepWithLossScaleCell with enable_parallel_optimizer is not supported "
                                      "by sprout (the overflow check needs every rank's whole gradients)")
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                 f"(), but got {scale_sense.shape}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but "
                            f"got 'scale_sense' type: {type(scale_sense)}.")
        self.allreduce_overflow = None  # data parallel: a callable summing the flag over devices (dist's hook)

    def construct(self, *inputs):
        scaling_sens = self.scale_sense * 1  # the value this step uses (the update below writes the Parameter)
        loss, backward = vjp_immediate(self.network, *inputs, weights=self.weights)
        sens = ops.ones_like(loss) * ops.cast(scaling_sens, loss.dtype)
        _, grads = backward(sens)
        inv = ops.reciprocal(scaling_sens)
        grads = tuple(g * ops.cast(inv, g.dtype) for g in grads)
        if self.grad_reducer is not None:
            grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            loss = ops.depend(loss, self.optimizer(grads))
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        """Replace the loss scale (a Tensor) used from the next step on."""
        if not isinstance(sens, Tensor):
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got "
                            f"{type(sens)}")
        self.scale_sense.set_data(ops.cast(sens, self.scale_sense.dtype).reshape(self.scale_sense.shape))

    def start_overflow_check(self, pre_cond, compute_input):
        """Kept for MindSpore's call pattern: sprout reads overflow from the values, there is no status register
        to clear. Returns ``(status placeholder, compute_input)``."""
        return Tensor(np.zeros(8, np.int32)), compute_input

    def get_overflow_status(self, status, compute_output):
        """A bool scalar: whether any tensor in ``compute_output`` holds an inf or a NaN (on any device)."""
        flags = [float_status(t) for t in compute_output]
        flag_sum = ops.reshape(ops.addn(flags) if len(flags) > 1 else flags[0], ())
        if self.allreduce_overflow is not None:
            flag_sum = self.allreduce_overflow(flag_sum)
        return ops.less_equal(Tensor(1.0, mstype.float32), flag_sum)

    def process_loss_scale(self, overflow):
        """Let the update cell adjust the scale; returns whether this step overflowed."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
