"""The Metric base class (clear / update / eval) and the ``rearrange_inputs`` decorator."""
from __future__ import annotations

import functools

import numpy as np


def rearrange_inputs(func):
    """Decorate ``update`` so that, after ``set_indexes([i, j])``, it receives ``inputs[i], inputs[j]``."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            inputs = [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


class Metric:
    """Base class of evaluation metrics: ``clear()`` resets the state, ``update(*inputs)`` accumulates a
    batch, ``eval()`` returns the result. Calling a metric runs clear, update and eval on one batch."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data) -> np.ndarray:
        if hasattr(data, "asnumpy"):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError(f"For '{type(self).__name__}', the input data type must be tensor, list or numpy.ndarray, "
                        f"but got {type(data)}.")

    @property
    def indexes(self):
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Choose which of the evaluation network's outputs ``update`` receives, e.g. ``[1, 2]``."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                             "be int.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    def clear(self):
        raise NotImplementedError(f"{type(self).__name__} must define clear()")

    def update(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} must define update()")

    def eval(self):
        raise NotImplementedError(f"{type(self).__name__} must define eval()")


def check_onehot(data: np.ndarray) -> bool:
    """True if ``data`` (N, C, ...) is one-hot along axis 1."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        return bool(np.equal(data.sum(axis=1), 1).all())
    return False


def check_inputs(owner: str, inputs, count: int, what: str) -> None:
    if len(inputs) != count:
        raise ValueError(f"For '{owner}.update', it needs {count} inputs ({what}), but got {len(inputs)}.")


def empty_error(owner: str) -> RuntimeError:
    return RuntimeError(f"The '{owner}' can not be calculated, because the number of samples is 0, please check "
                        "whether your inputs are empty, or has called update method before calling eval method.")


_EVAL_TYPES = ("classification", "multilabel")


class EvaluationBase(Metric):
    """Base of the metrics that take ``eval_type`` "classification" (scores (N, C, ...) against class indices)
    or "multilabel" (0/1 predictions against 0/1 labels of the same shape)."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"The argument 'eval_type' must be in {set(_EVAL_TYPES)}, but got {eval_type}")
        self._type = eval_type

    def _check_shape(self, y_pred, y) -> None:
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"In classification case, the dimension of y_pred (predicted value) should equal to "
                                 f"the dimension of y (true value) add 1, but got y_pred dimension: {y_pred.ndim} and "
                                 f"y dimension: {y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"In classification case, y should have the shape of y_pred without axis 1, but got "
                                 f"y_pred shape {y_pred.shape} and y shape {y.shape}.")
        elif y_pred.shape != y.shape:
            raise ValueError(f"In {self._type} case, the shape of y_pred (predicted value) should equal to the shape "
                             f"of y (true value), but got y_pred shape: {y_pred.shape} and y shape: {y.shape}.")

    def _check_value(self, y_pred, y) -> None:
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                             "be 0 or 1.")


def check_is_updated(updated: bool) -> None:
    if not updated:
        raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


def check_type(value, types, name: str, owner: str):
    types = types if isinstance(types, tuple) else (types,)
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        names = [t.__name__ for t in types]
        raise TypeError(f"For '{owner}', the type of '{name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"{names if len(names) > 1 else names[0]}, but got type '{type(value).__name__}'.")
    return value
