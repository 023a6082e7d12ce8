"""Views while a graph is built: a shape op whose eager kernel returns a view of its operand's buffer makes a
tracer that must see later in-place writes to that buffer (MindSpore's PyNative view semantics, sprout's eager)."""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..core.op import Op
from ..core.tensor import Tensor
from ..core.types import type_of

# a symbolic dimension of a view's root is simulated with this size (view-ness does not depend on it for a
# C-contiguous root unless a size is 1: avoid 1)
_SYMBOLIC_SIZE = 3


class Step:
    """One view op applied to the previous value of a chain: ``op(prev, *rest, **attrs)[index]``."""

    __slots__ = ("op", "rest", "attrs", "index")

    def __init__(self, op: Op, rest: tuple, attrs: dict, index: int | None):
        self.op, self.rest, self.attrs, self.index = op, rest, attrs, index

    def run(self, x: Any) -> Any:
        out = self.op.impl(x, *self.rest, **self.attrs)
        return out if self.index is None else out[self.index]


def candidate(op: Op) -> bool:
    """Ops whose kernel may return a view of operand 0 (sprout's shape ops that do not always allocate)."""
    return op.kind == "shape" and not op.fresh_output and op.name != "SetItem"


def concrete_rest(args: tuple) -> tuple | None:
    """The operands after the first as the kernel receives them, or None when one is a graph value (a tensor
    index makes an advanced index: a copy)."""
    from .builder import Tracer

    out = []
    for a in args[1:]:
        if isinstance(a, Tracer):
            return None
        if isinstance(a, Tensor):
            from ..core.tensor import Parameter

            if isinstance(a, Parameter):
                return None
            out.append(a._data)
        else:
            out.append(a)
    return tuple(out)


def is_view(root_type, chain: tuple) -> bool:
    """Whether the eager kernels of ``chain`` applied to a fresh C-contiguous array of ``root_type`` return a
    view of it (run on an uninitialised stand-in: the answer depends on shapes and strides only)."""
    shape = tuple(_SYMBOLIC_SIZE if d is None else d for d in root_type.shape)
    try:
        base = np.empty(shape, root_type.dtype.np)
        x = base
        for step in chain:
            x = step.run(x)
    except Exception:  # noqa: BLE001 - the kernel refuses the stand-in: treat the result as a copy
        return False
    return isinstance(x, np.ndarray) and x.size > 0 and np.may_share_memory(x, base)


class ViewTable:
    """The views made in one builder: ``root`` (the builder's tracer for the written object) -> live views
    (weak references, so a view nobody holds is not re-derived) with the chain of steps from the root."""

    def __init__(self):
        self._by_root: dict[int, tuple] = {}   # id(root) -> (root, [(weakref(view), chain)])
        self._of: dict[int, tuple] = {}        # id(view) -> (weakref(view), root, chain)

    def add(self, view: Tensor, root: Tensor, chain: tuple) -> None:
        entry = self._by_root.get(id(root))
        if entry is None or entry[0] is not root:
            entry = self._by_root[id(root)] = (root, [])
        ref = weakref.ref(view)
        entry[1].append((ref, chain))
        self._of[id(view)] = (ref, root, chain)

    def base_of(self, t: Tensor) -> tuple | None:
        """(root, chain) when ``t`` is a live view recorded here."""
        entry = self._of.get(id(t))
        if entry is None or entry[0]() is not t:
            return None
        return entry[1], entry[2]

    def any(self) -> bool:
        return bool(self._by_root)

    def views_of(self, root: Tensor) -> list:
        """[(view, chain)] for the live views of ``root``."""
        entry = self._by_root.get(id(root))
        if entry is None or entry[0] is not root:
            return []
        live = [(r(), c) for r, c in entry[1]]
        live = [(v, c) for v, c in live if v is not None]
        if len(live) != len(entry[1]):
            entry[1][:] = [(weakref.ref(v), c) for v, c in live]
        return live


# ---- the builder's side ------------------------------------------------------------------------------------
def _chain_of(b) -> list:
    out = []
    while b is not None:
        out.append(b)
        b = b.parent
    return out


def _user_object(b, a: Tensor) -> Tensor | None:
    """What a write reaches ``a`` through: the Parameter (or written concrete tensor) itself, or the tracer."""
    from .builder import Tracer

    if isinstance(a, Tracer):
        return a
    from ..core.tensor import Parameter

    if isinstance(a, Parameter) or id(a) in b._state:
        return a
    return None  # a constant: never written while it has views here (writing it promotes it first)


def record(b, op: Op, args: tuple, attrs: dict, outs: list) -> None:
    """``b`` emitted ``op(*args)`` (no write): each output that eagerly is a view of operand 0's buffer is
    recorded against the object that buffer belongs to (through earlier views: chains start at that object)."""
    from .builder import Tracer

    a = args[0]
    if not isinstance(a, Tensor):
        return
    rest = concrete_rest(args)
    if rest is None:
        return
    root = _user_object(b, a)
    if root is None:
        return
    found = b.views.base_of(a)
    root, chain = found if found is not None else (root, ())
    if chain is None:  # a value that may be a view (it left a branch or loop body as one): so are its views
        for out in outs:
            b.views.add(out, root, None)
        return
    rtype = root._var.type if isinstance(root, Tracer) else type_of(root)
    single = op.n_out == 1
    for k, out in enumerate(outs):
        full = chain + (Step(op, rest, dict(attrs), None if single else k),)
        if is_view(rtype, full):
            b.views.add(out, root, full)


