"""``mindspore.device_context.ascend``: not available in sprout (CPU only)."""
from ._absent import absent

is_available, device_count = absent("Ascend")
