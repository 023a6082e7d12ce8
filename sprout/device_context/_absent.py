"""What the backends sprout does not have answer (``device_context.gpu`` / ``device_context.ascend``)."""
from __future__ import annotations


def absent(target: str):
    def is_available() -> bool:
        """False: sprout runs on the CPU only."""
        return False

    def device_count() -> int:
        raise RuntimeError(f"Device_target {target} not exist.")

    return is_available, device_count
