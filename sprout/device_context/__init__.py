"""``mindspore.device_context``: per-backend queries and settings (``device_context.cpu.is_available()`` ...).
sprout has the CPU backend only; ``gpu`` and ``ascend`` report that they are not available."""
from . import ascend, cpu, gpu  # noqa: F401
