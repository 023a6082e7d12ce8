"""The IR: typed SSA graphs (Var, Const, Node, Graph), the builder, printer and verifier."""
from .graph import Const, Graph, Node, SourceLoc, Var  # noqa: F401
from .verify import IRError, verify  # noqa: F401
