"""sprout.nn: Cell, layers, losses, optimizers, learning-rate schedules and training wrappers (MindSpore names)."""
from .cell import Cell  # noqa: F401
from . import layers, optim, loss, wrap, learning_rate_schedule  # noqa: F401
from .layers import *  # noqa: F401,F403
from .loss import (LossBase, L1Loss, MAELoss, MSELoss, RMSELoss, SmoothL1Loss,  # noqa: F401
                   SoftmaxCrossEntropyWithLogits, CrossEntropyLoss, NLLLoss, BCELoss, BCEWithLogitsLoss)
from .loss.loss_ext import *  # noqa: F401,F403
from .loss.sampled import SampledSoftmaxLoss  # noqa: F401
from .optim import (Optimizer, SGD, Momentum, Adam, AdamOffload, AdamWeightDecay, RMSProp, Adagrad, ProximalAdagrad,  # noqa: F401
                    Adadelta, AdaMax, LazyAdam, FTRL, Lamb, LARS, ASGD, Rprop, AdaFactor, AdaSumByGradWrapCell,
                    AdaSumByDeltaWeightWrapCell)
from .learning_rate_schedule import (LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR,  # noqa: F401
                                     InverseDecayLR, CosineDecayLR, PolynomialDecayLR, WarmUpLR)
from .wrap import WithLossCell, WithEvalCell, WithGradCell, TrainOneStepCell  # noqa: F401
from .wrap_extra import (ForwardValueAndGrad, GradAccumulationCell, PipelineCell, MicroBatchInterleaved,  # noqa: F401
                         ParameterUpdate, VirtualDatasetCellTriple, Jvp, Vjp)
from .grad_reducer import DistributedGradReducer  # noqa: F401
from .pipeline import PipelineGradReducer  # noqa: F401
from .graph_cell import GraphCell  # noqa: F401
from . import utils  # noqa: F401
from .utils import no_init_parameters  # noqa: F401
from .loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,  # noqa: F401
                         TrainOneStepWithLossScaleCell)

# MindSpore's nn.exponential_decay_lr ... (lists of per-step values) live in sprout.train.lr; resolved lazily
# because sprout.train itself imports nn.
_DYNAMIC_LR = ("piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
               "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr")


# MindSpore's nn re-exports the metrics (nn.Accuracy, nn.F1, nn.Loss (the metric) ...); also resolved lazily.
_METRICS = ("Accuracy", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric", "CosineSimilarity", "Dice", "F1",
            "Fbeta", "HausdorffDistance", "Loss", "MAE", "MSE", "MeanSurfaceDistance", "Metric", "OcclusionSensitivity",
            "Perplexity", "Precision", "ROC", "Recall", "RootMeanSquareDistance", "Top1CategoricalAccuracy",
            "Top5CategoricalAccuracy", "TopKCategoricalAccuracy", "auc", "get_metric_fn", "get_metrics", "names",
            "rearrange_inputs", "metrics")


# MindSpore's nn.<Name>Ext cells are the mint.nn layers (the same classes); sprout.mint imports nn, so lazily.
_EXT = {"AvgPool1dExt": "AvgPool1d", "AvgPool2dExt": "AvgPool2d", "AvgPool3dExt": "AvgPool3d",
        "Dropout2dExt": "Dropout2d", "DropoutExt": "Dropout", "EmbeddingExt": "Embedding", "LayerNormExt": "LayerNorm",
        "LogSoftmaxExt": "LogSoftmax", "MaxPool2dExt": "MaxPool2d", "PReLUExt": "PReLU",
        # defined in MindSpore's nn.layer.activation / nn.layer.basic but not exported by its nn (so not in dir())
        "SoftmaxExt": "Softmax", "UpsampleExt": "Upsample", "UnfoldExt": "Unfold", "Fold": "Fold"}
_LAYER_MODULE_ONLY = {"SoftmaxExt", "UpsampleExt", "UnfoldExt", "Fold"}


def __dir__():
    return sorted(set(globals()) | set(_DYNAMIC_LR) | set(_METRICS) | (set(_EXT) - _LAYER_MODULE_ONLY))


def __getattr__(name):
    if name in _EXT:
        from ..mint import nn as mint_nn

        return getattr(mint_nn, _EXT[name])
    if name in _DYNAMIC_LR:
        from ..train import lr

        return getattr(lr, name)
    if name in _METRICS:
        from ..train import metrics

        return metrics if name == "metrics" else getattr(metrics, name)
    raise AttributeError(f"module 'sprout.nn' has no attribute '{name}'")
