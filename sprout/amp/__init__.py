"""``mindspore.amp``: automatic mixed precision (O0-O3), loss scalers, loss-scale managers, build_train_network."""
from .levels import (AMP_BLACK_LIST, AMP_WHITE_LIST, auto_mixed_precision, custom_mixed_precision,  # noqa: F401
                     get_black_list, get_white_list)
from .scaler import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite  # noqa: F401
from .training import build_train_network  # noqa: F401
from ..train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager  # noqa: F401

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "DynamicLossScaler", "StaticLossScaler", "LossScaler", "auto_mixed_precision", "all_finite",
           "custom_mixed_precision", "get_white_list", "get_black_list"]
