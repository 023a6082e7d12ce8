"""MindSpore 1.x path ``dataset.transforms.py_transforms``: the same transforms."""
from . import *  # noqa: F403
from . import __all__  # noqa: F401
