"""``sprout.dataset.vision``: image transforms on NumPy HWC images."""
from .geometry import (Border, CenterCrop, Inter, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip,
                       Resize)
from .transforms import HWC2CHW, Normalize, Rescale, ToTensor

__all__ = ["Border", "CenterCrop", "HWC2CHW", "Inter", "Normalize", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Rescale", "Resize", "ToTensor"]
