"""nn layers, one module per family."""
from .activation import (ReLU, ReLU6, Sigmoid, Tanh, GELU, FastGelu, SiLU, LeakyReLU, ELU, Softplus,  # noqa: F401
                         Softmax, LogSoftmax, HSwish, HSigmoid, Mish, LogSigmoid, Softsign, get_activation)
from .basic import Dense, Flatten, Dropout, Identity  # noqa: F401
from .container import SequentialCell, CellList, CellDict  # noqa: F401
from .conv import Conv1d, Conv2d, Conv3d  # noqa: F401
from .conv_transpose import Conv1dTranspose, Conv2dTranspose, Conv3dTranspose  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .pooling import MaxPool2d, AvgPool2d  # noqa: F401
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm  # noqa: F401
