"""Accuracy and top-k accuracy."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_inputs, check_onehot, empty_error, rearrange_inputs


class Accuracy(Metric):
    """Fraction of correct predictions. ``eval_type="classification"``: ``y_pred`` (N, C, ...) scores against
    class indices ``y`` (N, ...) or one-hot labels; ``"multilabel"``: 0/1 ``y_pred`` equal to ``y`` on every class."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"The argument 'eval_type' must be in {{'classification', 'multilabel'}}, "
                            f"but got {eval_type}")
        self._type = eval_type
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    def _check_shape(self, y_pred, y):
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError("In classification case, y should have the shape of y_pred without axis 1, "
                                 f"but got y_pred shape {y_pred.shape} and y shape {y.shape}.")
        elif y_pred.shape != y.shape:
            raise ValueError(f"In multilabel case, y_pred and y must have the same shape, but got y_pred shape "
                             f"{y_pred.shape} and y shape {y.shape}.")
        if self._type == "multilabel" and not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred and y should be 0 or 1.")

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("Accuracy", inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and check_onehot(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For 'Accuracy.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             "classes.")
        if self._type == "classification":
            result = np.equal(y_pred.argmax(axis=1), y).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            y = y.swapaxes(1, last).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1)
        self._correct_num += int(result.sum())
        self._total_num += result.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise empty_error("Accuracy")
        return self._correct_num / self._total_num


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose true class is among the ``k`` highest scores."""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got "
                            f"'k' type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got {k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs(type(self).__name__, inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and check_onehot(y):
            y = y.argmax(axis=1)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        correct = np.equal(top, y.reshape(-1, 1)).any(axis=1)
        self._correct_num += int(correct.sum())
        self._samples_num += correct.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise empty_error(type(self).__name__)
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)
