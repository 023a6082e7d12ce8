"""The non-plain ways a Cell call runs: hook handles, custom ``bprop`` and backward hooks on the gradient tape."""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from ..autodiff.tape import record_custom
from ..core import dispatch
from ..core.tensor import Tensor

_hook_ids = itertools.count()


class HookHandle:
    """Returned by ``register_*_hook``; ``remove()`` unregisters the hook (idempotent)."""

    def __init__(self, cell, table: dict):
        self.handle_id = next(_hook_ids)
        self._cell, self._table = cell, table

    def remove(self) -> None:
        if self._table.pop(self.handle_id, None) is not None:
            self._cell._refresh_plain()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def add_hook(cell, table: dict, entry, prepend: bool = False) -> HookHandle:
    handle = HookHandle(cell, table)
    if prepend:
        items = list(table.items())
        table.clear()
        table[handle.handle_id] = entry
        table.update(items)
    else:
        table[handle.handle_id] = entry
    cell._refresh_plain()
    return handle


def run_always_call_hooks(cell, args: tuple, kwargs: dict, output, done: set) -> None:
    """The call raised: run the ``always_call`` forward hooks that did not run yet (MindSpore's order and rule: an
    error of such a hook is a warning, the call's own error propagates)."""
    for hid, (hook, with_kwargs, always_call) in list(cell._forward_hooks.items()):
        if not always_call or hid in done:
            continue
        try:
            res = hook(cell, args, kwargs, output) if with_kwargs else hook(cell, args, output)
            if res is not None:
                output = res
        except Exception as e:  # noqa: BLE001 - another error is already propagating
            warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was silenced "
                          f"because another error was already raised in forward: {e}", stacklevel=3)


def check_graph_mode_hooks(cell) -> None:
    """Hooks are a PyNative feature: a cell with hooks cannot run as a compiled graph (MindSpore refuses too)."""
    if cell._forward_pre_hooks or cell._forward_hooks or cell._backward_hooks or cell._backward_pre_hooks:
        raise RuntimeError(f"{type(cell).__name__} has hooks registered; hooks run only in PyNative mode. Remove "
                           "them (handle.remove()) or set_context(mode=PYNATIVE_MODE) to run this cell.")


def _fresh(t):
    """A new tensor object with ``t``'s value, made while tapes are suspended (it is recorded by the caller)."""
    from ..ops import functional as F

    return F.identity(t)


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _fit_grad(cell, k: int, a, g):
    """A custom bprop's gradient for input ``a`` as MindSpore PyNative takes it: cast to ``a``'s dtype, summed
    down when ``a``'s shape broadcasts to its shape, a RuntimeError naming the cell for any other shape."""
    if not isinstance(a, Tensor) or not isinstance(g, Tensor):
        return g
    from ..ops import functional as F

    if g.dtype != a.dtype and a.dtype.is_float:
        g = F.cast(g, a.dtype)
    if tuple(g.shape) == tuple(a.shape):
        return g
    try:
        fits = np.broadcast_shapes(tuple(a.shape), tuple(g.shape)) == tuple(g.shape)
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"{type(cell).__name__}.bprop: the gradient of input {k} has shape {list(g.shape)}, "
                           f"but the input has shape {list(a.shape)} (a gradient must have the input's shape, or a "
                           "shape the input broadcasts to)")
    return F.sum_to(g, tuple(a.shape))


def trace_with_bprop(cell, args: tuple, kwargs: dict):
    """While a graph is built (no tape recording): ``construct`` becomes a GraphCall carrying ``cell.bprop``, so
    a gradient of the graph (grad-of-jit) uses the custom backward, as an eager tape does."""
    from ..ir.callop import call_with_bprop

    if kwargs:
        return cell.construct(*args, **kwargs)
    out, done = call_with_bprop(cell.construct, args, f"{type(cell).__name__}.construct",
                                lambda inputs, o, d: _checked_bprop(cell, inputs, o, d))
    return out if done else cell.construct(*args)


def _checked_bprop(cell, inputs: list, output, dout) -> tuple:
    grads = _as_tuple(cell.bprop(*inputs, output, dout))
    if len(grads) != len(inputs):  # MindSpore: RuntimeError (PyNative and graph) for too few
        raise RuntimeError(f"{type(cell).__name__}.bprop returned {len(grads)} gradients for the "
                           f"{len(inputs)} inputs of construct: it must return one gradient per input")
    return tuple(_fit_grad(cell, k, a, g) for k, (a, g) in enumerate(zip(inputs, grads)))


def call_with_bprop(cell, args: tuple, kwargs: dict, tapes: tuple):
    """Run ``construct`` off the tape, then record one node whose backward is ``cell.bprop``."""
    with dispatch.suspend_tapes(tapes):
        out = cell.construct(*args, **kwargs)
        ids = {id(a) for a in args}
        if isinstance(out, tuple):
            out = tuple(_fresh(o) if id(o) in ids else o for o in out)
        elif id(out) in ids:
            out = _fresh(out)

    def vjp(inputs, output, dout):
        return _checked_bprop(cell, list(inputs), output, dout)

    record_custom(tuple(args), out, vjp)
    return out


def call_with_backward_hooks(cell, args: tuple, kwargs: dict, tapes: tuple, run):
    """Wrap the call in two recorded identities: the one on the outputs captures ``grad_output`` (and runs
    backward pre-hooks), the one on the inputs runs ``hook(cell, grad_input, grad_output)`` during backward."""
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    live = any(t.is_live(args[i]) for t in tapes for i in positions)
    state: dict = {"grad_output": None}

    def run_hooks(grad_input: tuple) -> tuple:
        for hook in list(cell._backward_hooks.values()):
            res = hook(cell, grad_input, state["grad_output"])
            if res is not None:
                grad_input = _as_tuple(res)
        return grad_input

    if live:
        with dispatch.suspend_tapes(tapes):
            wrapped = [_fresh(args[i]) for i in positions]
        originals = tuple(args[i] for i in positions)

        def in_vjp(inputs, output, dout):
            grads = run_hooks(_as_tuple(dout))
            if len(grads) != len(inputs):
                raise TypeError(f"backward hook of {type(cell).__name__} returned {len(grads)} gradients for "
                                f"{len(inputs)} inputs")
            return grads

        record_custom(originals, tuple(wrapped) if len(wrapped) > 1 else wrapped[0], in_vjp)
        new_args = list(args)
        for i, w in zip(positions, wrapped):
            new_args[i] = w
        args = tuple(new_args)

    out = run(args, kwargs)
    outs = [o for o in _as_tuple(out) if isinstance(o, Tensor)]
    if not outs:
        return out
    with dispatch.suspend_tapes(tapes):
        fresh = {id(o): _fresh(o) for o in outs}

    def out_vjp(inputs, output, dout):
        grad_output = _as_tuple(dout)
        for hook in list(cell._backward_pre_hooks.values()):
            res = hook(cell, grad_output)
            if res is not None:
                grad_output = _as_tuple(res)
        state["grad_output"] = grad_output
        if not live:  # no input is differentiated: hooks still see the call, with no input gradients
            run_hooks((None,))  # what MindSpore passes in this case
        return grad_output

    new_outs = [fresh[id(o)] for o in outs]
    record_custom(tuple(outs), tuple(new_outs) if len(new_outs) > 1 else new_outs[0], out_vjp)
    if isinstance(out, Tensor):
        return fresh[id(out)]
    items = [fresh.get(id(o), o) if isinstance(o, Tensor) else o for o in out]
    return items if isinstance(out, list) else tuple(items)
