"""``mindspore.hal``: device queries for the CPU backend sprout has (GPU and Ascend are reported unavailable)."""
from __future__ import annotations

from .runtime import empty_cache, synchronize  # noqa: F401

_TARGETS = ("CPU", "GPU", "Ascend")


def _target(api: str, device_target) -> str:
    if device_target not in _TARGETS:
        raise ValueError(f"For 'hal.{api}', the argument 'device_target' must be one of {list(_TARGETS)}, "
                         f"but got {device_target}.")
    return device_target


def _cpu_only(api: str, device_target) -> None:
    target = _target(api, "CPU" if device_target is None else device_target)
    if target != "CPU":
        raise ValueError(f"{target} backend is not available for this sprout package. You can call "
                         "hal.is_available to check the reason.")


def is_available(device_target) -> bool:
    return _target("is_available", device_target) == "CPU"


def is_initialized(device_target) -> bool:
    """Whether the device's runtime was initialised: sprout has no device runtime, so False (as MindSpore's CPU)."""
    _target("is_initialized", device_target)
    return False


def device_count(device_target=None) -> int:
    _cpu_only("device_count", device_target)
    return 1


def get_device_name(device_id, device_target=None) -> str:
    _cpu_only("get_device_name", device_target)
    if device_id != 0:
        raise ValueError(f"For 'hal.get_device_name', 'device_id' must be 0 on the CPU, but got {device_id}.")
    return "CPU"


def get_device_capability(device_id, device_target=None):
    """None on the CPU, as in MindSpore."""
    _cpu_only("get_device_capability", device_target)
    return None


def get_device_properties(device_id, device_target=None):
    """None on the CPU, as in MindSpore."""
    _cpu_only("get_device_properties", device_target)
    return None


def get_arch_list(device_target=None):
    """None on the CPU, as in MindSpore."""
    _cpu_only("get_arch_list", device_target)
    return None
