"""Suite-wide: every graph the tests compile is verified after tracing and after each pass."""
from sprout import context

context.set_default(verify_ir=True)
