"""``mindspore.ops.operations`` (``from mindspore.ops import operations as P``): the primitive classes."""
from .primitive_classes import *  # noqa: F401,F403
from .primitive_classes import __all__  # noqa: F401
