"""``sprout.dataset.transforms``: general transforms (TypeCast, OneHot, Compose, PadEnd, RandomApply, ...)."""
from .transforms import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd, RandomApply, RandomChoice,
                         RandomOrder, Relational, Slice, TensorOperation, TypeCast)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply", "RandomChoice",
           "RandomOrder", "Relational", "Slice", "TensorOperation", "TypeCast"]
