"""mindspore.experimental.optim: PyTorch-style optimizers over parameter groups, with MindSpore 2.10's update
rules, and their ``lr_scheduler`` (docs/mint.md)."""
from .adam import Adam, Adamax, AdamW, NAdam, RAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .others import ASGD, SGD, Adadelta, Adagrad, RMSprop, Rprop  # noqa: F401
from . import lr_scheduler  # noqa: F401,E402
