"""``mindspore.device_context.cpu``: the CPU backend (always available, one device) and its op tuning."""
from . import op_tuning  # noqa: F401


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1
