"""MindSpore 1.x path ``dataset.vision.py_transforms``: ToTensor and HWC2CHW."""
from .transforms import HWC2CHW, ToTensor

__all__ = ["HWC2CHW", "ToTensor"]
