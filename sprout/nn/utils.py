"""``mindspore.nn.utils``: ``no_init_parameters``, deferring the initial values of Parameters."""
from __future__ import annotations

from contextlib import contextmanager

from ..core.lazy_init import defer


@contextmanager
def no_init_parameters():
    """``with no_init_parameters(): net = Net()`` -- Parameters created from ``initializer(...)`` inside keep their
    initializer instead of values (``has_init`` is True, ``init`` is the initializer) and use no memory for them.
    ``load_checkpoint`` / ``set_data`` fill them without drawing the initial values; ``net.init_parameters_data()``,
    ``Parameter.init_data()`` or any first use of a Parameter's values (running the net) draws them then."""
    with defer():
        yield


__all__ = ["no_init_parameters"]
