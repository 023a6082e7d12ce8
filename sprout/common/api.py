"""``mindspore.common.api``: the jit decorators and ``mutable`` under the path MindSpore code imports them from."""
from ..jit.api import JitConfig, jit, ms_function, mutable  # noqa: F401
from ..jit.classes import jit_class  # noqa: F401

__all__ = ["jit", "ms_function", "jit_class", "JitConfig", "mutable"]
