"""History, LambdaCallback and LearningRateScheduler."""
from __future__ import annotations

import logging
import math

import numpy as np

from ._callback import Callback

logger = logging.getLogger("sprout.train")


class History(Callback):
    """Records, per epoch, the mean of the network output (``history["net_output"]``) and any evaluation
    metrics of ``Model.fit`` (one list per metric name); ``epoch["epoch"]`` lists the epoch numbers."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        output = cb_params.get("net_outputs")
        if isinstance(output, (tuple, list)) and output and hasattr(output[0], "asnumpy"):
            output = output[0]
        if hasattr(output, "asnumpy"):
            output = np.mean(output.asnumpy())
        record = {"net_output": output}
        metrics = cb_params.get("metrics")
        if metrics:
            record.update(metrics)
        for key, value in record.items():
            self.history.setdefault(key, []).append(value)


_LAMBDA_HOOKS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
                 "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
                 "on_eval_step_end", "on_eval_begin", "on_eval_end")


class LambdaCallback(Callback):
    """A callback built from plain functions of ``run_context``, one per hook; hooks not given do nothing."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None, on_train_step_begin=None,
                 on_train_step_end=None, on_train_begin=None, on_train_end=None, on_eval_epoch_begin=None,
                 on_eval_epoch_end=None, on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        given = locals()
        for name in _LAMBDA_HOOKS:
            fn = given[name]
            if fn is not None and not callable(fn):
                raise TypeError(f"LambdaCallback: '{name}' must be callable, got {type(fn).__name__}")
            setattr(self, name, fn if fn is not None else _nothing)


def _nothing(run_context):
    return None


class LearningRateScheduler(Callback):
    """After each training step, set the optimizer's learning rate to
    ``learning_rate_function(current_lr, cur_step_num)`` (the optimizer needs a scalar learning rate)."""

    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError("LearningRateScheduler: 'learning_rate_function' must be callable")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        lr_param = getattr(cb_params.get("optimizer"), "learning_rate", None)
        if lr_param is None or not hasattr(lr_param, "asnumpy"):
            raise TypeError("LearningRateScheduler: the optimizer has no Tensor 'learning_rate' to update")
        arr = lr_param.asnumpy()
        if arr.size != 1:
            raise ValueError("LearningRateScheduler needs a scalar learning rate; this optimizer has a dynamic "
                             f"learning rate of shape {arr.shape}")
        lr = float(arr.reshape(()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            setter = getattr(lr_param, "set_data", None) or lr_param.assign_value
            setter(np.asarray(new_lr, dtype=arr.dtype).reshape(arr.shape))
            logger.info("At step %s, learning_rate change to %s", cb_params.cur_step_num, new_lr)
