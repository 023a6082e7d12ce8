"""MindSpore's ``mindspore.parallel``: parallel modes, strategy-search parameters, ``Layout`` and the device
mesh used by data parallel now and by ``shard`` later (docs/distributed.md)."""
from ..context import ParallelMode, get_algo_parameters, reset_algo_parameters, set_algo_parameters  # noqa: F401
from .layout import DeviceMesh, Layout  # noqa: F401

__all__ = ["ParallelMode", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "Layout",
           "DeviceMesh"]
