"""MindSpore 1.x path ``dataset.transforms.c_transforms``: the same transforms."""
from .transforms import Compose, Duplicate, Fill, OneHot, TypeCast

__all__ = ["Compose", "Duplicate", "Fill", "OneHot", "TypeCast"]
