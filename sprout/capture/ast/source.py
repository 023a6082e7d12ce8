"""convert(fn): read the function's source, check and rewrite its AST, compile it with the user's file
name and line numbers, and rebuild a function over the original globals and closure cells."""
from __future__ import annotations

import ast
import functools
import inspect
import linecache
import types
import warnings

from ...core import dispatch
from ...core.errors import JitSyntaxError, JitWarning
from . import blocks, refusals, runtime
from .convert import CTX, RT, Converter
from .passes import Names, normalize
from .resolve import function_kind

SYNTAX_LEVELS = ("STRICT", "LAX", "COMPATIBLE")

# code object -> syntax level -> _Converted (the per-function product of conversion)
_CACHE: dict = {}
# every code object produced by conversion (functions defined inside converted code included)
_CONVERTED_CODES: set = set()


class _Converted:
    __slots__ = ("code", "ctx")

    def __init__(self, code: types.CodeType, ctx: runtime.FunctionContext):
        self.code, self.ctx = code, ctx


class NoSource(Exception):
    """The function's source is not available (built in C, made by exec, typed at a prompt)."""


def is_converted(fn) -> bool:
    if getattr(fn, "_sp_converted", None) is not None:
        return True
    code = getattr(fn, "__code__", None)
    return code is not None and code in _CONVERTED_CODES


def convert(fn, *, syntax_level: str = "LAX"):
    """Return ``fn`` with tensor-dependent control flow rewritten into ``sprout.capture.control`` calls
    (see docs/syntax.md). Refused syntax raises a located ``JitSyntaxError``. Functions whose
    source cannot be read, and sprout's own functions, are returned unchanged (they still trace,
    without tensor control flow)."""
    level = str(syntax_level).upper()
    if level not in SYNTAX_LEVELS:
        raise ValueError(f"jit_syntax_level must be one of {SYNTAX_LEVELS}, got {syntax_level!r}")
    if isinstance(fn, types.MethodType):
        return types.MethodType(convert(fn.__func__, syntax_level=level), fn.__self__)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"convert: expected a Python function, got {type(fn).__name__}")
    if is_converted(fn) or function_kind(fn) == "sprout":
        # sprout's own functions (ops.add, ops.div ...) are primitives to the converter, as MindSpore's
        # resolve treats its own ops: they trace as they are, only user code is rewritten
        return fn
    per_code = _CACHE.setdefault(fn.__code__, {})
    entry = per_code.get(level)
    if entry is None:
        try:
            entry = _build(fn, level)
        except NoSource as exc:
            entry = False
            # say so once: a tensor `if`/`while` in this function will then fail as a tensor-as-bool
            # (not for lambdas: one expression, often inside a larger literal that cannot be re-parsed)
            if fn.__code__.co_name != "<lambda>":
                warnings.warn(f"jit: the source of {fn.__qualname__} ({fn.__code__.co_filename}) cannot be read "
                              f"({exc}); it is traced without AST conversion, so control flow on tensor values "
                              "inside it cannot become a graph (under jit_syntax_level=LAX it runs as Python "
                              "between graph segments; define it in a file to compile it)",
                              JitWarning, stacklevel=3)
        per_code[level] = entry
    if entry is False:
        return fn
    return _attr_scope(_instantiate(fn, entry))


def _attr_scope(fn):
    """Run ``fn`` inside an AttrWrites collector when a graph is being built and nobody (the jit)
    collects attribute writes: the traced objects get their attributes back afterwards, so no
    symbolic tensor leaks out of the trace."""
    def converted(*args, **kwargs):
        if runtime.AttrWrites._stack or dispatch.current_builder() is None:
            return fn(*args, **kwargs)
        with runtime.AttrWrites() as writes:
            out = fn(*args, **kwargs)
        for obj, name, _ in writes.outputs():
            warnings.warn(f"{type(obj).__name__}.{name} is assigned a tensor inside the jitted function "
                          f"{fn.__qualname__}; the jit does not write it back after the call", JitWarning,
                          stacklevel=2)
        return out

    functools.update_wrapper(converted, fn)
    converted.__wrapped__ = fn
    converted._sp_converted = fn
    return converted


def _instantiate(fn: types.FunctionType, entry: _Converted) -> types.FunctionType:
    code = entry.code
    orig = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells = []
    for name in code.co_freevars:
        if name == RT:
            cells.append(types.CellType(runtime))
        elif name == CTX:
            cells.append(types.CellType(entry.ctx))
        elif name in orig:
            cells.append(orig[name])
        else:
            raise JitSyntaxError(f"cannot rebuild the closure of {fn.__qualname__}: no cell for '{name}'",
                                 None, "define the function at module level")
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(cells))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__dict__.update(fn.__dict__)
    new.__dict__.pop("__wrapped__", None)
    return new


def _parse(fn: types.FunctionType) -> tuple[ast.AST, str]:
    """The function's own FunctionDef (decorators stripped), with the file's line numbers and columns."""
    try:
        return _parse_block(fn)
    except NoSource:
        if fn.__code__.co_name != "<lambda>":
            raise
    # a lambda inside a larger expression (a dict of lambdas over several lines): its line is not a block
    lines = linecache.getlines(fn.__code__.co_filename)
    try:
        tree = ast.parse("".join(lines), fn.__code__.co_filename) if lines else None
    except SyntaxError:
        tree = None
    node = _find(tree, fn) if tree is not None else None
    if node is None:
        raise NoSource(f"no lambda at {fn.__code__.co_filename}:{fn.__code__.co_firstlineno}")
    return node, fn.__code__.co_filename


