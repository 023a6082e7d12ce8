"""The bytecode interpreter: one handler per opcode over a modelled frame. ``Real`` runs an
instruction on concrete values (the Python parts); ``capture.Capture`` runs them symbolically."""
from __future__ import annotations

import operator
import types

from . import py311
from .guards import SymIter
from .py311 import NULL


class _Unbound:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()


class Frame:
    """The modelled state of one Python frame: fast locals, value stack, pending KW_NAMES and the
    exception being handled."""

    __slots__ = ("code", "fn", "ins", "glb", "bltn", "locals", "stack", "kwnames", "exc", "snap", "yields")

    def __init__(self, fn: types.FunctionType, locals_: list, stack: list | None = None):
        self.fn = fn
        self.code = fn.__code__
        self.ins = py311.decode(self.code)
        self.glb = fn.__globals__
        b = self.glb.get("__builtins__", __builtins__)
        self.bltn = b.__dict__ if isinstance(b, types.ModuleType) else b
        self.locals = locals_
        self.stack = [] if stack is None else stack
        self.kwnames: tuple = ()
        self.exc = None
        self.snap = None
        self.yields = None


class Return(Exception):
    """RETURN_VALUE executed: carries the value."""

    def __init__(self, value):
        self.value = value


class Handlers:
    """Opcode semantics. Hooks (overridden by the capture mode) decide how values are loaded,
    called, tested and mutated; handlers read the stack first and pop only when they succeed."""

    # ---- hooks (concrete defaults) -----------------------------------------------------------------
    def load_local(self, f: Frame, k: int):
        v = f.locals[k]
        if v is UNBOUND:
            raise UnboundLocalError(f"local variable {py311.localsplus_names(f.code)[k]!r} referenced before "
                                    "assignment")
        return v

    def load_cell(self, f: Frame, k: int):
        try:
            return f.locals[k].cell_contents
        except ValueError:
            raise NameError(f"free variable {py311.localsplus_names(f.code)[k]!r} referenced before assignment") \
                from None

    def store_cell(self, f: Frame, k: int, v) -> None:
        f.locals[k].cell_contents = v

    def load_global(self, f: Frame, name: str):
        if name in f.glb:
            return f.glb[name]
        if name in f.bltn:
            return f.bltn[name]
        raise NameError(f"name {name!r} is not defined")

    def getattr(self, obj, name: str):
        return getattr(obj, name)

    def setattr(self, obj, name: str, v) -> None:
        setattr(obj, name, v)

    def call(self, f: Frame, fn, args: list, kwargs: dict):
        return fn(*args, **kwargs)

    def truth(self, v) -> bool:
        return bool(v)

    def use(self, *vals) -> None:
        """The instruction needs the actual values (capture mode breaks on host-only values)."""

    def mutate(self, obj) -> None:
        """``obj`` is about to be changed in place."""

    def fresh(self, obj):
        """``obj`` was just created by this frame."""
        return obj

    def store_global(self, f: Frame, name: str, v) -> None:
        f.glb[name] = v

    def make_iter(self, v):
        if isinstance(v, SymIter):
            return v
        if isinstance(v, (range, tuple, list, dict, str, zip, enumerate, type({}.items()), type({}.keys()),
                          type({}.values()), reversed)):
            return SymIter(list(v))
        return iter(v)

    # ---- dispatch ------------------------------------------------------------------------------------
    def step(self, f: Frame, ins: py311.Instr):
        h = getattr(self, "op_" + ins.opname, None)
        if h is None:
            return self.unsupported(f, ins)
        return h(f, ins)

    def unsupported(self, f: Frame, ins):
        raise NotImplementedError(f"PIJit cannot execute the opcode {ins.opname}")

    # ---- stack and locals ----------------------------------------------------------------------------
    def op_NOP(self, f, ins):
        return None

    op_RESUME = op_PRECALL = op_EXTENDED_ARG = op_CACHE = op_NOP

    def op_POP_TOP(self, f, ins):
        f.stack.pop()

    def op_PUSH_NULL(self, f, ins):
        f.stack.append(NULL)

    def op_COPY(self, f, ins):
        f.stack.append(f.stack[-ins.arg])

    def op_SWAP(self, f, ins):
        s = f.stack
        s[-1], s[-ins.arg] = s[-ins.arg], s[-1]

    def op_LOAD_CONST(self, f, ins):
        f.stack.append(ins.argval)

    def op_LOAD_FAST(self, f, ins):
        f.stack.append(self.load_local(f, ins.arg))

    def op_STORE_FAST(self, f, ins):
        f.locals[ins.arg] = f.stack.pop()

    def op_DELETE_FAST(self, f, ins):
        self.load_local(f, ins.arg)
        f.locals[ins.arg] = UNBOUND

    def op_MAKE_CELL(self, f, ins):
        v = f.locals[ins.arg]
        f.locals[ins.arg] = self.fresh(types.CellType() if v is UNBOUND else types.CellType(v))

    def op_COPY_FREE_VARS(self, f, ins):
        cells = f.fn.__closure__ or ()
        n = len(f.locals)
        for i, c in enumerate(cells[-ins.arg:] if ins.arg else ()):
            f.locals[n - ins.arg + i] = c

    def op_LOAD_DEREF(self, f, ins):
        f.stack.append(self.load_cell(f, ins.arg))

    op_LOAD_CLASSDEREF = op_LOAD_DEREF

    def op_STORE_DEREF(self, f, ins):
        self.store_cell(f, ins.arg, f.stack[-1])
        f.stack.pop()

    def op_LOAD_CLOSURE(self, f, ins):
        f.stack.append(f.locals[ins.arg])

    def op_LOAD_GLOBAL(self, f, ins):
        v = self.load_global(f, ins.argval)
        if py311.load_global_pushes_null(ins):
            f.stack.append(NULL)
        f.stack.append(v)

    def op_STORE_GLOBAL(self, f, ins):
        self.store_global(f, ins.argval, f.stack[-1])
        f.stack.pop()

    # ---- attributes and items --------------------------------------------------------------------------
    def op_LOAD_ATTR(self, f, ins):
        f.stack[-1] = self.getattr(f.stack[-1], ins.argval)

    def op_LOAD_METHOD(self, f, ins):
        v = self.getattr(f.stack[-1], ins.argval)
        f.stack[-1] = NULL
        f.stack.append(v)

    def op_STORE_ATTR(self, f, ins):
        obj, v = f.stack[-1], f.stack[-2]
        self.setattr(obj, ins.argval, v)
        del f.stack[-2:]

    def op_DELETE_ATTR(self, f, ins):
        obj = f.stack[-1]
        self.mutate(obj)
        delattr(obj, ins.argval)
        f.stack.pop()

    def op_BINARY_SUBSCR(self, f, ins):
        c, k = f.stack[-2], f.stack[-1]
        self.use(c, k)
        v = self.subscr(c, k)
        del f.stack[-2:]
        f.stack.append(v)

    def subscr(self, c, k):
        return c[k]

    def op_STORE_SUBSCR(self, f, ins):
        v, c, k = f.stack[-3], f.stack[-2], f.stack[-1]
        self.use(c, k)
        self.store_item(f, c, k, v)
        del f.stack[-3:]

    def store_item(self, f, c, k, v) -> None:
        c[k] = v

    def op_DELETE_SUBSCR(self, f, ins):
        c, k = f.stack[-2], f.stack[-1]
        self.use(c, k)
        self.mutate(c)
        del c[k]
        del f.stack[-2:]

    # ---- operators -------------------------------------------------------------------------------------
    def op_BINARY_OP(self, f, ins):
        a, b = f.stack[-2], f.stack[-1]
        self.use(a, b)
        fn = py311.BINARY_OPS[ins.arg]
        if ins.arg >= 13 and isinstance(a, (list, dict, set)):
            self.mutate(a)
        v = fn(a, b)
        del f.stack[-2:]
        f.stack.append(v)

    def _unary(self, f, fn):
        a = f.stack[-1]
        self.use(a)
        f.stack[-1] = fn(a)

    def op_UNARY_NEGATIVE(self, f, ins):
        self._unary(f, operator.neg)

    def op_UNARY_POSITIVE(self, f, ins):
        self._unary(f, operator.pos)

    def op_UNARY_INVERT(self, f, ins):
        self._unary(f, operator.invert)

    def op_UNARY_NOT(self, f, ins):
        f.stack[-1] = not self.truth(f.stack[-1])

    def op_COMPARE_OP(self, f, ins):
        a, b = f.stack[-2], f.stack[-1]
        self.use(a, b)
        v = py311.COMPARE_OPS[ins.arg](a, b)
        del f.stack[-2:]
        f.stack.append(v)

    def op_IS_OP(self, f, ins):
        a, b = f.stack[-2], f.stack[-1]
        v = (a is not b) if ins.arg else (a is b)
        del f.stack[-2:]
        f.stack.append(v)

    def op_CONTAINS_OP(self, f, ins):
        a, b = f.stack[-2], f.stack[-1]
        self.use(a, b)
        v = (a not in b) if ins.arg else (a in b)
        del f.stack[-2:]
        f.stack.append(v)

    # ---- building containers ---------------------------------------------------------------------------
    def _take(self, f, n: int) -> list:
        if not n:
            return []
        items = f.stack[-n:]
        del f.stack[-n:]
        return items

    def op_BUILD_TUPLE(self, f, ins):
        f.stack.append(tuple(self._take(f, ins.arg)))

    def op_BUILD_LIST(self, f, ins):
        f.stack.append(self.fresh(self._take(f, ins.arg)))

    def op_BUILD_SET(self, f, ins):
        items = f.stack[-ins.arg:] if ins.arg else []
        self.use(*items)
        f.stack.append(self.fresh(set(self._take(f, ins.arg))))

    def op_BUILD_MAP(self, f, ins):
        items = self._take(f, 2 * ins.arg)
        self.use(*items[0::2])
        f.stack.append(self.fresh(dict(zip(items[0::2], items[1::2]))))

    def op_BUILD_CONST_KEY_MAP(self, f, ins):
        keys = f.stack[-1]
        vals = f.stack[-1 - ins.arg:-1]
        del f.stack[-1 - ins.arg:]
        f.stack.append(self.fresh(dict(zip(keys, vals))))

    def op_BUILD_SLICE(self, f, ins):
        items = self._take(f, ins.arg)
        f.stack.append(slice(*items))

    def op_BUILD_STRING(self, f, ins):
        items = self._take(f, ins.arg)
        f.stack.append("".join(items))

    def op_FORMAT_VALUE(self, f, ins):
        has_spec = (ins.arg & 0x04) == 0x04
        spec = f.stack[-1] if has_spec else ""
        v = f.stack[-2] if has_spec else f.stack[-1]
        self.use(v)
        conv = ins.arg & 0x03
        if conv == 1:
            v = str(v)
        elif conv == 2:
            v = repr(v)
        elif conv == 3:
            v = ascii(v)
        out = format(v, spec)
        del f.stack[-(1 + has_spec):]
        f.stack.append(out)

    def op_LIST_APPEND(self, f, ins):
        lst = f.stack[-1 - ins.arg]
        self.mutate(lst)
        lst.append(f.stack.pop())

    def op_SET_ADD(self, f, ins):
        s = f.stack[-1 - ins.arg]
        self.use(f.stack[-1])
        self.mutate(s)
        s.add(f.stack.pop())

    def op_MAP_ADD(self, f, ins):
        d = f.stack[-2 - ins.arg]
        self.use(f.stack[-2])
        self.mutate(d)
        v = f.stack.pop()
        d[f.stack.pop()] = v

    def op_LIST_EXTEND(self, f, ins):
        lst, it = f.stack[-1 - ins.arg], f.stack[-1]
        self.use(it)
        self.mutate(lst)
        lst.extend(it)
        f.stack.pop()

    def op_SET_UPDATE(self, f, ins):
        s, it = f.stack[-1 - ins.arg], f.stack[-1]
        self.use(it)
        self.mutate(s)
        s.update(it)
        f.stack.pop()

    def op_DICT_UPDATE(self, f, ins):
        d, other = f.stack[-1 - ins.arg], f.stack[-1]
        self.use(other)
        self.mutate(d)
        d.update(other)
        f.stack.pop()

    op_DICT_MERGE = op_DICT_UPDATE

    def op_LIST_TO_TUPLE(self, f, ins):
        f.stack[-1] = tuple(f.stack[-1])

    def op_UNPACK_SEQUENCE(self, f, ins):
        seq = f.stack[-1]
        self.use(seq)
        items = list(seq.items[seq.pos:]) if isinstance(seq, SymIter) else list(seq)
        if len(items) != ins.arg:
            raise ValueError(f"expected {ins.arg} values to unpack, got {len(items)}")
        f.stack.pop()
        f.stack.extend(reversed(items))

    def op_UNPACK_EX(self, f, ins):
        seq = f.stack[-1]
        self.use(seq)
        items = list(seq)
        before, after = ins.arg & 0xFF, ins.arg >> 8
        if len(items) < before + after:
            raise ValueError(f"not enough values to unpack (expected at least {before + after}, got {len(items)})")
        mid = self.fresh(items[before:len(items) - after])
        out = items[:before] + [mid] + items[len(items) - after:]
        f.stack.pop()
        f.stack.extend(reversed(out))

    # ---- control flow ---------------------------------------------------------------------------------
    def op_JUMP_FORWARD(self, f, ins):
        return ins.target

    op_JUMP_BACKWARD = op_JUMP_BACKWARD_NO_INTERRUPT = op_JUMP_FORWARD

    def _cond_jump(self, f, ins):
        v = f.stack[-1]
        kind = py311.COND_JUMPS[ins.opname]
        if kind == "none":
            take = v is None
        elif kind == "notnone":
            take = v is not None
        else:
            take = self.truth(v) == (kind == "true")
        f.stack.pop()
        return ins.target if take else None

    op_POP_JUMP_FORWARD_IF_FALSE = op_POP_JUMP_BACKWARD_IF_FALSE = _cond_jump
    op_POP_JUMP_FORWARD_IF_TRUE = op_POP_JUMP_BACKWARD_IF_TRUE = _cond_jump
    op_POP_JUMP_FORWARD_IF_NONE = op_POP_JUMP_BACKWARD_IF_NONE = _cond_jump
    op_POP_JUMP_FORWARD_IF_NOT_NONE = op_POP_JUMP_BACKWARD_IF_NOT_NONE = _cond_jump

    def _jump_or_pop(self, f, ins):
        when = py311.JUMP_OR_POP[ins.opname]
        if self.truth(f.stack[-1]) == when:
            return ins.target
        f.stack.pop()
        return None

    op_JUMP_IF_FALSE_OR_POP = op_JUMP_IF_TRUE_OR_POP = _jump_or_pop

    def op_GET_ITER(self, f, ins):
        v = f.stack[-1]
        self.use(v)
        f.stack[-1] = self.fresh(self.make_iter(v))

    def op_FOR_ITER(self, f, ins):
        it = f.stack[-1]
        if isinstance(it, SymIter):
            if it.pos < len(it.items):
                self.mutate(it)
                v = it.items[it.pos]
                it.pos += 1
                f.stack.append(v)
                return None
            f.stack.pop()
            return ins.target
        self.use(it)
        try:
            v = next(it)
        except StopIteration:
            f.stack.pop()
            return ins.target
        f.stack.append(v)
        return None

    def op_RETURN_VALUE(self, f, ins):
        raise Return(f.stack[-1])

    # ---- calls -------------------------------------------------------------------------------------------
    def op_KW_NAMES(self, f, ins):
        f.kwnames = py311.kw_names(f.code, ins)

    def op_CALL(self, f, ins):
        fn, args, kwargs, n = py311.call_layout(f.stack, ins.arg, f.kwnames)
        v = self.call(f, fn, args, kwargs)
        f.kwnames = ()
        del f.stack[-n:]
        f.stack.append(v)

    def op_CALL_FUNCTION_EX(self, f, ins):
        fn, args, kwargs, n = py311.call_ex_layout(f.stack, ins.arg)
        v = self.call(f, fn, args, kwargs)
        del f.stack[-n:]
        f.stack.append(v)

    def op_MAKE_FUNCTION(self, f, ins):
        flags = ins.arg
        k = len(f.stack) - 1
        code = f.stack[k]
        closure = annotations = kwdefaults = defaults = None
        if flags & py311.MF_CLOSURE:
            k -= 1
            closure = f.stack[k]
        if flags & py311.MF_ANNOTATIONS:
            k -= 1
            annotations = f.stack[k]
        if flags & py311.MF_KWDEFAULTS:
            k -= 1
            kwdefaults = f.stack[k]
        if flags & py311.MF_DEFAULTS:
            k -= 1
            defaults = f.stack[k]
        fn = types.FunctionType(code, f.glb, code.co_name, defaults, closure)
        if kwdefaults is not None:
            fn.__kwdefaults__ = kwdefaults
        if annotations is not None:
            fn.__annotations__ = dict(zip(annotations[::2], annotations[1::2])) \
                if isinstance(annotations, tuple) else annotations
        fn.__qualname__ = code.co_qualname
        del f.stack[k:]
        f.stack.append(self.fresh(fn))

    # ---- exceptions and with-blocks -----------------------------------------------------------------------
    def op_PUSH_EXC_INFO(self, f, ins):
        v = f.stack.pop()
        f.stack.append(f.exc)
        f.exc = v
        f.stack.append(v)

    def op_POP_EXCEPT(self, f, ins):
        f.exc = f.stack.pop()

    def op_CHECK_EXC_MATCH(self, f, ins):
        exc, typ = f.stack[-2], f.stack[-1]
        f.stack[-1] = isinstance(exc, typ)

    def op_RERAISE(self, f, ins):
        raise f.stack[-1]

    def op_RAISE_VARARGS(self, f, ins):
        if ins.arg == 0:
            if f.exc is None:
                raise RuntimeError("No active exception to reraise")
            raise f.exc
        if ins.arg == 1:
            exc = f.stack[-1]
            raise exc
        exc, cause = f.stack[-2], f.stack[-1]
        if isinstance(exc, type):
            exc = exc()
        raise exc from cause

    def op_LOAD_ASSERTION_ERROR(self, f, ins):
        f.stack.append(AssertionError)

    def op_BEFORE_WITH(self, f, ins):
        mgr = f.stack[-1]
        exit_ = type(mgr).__exit__.__get__(mgr)
        res = type(mgr).__enter__(mgr)
        f.stack[-1] = exit_
        f.stack.append(res)

    def op_WITH_EXCEPT_START(self, f, ins):
        exit_fn, val = f.stack[-4], f.stack[-1]
        f.stack.append(exit_fn(type(val), val, val.__traceback__))

    def op_LOAD_BUILD_CLASS(self, f, ins):
        f.stack.append(f.bltn["__build_class__"])

    def op_DELETE_DEREF(self, f, ins):
        cell = f.locals[ins.arg]
        self.mutate(cell)
        del cell.cell_contents

    def op_DELETE_GLOBAL(self, f, ins):
        self.store_global(f, ins.argval, None)
        del f.glb[ins.argval]

    def op_GET_LEN(self, f, ins):
        f.stack.append(len(f.stack[-1]))

    def op_IMPORT_NAME(self, f, ins):
        level, fromlist = f.stack[-2], f.stack[-1]
        mod = __import__(ins.argval, f.glb, None, fromlist, level)
        del f.stack[-2:]
        f.stack.append(mod)

    def op_IMPORT_FROM(self, f, ins):
        f.stack.append(getattr(f.stack[-1], ins.argval))


class Real(Handlers):
    """Concrete execution of single instructions (the Python parts between compiled segments).
    Calls of user functions go back through PIJit so that they are captured too."""

    def __init__(self, runtime):
        self.rt = runtime

    def call(self, f, fn, args, kwargs):
        if fn is super and not args:
            return _zero_arg_super(f)
        return self.rt.call_real(fn, args, kwargs)


def _zero_arg_super(f: Frame):
    names = py311.localsplus_names(f.code)
    if "__class__" not in names or not f.code.co_argcount:
        raise RuntimeError("super(): no arguments")
    cls = f.locals[names.index("__class__")].cell_contents
    first = f.locals[0]
    if isinstance(first, types.CellType):
        first = first.cell_contents
    return super(cls, first)
