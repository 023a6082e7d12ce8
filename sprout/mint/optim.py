"""mindspore.mint.optim: PyTorch-style optimizers (param groups, ``lr`` as a group entry) — MindSpore's
``experimental.optim`` classes."""
from ..experimental.optim import SGD, Adam, AdamW  # noqa: F401

FusedAdamW = AdamW
