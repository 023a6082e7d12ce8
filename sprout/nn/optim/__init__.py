"""Optimizers: Optimizer base, SGD, Momentum, Adam, AdamWeightDecay."""
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .momentum import Momentum  # noqa: F401
from .adam import Adam, AdamWeightDecay  # noqa: F401
