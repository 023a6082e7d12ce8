"""MindSpore 1.x path ``dataset.vision.c_transforms``: the same image transforms."""
from . import *  # noqa: F403
from . import __all__  # noqa: F401