def _parse_block(fn: types.FunctionType) -> tuple[ast.AST, str]:
    code = fn.__code__
    if code.co_name != "<lambda>":  # first the lines the code object spans (no tokenizer)
        all_lines = linecache.getlines(code.co_filename)
        if all_lines and code.co_firstlineno <= len(all_lines):
            node = _parse_lines(fn, *blocks.block(all_lines, code))
            if node is not None:
                return node, code.co_filename
    node = _parse_lines(fn, *_source_lines(code), strict=True)
    if node is None:
        raise NoSource(f"no definition of {code.co_name} at {code.co_filename}:{code.co_firstlineno}")
    return node, code.co_filename


def _parse_lines(fn: types.FunctionType, lines: list[str], start: int, strict: bool = False):
    """``fn``'s definition in ``lines`` (starting at line ``start`` of its file), with the file's line numbers;
    None when it is not there or the lines do not parse (``strict``: NoSource then)."""
    text = "".join(lines)
    offset = max(start, 1) - 1
    if lines and lines[0][:1] in (" ", "\t"):  # a method or nested function: parse inside a dummy block
        text, offset = "if 1:\n" + text, offset - 1
    try:
        tree = ast.parse(text, fn.__code__.co_filename)
    except SyntaxError as exc:
        if strict:
            raise NoSource(str(exc)) from None
        return None
    ast.increment_lineno(tree, offset)
    return _find(tree, fn)


def _source_lines(code: types.CodeType) -> tuple[list[str], int]:
    """The source block of ``code`` by ``inspect.getblock`` (the tokenizer). Reads the file through linecache
    directly: ``inspect``'s own lookup first maps every loaded module to its file (``inspect.getmodule``),
    which costs ~100 ms per call once a few hundred modules are imported."""
    all_lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno
    if not all_lines or first > len(all_lines):
        try:
            return inspect.getsourcelines(code)  # interactive / zipped sources: let inspect try
        except (OSError, TypeError) as exc:
            raise NoSource(str(exc)) from None
    try:
        block = inspect.getblock(all_lines[first - 1:])
    except (IndentationError, SyntaxError) as exc:
        raise NoSource(str(exc)) from None
    return block, first


def _find(tree: ast.AST, fn: types.FunctionType):
    code = fn.__code__
    argnames = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    name = code.co_name  # the name in the source, even if __name__ was reassigned afterwards
    if name == "<lambda>":
        found = [node for node in ast.walk(tree) if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno
                 and [x.arg for x in node.args.posonlyargs + node.args.args + node.args.kwonlyargs] == argnames]
        if len(found) > 1:  # lambdas with the same parameters on one line: the one whose body holds the code
            spots = [(p[0], p[2]) for p in code.co_positions() if p[0] is not None and p[2] is not None]
            found = [n for n in found if any((n.body.lineno, n.body.col_offset) <= spot
                                             <= (n.body.end_lineno, n.body.end_col_offset) for spot in spots)]
        if not found:
            return None
        node = found[0]
        fdef = ast.FunctionDef(name="_sp_lambda", args=node.args,
                               body=[ast.copy_location(ast.Return(value=node.body), node.body)],
                               decorator_list=[], returns=None, type_params=[])
        return ast.copy_location(fdef, node)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if code.co_firstlineno in (first, node.lineno):
                node.decorator_list = []
                return node
    return None


def _build(fn: types.FunctionType, level: str) -> _Converted:
    node, filename = _parse(fn)
    refusals.check(node, filename, level, fn)
    qual = fn.__qualname__.split(".")
    class_name = qual[-2] if len(qual) >= 2 and qual[-2] != "<locals>" else None
    names = Names()
    normalize(node, names)
    conv = Converter(filename, class_name, names)
    node = conv.visit(node)
    # the factory's local name for the converted function must not be one the body reads: a recursive
    # call (``def div(...): ... div(a, b)``) would otherwise become a closure reference to the factory
    node.name = "_sp_converted"
    freevars = [n for n in fn.__code__.co_freevars]
    params = [RT, CTX] + freevars
    factory = ast.FunctionDef(
        name="_sp_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    ast.copy_location(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        module_code = compile(module, filename, "exec", dont_inherit=True)
    inner = _find_code(module_code, node.name).replace(co_name=fn.__name__, co_qualname=fn.__qualname__)
    _register_codes(module_code)
    _CONVERTED_CODES.add(inner)
    ctx = runtime.FunctionContext(fn.__qualname__, filename, level, conv.locs)
    return _Converted(inner, ctx)


def _find_code(module_code: types.CodeType, name: str) -> types.CodeType:
    factory = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    return next(c for c in factory.co_consts if isinstance(c, types.CodeType) and c.co_name == name)


def _register_codes(code: types.CodeType) -> None:
    _CONVERTED_CODES.add(code)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _register_codes(c)


def show(fn) -> str:
    """The converted source of ``fn`` (for debugging the converter)."""
    node, filename = _parse(fn)
    names = Names()
    normalize(node, names)
    qual = fn.__qualname__.split(".")
    node = Converter(filename, qual[-2] if len(qual) >= 2 else None, names).visit(node)
    return ast.unparse(ast.fix_missing_locations(node))
