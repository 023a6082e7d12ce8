"""List parameters of sprout's public API that the body never reads (an option accepted and ignored).

Usage: ``python tools/unused_params.py [--all]`` prints ``file:line qualname param`` per unlisted hit (``--all``:
listed ones too) and exits 1 when there is an unlisted hit. Every accepted hit is in ``unused_params_allow.txt``
with the reason it has no effect in sprout; ``tests/test_unused_params.py`` runs this checker.

What is scanned: the functions and classes that sprout's counterparts of MindSpore 2.10's modules export
(``NAMESPACES``; found by importing them), with the methods of those classes and of their sprout base classes
(public names and dunders); the definitions are then read with ``ast``. Not counted: ``self``/``cls``; a body
that is only a docstring, ``pass``, ``...`` or ``raise NotImplementedError`` (an interface for subclasses to fill);
``@overload`` / ``@abstractmethod`` signatures; a body that calls ``locals()``. A parameter only deleted
(``del x``) is not read. A ``**kwargs`` whose every read picks one key (``get``/``pop``/``[k]``/``in``) and
is never forwarded or checked as a whole ignores the other keys: a hit named ``**kwargs(other-keys)``. A
parameter read only to be stored or validated counts as read: the checker finds options dropped on the floor,
not options stored and never used (review those by hand).
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOW = Path(__file__).with_name("unused_params_allow.txt")

_SKIP_DECORATORS = {"overload", "abstractmethod", "abstractproperty"}


def _decorator_names(fn: ast.AST) -> set[str]:
    names = set()
    for d in fn.decorator_list:
        while isinstance(d, ast.Call):
            d = d.func
        if isinstance(d, ast.Attribute):
            names.add(d.attr)
        elif isinstance(d, ast.Name):
            names.add(d.id)
    return names


def _is_interface(body: list[ast.stmt]) -> bool:
    """A body with nothing but a docstring, pass, ... or a bare ``raise NotImplementedError(...)``."""
    for st in body:
        if isinstance(st, ast.Pass):
            continue
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):  # docstring or ...
            continue
        if isinstance(st, ast.Raise) and st.exc is not None:
            exc = st.exc.func if isinstance(st.exc, ast.Call) else st.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True


def _read_names(fn: ast.AST) -> set[str] | None:
    """Names loaded anywhere in the function (nested functions and lambdas included); None if it calls locals()."""
    read = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read.add(node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("locals", "vars") \
                and not node.args:
            return None
    return read


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[str]:
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    if method and names and "staticmethod" not in _decorator_names(fn):
        names = names[1:]  # self / cls
    if a.vararg:
        names.append("*" + a.vararg.arg)
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
    return names


# sprout's modules whose MindSpore 2.10 counterpart exists (mindspore.X importable): the names they export are the
# API MindSpore code calls. Classes bring their methods (and those of their sprout base classes).
NAMESPACES = """
amp common common.api common.dtype common.generator common.initializer common.parameter common.tensor communication
communication.comm_func communication.management context dataset dataset.text dataset.text.transforms
dataset.transforms dataset.transforms.transforms dataset.vision dataset.vision.transforms device_context
device_context.ascend device_context.cpu device_context.cpu.op_tuning device_context.gpu experimental
experimental.optim experimental.optim.adam experimental.optim.lr_scheduler experimental.optim.optimizer hal log
mindrecord mint mint.distributed mint.linalg mint.nn mint.nn.functional mint.optim mint.special nn nn.cell
nn.learning_rate_schedule nn.loss nn.loss.loss nn.optim nn.optim.adam nn.optim.adasum nn.optim.momentum
nn.optim.optimizer nn.optim.sgd nn.sparse nn.sparse.sparse nn.utils nn.wrap numpy numpy.array_creations
numpy.array_ops numpy.fft numpy.logic_ops numpy.math_ops onnx ops ops.communication ops.composite ops.functional
ops.operations ops.primitive parallel parallel.auto_parallel parallel.nn profiler run_check runtime train train.amp
train.callback train.dataset_helper train.loss_scale_manager train.metrics train.metrics.accuracy train.metrics.error
train.metrics.metric train.model train.serialization train.summary train.summary.summary_record version
""".split()


def _is_public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _code_of(obj):
    obj = inspect.unwrap(obj) if callable(obj) else obj
    return getattr(obj, "__code__", None)


def _targets(root: Path) -> dict[tuple[str, int], str]:
    """(file, first line) -> qualname of every exported function and method whose code lives under root/sprout."""
    sys.path.insert(0, str(root))
    import sprout

    pkg = Path(sprout.__file__).resolve().parent
    found: dict[tuple[str, int], str] = {}
    seen: set[int] = set()

    def add(fn, qual):
        code = _code_of(fn)
        if code is None:
            return
        f = Path(code.co_filename).resolve()
        if pkg in f.parents:
            found.setdefault((f.relative_to(pkg.parent).as_posix(), code.co_firstlineno), qual)

    def add_class(cls):
        for klass in cls.__mro__:
            if id(klass) in seen or not getattr(klass, "__module__", "").startswith("sprout"):
                continue
            seen.add(id(klass))
            for name, attr in vars(klass).items():
                if not _is_public(name):
                    continue
                if isinstance(attr, (staticmethod, classmethod)):
                    attr = attr.__func__
                if isinstance(attr, property):
                    for acc in (attr.fget, attr.fset):
                        if acc is not None:
                            add(acc, f"{klass.__qualname__}.{name}")
                elif inspect.isfunction(attr) or inspect.isfunction(inspect.unwrap(attr) if callable(attr) else None):
                    add(attr, f"{klass.__qualname__}.{name}")

    for ns in ["sprout"] + [f"sprout.{n}" for n in NAMESPACES]:
        mod = importlib.import_module(ns)
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        for name in names:
            obj = getattr(mod, name, None)
            if inspect.isclass(obj):
                add_class(obj)
            elif callable(obj) and _code_of(obj) is not None:
                add(obj, getattr(inspect.unwrap(obj), "__qualname__", name))
            elif callable(obj) and type(obj).__module__.startswith("sprout"):  # an instance (a composite op)
                add_class(type(obj))
    return found


def _only_looked_up(fn, name: str) -> bool:
    """Whether every read of ``**name`` picks a key (``.get``/``.pop``/``[k]``/``k in``): other keys are ignored."""
    parents = {c: n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            par = parents.get(node)
            if isinstance(par, ast.Attribute) and par.attr in ("get", "pop", "setdefault"):
                continue
            if isinstance(par, ast.Subscript) and par.value is node:
                continue
            if isinstance(par, ast.Compare) and node in par.comparators:
                continue
            return False
    return True


def _function_hits(fn, qual: str, method: bool):
    if _decorator_names(fn) & _SKIP_DECORATORS or _is_interface(fn.body):
        return
    read = _read_names(fn)
    if read is None:
        return
    for p in _params(fn, method):
        if p.lstrip("*") not in read:
            yield fn.lineno, qual, p
        elif p.startswith("**") and _only_looked_up(fn, p[2:]):
            yield fn.lineno, qual, p + "(other-keys)"


def _defs(tree: ast.AST):
    """Every function definition with whether it is a method (directly in a class body)."""
    stack = [(tree, False)]
    while stack:
        node, in_class = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield child, in_class
            stack.append((child, isinstance(child, ast.ClassDef)))


def scan(root: Path = ROOT) -> list[tuple[str, int, str, str]]:
    """Every hit as (module path relative to root, line, qualname, param), sorted by file and line."""
    targets = _targets(root)
    hits = []
    for rel in sorted({f for f, _ in targets}):
        tree = ast.parse((root / rel).read_text(), rel)
        for fn, method in _defs(tree):
            first = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
            qual = targets.get((rel, first)) or targets.get((rel, fn.lineno))
            if qual is not None:
                hits.extend((rel, line, q, p) for line, q, p in _function_hits(fn, qual, method))
    return sorted(set(hits))


def load_allowlist(path: Path = ALLOW) -> dict[tuple[str, str, str], str]:
    """``path qualname param  # reason`` per line (``#`` lines and blank lines skipped); a reason is required."""
    allow = {}
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        entry, sep, reason = line.partition("#")
        fields = entry.split()
        if len(fields) != 3 or not sep or not reason.strip():
            raise ValueError(f"{path.name}:{n}: expected 'path qualname param  # reason', got {raw!r}")
        allow[tuple(fields)] = reason.strip()
    return allow


def check(root: Path = ROOT, allow_path: Path = ALLOW):
    """(unlisted hits, stale allowlist keys that no longer match a hit)."""
    allow = load_allowlist(allow_path)
    hits = scan(root)
    keys = {(f, q, p) for f, _, q, p in hits}
    unlisted = [h for h in hits if (h[0], h[2], h[3]) not in allow]
    stale = sorted(k for k in allow if k not in keys)
    return unlisted, stale


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="also print the allowlisted hits")
    args = ap.parse_args(argv)
    if args.all:
        for f, line, qual, param in scan():
            print(f"{f}:{line} {qual} {param}")
        return 0
    unlisted, stale = check()
    for f, line, qual, param in unlisted:
        print(f"{f}:{line} {qual} {param}")
    for f, qual, param in stale:
        print(f"stale allowlist entry (no longer a hit): {f} {qual} {param}")
    return 1 if unlisted or stale else 0


if __name__ == "__main__":
    sys.exit(main())
