"""The AST converter: one visit_<Node> per rewritten syntax. Tensor-dependent control flow becomes
calls into ``runtime`` (which decide, at trace time, between plain Python and a Cond/WhileLoop op);
every call goes through ``runtime.call`` so user functions and Cells are converted recursively."""
from __future__ import annotations

import ast

from ...core.errors import SourceLoc, locate
from .passes import Names
from .scope import HELPER_FN, assigned_names, load_counts

RT, CTX = "_sp_rt", "_sp_ctx"
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem", "sort",
             "reverse", "add", "discard"}
_CMP = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Is: "is",
        ast.IsNot: "is_not", ast.In: "in", ast.NotIn: "not_in"}
_FRAME_FUNCS = {"locals", "globals", "vars", "dir", "eval", "exec"}


def _load(id_: str) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Load())


def _store(id_: str) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store())


def _lambda(body: ast.expr) -> ast.Lambda:
    args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                         defaults=[])
    return ast.copy_location(ast.Lambda(args=args, body=body), body)


def _fndef(name: str, params: list[str], body: list, where: ast.AST, cells: frozenset = frozenset()) -> ast.FunctionDef:
    """``def name(*params): body``. A parameter in ``cells`` (a variable of the enclosing function that a nested
    function reads) is the enclosing function's own variable instead (``nonlocal``), set from the argument on
    entry: a closure called in the branch or loop body sees the values the body assigns, as eagerly."""
    shared = [p for p in params if p in cells]
    if shared:
        entry = [ast.Nonlocal(names=shared)] + [ast.Assign(targets=[_store(p)], value=_load(f"_sp_in_{p}"))
                                                for p in shared]
        body = [ast.copy_location(st, where) for st in entry] + body
        params = [f"_sp_in_{p}" if p in cells else p for p in params]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    node = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None, type_params=[])
    return ast.copy_location(node, where)


def _tuple(items: list[ast.expr], store: bool = False) -> ast.Tuple:
    return ast.Tuple(elts=items, ctx=ast.Store() if store else ast.Load())


def _strs(names: list[str]) -> ast.Constant:
    return ast.Constant(tuple(names))


def _closure_reads(fn: ast.FunctionDef) -> frozenset:
    """The names read inside the functions and lambdas defined in ``fn`` (its variables among them are cells)."""
    out: set = set()
    for st in fn.body:
        for node in ast.walk(st):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                out.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    return frozenset(out)


