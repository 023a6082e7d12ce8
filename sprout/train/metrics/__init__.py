"""Evaluation metrics (MindSpore's ``mindspore.train.metrics``) and lookup by name."""
from .metric import Metric, rearrange_inputs
from .accuracy import Accuracy, TopKCategoricalAccuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy
from .error import Loss, MAE, MSE

__factory__ = {
    "accuracy": Accuracy, "acc": Accuracy, "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE, "mse": MSE, "loss": Loss,
}


def names() -> list:
    """The metric names ``get_metric_fn`` and ``Model(metrics={...})`` accept."""
    return sorted(__factory__)


def get_metric_fn(name, *args, **kwargs) -> Metric:
    """A new metric by name (``"acc"``, ``"loss"``, ``"mae"`` ...)."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name!r}; sprout supports {names()}")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """``None``, a dict name -> Metric (kept), or a set of names (each made by ``get_metric_fn``, in sorted
    order so results print the same on every run)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the keys must be str and the values "
                                f"Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in sorted(metrics)}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics!r}")


__all__ = ["Metric", "rearrange_inputs", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Loss", "MAE", "MSE", "names", "get_metric_fn", "get_metrics"]
