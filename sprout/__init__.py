"""sprout: MindSpore's programming model (PyNative, graph mode, @jit) in pure Python on NumPy."""
from . import dtype  # noqa: F401
from .dtype import (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16,  # noqa: F401
                    float32, float64, half, single, double, dtype_to_nptype, pytype_to_dtype)
from . import context  # noqa: F401
from .context import set_context, get_context, GRAPH_MODE, PYNATIVE_MODE  # noqa: F401
from .core.tensor import Tensor, Parameter, ParameterTuple  # noqa: F401
from . import ops  # noqa: F401
from .autodiff.api import grad, value_and_grad, vjp  # noqa: F401
from ._seed import set_seed, get_seed  # noqa: F401

__version__ = "0.1.0"
