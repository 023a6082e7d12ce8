"""``jit_class``: mark a user-defined class whose instances jitted code uses (attributes and methods)."""
from __future__ import annotations


def jit_class(cls):
    """MindSpore's ``@jit_class``: lets graph-mode code use the class's objects -- read their attributes and
    call their methods (converted like any user function, tensor control flow included). Returns the class,
    marked with ``__ms_class__ = True``."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if any(c.__name__ == "Cell" and c.__module__.startswith("sprout.nn") for c in cls.__mro__):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls
