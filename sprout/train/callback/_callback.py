"""Callback base class, RunContext, the cb_params dict and the dispatcher Model drives."""
from __future__ import annotations

import contextlib
import logging

import numpy as np

logger = logging.getLogger("sprout.train")

# The hooks Model calls, and the legacy name each one falls back to when a callback does not override it.
TRAIN_HOOKS = {"on_train_begin": "begin", "on_train_epoch_begin": "epoch_begin",
               "on_train_step_begin": "step_begin", "on_train_step_end": "step_end",
               "on_train_epoch_end": "epoch_end", "on_train_end": "end"}
EVAL_HOOKS = {"on_eval_begin": "begin", "on_eval_epoch_begin": "epoch_begin",
              "on_eval_step_begin": "step_begin", "on_eval_step_end": "step_end",
              "on_eval_epoch_end": "epoch_end", "on_eval_end": "end"}
LEGACY_HOOKS = frozenset(TRAIN_HOOKS.values())


class Callback:
    """Base class of training/evaluation callbacks. Override the ``on_train_*`` / ``on_eval_*`` hooks
    (or the legacy ``begin``/``epoch_begin``/``step_begin``/``step_end``/``epoch_end``/``end``, which the
    new hooks call by default). Every hook receives a :class:`RunContext`. Callbacks are context managers:
    Model enters them before the first hook and exits them after the last."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # legacy hooks: shared by training and evaluation
    def begin(self, run_context):
        """Once, before training or evaluation starts (alias of on_train_begin / on_eval_begin)."""

    def epoch_begin(self, run_context):
        """Before each epoch."""

    def epoch_end(self, run_context):
        """After each epoch."""

    def step_begin(self, run_context):
        """Before each step."""

    def step_end(self, run_context):
        """After each step."""

    def end(self, run_context):
        """Once, after training or evaluation ends."""

    # training hooks
    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    # evaluation hooks
    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys can also be read and written as attributes
    (``cb_params.cur_step_num``). A missing attribute raises AttributeError naming the key."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"cb_params has no field {key!r}; present: {sorted(self)}") from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What a hook sees: ``original_args()`` is the shared ``cb_params`` dict; ``request_stop()`` asks
    Model to stop after the current step (training) or step (evaluation)."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict, got {type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


def _make_hook(name):
    def dispatch(self, run_context):
        for cb in self._callbacks:
            getattr(cb, name)(run_context)
    dispatch.__name__ = name
    dispatch.__doc__ = f"Call ``{name}`` on every callback, in order."
    return dispatch


class CallbackManager(Callback):
    """Runs a list of callbacks in order; entering it enters every callback (an ExitStack unwinds them)."""

    def __init__(self, callbacks):
        self._callbacks = []
        self._stack = None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError(f"callbacks: every element must be a Callback, got {type(cb).__name__}")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError(f"callbacks must be a Callback or a list of Callbacks, got {type(callbacks).__name__}")

    def __enter__(self):
        if self._stack is None:
            self._stack = contextlib.ExitStack().__enter__()
            entered = []
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                if not isinstance(target, Callback):
                    logger.warning("callback %s: __enter__ should return self or a Callback", type(cb).__name__)
                    target = cb
                entered.append(target)
            self._callbacks = entered
        return self

    def __exit__(self, *exc):
        stack, self._stack = self._stack, None
        return stack.__exit__(*exc) if stack is not None else None


for _name in (*TRAIN_HOOKS, *EVAL_HOOKS, *LEGACY_HOOKS):
    setattr(CallbackManager, _name, _make_hook(_name))
del _name


def handle_loss(loss):
    """The value a monitor reports for a network output: the mean of a Tensor as a Python float; for a
    tuple/list output its first element, left a Tensor (as MindSpore does); anything else unchanged."""
    if isinstance(loss, (tuple, list)):
        if loss and hasattr(loss[0], "asnumpy"):
            return loss[0]
        return loss
    if hasattr(loss, "asnumpy"):
        return float(np.mean(loss.asnumpy()))
    return loss
