"""``mindspore.device_context.gpu``: not available in sprout (CPU only)."""
from ._absent import absent

is_available, device_count = absent("GPU")
