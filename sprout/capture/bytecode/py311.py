"""Every CPython-3.11-specific bytecode fact PIJit relies on (decoding, calls, jumps, exceptions, cells)."""
from __future__ import annotations

import dis
import inspect
import operator
import sys
import types
from typing import Any

if sys.version_info[:2] != (3, 11):  # the one version check in the package
    raise ImportError(f"sprout.capture.bytecode supports CPython 3.11 bytecode only, this is {sys.version}")

VERSION = (3, 11)


class Instr:
    """One decoded instruction (CACHE entries skipped). ``next`` is the following instruction's
    offset; ``target`` the absolute jump target (or None); ``line`` the source line number."""

    __slots__ = ("opname", "arg", "argval", "offset", "next", "target", "line", "col")

    def __init__(self, opname, arg, argval, offset, nxt, target, line, col):
        self.opname, self.arg, self.argval, self.offset = opname, arg, argval, offset
        self.next, self.target, self.line, self.col = nxt, target, line, col

    def __repr__(self) -> str:
        return f"{self.offset} {self.opname} {self.argval!r}"


_JUMPS = set(dis.hasjrel) | set(dis.hasjabs)
_decoded: dict = {}


def decode(code: types.CodeType) -> dict:
    """offset -> Instr for ``code`` (cached per code object)."""
    table = _decoded.get(code)
    if table is not None:
        return table
    raw = list(dis.get_instructions(code))
    table = {}
    line = code.co_firstlineno
    for i, ins in enumerate(raw):
        nxt = raw[i + 1].offset if i + 1 < len(raw) else None
        if ins.positions is not None and ins.positions.lineno is not None:
            line = ins.positions.lineno
        col = ins.positions.col_offset if ins.positions is not None else 0
        target = ins.argval if ins.opcode in _JUMPS else None
        table[ins.offset] = Instr(ins.opname, ins.arg, ins.argval, ins.offset, nxt, target, line, col or 0)
    _decoded[code] = table
    return table


def exception_table(code: types.CodeType) -> list:
    """(start, end, target, depth, push_lasti) entries of the 3.11 zero-cost exception table."""
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]


def find_handler(table: list, offset: int):
    for start, end, target, depth, lasti in table:
        if start <= offset < end:
            return target, depth, lasti
    return None


def localsplus_names(code: types.CodeType) -> list:
    """Names of the frame's fast-local slots: varnames, then new cell vars, then free vars."""
    names = list(code.co_varnames)
    names += [c for c in code.co_cellvars if c not in names]
    names += list(code.co_freevars)
    return names


def n_localsplus(code: types.CodeType) -> int:
    return len(localsplus_names(code))


def slot_index(code: types.CodeType, name: str) -> int:
    return localsplus_names(code).index(name)


# ---- operators ----------------------------------------------------------------------------------
def _inplace(fn):
    return fn


BINARY_OPS = [operator.add, operator.and_, operator.floordiv, operator.lshift, operator.matmul, operator.mul,
              operator.mod, operator.or_, operator.pow, operator.rshift, operator.sub, operator.truediv,
              operator.xor, operator.iadd, operator.iand, operator.ifloordiv, operator.ilshift, operator.imatmul,
              operator.imul, operator.imod, operator.ior, operator.ipow, operator.irshift, operator.isub,
              operator.itruediv, operator.ixor]
BINARY_SYMBOLS = [sym for _, sym in dis._nb_ops]
COMPARE_OPS = [operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge]
UNARY_OPS = {"UNARY_NEGATIVE": operator.neg, "UNARY_POSITIVE": operator.pos, "UNARY_INVERT": operator.invert}

# conditional jumps: opname -> (pops the value, jumps when value is ...)
COND_JUMPS = {
    "POP_JUMP_FORWARD_IF_FALSE": "false", "POP_JUMP_BACKWARD_IF_FALSE": "false",
    "POP_JUMP_FORWARD_IF_TRUE": "true", "POP_JUMP_BACKWARD_IF_TRUE": "true",
    "POP_JUMP_FORWARD_IF_NONE": "none", "POP_JUMP_BACKWARD_IF_NONE": "none",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "notnone", "POP_JUMP_BACKWARD_IF_NOT_NONE": "notnone",
}
# jumps that keep the value on the stack when taken (and pop it otherwise)
JUMP_OR_POP = {"JUMP_IF_FALSE_OR_POP": False, "JUMP_IF_TRUE_OR_POP": True}
PLAIN_JUMPS = ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT")
# instructions with no effect on the modelled state
NOPS = ("NOP", "RESUME", "PRECALL", "CACHE", "EXTENDED_ARG")

