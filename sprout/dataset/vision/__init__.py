"""``sprout.dataset.vision``: image transforms on NumPy HWC images (and PIL images), MindSpore's semantics."""
from .base import ImageOp
from .color import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue, AdjustSaturation, AdjustSharpness,
                    AutoContrast, ConvertColor, ConvertMode, Equalize, Grayscale, Invert, Posterize,
                    RandomAdjustSharpness, RandomAutoContrast, RandomColor, RandomColorAdjust, RandomEqualize,
                    RandomGrayscale, RandomInvert, RandomLighting, RandomPosterize, RandomSharpness, RandomSolarize,
                    Solarize)
from .decode import (Decode, ImageReadMode, RandomCropDecodeResize, ToNumpy, ToPIL, get_image_num_channels,
                     get_image_size, read_file, read_image)
from .erase import CutMixBatch, CutOut, Erase, FiveCrop, ImageBatchFormat, MixUpBatch, RandomErasing, TenCrop
from .filters import GaussianBlur
from .geometry import (Border, CenterCrop, Crop, HorizontalFlip, Inter, Pad, PadToSize, RandomCrop,
                       RandomHorizontalFlip, RandomResize, RandomResizedCrop, RandomVerticalFlip, Resize, ResizedCrop,
                       VerticalFlip)
from .transforms import HWC2CHW, LinearTransformation, Normalize, NormalizePad, Rescale, ToTensor, ToType
from .warp import Affine, RandomAffine, RandomRotation, Rotate

__all__ = [
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation", "AdjustSharpness", "Affine",
    "AutoContrast", "Border", "CenterCrop", "ConvertColor", "ConvertMode", "Crop", "CutMixBatch", "CutOut", "Decode",
    "Equalize", "Erase", "FiveCrop", "GaussianBlur", "Grayscale", "HWC2CHW", "HorizontalFlip", "ImageBatchFormat",
    "ImageOp", "ImageReadMode", "Inter", "Invert", "LinearTransformation", "MixUpBatch", "Normalize", "NormalizePad",
    "Pad", "PadToSize", "Posterize", "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor",
    "RandomColorAdjust", "RandomCrop", "RandomCropDecodeResize", "RandomEqualize", "RandomErasing", "RandomGrayscale",
    "RandomHorizontalFlip", "RandomInvert", "RandomLighting", "RandomPosterize", "RandomResize", "RandomResizedCrop",
    "RandomRotation", "RandomSharpness", "RandomSolarize", "RandomVerticalFlip", "Rescale", "Resize", "ResizedCrop",
    "Rotate", "Solarize", "TenCrop", "ToNumpy", "ToPIL", "ToTensor", "ToType", "VerticalFlip",
    "get_image_num_channels", "get_image_size", "read_file", "read_image",
]
