"""MindSpore 1.x path ``dataset.vision.py_transforms``: the same image transforms (they accept PIL images)."""
from . import *  # noqa: F403
from . import __all__  # noqa: F401
