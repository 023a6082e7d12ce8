"""Surface-distance metrics of segmentation masks: HausdorffDistance, MeanSurfaceDistance and
RootMeanSquareDistance (edges = mask minus its binary erosion; distances by SciPy's distance transforms)."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_is_updated, check_type, rearrange_inputs

_METRICS = ("euclidean", "chessboard", "taxicab")


def _distance_metric(value, owner: str) -> str:
    check_type(value, str, "distance_metric", owner)
    if value not in _METRICS:
        raise ValueError(f"The 'distance_metric' must be str and must be in {list(_METRICS)}, but got '{value}'.")
    return value


def _ndimage():
    """scipy.ndimage, imported on first use (importing it costs ~0.3 s of every `import sprout`)."""
    from scipy import ndimage
    return ndimage


def _edges(mask):
    return _ndimage().binary_erosion(mask) ^ mask


def surface_distances(from_edges, to_edges, metric: str):
    """The distance of every edge voxel of ``from_edges`` to the nearest edge voxel of ``to_edges``."""
    if not np.any(from_edges):
        return np.array([])
    if not np.any(to_edges):
        dist = np.full(to_edges.shape, np.inf)
    elif metric == "euclidean":
        dist = _ndimage().distance_transform_edt(~to_edges)
    else:
        dist = _ndimage().distance_transform_cdt(~to_edges, metric=metric)
    return dist[from_edges]


def _masks(metric, inputs, owner: str, label_error=ValueError):
    """(prediction mask, truth mask) of ``label_idx`` from (y_pred, y, label_idx)."""
    if len(inputs) != 3:
        raise ValueError(f"For '{owner}.update', it needs 3 inputs (predicted value, true value, label index), but "
                         f"got {len(inputs)}.")
    y_pred = metric._convert_data(inputs[0])
    y = metric._convert_data(inputs[1])
    label = inputs[2]
    if isinstance(label, bool) or not isinstance(label, (int, float)):
        raise label_error(f"For '{owner}.update', the label index (input[2]) must be int or float, but got "
                          f"{type(label)}.")
    if label not in y_pred and label not in y:
        raise ValueError(f"For '{owner}.update', the label index (input[2]) must be in predicted value (input[0]) "
                         f"or true value (input[1]), but {label} is not.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"For '{owner}.update', the size of predicted value (input[0]) and true value (input[1]) "
                         f"must be greater than 0, and they must have the same shape, but got predicted value size: "
                         f"{y_pred.size}, shape: {y_pred.shape}, true value size: {y.size}, shape: {y.shape}.")
    return (y_pred if y_pred.dtype == bool else y_pred == label), (y if y.dtype == bool else y == label)


class HausdorffDistance(Metric):
    """The largest (or ``percentile``) distance between the edges of the predicted and true masks of a label;
    ``directed``: from the prediction only; ``crop``: to the bounding box of both masks first."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        owner = "HausdorffDistance"
        self.distance_metric = _distance_metric(distance_metric, owner)
        self.percentile = percentile if percentile is None else check_type(percentile, float, "percentile", owner)
        self.directed = directed if directed is None else check_type(directed, bool, "directed", owner)
        self.crop = crop if crop is None else check_type(crop, bool, "crop", owner)
        self.clear()

    def clear(self):
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    def _cropped_edges(self, y_pred, y):
        if self.crop:
            both = y_pred | y
            if not np.any(both):
                return np.zeros_like(y_pred), np.zeros_like(y)
            nz = np.nonzero(both)
            box = tuple(slice(int(idx.min()), int(idx.max()) + 1) for idx in nz)
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        return _edges(y_pred), _edges(y)

    @rearrange_inputs
    def update(self, *inputs):
        self._is_update = True
        y_pred, y = _masks(self, inputs, "HausdorffDistance")
        self.y_pred_edges, self.y_edges = self._cropped_edges(y_pred, y)

    def _directed(self, from_edges, to_edges):
        d = surface_distances(from_edges, to_edges, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        if not self.percentile:
            return d.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(d, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], but got "
                         f"{self.percentile}.")

    def eval(self):
        check_is_updated(self._is_update)
        hd = self._directed(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._directed(self.y_edges, self.y_pred_edges))


class _SymmetricSurface(Metric):
    _owner = ""
    _label_error = ValueError

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric_list = list(_METRICS)
        self.distance_metric = _distance_metric(distance_metric, self._owner)
        self.symmetric = check_type(symmetric, bool, "symmetric", self._owner)
        self.clear()

    def clear(self):
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _masks(self, inputs, self._owner, self._label_error)
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True

    def _distances(self, reverse: bool):
        a, b = (self._y_edges, self._y_pred_edges) if reverse else (self._y_pred_edges, self._y_edges)
        return surface_distances(a, b, self.distance_metric)


class MeanSurfaceDistance(_SymmetricSurface):
    """Mean distance from the predicted edges to the true edges (``symmetric``: the mean of both directions)."""

    _owner = "MeanSurfaceDistance"

    def eval(self):
        check_is_updated(self._is_update)
        d = self._distances(False)
        if d.shape == (0,):
            return np.inf
        if not self.symmetric:
            return d.mean()
        back = self._distances(True)
        if back.shape == (0,):
            return np.inf
        return np.mean((d.mean(), back.mean()))


class RootMeanSquareDistance(_SymmetricSurface):
    """Mean squared edge distance; with ``symmetric`` the square root of the mean over both directions (MindSpore
    takes no square root in the one-directional case)."""

    _owner = "RootMeanSquareDistance"
    _label_error = TypeError

    def eval(self):
        check_is_updated(self._is_update)
        d = self._distances(False)
        if d.shape == (0,):
            return np.inf
        ms = (d ** 2).mean()
        if not self.symmetric:
            return ms
        back = self._distances(True)
        if back.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((ms, (back ** 2).mean())))
