"""Capture front-ends: turn Python functions into sprout IR (AST conversion, tracing)."""
from ..core.errors import (JitNameError, JitSyntaxError, JitTypeError, JitValueError, SourceLoc,  # noqa: F401
                     locate, user_frame, user_loc)
from . import control as _control  # noqa: E402,F401  (installs core.hooks.while_loop)
