"""``mindspore.common.parameter``: Parameter and ParameterTuple."""
from ..core.tensor import Parameter, ParameterTuple  # noqa: F401
