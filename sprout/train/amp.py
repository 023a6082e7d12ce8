"""``mindspore.train.amp``: the mixed-precision entry points under their training-package path."""
from ..amp.levels import (auto_mixed_precision, custom_mixed_precision, get_black_list,  # noqa: F401
                          get_white_list)
from ..amp.training import build_train_network  # noqa: F401
