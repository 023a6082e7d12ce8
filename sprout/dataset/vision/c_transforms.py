"""MindSpore 1.x path ``dataset.vision.c_transforms``: the same image transforms."""
from .geometry import (Border, CenterCrop, Inter, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip,
                       Resize)
from .transforms import HWC2CHW, Normalize, Rescale

__all__ = ["Border", "CenterCrop", "HWC2CHW", "Inter", "Normalize", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Rescale", "Resize"]
