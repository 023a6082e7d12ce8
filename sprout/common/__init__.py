"""``mindspore.common``: initializers plus the Tensor/Parameter/dtype names MindSpore code imports from here."""
from . import dtype  # noqa: F401  (re-exports sprout.dtype)
from ..core.tensor import Tensor, Parameter, ParameterTuple  # noqa: F401
from .._seed import set_seed, get_seed  # noqa: F401
from . import initializer  # noqa: F401  (the module, as in MindSpore: common.initializer.Normal)


def __getattr__(name):
    # ``from mindspore.common import mutable`` / ``common.api``: the jit layer sits above common, so these
    # load on first use (importing them here would make common depend on jit at import time)
    if name in ("mutable", "jit_class", "jit", "ms_function", "JitConfig"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
