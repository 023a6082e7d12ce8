"""``sprout.dataset.transforms``: general transforms (TypeCast, OneHot, Compose, ...)."""
from .transforms import Compose, Duplicate, Fill, OneHot, TensorOperation, TypeCast

__all__ = ["Compose", "Duplicate", "Fill", "OneHot", "TensorOperation", "TypeCast"]
