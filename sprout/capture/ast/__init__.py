"""PSJit front-end: convert a function's AST so tensor control flow becomes Cond / WhileLoop ops."""
from .source import SYNTAX_LEVELS, convert, is_converted, show  # noqa: F401
from .runtime import AttrWrites  # noqa: F401
