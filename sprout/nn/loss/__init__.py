"""Loss cells (``mindspore.nn.loss``; ``nn.loss.loss`` is the module holding them, as in MindSpore)."""
from . import loss  # noqa: F401
from .loss import (LossBase, _Loss, L1Loss, MAELoss, MSELoss, RMSELoss, SmoothL1Loss,  # noqa: F401
                   SoftmaxCrossEntropyWithLogits, CrossEntropyLoss, NLLLoss, BCELoss, BCEWithLogitsLoss)
from .loss_ext import *  # noqa: F401,F403
