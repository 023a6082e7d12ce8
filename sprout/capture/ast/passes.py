"""Statement-level rewrites run before conversion: returns out of loops, single-exit returns, and
break/continue into flags, so that every branch and loop body can become a local function."""
from __future__ import annotations

import ast
import copy
import itertools

from .scope import LOOPS, always_returns, contains, has_loop_exit, has_return

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class Names:
    """Fresh generated names, unique within one converted function."""

    def __init__(self):
        self._n = itertools.count(1)

    def new(self, kind: str) -> str:
        return f"_sp_{kind}_{next(self._n)}"


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(name: str, value: ast.expr, where: ast.AST) -> ast.Assign:
    return ast.copy_location(ast.Assign(targets=[_name(name, True)], value=value), where)


def _undef(where: ast.AST) -> ast.expr:
    return ast.copy_location(ast.Attribute(value=_name("_sp_rt"), attr="UNDEF", ctx=ast.Load()), where)


def _not(expr: ast.expr, where: ast.AST) -> ast.expr:
    return ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=expr), where)


def _blocks(s: ast.stmt):
    """The statement lists directly inside a compound statement (not nested scopes)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(s, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt) and not isinstance(s, _SCOPES):
            yield field, block


# ---- returns inside loops -> flag + break ---------------------------------------------------------
def loop_returns(stmts: list, names: Names) -> list:
    out = []
    for s in stmts:
        for field, block in _blocks(s):
            setattr(s, field, loop_returns(block, names))
        if isinstance(s, LOOPS) and has_return(s.body):
            flag, val = names.new("ret"), names.new("retval")
            s.body = _replace_returns(s.body, flag, val)
            out += [_assign(flag, ast.Constant(False), s), _assign(val, _undef(s), s), s]
            ret = ast.copy_location(ast.Return(value=_name(val)), s)
            out.append(ast.copy_location(ast.If(test=_name(flag), body=[ret], orelse=[]), s))
            continue
        out.append(s)
    return out


def _replace_returns(stmts: list, flag: str, val: str) -> list:
    out = []
    for s in stmts:
        if isinstance(s, ast.Return):
            value = s.value if s.value is not None else ast.Constant(None)
            out += [_assign(val, value, s), _assign(flag, ast.Constant(True), s),
                    ast.copy_location(ast.Break(), s)]
            return out
        if not isinstance(s, LOOPS):
            for field, block in _blocks(s):
                setattr(s, field, _replace_returns(block, flag, val))
        out.append(s)
    return out


# ---- break / continue -> flags ------------------------------------------------------------------
def loop_exits(stmts: list, names: Names) -> list:
    out = []
    for s in stmts:
        for field, block in _blocks(s):
            setattr(s, field, loop_exits(block, names))
        if not isinstance(s, LOOPS):
            out.append(s)
            continue
        brk = names.new("brk") if contains(s.body, ast.Break, stop=_SCOPES + LOOPS) else None
        cont = names.new("cont") if contains(s.body, ast.Continue, stop=_SCOPES + LOOPS) else None
        after = s.orelse
        s.orelse = []
        if brk or cont:
            body = _guard(s.body, brk, cont)
            if cont:
                body = [_assign(cont, ast.Constant(False), s)] + body
            if brk:
                out.append(_assign(brk, ast.Constant(False), s))
                if isinstance(s, ast.While):
                    s.test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[_not(_name(brk), s), s.test]), s.test)
                else:
                    s._sp_brk = brk
                    body = [ast.copy_location(ast.If(test=_not(_name(brk), s), body=body, orelse=[]), s)]
            s.body = body
        out.append(s)
        if after:
            if brk:
                out.append(ast.copy_location(ast.If(test=_not(_name(brk), s), body=after, orelse=[]), after[0]))
            else:
                out += after
    return out


def _guard(stmts: list, brk: str | None, cont: str | None) -> list:
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Break):
            out.append(_assign(brk, ast.Constant(True), s))
            return out
        if isinstance(s, ast.Continue):
            out.append(_assign(cont, ast.Constant(True), s))
            return out
        exits = has_loop_exit([s])
        if not isinstance(s, LOOPS):
            for field, block in _blocks(s):
                setattr(s, field, _guard(block, brk, cont))
        out.append(s)
        if exits:
            rest = _guard(stmts[i + 1:], brk, cont)
            if rest:
                flags = [_name(f) for f in (brk, cont) if f]
                test = flags[0] if len(flags) == 1 else ast.BoolOp(op=ast.Or(), values=flags)
                out.append(ast.copy_location(ast.If(test=_not(test, rest[0]), body=rest, orelse=[]), rest[0]))
            return out
    return out


# ---- single exit: code after an if that returns moves into its non-returning branches -------------
def lift_returns(stmts: list) -> list:
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            return stmts[:i + 1]
        if isinstance(s, ast.If) and has_return([s]):
            rest = stmts[i + 1:]
            body = s.body if always_returns(s.body) or not rest else s.body + copy.deepcopy(rest)
            orelse = s.orelse if always_returns(s.orelse) or not rest else s.orelse + copy.deepcopy(rest)
            s.body = lift_returns(body) or [ast.copy_location(ast.Pass(), s)]
            s.orelse = lift_returns(orelse)
            s._sp_returns = True
            return stmts[:i] + [s]
    return stmts


def normalize(fn_node: ast.AST, names: Names) -> None:
    """Run the three rewrites on ``fn_node`` and on every function nested in it."""
    fns = [n for n in ast.walk(fn_node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in reversed(fns):  # innermost first: copies made by lift_returns are already rewritten
        body = loop_returns(node.body, names)
        body = loop_exits(body, names)
        node.body = lift_returns(body)
