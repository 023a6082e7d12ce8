"""Shrink a failing fuzz program to a minimal one that fails the same way, and print it as a test.

Greedy delta debugging over the program tree: every candidate edit (drop a helper, a statement, an
``else``, an output, an argument, a Parameter; hoist a block's body out of its ``if``/``while``/``for``;
replace an expression by a same-typed sub-expression or by a plain variable or constant) is tried on a
copy; an edit is kept when the copy still fails with the same (check, mode, outcome, kind). Edits that
make eager reject the program are simply not kept. Repeat until no edit is kept."""
from __future__ import annotations

import re
import time

import numpy as np

from .harness import check_program
from .program import Expr, Program, Stmt, slots


# ---- the edits ------------------------------------------------------------------------------------
def _stmt_lists(prog: Program):
    yield prog.helpers
    for h in prog.helpers:
        yield from _lists_in(h)
    yield from _lists_in(prog.main)


def _lists_in(st: Stmt):
    for lst in (st.body, st.orelse):
        if lst:
            yield lst
            for s in lst:
                yield from _lists_in(s)


def _all_stmts(prog: Program):
    for lst in _stmt_lists(prog):
        yield from lst


def _expr_sites(prog: Program):
    """(list, index) of every expression: statement operands and their sub-expressions."""
    for st in list(_all_stmts(prog)) + [prog.main]:
        yield from _expr_sites_in(st.exprs)


def _expr_sites_in(lst: list):
    for i, e in enumerate(lst):
        yield lst, i
        yield from _expr_sites_in(e.args)


def _simple(ty, prog: Program) -> list:
    """Plain replacements for an expression of type ``ty``."""
    if isinstance(ty, tuple):
        out = [Expr(a.name, [], ty) for a in prog.args if a.kind == "tensor" and tuple(np.shape(a.a)) == ty]
        return out + [Expr(f"ops.ones({ty!r})", [], ty)]
    return {"bt": [Expr("True", [], "bp"), Expr("False", [], "bp")], "f": [Expr("0.5", [], "f")],
            "i": [Expr("1", [], "i")], "n": [Expr("1", [], "i")]}.get(ty, [])


def _returns(prog: Program) -> list:
    body = prog.main.body if prog.main.kind == "def" else [s for s in prog.main.body
                                                           if s.fmt.startswith("def construct")][0].body
    out = []

    def walk(lst):
        for s in lst:
            if s.kind == "return":
                out.append(s)
            elif s.kind != "def":
                walk(s.body)
                walk(s.orelse)

    walk(body)
    return out


def _ret_fmt(n: int) -> str:
    return "return " + slots(n)


def _header(prog: Program) -> Stmt:
    if prog.main.kind == "def":
        return prog.main
    return [s for s in prog.main.body if s.fmt.startswith("def construct")][0]


