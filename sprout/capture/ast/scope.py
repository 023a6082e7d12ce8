"""Scope facts for the converter: which names a block assigns, which names a function loads."""
from __future__ import annotations

import ast
from collections import Counter

GENERATED = "_sp_"  # prefix of every name the converter invents
HELPER_FN = "_sp_fn_"  # generated local functions: never state variables

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Assigned(ast.NodeVisitor):
    """Names bound in a statement list (not inside nested scopes; walrus targets in comprehensions
    do bind in the enclosing scope). ``x[i] = v`` rebinds ``x`` (a tensor is updated functionally)."""

    def __init__(self):
        self.names: list[str] = []

    def add(self, name: str) -> None:
        if name not in self.names and not name.startswith(HELPER_FN):
            self.names.append(name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.add(node.id)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name):
                self.add(base.id)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.add(node.name)
        for d in node.decorator_list:
            self.visit(d)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.add(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.add(node.target.id)
        self.visit(node.value)

    def _comprehension(self, node) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr):
                self.add(sub.target.id)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Global(self, node: ast.Global) -> None:
        return

    visit_Nonlocal = visit_Global


def assigned_names(stmts) -> list[str]:
    """Names (in first-assignment order) that ``stmts`` bind in the current scope."""
    v = _Assigned()
    for s in stmts if isinstance(stmts, list) else [stmts]:
        v.visit(s)
    return v.names


def load_counts(node: ast.AST) -> Counter:
    """How many times each name is read anywhere under ``node`` (nested scopes included)."""
    counts: Counter = Counter()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            counts[sub.id] += 1
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            counts[sub.target.id] += 1
    return counts


def bound_anywhere(fn: ast.AST) -> set[str]:
    """Every name bound anywhere in ``fn`` or the scopes nested in it (arguments, targets, defs,
    comprehension variables, imports): the set an undefined-name check must not flag."""
    names: set[str] = set()
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(sub.name)
        elif isinstance(sub, ast.alias):
            names.add((sub.asname or sub.name).split(".")[0])
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            names.add(sub.name)
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            names.update(sub.names)
        elif isinstance(sub, ast.MatchAs) and sub.name:
            names.add(sub.name)
    return names


def contains(stmts, types, *, stop=_SCOPES) -> bool:
    """True if a node of ``types`` occurs in ``stmts`` outside nested scopes of type ``stop``."""
    todo = list(stmts) if isinstance(stmts, list) else [stmts]
    while todo:
        node = todo.pop()
        if isinstance(node, types):
            return True
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, stop):
                todo.append(child)
    return False


LOOPS = (ast.For, ast.While, ast.AsyncFor)


def has_return(stmts) -> bool:
    return contains(stmts, ast.Return)


def has_loop_exit(stmts) -> bool:
    """A ``break``/``continue`` that belongs to the enclosing loop (not to a nested loop)."""
    return contains(stmts, (ast.Break, ast.Continue), stop=_SCOPES + LOOPS)


def always_returns(stmts: list) -> bool:
    """Every path through ``stmts`` ends in ``return`` (or raise)."""
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Raise)):
            return True
        if isinstance(s, ast.If) and s.orelse and always_returns(s.body) and always_returns(s.orelse):
            return True
    return False
