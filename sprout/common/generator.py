"""``mindspore.common.generator``: the Generator class and the default generator's functions (defined in core)."""
from ..core.generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,  # noqa: F401
                              seed, set_rng_state)