class Converter(ast.NodeTransformer):
    """Rewrites one (normalized) function. ``locs`` collects the SourceLoc of every rewritten
    construct; generated code passes its index so runtime errors point at the user's line."""

    def __init__(self, filename: str, class_name: str | None, names: Names):
        self.filename = filename
        self.class_name = class_name
        self.names = names
        self.locs: list[SourceLoc] = []
        # (fn node, load counts, parameter names, names its nested functions read)
        self._fn_stack: list[tuple[ast.AST, object, set, frozenset]] = []
        self._loops: list[int] = [0]  # per function: how many loops enclose the statement being converted
        self._pending_warnings: list = []

    # ---- helpers -------------------------------------------------------------------------------
    def loc(self, node: ast.AST) -> ast.Constant:
        self.locs.append(locate(node, self.filename))
        return ast.Constant(len(self.locs) - 1)

    def rt(self, helper: str, node: ast.AST, *args: ast.expr, keywords=()) -> ast.Call:
        call = ast.Call(func=ast.Attribute(value=_load(RT), attr=helper, ctx=ast.Load()),
                        args=[_load(CTX), self.loc(node), *args], keywords=list(keywords))
        return ast.copy_location(call, node)

    def _values(self, names: list[str], node: ast.AST) -> ast.expr:
        """``runtime.values(locals(), names)``: the current values, UNDEF for unbound names."""
        if not names:
            return _tuple([])
        loc_call = ast.Call(func=_load("locals"), args=[], keywords=[])
        call = ast.Call(func=ast.Attribute(value=_load(RT), attr="values", ctx=ast.Load()),
                        args=[loc_call, _strs(names)], keywords=[])
        return ast.copy_location(call, node)

    def _live_outside(self, node: ast.AST, names: list[str]) -> list[str]:
        counts = self._fn_stack[-1][1] if self._fn_stack else None
        if counts is None:
            return list(names)
        inside = load_counts(node)
        return [n for n in names if counts.get(n, 0) > inside.get(n, 0)]

    # ---- scopes --------------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        if node.name.startswith(HELPER_FN):
            return self.generic_visit(node)
        params = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
        self._fn_stack.append((node, load_counts(node), params, _closure_reads(node)))
        self._loops.append(0)
        try:
            node.body = self._rewrite_globals(node)
            self.generic_visit(node)
        finally:
            self._fn_stack.pop()
            self._loops.pop()
        return node

    def _in_loop(self, node: ast.AST) -> ast.AST:
        """``generic_visit`` of a loop: the statements in it count as in a loop."""
        self._loops[-1] += 1
        try:
            return self.generic_visit(node)
        finally:
            self._loops[-1] -= 1

    def _rewrite_globals(self, node: ast.FunctionDef) -> list:
        """``global g`` + ``g = ...``: graph mode never writes globals, so ``g`` becomes a local
        initialised from the global, and a warning names the line of the dropped write."""
        written = set(assigned_names(node.body))
        body = []
        for s in node.body:
            if isinstance(s, ast.Global):
                for name in s.names:
                    if name in written:
                        first = next(n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name
                                     and isinstance(n.ctx, ast.Store))
                        value = self.rt("global_write", first, ast.Constant(name))
                        body.append(ast.copy_location(ast.Assign(targets=[_store(name)], value=value), s))
                continue
            body.append(s)
        return body

    @staticmethod
    def _as_test(expr: ast.expr) -> None:
        """``and``/``or`` whose value is only tested (an if/while/ternary condition, or an operand of one):
        their tensor operands become one-element predicates, so ``x < y and i < 3`` on shape-[1] tensors
        joins bool[] with bool[] (Python semantics: only the truth value is used)."""
        if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
                and isinstance(expr.func.value, ast.Name) and expr.func.value.id == RT):
            return
        if expr.func.attr in ("and_", "or_"):
            expr.keywords.append(ast.keyword(arg="test", value=ast.Constant(True)))
            for thunk in expr.args[2:]:
                if isinstance(thunk, ast.Lambda):
                    Converter._as_test(thunk.body)
        elif expr.func.attr == "not_":
            Converter._as_test(expr.args[2])

    def _cells(self) -> frozenset:
        return self._fn_stack[-1][3] if self._fn_stack else frozenset()

    # ---- statements ------------------------------------------------------------------------------
    def visit_If(self, node: ast.If):
        returns = getattr(node, "_sp_returns", False)
        # names bound in the branches, taken before conversion too: a nested if whose branches return
        # becomes ``return if_stmt(...)``, which no longer assigns the names its branches write
        before = assigned_names(node.body + node.orelse)
        # names no code after the if reads (nor a closure; in a loop, nor the if itself in the next iteration): a
        # tensor if does not make them results. Eagerly their last values are never differentiated; as a Cond's
        # results their zero cotangents went through the branch's backward (fuzz-27: 0 * an overflowed dead value
        # gave NaN where eager's gradient is finite)
        live = set(self._live_outside(node, before)) | set(self._cells())
        if self._loops[-1]:
            live |= set(load_counts(node))
        dead = [n for n in before if n not in live]
        self.generic_visit(node)
        self._as_test(node.test)
        then_name, else_name = self.names.new("fn_then"), self.names.new("fn_else")
        after = assigned_names(node.body + node.orelse)
        names = before + [n for n in after if n not in before]
        if returns:  # a tail if whose branches return: the branch functions' results are the function's
            then_fn = _fndef(then_name, names, node.body, node, self._cells())
            else_fn = _fndef(else_name, names, node.orelse or [ast.copy_location(ast.Pass(), node)], node,
                             self._cells())
            call = self.rt("if_stmt", node.test, node.test, _load(then_name), _load(else_name),
                           self._values(names, node), _strs(names),
                           keywords=[ast.keyword(arg="ret", value=ast.Constant(True))])
            # the branch functions' ``nonlocal`` names need a binding here even when only the branches assign
            # them (the code after the if moved into a branch): an assignment after the return, never run
            bind = [ast.copy_location(ast.Assign(targets=[_store(n)], value=ast.Constant(None)), node)
                    for n in names if n in self._cells()]
            return [then_fn, else_fn, ast.copy_location(ast.Return(value=call), node), *bind]
        ret = ast.copy_location(ast.Return(value=_tuple([_load(n) for n in names])), node)
        then_fn = _fndef(then_name, names, node.body + [ret], node, self._cells())
        else_fn = _fndef(else_name, names, node.orelse + [ret], node, self._cells())
        call = self.rt("if_stmt", node.test, node.test, _load(then_name), _load(else_name),
                       self._values(names, node), _strs(names),
                       keywords=[ast.keyword(arg="dead", value=_strs(dead))] if dead else [])
        if names:
            stmt = ast.Assign(targets=[_tuple([_store(n) for n in names], True)], value=call)
        else:
            stmt = ast.Expr(value=call)
        return [then_fn, else_fn, ast.copy_location(stmt, node)]

    def visit_While(self, node: ast.While):
        names = assigned_names(node.body)
        live_out = self._live_outside(node, names)
        self._in_loop(node)
        self._as_test(node.test)
        test_name, body_name = self.names.new("fn_wtest"), self.names.new("fn_wbody")
        test_fn = _fndef(test_name, names, [ast.copy_location(ast.Return(value=node.test), node.test)], node,
                         self._cells())
        ret = ast.copy_location(ast.Return(value=_tuple([_load(n) for n in names])), node)
        body_fn = _fndef(body_name, names, node.body + [ret], node, self._cells())
        call = self.rt("while_stmt", node.test, _load(test_name), _load(body_name), self._values(names, node),
                       _strs(names), _strs(live_out))
        if names:
            stmt = ast.Assign(targets=[_tuple([_store(n) for n in names], True)], value=call)
        else:
            stmt = ast.Expr(value=call)
        return [test_fn, body_fn, ast.copy_location(stmt, node)]

    def visit_For(self, node: ast.For):
        self._in_loop(node)
        brk = getattr(node, "_sp_brk", None)
        flag = _lambda(ast.copy_location(_load(brk), node)) if brk else ast.Constant(None)
        node.iter = self.rt("for_iter", node.iter, node.iter, flag)
        return node

    def visit_Return(self, node: ast.Return):
        self.generic_visit(node)
        if node.value is not None:
            node.value = self.rt("ret", node.value, node.value)
        return node

    def visit_Assert(self, node: ast.Assert):
        self.generic_visit(node)
        msg = _lambda(node.msg) if node.msg is not None else ast.Constant(None)
        return ast.copy_location(ast.Expr(value=self.rt("assert_", node, node.test, msg)), node)

    def visit_Assign(self, node: ast.Assign):
        self._warn_arg_mutation(node, [t for t in node.targets if isinstance(t, ast.Subscript)])
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute):
            t = node.targets[0]
            call = self.rt("setattr_", node, t.value, ast.Constant(t.attr), node.value)
            return [*self._pending(), ast.copy_location(ast.Expr(value=call), node)]
        return [*self._pending(), node]

    def visit_AugAssign(self, node: ast.AugAssign):
        self.generic_visit(node)
        if isinstance(node.target, ast.Attribute) and isinstance(node.target.value, ast.Name):
            t = node.target
            read = ast.copy_location(ast.Attribute(value=_load(t.value.id), attr=t.attr, ctx=ast.Load()), t)
            value = ast.copy_location(ast.BinOp(left=read, op=node.op, right=node.value), node)
            call = self.rt("setattr_", node, _load(t.value.id), ast.Constant(t.attr), value)
            return ast.copy_location(ast.Expr(value=call), node)
        return node

    def visit_Expr(self, node: ast.Expr):
        v = node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _MUTATORS:
            self._warn_arg_mutation(node, [v.func])
        self.generic_visit(node)
        return [*self._pending(), node]

    def _warn_arg_mutation(self, node: ast.AST, targets: list) -> None:
        """Mutating a list/dict argument happens once, at compile time: warn (once) at run time."""
        self._pending_warnings = []
        params = self._fn_stack[-1][2] if self._fn_stack else set()
        for t in targets:
            base = t.value
            if isinstance(base, ast.Name) and base.id in params:
                call = self.rt("warn_mutation", node, _load(base.id), ast.Constant(base.id))
                self._pending_warnings.append(ast.copy_location(ast.Expr(value=call), node))

    def _pending(self) -> list:
        out = self._pending_warnings
        self._pending_warnings = []
        return out

    # ---- expressions -----------------------------------------------------------------------------
    def visit_IfExp(self, node: ast.IfExp):
        self.generic_visit(node)
        self._as_test(node.test)
        return self.rt("if_exp", node, node.test, _lambda(node.body), _lambda(node.orelse))

    def visit_BoolOp(self, node: ast.BoolOp):
        self.generic_visit(node)
        helper = "and_" if isinstance(node.op, ast.And) else "or_"
        return self.rt(helper, node, *[_lambda(v) for v in node.values])

    def visit_UnaryOp(self, node: ast.UnaryOp):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self.rt("not_", node, node.operand)
        return node

    def visit_Compare(self, node: ast.Compare):
        self.generic_visit(node)
        if len(node.ops) == 1:
            op = node.ops[0]
            if isinstance(op, (ast.Is, ast.IsNot)):  # identity of traced values: decided in runtime.is_
                return self.rt("is_", node, node.left, node.comparators[0], ast.Constant(isinstance(op, ast.IsNot)))
            return node
        ops = ast.Constant(tuple(_CMP[type(op)] for op in node.ops))
        return self.rt("compare_chain", node, ops, *[_lambda(x) for x in [node.left, *node.comparators]])

    def visit_comprehension(self, node: ast.comprehension):
        self.generic_visit(node)
        node.ifs = [self.rt("truth", cond, cond) for cond in node.ifs]
        return node

    def visit_Attribute(self, node: ast.Attribute):
        self.generic_visit(node)
        a = node.attr
        if self.class_name and a.startswith("__") and not a.endswith("__"):
            node.attr = f"_{self.class_name.lstrip('_')}{a}"  # the private-name mangling the class gave it
        return node

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == RT:
            return node
        if isinstance(f, ast.Name):
            if f.id in _FRAME_FUNCS:
                return node
            if f.id == "super" and not node.args and self._fn_stack:
                fn = self._fn_stack[-1][0]
                first = (fn.args.posonlyargs + fn.args.args)[:1]
                if first:
                    node.args = [_load("__class__"), _load(first[0].arg)]
                return node
        call = ast.Call(func=ast.Attribute(value=_load(RT), attr="call", ctx=ast.Load()),
                        args=[_load(CTX), self.loc(node), f, *node.args], keywords=node.keywords)
        return ast.copy_location(call, node)
