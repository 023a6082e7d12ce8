"""Evaluation metrics (MindSpore's ``mindspore.train.metrics``, also reachable as ``nn.<Name>``) and lookup by
name."""
from .metric import Metric, EvaluationBase, rearrange_inputs
from .accuracy import Accuracy, TopKCategoricalAccuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy
from .error import Loss, MAE, MSE
from .classification import Precision, Recall, Fbeta, F1, Dice
from .confusion import ConfusionMatrix, ConfusionMatrixMetric
from .curves import ROC, auc
from .distances import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance
from .misc import BleuScore, CosineSimilarity, Perplexity, OcclusionSensitivity

__factory__ = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1, "dice": Dice,
    "roc": ROC, "auc": auc, "bleu_score": BleuScore, "cosine_similarity": CosineSimilarity,
    "occlusion_sensitivity": OcclusionSensitivity, "topk": TopKCategoricalAccuracy,
    "hausdorff_distance": HausdorffDistance, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
    "mean_surface_distance": MeanSurfaceDistance, "root_mean_square_distance": RootMeanSquareDistance,
    "perplexity": Perplexity, "confusion_matrix": ConfusionMatrix, "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names() -> list:
    """The metric names ``get_metric_fn`` and ``Model(metrics={...})`` accept."""
    return sorted(__factory__)


def get_metric_fn(name, *args, **kwargs) -> Metric:
    """A new metric by name (``"acc"``, ``"loss"``, ``"mae"`` ...); ``"auc"`` is the function itself, called."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website for more "
                       f"details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """``None``, a dict name -> Metric (kept), or a set of names (each made by ``get_metric_fn``, in sorted
    order so results print the same on every run)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in sorted(metrics)}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")


__all__ = ["Metric", "EvaluationBase", "rearrange_inputs", "Accuracy", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta",
           "F1", "Dice", "ConfusionMatrix", "ConfusionMatrixMetric", "ROC", "auc", "HausdorffDistance",
           "MeanSurfaceDistance", "RootMeanSquareDistance", "BleuScore", "CosineSimilarity", "Perplexity",
           "OcclusionSensitivity", "names", "get_metric_fn", "get_metrics"]
