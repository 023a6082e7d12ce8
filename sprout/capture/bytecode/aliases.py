"""Tensors a segment reads that share memory (a view made before a graph break, two arguments sharing a
buffer): the later-converted one is expressed through the other (a view chain), guarded by their layout,
and a segment that writes is guarded on the rest sharing nothing."""
from __future__ import annotations

import numpy as np

from ...core.op import REGISTRY
from ...core.tensor import Parameter, Tensor
from ...ir import views as _views


def _shares(a: np.ndarray, b: np.ndarray) -> bool:
    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except np.exceptions.TooHardError:
        return True


def layout(view: np.ndarray, root: np.ndarray) -> tuple | None:
    """(offset, strides) in elements of ``view`` inside ``root`` (C-contiguous, same dtype), or None when
    ``view`` is not made of whole elements of ``root``."""
    if view.dtype != root.dtype or not root.flags.c_contiguous or view.size == 0 or root.size == 0:
        return None
    item = root.itemsize
    start = view.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if start % item or any(s % item for s in view.strides):
        return None
    offset, strides = start // item, tuple(s // item for s in view.strides)
    lo = offset + sum(st * (n - 1) for st, n in zip(strides, view.shape) if st < 0)
    hi = offset + sum(st * (n - 1) for st, n in zip(strides, view.shape) if st > 0)
    if lo < 0 or hi >= root.size:
        return None
    return offset, strides


def chain_for(shape: tuple, where: tuple, root_size: int) -> tuple:
    """View steps taking the root (``root_size`` elements) to the view of ``shape`` at ``where`` (from
    ``layout``): a reshape when the view is all the root's elements in order, else the flat root indexed by the
    elements' positions."""
    from ...ops.indexing import split_index

    offset, strides = where
    flat = _views.Step(REGISTRY["Reshape"], (), {"shape": (-1,)}, None)
    c_strides = tuple(int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape)))
    in_order = all(n == 1 or s == c for n, s, c in zip(shape, strides, c_strides))
    if offset == 0 and in_order and int(np.prod(shape, dtype=np.int64)) == root_size:
        return (_views.Step(REGISTRY["Reshape"], (), {"shape": tuple(shape)}, None),) if shape else \
            (flat, _views.Step(REGISTRY["Reshape"], (), {"shape": ()}, None))
    idx = np.full(shape, offset, np.int64)
    for k, (n, s) in enumerate(zip(shape, strides)):
        idx += (np.arange(n, dtype=np.int64) * s).reshape((n,) + (1,) * (len(shape) - k - 1))
    spec, tensors = split_index(idx)
    return flat, _views.Step(REGISTRY["GetItem"], (tensors[0]._data,), {"spec": spec}, None)


def apart(*tensors) -> bool:
    """No two of ``tensors`` share memory (a guard of segments that write: they were captured so)."""
    owners: dict = {}
    for t in tensors:
        a = t._data
        o = a
        while isinstance(o, np.ndarray) and o.base is not None:
            o = o.base
        owners.setdefault(id(o), []).append(a)
    for group in owners.values():
        for i in range(1, len(group)):
            for j in range(i):
                if _shares(group[i], group[j]):
                    return False
    return True


def layout_of(view: Tensor, root: Tensor) -> tuple | None:
    """``layout`` of two tensors' arrays when they share memory (the guard of a related pair)."""
    v, r = view._data, root._data
    if not isinstance(v, np.ndarray) or not isinstance(r, np.ndarray) or not _shares(v, r):
        return None
    return layout(v, r)


class Converted:
    """The tensors one capture read (objects, their tracers, source paths), to relate ones sharing memory. The
    roots (tensors not expressed through another) never share memory with each other."""

    def __init__(self):
        self.items: list = []      # (tensor, tracer, path)
        self.related: set = set()  # id(tracer) of tensors expressed through a root (guarded by their layout)
        self._busy: set = set()    # ids of tensors being converted

    def add(self, cap, v: Tensor, t, path: tuple) -> object:
        """``v`` (converted to ``t`` from ``path``) against the tensors read before: the tracer to use."""
        from .capture import Break

        a = v._data
        if not isinstance(a, np.ndarray):
            return t
        self._busy.add(id(v))
        try:
            self._read_container_first(cap, v)
        finally:
            self._busy.discard(id(v))
        roots = [(w, u, p) for w, u, p in self.items if id(u) not in self.related and w is not v
                 and isinstance(w._data, np.ndarray) and _shares(a, w._data)]
        if not roots:
            self.items.append((v, t, path))
            return t
        w, u, upath = roots[0]
        where = layout(a, w._data)
        if where is None or isinstance(v, Parameter):
            raise Break("reads two tensors that share memory in a way one graph cannot express (neither lies in "
                        "the other, or the one holding the other was read after it)")
        if None in t.shape or None in u.shape:
            raise Break("reads two tensors that share memory, one with a symbolic shape", dynamic_failure=True)
        x = u  # v lies in w (roots share no memory: only in w): read through w's tracer, a view of it
        chain = chain_for(tuple(a.shape), where, w._data.size)
        for step in chain:
            x = cap.builder.emit(step.op, (x,) + step.rest, dict(step.attrs))
        cap.builder.views.add(x, w if isinstance(w, Parameter) else u, chain)
        cap.guard(("VIEWOF", path, upath, where))
        self.related.add(id(x))
        self.items.append((v, x, path))
        return x

    def _read_container_first(self, cap, v: Tensor) -> None:
        """A tensor of the frame the segment starts in that holds ``v``'s elements (``x`` for ``y = x.T`` made
        before the break) is read first, so that ``v`` is read through it: a graph reading ``v`` as an input of its
        own and writing ``x`` in place could read ``v`` after the write."""
        from .py311 import localsplus_names

        a = v._data
        names = None
        for k, obj in enumerate(cap.orig):
            if not isinstance(obj, Tensor) or obj is v or id(obj) in self._busy or k in cap.converted_slots \
                    or not isinstance(obj._data, np.ndarray) or not _shares(a, obj._data) \
                    or layout(a, obj._data) is None:
                continue
            names = names or localsplus_names(cap.top.code)
            self._busy.add(id(obj))
            try:
                t = cap.convert(obj, ("L", k, names[k]))
            finally:
                self._busy.discard(id(obj))
            cap.converted_slots.add(k)
            if cap.top.locals[k] is obj:
                cap.top.locals[k] = t
            return

    def roots(self) -> list:
        """Paths of the tensors not expressed through another (the ``apart`` guard's)."""
        return [p for _, u, p in self.items if id(u) not in self.related]
