"""``mindspore.common.dtype`` (``import mindspore.common.dtype as mstype``)."""
from ..dtype import *  # noqa: F401,F403
from ..dtype import Type, dtype_to_nptype, pytype_to_dtype  # noqa: F401
from ..dtype import __getattr__  # noqa: F401  (mstype.int / float / bool, served without shadowing the builtins)
