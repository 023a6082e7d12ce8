"""``mindspore.common.tensor``: Tensor."""
from ..core.tensor import Tensor  # noqa: F401