def written_objects(b, target) -> list:
    """The objects a write to ``target`` (a tracer of ``b``) reaches: itself, the outer tensors a body's tracer
    stands for (through every enclosing builder) and the Parameters / written tensors behind them."""
    from .builder import Tracer

    out, seen, todo = [], set(), [(b, target)]
    while todo:
        bb, x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        out.append(x)
        for p, t in bb._params.values():
            if t is x and id(p) not in seen:
                seen.add(id(p))
                out.append(p)
        for o in bb._stands_for.get(id(x), ()):
            if isinstance(o, Tracer) and id(o) not in seen:
                todo.append((o._builder, o))
    return out


def follow(b, target, new, seen: set) -> None:
    """After ``target`` (a tracer of ``b``) took ``new``: every live view of the objects it reaches, made in
    ``b`` or an enclosing builder, is derived again from ``new`` (eagerly it shares the written buffer). The
    new nodes are not on gradient tapes: a view keeps its own record (as eagerly, gradients of later reads
    flow to what the view was taken of)."""
    from .builder import _new_tracer

    if not b.views.any():
        return
    builders = _chain_of(b)
    for obj in written_objects(b, target):
        for view, chain in b.views.views_of(obj):
            if id(view) in seen or view._builder not in builders:
                continue
            seen.add(id(view))
            if chain is None:
                raise _unknown(view)
            x = _new_tracer(new, b)
            for step in chain:
                x = b.emit(step.op, (x,) + step.rest, dict(step.attrs))
                if step.index is not None:
                    x = x[step.index]
            b.write(b.target(view), x._var, seen, derived=True)


def _undo(b, step: Step, prev, new):
    """The value of ``prev`` after its view ``step(prev)`` took ``new`` in place (a tracer of ``b``); raises
    when the view's elements cannot be mapped back."""
    from ..core.op import REGISTRY

    name = step.op.name
    if step.index is None and name in ("Reshape", "ExpandDims", "Squeeze") and None not in prev._var.type.shape:
        return b.emit(REGISTRY["Reshape"], (new,), {"shape": tuple(prev._var.type.shape)})
    if step.index is None and name == "Transpose":
        perm = tuple(int(i) for i in np.argsort(step.attrs["perm"]))
        return b.emit(step.op, (new,), {"perm": perm})
    if step.index is None and name == "ReverseV2":
        return b.emit(step.op, (new,), dict(step.attrs))
    if step.index is None and name == "GetItem":
        return b.emit(REGISTRY["SetItem"], (prev, new) + step.rest, dict(step.attrs))
    from ..core.errors import JitValueError, user_loc

    raise JitValueError(f"an in-place write to a view made by {name} (the view's elements cannot be written back "
                        "to the tensor it was taken of in a graph)", user_loc(4),
                        "write to the tensor the view was taken of, or write to a copy (ops.identity)")


def write_through(b, target, new) -> bool:
    """``target`` (a tracer of ``b``) is eagerly a view: a write to it is a write to the buffer it shares. The
    object that buffer belongs to takes the written elements (its other views follow); False when ``target``
    is no view."""
    from .builder import _new_tracer

    if not b.views.any():
        return False
    for obj in written_objects(b, target):
        found = b.views.base_of(obj)
        if found is not None:
            break
    else:
        return False
    root, chain = found
    if chain is None:
        raise _unknown(target)
    rt = b.target(root)
    values = [rt]
    for step in chain[:-1]:
        x = b.emit(step.op, (values[-1],) + step.rest, dict(step.attrs))
        values.append(x if step.index is None else x[step.index])
    cur = _new_tracer(new, b)
    for step, prev in zip(reversed(chain), reversed(values)):
        cur = _undo(b, step, prev, cur)
    b.write(rt, cur._var)
    return True


def _unknown(view) -> Exception:
    from ..core.errors import JitValueError, user_loc

    return JitValueError("an in-place write to a tensor that a branch or loop body on a tensor condition returned "
                         "as a view of another (eagerly they share memory on that path; the graph cannot tell "
                         "which path ran)", user_loc(4),
                         "take the view after the branch or loop, or make the result a copy (ops.identity)")


def escaping(b, leaves: list, ins: tuple = (), operands: tuple = ()) -> dict:
    """{leaf index: [objects]} for the results of a branch or loop body (traced by builder ``b``) that are views
    of a tensor from outside it: the operand an input tracer in ``ins`` stands for, an outer tracer, a
    Parameter, or another result (a view of a tensor made in the body and returned too)."""
    from .builder import Tracer

    found: dict = {}
    for i, x in enumerate(leaves):
        if not isinstance(x, Tensor):
            continue
        base = b.views.base_of(x)
        if base is None:
            continue
        root = base[0]
        objs = []
        if not isinstance(root, Tracer) or root._builder is not b:
            objs.append(root)
        else:
            objs += [o for t, o in zip(ins, operands) if t is root and isinstance(o, Tensor)]
            objs += [("input", k) for k, t in enumerate(ins) if t is root]
            objs += list(b._stands_for.get(id(root), ()))
            objs += [("result", j) for j, y in enumerate(leaves) if y is root]
        if objs:
            found[i] = objs
    return found


def mark_escaped(found: dict, results: list, of_input: dict | None = None) -> None:
    """After the node: each result in ``found`` (from ``escaping``) may be a view of those objects (a result
    index stands for that result, an input index for ``of_input``'s result, a loop variable's final value): a
    later in-place write to one of them raises (``follow``)."""
    from ..core import dispatch

    b = dispatch.current_builder()
    for i, objs in found.items():
        out = results[i]
        if not isinstance(out, Tensor):
            continue
        for obj in objs:
            if isinstance(obj, tuple):
                root = results[obj[1]] if obj[0] == "result" else (of_input or {}).get(obj[1])
            else:
                root = obj
            if isinstance(root, Tensor) and root is not out:
                b.views.add(out, root, None)