def edits(prog: Program) -> list:
    """Every single edit of ``prog`` as a closure that applies it to ``prog`` in place. The k-th edit of
    a deep copy is the same edit (enumeration order depends only on the tree)."""
    out = []

    def splice(lst, i, items):
        def do():
            lst[i:i + 1] = items
        return do

    for i in range(len(prog.helpers)):
        out.append(splice(prog.helpers, i, []))
    n_out = len(prog.final_return().exprs)
    if n_out > 1:
        for k in range(n_out):
            def drop_out(k=k):
                for r in _returns(prog):
                    del r.exprs[k]
                    r.fmt = _ret_fmt(len(r.exprs))
            out.append(drop_out)
    for k, a in enumerate(prog.args):
        def drop_arg(k=k):
            del prog.args[k]
            h = _header(prog)
            names = ", ".join(a.name for a in prog.args)
            h.fmt = f"def f({names}):" if prog.main.kind == "def" else f"def construct(self, {names}):"
        out.append(drop_arg)
        if a.a != a.b:
            def same_inputs(a=a):
                a.b = a.a
            out.append(same_inputs)
    for k in range(len(prog.weights)):
        def drop_weight(k=k):
            del prog.weights[k]
        out.append(drop_weight)
    for k, g in enumerate(prog.globals_):
        def drop_global(k=k, g=g):
            name = g.fmt.split(" = ")[0]
            del prog.globals_[k]
            if name in prog.weights:
                prog.weights.remove(name)
        out.append(drop_global)
    if prog.main.kind == "class":
        init = prog.main.body[0]
        for k, s in enumerate(init.body):
            if s.fmt.startswith("self.w"):
                def drop_param(k=k, s=s):
                    name = "net." + s.fmt.split(" = ")[0][5:]
                    del init.body[k]
                    if name in prog.weights:
                        prog.weights.remove(name)
                out.append(drop_param)
    for lst in list(_stmt_lists(prog)):  # chunks first (ddmin): halves, quarters of long blocks
        free = [i for i, s in enumerate(lst) if not s.keep]
        size = len(free) // 2
        while size >= 2:
            for start in range(0, len(free) - size + 1, size):
                def drop_chunk(lst=lst, idx=tuple(free[start:start + size])):
                    for i in reversed(idx):
                        del lst[i]
                out.append(drop_chunk)
            size //= 2
    for lst in list(_stmt_lists(prog)):
        for i, s in enumerate(lst):
            if s.keep:
                continue
            out.append(splice(lst, i, []))
            if s.kind in ("if", "while", "for"):
                out.append(splice(lst, i, s.body))
                if s.orelse:
                    out.append(splice(lst, i, s.orelse))

                    def no_else(s=s):
                        s.orelse = []
                    out.append(no_else)
            if s.kind == "def" and s.body and s.body[-1].kind == "return" and len(s.body) > 1:
                def only_return(s=s):
                    s.body[:] = s.body[-1:]
                out.append(only_return)
    for lst, i in list(_expr_sites(prog)):
        e = lst[i]
        if e.keep:
            continue
        for c in e.args:
            if c.ty == e.ty:
                out.append(splice(lst, i, [c]))
        for simple in _simple(e.ty, prog):
            if simple.render() != e.render():
                out.append(splice(lst, i, [simple]))
    return out


# ---- the loop -------------------------------------------------------------------------------------
def failure_key(o) -> tuple:
    """What must stay the same while shrinking: check, mode, outcome and kind (plus, for a refusal or a
    crash, the first words of the message with numbers removed)."""
    msg = ""
    if o.status in ("refused", "crash"):
        msg = re.sub(r"\d+", "N", " ".join(o.detail.split()[:4]))
    return (o.check, o.mode, o.status, o.kind, msg)


def fails_like(prog: Program, key: tuple) -> bool:
    check, mode = key[0], key[1]
    r = check_program(prog, modes=(mode,), checks=(check,))
    return not r.invalid and any(failure_key(o) == key for o in r.outcomes)


def shrink(prog: Program, key: tuple, budget_s: float = 180.0, log=None, predicate=None) -> Program:
    """The smallest program reached by greedy edits that keep failing like ``key`` (within ``budget_s``);
    ``predicate(program) -> bool`` replaces "fails like key" (tests of the shrinker use one)."""
    predicate = predicate or (lambda p: fails_like(p, key))
    t0 = time.time()
    best = prog.copy()
    seen: set = {best.render()}
    progress = True
    while progress and time.time() - t0 < budget_s:
        progress = False
        k = 0
        while True:
            n = len(edits(best))
            if k >= n or time.time() - t0 > budget_s:
                break
            cand = best.copy()
            edits(cand)[k]()
            text = cand.render()
            if text in seen:
                k += 1
                continue
            seen.add(text)
            if predicate(cand):
                best = cand
                progress = True
                if log:
                    log(f"shrink: {len(best.render())} chars")
                continue  # the same index now names the next edit
            k += 1
    return best


# ---- the reproducer -------------------------------------------------------------------------------
def reproducer(prog: Program, outcome, fid: str = "N", area: str = "AREA") -> str:
    """A ready-to-paste regression test for ``tests/fuzz/test_regressions.py``."""
    src = prog.render()
    args = ",\n         ".join(repr((a.name, a.kind, a.a, a.b)) for a in prog.args)
    detail = outcome.detail.replace('"', "'").replace("\\", "/")
    name = re.sub(r"\W", "_", fid)
    q = "'''"
    return (f'@pytest.mark.xfail(strict=True, reason="fuzz-{fid}: {area}")\n'
            f"def test_fuzz_{name}():\n"
            f'    """{outcome.check} under {outcome.mode}: {outcome.status} ({outcome.kind}): {detail}"""\n'
            f"    assert_agrees(SRC_{name},\n"
            f"        [{args}],\n"
            f"        check={outcome.check!r}, mode={outcome.mode!r}, entry={prog.entry!r}, "
            f"weights={prog.weights!r})\n\n\n"
            f"SRC_{name} = {q}\\\n{src}{q}\n")
