"""mindspore.mint.nn: PyTorch-style layers and losses (``mint.nn.Linear``, ``mint.nn.Conv2d`` ...) and
``mint.nn.functional``."""
from ...nn import AdaptiveMaxPool2d, Cell, Identity, Linear, ReLU, SoftMarginLoss  # noqa: F401
from . import functional  # noqa: F401
from . import functional as F  # noqa: F401
from .layers import (  # noqa: F401
    BatchNorm1d, BatchNorm2d, BatchNorm3d, Conv1d, Conv2d, Conv3d, ConvTranspose2d, Embedding, GroupNorm, LayerNorm,
    PReLU, SyncBatchNorm)
from .loss import (  # noqa: F401
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
    SmoothL1Loss)
from .simple import (  # noqa: F401
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AvgPool1d, AvgPool2d, AvgPool3d,
    ConstantPad1d, ConstantPad2d, ConstantPad3d, Dropout, Dropout2d, ELU, Flatten, Fold, GELU, GLU, Hardshrink,
    Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, LogSoftmax, MaxPool2d, MaxUnpool2d, Mish, PixelShuffle,
    ReLU6, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
    SELU,
    SiLU, Sigmoid, Softmax, Softshrink, Tanh, Threshold, Unfold, Upsample, UpsamplingBilinear2d,
    UpsamplingNearest2d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
