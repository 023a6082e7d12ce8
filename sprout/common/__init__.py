"""``mindspore.common``: initializers plus the Tensor/Parameter/dtype names MindSpore code imports from here."""
from . import dtype  # noqa: F401  (re-exports sprout.dtype)
from ..core.tensor import Tensor, Parameter, ParameterTuple  # noqa: F401
from .._seed import set_seed, get_seed  # noqa: F401
from . import initializer  # noqa: F401  (the module, as in MindSpore: common.initializer.Normal)
