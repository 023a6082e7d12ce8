"""Syntax graph mode refuses, checked on the whole function at the first call (never at decoration)."""
from __future__ import annotations

import ast
import builtins

from ...core.errors import JitNameError, JitSyntaxError, locate
from .scope import bound_anywhere

# node type -> (what it is, one-line hint). Refused in every syntax level.
REFUSED: dict[type, tuple[str, str]] = {
    ast.Try: ("try/except", "handle errors outside the jitted function"),
    ast.With: ("a with statement", "enter the context outside the jitted function"),
    ast.AsyncWith: ("async with", "jitted functions cannot be coroutines"),
    ast.Delete: ("del", "rebind the name instead, or drop the statement"),
    ast.ClassDef: ("a class definition", "define the class at module level and use it from the function"),
    ast.Import: ("import", "import at module level; the jitted function reads the module as a global"),
    ast.ImportFrom: ("import", "import at module level; the jitted function reads the module as a global"),
    ast.Yield: ("yield (a generator)", "return a tuple or list instead"),
    ast.YieldFrom: ("yield from (a generator)", "return a tuple or list instead"),
    ast.AsyncFunctionDef: ("an async function", "jitted functions cannot be coroutines"),
    ast.Await: ("await", "jitted functions cannot be coroutines"),
    ast.AsyncFor: ("async for", "jitted functions cannot be coroutines"),
    ast.Nonlocal: ("nonlocal", "return the new value instead of writing an enclosing function's variable"),
    ast.Set: ("a set literal", "use a tuple or list"),
    ast.SetComp: ("a set comprehension", "use a list comprehension"),
    ast.Match: ("a match statement", "use if/elif"),
}
if hasattr(ast, "TryStar"):
    REFUSED[ast.TryStar] = REFUSED[ast.Try]

# refused only under jit_syntax_level=STRICT
STRICT_REFUSED: dict[type, tuple[str, str]] = {
    ast.NamedExpr: ("an assignment expression (:=)", "assign on its own line, or use jit_syntax_level=LAX"),
}


def check(fn_node: ast.AST, filename: str, syntax_level: str, fn=None) -> None:
    """Raise a located JitSyntaxError for the first refused construct in ``fn_node``, and a
    JitNameError for a name that is neither bound in the function nor a global/closure/builtin."""
    for node in ast.walk(fn_node):
        kind = REFUSED.get(type(node))
        if kind is None and syntax_level == "STRICT":
            kind = STRICT_REFUSED.get(type(node))
        if kind is not None and node is not fn_node:
            what, hint = kind
            level = " with jit_syntax_level=STRICT" if type(node) in STRICT_REFUSED else ""
            raise JitSyntaxError(f"{what} is not supported inside a jitted function{level}",
                                 locate(node, filename), hint)
    if fn is not None:
        _check_names(fn_node, filename, fn)


def _check_names(fn_node: ast.AST, filename: str, fn) -> None:
    bound = bound_anywhere(fn_node)
    known = set(fn.__code__.co_freevars) | bound
    glb = fn.__globals__
    blt = glb.get("__builtins__", builtins)
    blt = blt if isinstance(blt, dict) else vars(blt)
    for node in ast.walk(fn_node):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            name = node.id
            if name in known or name in glb or name in blt:
                continue
            raise JitNameError(f"name '{name}' is not defined", locate(node, filename),
                               "define it (as a global, argument or local) before the jitted function runs")
