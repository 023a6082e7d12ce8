"""Optimizers: the Optimizer base and MindSpore's optimizers (SGD, Momentum, Adam, RMSProp, Adagrad, Lamb ...)."""
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .momentum import Momentum  # noqa: F401
from .adam import Adam, AdamOffload, AdamWeightDecay  # noqa: F401
from .adaptive import RMSProp, Adagrad, ProximalAdagrad, Adadelta, AdaMax, LazyAdam, FTRL  # noqa: F401
from .layerwise import Lamb, LARS, ASGD, Rprop, AdaFactor  # noqa: F401
from .adasum import AdaSumByGradWrapCell, AdaSumByDeltaWeightWrapCell  # noqa: F401
