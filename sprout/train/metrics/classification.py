"""Precision, Recall, Fbeta/F1 (per class, or averaged) and Dice."""
from __future__ import annotations

import sys

import numpy as np

from .metric import EvaluationBase, Metric, check_inputs, check_onehot, check_type, rearrange_inputs

_EPS = sys.float_info.min


def _counts(metric, inputs, owner: str, multilabel: bool):
    """(predicted one-hot or 0/1 matrix, true matrix), both (rows, C) or (C, rows) for multilabel."""
    check_inputs(owner, inputs, 2, "predicted value, true value")
    y_pred = metric._convert_data(inputs[0])
    y = metric._convert_data(inputs[1])
    if not multilabel and y_pred.ndim == y.ndim and check_onehot(y):
        y = y.argmax(axis=1)
    if isinstance(metric, EvaluationBase):
        metric._check_shape(y_pred, y)
        metric._check_value(y_pred, y)
    if metric._class_num == 0:
        metric._class_num = y_pred.shape[1]
    elif y_pred.shape[1] != metric._class_num:
        raise ValueError(f"For '{owner}.update', class number not match, last input predicted data contain "
                         f"{metric._class_num} classes, but current predicted data contain {y_pred.shape[1]} classes.")
    classes = metric._class_num
    if multilabel:
        return y_pred.swapaxes(1, 0).reshape(classes, -1), y.swapaxes(1, 0).reshape(classes, -1)
    if y.max() + 1 > classes:
        raise ValueError(f"For '{owner}.update', predicted value (input[0]) should have the same classes number as "
                         f"true value (input[1]), but got predicted value classes {classes}, true value classes "
                         f"{y.max() + 1}.")
    eye = np.eye(classes)
    return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1).astype(int)]


class _PrecisionRecall(EvaluationBase):
    """Shared bookkeeping: true positives over a per-class (or, multilabel, per-sample) denominator."""

    _owner = ""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.eps = _EPS
        self.clear()

    def clear(self):
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives, self._denominators = np.empty(0), np.empty(0)
            self._ratio_sum, self._ratio_count = 0.0, 0
        else:
            self._true_positives, self._denominators = 0, 0

    @staticmethod
    def _denominator(y_pred, y):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        multilabel = self._type == "multilabel"
        y_pred, y = _counts(self, inputs, self._owner, multilabel)
        denominator = self._denominator(y_pred, y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if multilabel:
            self._ratio_sum += np.sum(true_positives / (denominator + self.eps))
            self._ratio_count += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._denominators = np.concatenate((self._denominators, denominator))
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominators = self._denominators + denominator

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"The '{self._owner}' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        check_type(average, bool, "average", self._owner)
        result = self._true_positives / (self._denominators + self.eps)
        if average:
            if self._type == "multilabel":
                return np.mean(self._ratio_sum / (self._ratio_count + self.eps))
            return result.mean()
        return result


class Precision(_PrecisionRecall):
    """true positives / predicted positives, per class (``eval(average=True)``: their mean)."""

    _owner = "Precision"

    @staticmethod
    def _denominator(y_pred, y):
        return y_pred


class Recall(_PrecisionRecall):
    """true positives / actual positives, per class (``eval(average=True)``: their mean)."""

    _owner = "Recall"

    @staticmethod
    def _denominator(y_pred, y):
        return y


class Fbeta(Metric):
    """(1 + beta^2) TP / (beta^2 (TP + FN) + (TP + FP)) per class of argmax predictions."""

    def __init__(self, beta):
        super().__init__()
        self.eps = _EPS
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self):
        self._true_positives = self._actual_positives = self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _counts(self, inputs, "Fbeta", False)
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average=False):
        check_type(average, bool, "average", type(self).__name__)
        if self._class_num == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """Fbeta with beta = 1."""

    def __init__(self):
        super().__init__(1.0)


class Dice(Metric):
    """Mean over updates (per sample count) of 2 <y_pred, y> / (|y_pred|^2 + |y|^2 + smooth)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float):
            raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
        if smooth <= 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with type 'float'.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("Dice", inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        p, t = y_pred.ravel(), y.ravel()
        self._dice_coeff_sum += 2 * float(np.dot(p, t)) / float(np.dot(p, p) + np.dot(t, t) + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)
