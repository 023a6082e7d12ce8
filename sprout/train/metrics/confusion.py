"""ConfusionMatrix (a num_classes x num_classes count, optionally normalised) and ConfusionMatrixMetric (the
confusion-matrix statistics of binarised segmentation masks: sensitivity, precision, F1, MCC, ...)."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_inputs, check_is_updated, check_type, rearrange_inputs


class ConfusionMatrix(Metric):
    """Counts (true class, predicted class) pairs; float predictions of y's rank are thresholded, one rank more
    are argmax-ed over axis 1. ``normalize``: "no_norm", "target" (rows), "prediction" (columns) or "all"."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        self.num_classes = check_type(num_classes, int, "num_classes", "ConfusionMatrix")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        self.normalize = normalize
        self.threshold = check_type(threshold, float, "threshold", "ConfusionMatrix")
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("ConfusionMatrix", inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and true value (input[1]) "
                             f"should have same dimensions, or the dimension of predicted value equals the dimension "
                             f"of true value add 1, but got predicted value ndim: {y_pred.ndim}, true value ndim: "
                             f"{y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        pairs = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        check_is_updated(self._is_update)
        cm = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return cm
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                out = cm / cm.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                out = cm / cm.sum(axis=0, keepdims=True)
            else:
                out = cm / cm.sum()
        out[np.isnan(out)] = 0
        return out


# metric name (any documented alias) -> short key
_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_KEY = {alias: key for key, aliases in _ALIASES.items() for alias in aliases}


def _metric_key(name: str) -> str:
    key = _KEY.get(name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    return key


def _ratio(a, b):
    return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def confusion_statistic(name: str, cm):
    """One statistic of stacked [tp, fp, tn, fn] counts (last axis 4); nan where it is undefined."""
    key = _metric_key(name)
    cm = np.asarray(cm, float)
    if cm.ndim == 1:
        cm = cm[None]
    if cm.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, but "
                         f"got {cm.shape[-1]}.")
    tp, fp, tn, fn = cm[..., 0], cm[..., 1], cm[..., 2], cm[..., 3]
    p, n = tp + fn, fp + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr, tnr = _ratio(tp, p), _ratio(tn, n)
        ppv = _ratio(tp, tp + fp)
        pairs = {
            "tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
            "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
            "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0), "ts": (tp, tp + fn + fp),
            "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0), "f1": (tp * 2.0, tp * 2.0 + fn + fp),
            "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": (np.sqrt(ppv * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0), "mk": (ppv + tn / (tn + fn) - 1.0, 1.0),
        }
        num, den = pairs[key]
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / np.where(den != 0, den, 1), np.nan)
        return num / den


def _tp_fp_tn_fn(y_pred, y, skip_channel: bool):
    """(batch, class, 4) counts of binarised (batch, class, ...) masks."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
    if y_pred.ndim < 2:
        raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                         f"dimensions, but got {y_pred.ndim}.")
    if not skip_channel:  # drop the background channel
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrix', the 'y_shape' should be = y_pred_shape: {y_pred.shape}, but got "
                         f"{y.shape}.")
    b, c = y_pred.shape[:2]
    yp = y_pred.astype(float).reshape(b, c, -1)
    yt = y.astype(float).reshape(b, c, -1)
    tp = (yp + yt == 2).sum(axis=2).astype(float)
    tn = (yp + yt == 0).sum(axis=2).astype(float)
    p = yt.sum(axis=2)
    n = yt.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], axis=-1)


def _reduce(chart, decrease: str):
    """MindSpore's nan-aware reductions of a (batch, class) chart: (value, count of non-nan entries)."""
    chart = np.array(chart, float)
    nans = np.isnan(chart)
    ok = (~nans).astype(float)
    chart[nans] = 0
    if decrease == "mean":
        per = ok.sum(axis=1)
        rows = np.where(per > 0, chart.sum(axis=1) / np.where(per > 0, per, 1), 0.0)
        count = (per > 0).astype(float).sum(axis=0)
        return np.where(count > 0, rows.sum(axis=0) / np.where(count > 0, count, 1), 0.0), count
    if decrease == "sum":
        return np.sum(chart, axis=(0, 1)), ok.sum(axis=(0, 1))
    if decrease == "mean_batch":
        # MindSpore 2.10 stores the reduction function itself here instead of calling it: the metric fails
        raise TypeError("For 'ConfusionMatrixMetric', decrease='mean_batch' fails in MindSpore 2.10 (its table holds "
                        "the function instead of its result); use 'sum_batch' or 'mean'.")
    if decrease == "sum_batch":
        return chart.sum(axis=0), ok.sum(axis=0)
    if decrease == "mean_channel":
        per = ok.sum(axis=1)
        return np.where(per > 0, chart.sum(axis=1) / np.where(per > 0, per, 1), 0.0), per
    if decrease == "sum_channel":
        return chart.sum(axis=1), ok.sum(axis=1)
    return chart, ok


class ConfusionMatrixMetric(Metric):
    """Accumulates tp/fp/tn/fn of binarised (batch, class, ...) masks and reports ``metric_name``; with
    ``calculation_method`` the statistic is computed per update and averaged over the non-nan ones."""

    _DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        owner = "ConfusionMatrixMetric"
        self.skip_channel = check_type(skip_channel, bool, "skip_channel", owner)
        self.calculation_method = check_type(calculation_method, bool, "calculation_method", owner)
        self.metric_name = check_type(metric_name, str, "metric_name", owner)
        check_type(decrease, str, "decrease", owner)
        if decrease not in self._DECREASES:
            raise ValueError(f"The 'decrease' must be str and must be in {list(self._DECREASES)}, but got "
                             f"'{decrease}'.")
        self.decrease = decrease
        self.clear()

    def clear(self):
        self._total_num = 0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("ConfusionMatrixMetric", inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        cm = _tp_fp_tn_fn(y_pred, y, self.skip_channel)
        per_update = self.calculation_method and not (y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        if per_update:
            score, count = _reduce(confusion_statistic(self.metric_name, cm), self.decrease)
            count = int(np.asarray(count).item())
            self._total_num += np.asarray(score).item() * count
            self._class_num += count
        else:
            self._totals += cm.sum(axis=(0, 1))

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, "
                                   "or has called update method before calling eval method.")
            return self._total_num / self._class_num
        return confusion_statistic(self.metric_name, self._totals)
