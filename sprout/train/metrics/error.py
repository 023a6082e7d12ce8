"""Loss (mean of per-batch losses), MAE and MSE."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_inputs, empty_error, rearrange_inputs


class Loss(Metric):
    """Mean over batches of the (batch-mean) loss."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("Loss", inputs, 1, "loss")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        self._sum_loss += float(loss.mean(-1))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise empty_error("Loss")
        return self._sum_loss / self._total_num


class _ErrorMetric(Metric):
    """Sum of a per-element error, divided by the number of samples (rows)."""

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    def __init__(self):
        super().__init__()
        self.clear()

    @staticmethod
    def _error(diff):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs(type(self).__name__, inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        diff = y.reshape(y_pred.shape) - y_pred
        self._error_sum += float(self._error(diff).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise empty_error(type(self).__name__)
        return self._error_sum / self._samples_num


class MAE(_ErrorMetric):
    """Mean absolute error: sum |y - y_pred| over all elements divided by the number of samples."""

    @staticmethod
    def _error(diff):
        return np.abs(diff)


class MSE(_ErrorMetric):
    """Mean squared error: sum (y - y_pred)^2 over all elements divided by the number of samples."""

    @staticmethod
    def _error(diff):
        return np.square(diff)
