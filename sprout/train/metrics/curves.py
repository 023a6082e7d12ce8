"""ROC (false/true positive rates over the distinct score thresholds) and ``auc`` (trapezoidal area)."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_inputs, check_is_updated, check_type, rearrange_inputs


def binary_clf_curve(preds, target, sample_weights=None, pos_label=1):
    """(false positives, true positives, thresholds) at each distinct score, scores descending."""
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds, kind="stable")
    preds, target = preds[order], target[order]
    weight = 1.0 if sample_weights is None else np.asarray(sample_weights)[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    idx = np.concatenate([distinct, [target.shape[0] - 1]])
    hits = (target == pos_label).astype(np.int64)
    tps = np.cumsum(hits * weight, axis=0)[idx]
    fps = np.cumsum((1 - hits) * weight, axis=0)[idx] if sample_weights is not None else 1 + idx - tps
    return fps, tps, preds[idx]


def _prepare(y_pred, y, class_num, pos_label):
    if y_pred.ndim not in (y.ndim, y.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must have same dimensions, "
                         f"or the dimension of predicted value equal the dimension of true value add 1, but got "
                         f"predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                             f"shape, the 'class_num' must be 1, but got {class_num}.")
        return y_pred.ravel(), y.ravel(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the dimension of true "
                         f"value (input[1]) add 1, the 'pos_label' must be None, but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                         f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted value "
                         f"{y_pred.shape[1]}.")
    scores = np.moveaxis(y_pred, 1, -1).reshape(-1, class_num)  # one row of class scores per sample
    return scores, y.ravel(), class_num, pos_label


def _binary_roc(y_pred, y, pos_label, sample_weights=None):
    fps, tps, thresholds = binary_clf_curve(y_pred, y, sample_weights, pos_label)
    tps = np.concatenate([[0], tps]).astype(tps.dtype)
    fps = np.concatenate([[0], fps]).astype(fps.dtype)
    thresholds = np.concatenate([[thresholds[0] + 1], thresholds])
    if fps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value is "
                         "meaningless.")
    if tps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                         "meaningless.")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """Receiver operating characteristic: ``eval()`` -> (fpr, tpr, thresholds) for binary scores, or lists of
    them (one per class, one-vs-rest) for (N, C) scores."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = class_num if class_num is None else check_type(class_num, int, "class_num", "ROC")
        self.pos_label = pos_label if pos_label is None else check_type(pos_label, int, "pos_label", "ROC")
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("ROC", inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _prepare(y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    def eval(self):
        check_is_updated(self._is_update)
        if self.class_num == 1:
            return _binary_roc(np.squeeze(self.y_pred), np.squeeze(self.y), self.pos_label)
        fpr, tpr, thresholds = [], [], []
        for c in range(self.class_num):
            f, t, th = _binary_roc(self.y_pred[:, c], self.y, c)
            fpr.append(f)
            tpr.append(t)
            thresholds.append(th)
        return fpr, tpr, thresholds


def auc(x, y, reorder=False):
    """Area under the curve y(x) by the trapezoidal rule; x must be monotonic unless ``reorder``."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[int(np.size(x)), int(np.size(y))]}.")
    for a in (x, y):
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
            raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the "
                             f"second dimension of 1, but got shape {a.shape}.")
    x, y = x.ravel(), y.ravel()
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got "
                         f"{x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array must be increasing or "
                                 f"decreasing, but got 'x': {x}")
            direction = -1
    return np.float64(direction * np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))
