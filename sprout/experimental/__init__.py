"""mindspore.experimental: PyTorch-style optimizers and learning-rate schedulers (``experimental.optim``)."""
from . import optim  # noqa: F401
