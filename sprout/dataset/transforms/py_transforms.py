"""MindSpore 1.x path ``dataset.transforms.py_transforms``: the same transforms."""
from .transforms import Compose, OneHot

__all__ = ["Compose", "OneHot"]
