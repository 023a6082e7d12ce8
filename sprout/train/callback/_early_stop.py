"""EarlyStopping and ReduceLROnPlateau: act when a monitored value stops improving."""
from __future__ import annotations

import logging

import numpy as np

from ._callback import Callback, handle_loss

logger = logging.getLogger("sprout.train")

# metrics for which smaller is better when mode="auto"
SMALLER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                     "root_mean_square_distance", "eval_loss")


class EarlyStopping(Callback):
    """At the end of each training epoch read ``monitor`` (``"loss"``: the last step's training loss;
    otherwise a key of ``cb_params.eval_results``, which ``Model.fit`` fills with the metrics and
    ``eval_loss``) and stop once it has not improved by more than ``min_delta`` for ``patience`` epochs.
    ``baseline``: an epoch only resets the patience counter if it also beats the baseline.
    ``restore_best_weights`` loads the best epoch's parameters back when stopping."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"EarlyStopping: 'monitor' must be a str, got {type(monitor).__name__}")
        if isinstance(min_delta, bool) or not isinstance(min_delta, (int, float)):
            raise TypeError(f"EarlyStopping: 'min_delta' must be an int or float, got {type(min_delta).__name__}")
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 0:
            raise ValueError(f"EarlyStopping: 'patience' must be a non-negative int, got {patience!r}")
        if not isinstance(verbose, bool) or not isinstance(restore_best_weights, bool):
            raise TypeError("EarlyStopping: 'verbose' and 'restore_best_weights' must be bools")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode should be 'auto', 'min' or 'max', but got {mode!r}.")
        if baseline is not None and (isinstance(baseline, bool) or not isinstance(baseline, (int, float))):
            raise TypeError(f"EarlyStopping: 'baseline' must be a number or None, got {type(baseline).__name__}")
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self._minimize = mode == "min" or (mode == "auto" and monitor in SMALLER_IS_BETTER)
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._minimize else -np.inf
        self.best_weights_param_dict = None

    def is_improvement(self, current, reference) -> bool:
        if self._minimize:
            return bool(np.less(current, reference - self.min_delta))
        return bool(np.greater(current, reference + self.min_delta))

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._minimize else -np.inf
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = self._monitor_value(cb_params)
        if current is None:
            return
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = _snapshot(cb_params.train_network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = _snapshot(cb_params.train_network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                _restore(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")

    def _monitor_value(self, cb_params):
        return monitor_value(self.monitor, cb_params, "Early stopping")


def monitor_value(monitor, cb_params, what):
    """The monitored scalar: the training loss for ``"loss"``, else ``cb_params.eval_results[monitor]``
    (None, with a warning, when it is not there)."""
    candidates = {}
    if monitor == "loss":
        value = handle_loss(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results") or {}
        value = candidates.get(monitor)
    if value is None:
        logger.warning("%s is conditioned on %s, which is not available. Available choices are: %s",
                       what, monitor, sorted({"loss", *candidates}))
        return None
    value = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    if value.shape != ():
        raise ValueError(f"{what} only supports a scalar monitor, got shape {value.shape}.")
    return value


class ReduceLROnPlateau(Callback):
    """Multiply the optimizer's (scalar) learning rate by ``factor`` (not below ``min_lr``) once ``monitor``
    has not improved by more than ``min_delta`` for ``patience`` epochs; then wait ``cooldown`` epochs."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0):
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"ReduceLROnPlateau: 'monitor' must be a str, got {type(monitor).__name__}")
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0.0 < factor < 1.0:
            raise ValueError(f"ReduceLROnPlateau: 'factor' must be in (0, 1), got {factor!r}")
        for name, value in (("patience", patience), ("cooldown", cooldown)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"ReduceLROnPlateau: '{name}' must be a non-negative int, got {value!r}")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"ReduceLROnPlateau: mode should be 'auto', 'min' or 'max', but got {mode!r}.")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.mode, self.min_delta, self.cooldown, self.min_lr = mode, abs(min_delta), cooldown, min_lr
        self._minimize = mode == "min" or (mode == "auto" and monitor in SMALLER_IS_BETTER)
        self.on_train_begin(None)

    def is_improvement(self, current, reference) -> bool:
        if self._minimize:
            return bool(np.less(current, reference - self.min_delta))
        return bool(np.greater(current, reference + self.min_delta))

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._minimize else -np.inf

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        lr_param = getattr(cb_params.optimizer, "learning_rate", None)
        if lr_param is None or not hasattr(lr_param, "set_data") or lr_param.asnumpy().size != 1:
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        current = monitor_value(self.monitor, cb_params, "Learning rate reduction")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                arr = lr_param.asnumpy()
                lr = float(arr.reshape(()))
                if lr > self.min_lr:
                    new_lr = np.asarray(max(lr * self.factor, self.min_lr), dtype=arr.dtype).reshape(arr.shape)
                    lr_param.set_data(new_lr)
                    if self.verbose:
                        from ...core.tensor import Tensor
                        print(f"Epoch {int(cb_params.cur_epoch_num):05d}: ReduceLROnPlateau reducing learning rate "
                              f"to {Tensor(new_lr)}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0


def _snapshot(network) -> dict:
    return {param.name: np.array(param.asnumpy(), copy=True) for _, param in network.parameters_and_names()}


def _restore(network, saved: dict) -> None:
    for _, param in network.parameters_and_names():
        if param.name in saved:
            param.set_data(saved[param.name])