# MAKE_FUNCTION flag bits (3.11: no qualname on the stack)
MF_DEFAULTS, MF_KWDEFAULTS, MF_ANNOTATIONS, MF_CLOSURE = 0x01, 0x02, 0x04, 0x08


def load_global_pushes_null(ins: Instr) -> bool:
    """LOAD_GLOBAL's low oparg bit says: push NULL before the global (a call follows)."""
    return bool(ins.arg & 1)


def kw_names(code: types.CodeType, ins: Instr) -> tuple:
    """KW_NAMES' oparg indexes co_consts (dis shows no argval for it in 3.11)."""
    return code.co_consts[ins.arg]


def call_layout(stack: list, argc: int, kwnames: tuple) -> tuple:
    """(callable, positional args, kwargs, items to pop) for CALL argc with the stack as it is.
    3.11 layout: [NULL | method, callable | self, arg1..argN]; KW_NAMES names the last args."""
    base = len(stack) - argc - 2
    first, second = stack[base], stack[base + 1]
    args = stack[base + 2:]
    if first is NULL:
        fn = second
    else:
        fn, args = first, [second] + args
    kwargs = {}
    if kwnames:
        n = len(kwnames)
        kwargs = dict(zip(kwnames, args[-n:]))
        args = args[:-n]
    return fn, list(args), kwargs, argc + 2


def call_ex_layout(stack: list, flags: int) -> tuple:
    """CALL_FUNCTION_EX: [NULL, callable, args tuple, (kwargs dict if flags & 1)]."""
    has_kw = flags & 1
    kwargs = stack[-1] if has_kw else {}
    args = stack[-1 - has_kw]
    fn = stack[-2 - has_kw]
    n_pop = 3 + has_kw
    if len(stack) >= n_pop and stack[-n_pop] is not NULL:  # no NULL below the callable
        n_pop -= 1
    return fn, list(args), dict(kwargs), n_pop


class _Null:
    """CPython's NULL stack entry (pushed before a callable that is not a bound method)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NULL"


NULL = _Null()


# ---- frames ----------------------------------------------------------------------------------------
def bind_arguments(fn: types.FunctionType, code: types.CodeType, args: tuple, kwargs: dict, unbound: Any) -> list:
    """The initial fast-locals list of a frame running ``fn(*args, **kwargs)``."""
    n = n_localsplus(code)
    simple = not (code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)) and not code.co_kwonlyargcount
    if simple and not kwargs and len(args) == code.co_argcount:
        return list(args) + [unbound] * (n - len(args))
    sig = inspect.signature(fn)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    slots = [unbound] * n
    names = localsplus_names(code)
    for name, value in bound.arguments.items():
        slots[names.index(name)] = value
    return slots


def simple_arity(code: types.CodeType) -> int:
    """Positional arity when the fast argument path applies, else -1."""
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount:
        return -1
    return code.co_argcount


UNSUPPORTED_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | \
    inspect.CO_ITERABLE_COROUTINE


def is_plain_function_code(code: types.CodeType) -> bool:
    """False for generators and coroutines (they are never simulated)."""
    return not code.co_flags & UNSUPPORTED_FLAGS


def is_generator_expression(code: types.CodeType) -> bool:
    """A ``(... for ...)`` generator expression (3.11 compiles it to a generator function ``<genexpr>``)."""
    return code.co_name == "<genexpr>" and bool(code.co_flags & inspect.CO_GENERATOR)


_positions: dict = {}


def positions(code: types.CodeType, offset: int) -> tuple:
    """(line, col, end_col) of the instruction at ``offset`` (the table is decoded once per code object)."""
    table = _positions.get(code)
    if table is None:
        table = _positions[code] = list(code.co_positions())
    pos = table[offset // 2]
    end = pos[3] if pos[1] == pos[0] else None
    return pos[0], pos[2] or 0, end
