"""grad, value_and_grad, vjp and GradOperation with MindSpore's argument and return conventions."""
from __future__ import annotations

import weakref
from typing import Any
from collections.abc import Callable, Sequence

from ..core import dispatch, tensor_hooks
from ..core.hooks import call_user
from ..core.host import HostGradientError
from ..core.pytree import NODES, MutableFloat, MutableInt
from ..core.tensor import Parameter, Tensor
from ..ir.builder import Tracer
from .guards import mask
from .tape import Tape, pass_through


def _flatten_tensors(value: Any, out: list) -> list:
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flatten_tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _flatten_tensors(v, out)
    return out


def _alias(t: Any) -> Any:
    """A distinct object sharing ``t``'s value, so the same tensor passed twice gets two gradients
    (tuples and lists of tensors -- ``mutable((a, b))`` inputs -- are aliased element by element)."""
    if t.__class__ in (tuple, list):
        return t.__class__(_alias(x) for x in t)
    node = NODES.get(t.__class__)
    if node is not None:  # a sparse tensor: its values get their own gradient (as MindSpore's)
        return node.build(getattr(t, node.aux), [_alias(x) for x in node.children(t)])
    if isinstance(t, Tensor) and not isinstance(t, Parameter):
        if dispatch._slow:  # an outer tape or graph must see the alias as derived from t
            from ..ops import functional as F

            builder = dispatch.current_builder()
            if isinstance(t, Tracer) and builder is not None:
                a = builder.alias(t)  # same value and buffer (writes through it write t), a new object
                for tape in dispatch.active_tapes():
                    tape.record_custom((t,), a, pass_through)
                return a
            new = F.identity(t)
        else:
            new = Tensor.__new__(Tensor)
            new._data = t._data
        if tensor_hooks.active():  # the alias stands for t: t's register_hook hooks see its gradient
            tensor_hooks.share(t, new)
        return new
    return t


def _weights_list(weights) -> tuple[list, bool]:
    """(list of Parameters, whether the caller passed a single Parameter)."""
    if weights is None:
        return [], False
    if isinstance(weights, Parameter):
        return [weights], True
    if isinstance(weights, Tensor):
        raise TypeError("grad: weights is a Tensor (not a Parameter); weights must be Parameters (gradients are "
                        "taken w.r.t. a network's Parameters: net.trainable_params())")
    if isinstance(weights, dict):
        weights = list(weights.values())
    if hasattr(weights, "trainable_params") and not isinstance(weights, (list, tuple)):
        weights = weights.trainable_params()
    ws = list(weights)
    for k, w in enumerate(ws):
        if not isinstance(w, Parameter):
            what = "a Tensor (not a Parameter)" if isinstance(w, Tensor) else type(w).__name__
            raise TypeError(f"grad: weights[{k}] is {what}; weights must be Parameters (gradients are taken "
                            "w.r.t. a network's Parameters: net.trainable_params())")
    return ws, False


class GradResult:
    """Forward outputs plus the tape that recorded them: call ``grads`` to differentiate."""

    def __init__(self, tape: Tape, outputs: Any, inputs: list, weights: list, watched: Sequence[int] | None = None,
                 fn_name: str = "the function"):
        self.tape, self.outputs, self.inputs, self.weights = tape, outputs, inputs, weights
        self.fn_name = fn_name
        self.watched = range(len(inputs)) if watched is None else watched

    def grads(self, sens: Any = None, outputs: Any = None) -> tuple[list, list]:
        from ..ops import functional as F

        targets = self.outputs if outputs is None else outputs
        outs = _flatten_tensors(targets, [])
        _check_outputs(self.fn_name, targets, outs)
        tape = self.tape
        if tape.escapes and not any(tape.is_live(o) for o in outs):
            raise RuntimeError(f"grad: the output of {self.fn_name} does not depend on its inputs through sprout "
                               f"ops: a tensor computed from them left for NumPy ({tape.escapes[0]}), and "
                               "gradients do not flow through NumPy. Compute it with sprout ops (ops.stop_gradient "
                               "marks a value as a constant).")
        if sens is None:
            senses = [F.ones_like(o) for o in outs]
        else:
            senses = _flatten_tensors(sens, [])
            if len(senses) != len(outs):
                raise ValueError(f"grad: sens has {len(senses)} tensors but the function returned {len(outs)}")
        builder = dispatch._builders[-1] if dispatch._builders else None
        start = len(builder.nodes) if builder is not None else 0
        try:
            table = self.tape.backward(outs, senses)
            if builder is not None:  # a backward traced into a graph: cotangents absent at run time (guards.py)
                table = mask(builder, start, senses, table)
        except HostGradientError as exc:
            raise RuntimeError(f"grad: the output of {self.fn_name} depends on its inputs through NumPy: a tensor "
                               f"computed from them left for NumPy ({exc.how}) and came back as a new Tensor, and "
                               "gradients do not flow through NumPy (dropping that path would give a different "
                               "gradient). Compute it with sprout ops, or make it a constant with ops.stop_gradient "
                               "before it leaves.") from None

        def pick(t):
            g = table.get(id(t))
            if g is None:
                return F.zeros_like(t)
            return g

        # only the watched inputs get a gradient (others stay None: nobody asked for them)
        def pick_tree(x):  # a tuple/list input gets a tuple/list of gradients (MindSpore's mutable tuples)
            if isinstance(x, Tensor):
                return pick(x)
            if x.__class__ in NODES:  # a sparse tensor: the gradient of its values
                return pick(x.values)
            return x.__class__(pick_tree(v) for v in x if isinstance(v, (Tensor, tuple, list)))

        in_grads: list = [None] * len(self.inputs)
        for i in self.watched:
            x = self.inputs[i]
            if isinstance(x, Tensor) or x.__class__ in NODES or (x.__class__ in (tuple, list) and
                                                                  _flatten_tensors(x, [])):
                in_grads[i] = pick_tree(x)
        return in_grads, [pick(w) for w in self.weights]


def forward_with_tape(fn: Callable, args: Sequence, watch: Sequence[int] | None, weights: list) -> GradResult:
    """Run ``fn(*args)`` recording on a new tape that watches args at ``watch`` (all if None) and weights."""
    tape = Tape()
    args = [_alias(a) for a in args]
    positions = range(len(args)) if watch is None else watch
    for i in positions:
        if isinstance(args[i], Tensor):
            tape.watch(args[i])
        elif args[i].__class__ in NODES:
            tape.watch(args[i].values)
        elif args[i].__class__ in (tuple, list):
            for t in _flatten_tensors(args[i], []):
                tape.watch(t)
    for w in weights:
        tape.watch(w)
    dispatch.push_tape(tape)
    try:
        out = call_user(fn, *args)  # converted as its caller is, while an AST capture traces
    finally:
        dispatch.pop_tape(tape)
    return GradResult(tape, out, list(args), weights, None if watch is None else tuple(positions), _name(fn))


def _name(fn: Any) -> str:
    """How messages name a differentiated function or Cell."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    return f"'{name}'"


def _check_outputs(fn_name: str, targets: Any, outs: list) -> None:
    """What is differentiated must be Tensors (in tuples, lists or dicts): None or a string has no gradient."""
    def bad(v):
        if v is None or isinstance(v, (str, bytes)):
            return v
        if isinstance(v, (tuple, list)):
            return next((b for b in map(bad, v) if b is not _OK), _OK)
        if isinstance(v, dict):
            return next((b for b in map(bad, v.values()) if b is not _OK), _OK)
        return _OK

    b = bad(targets)
    if b is not _OK or not outs:
        got = repr(b) if b is not _OK else f"{type(targets).__name__} {targets!r}"[:80]
        raise TypeError(f"grad: {fn_name} returned {got}; the function being differentiated must return a Tensor "
                        "(or a tuple of Tensors)")


_OK = object()


def _check_arguments(fn: Any, args: tuple, positions: tuple) -> None:
    """Gradients are taken w.r.t. Tensors: a Python number (or a string...) at a differentiated position is
    an error naming the function and the position, never a silently missing gradient."""
    for p in positions:
        a = args[p]
        if isinstance(a, Tensor) or a.__class__ in NODES or (a.__class__ in (tuple, list) and
                                                              _flatten_tensors(a, [])):
            continue
        if isinstance(a, (MutableInt, MutableFloat)):  # ms.mutable scalars: graph inputs, kept as before
            continue
        raise TypeError(f"grad: cannot differentiate {_name(fn)} w.r.t. argument {p} ({type(a).__name__} "
                        f"{a!r}): gradients are taken w.r.t. Tensors. Pass it as a Tensor or leave position {p} "
                        "out of grad_position.")


def _check_positions(grad_position, n_args: int) -> tuple[tuple, bool]:
    if isinstance(grad_position, int):
        positions, single = (grad_position,), True
    elif isinstance(grad_position, (tuple, list)):
        positions, single = tuple(grad_position), False
    else:
        raise TypeError(f"grad: grad_position must be an int or a tuple of ints, got {grad_position!r}")
    for p in positions:
        if not isinstance(p, int) or not -n_args <= p < n_args:
            raise ValueError(f"grad: grad_position {p} is out of range for a function called with {n_args} inputs")
    return tuple(p % n_args for p in positions), single


def _grad_impl(fn, grad_position, weights, has_aux, with_value: bool, return_ids: bool = False):
    if grad_position is None and weights is None:
        raise ValueError("grad: grad_position and weights cannot both be None")
    ws, single_weight = _weights_list(weights)

    def wrapped(*args):
        positions, single = ((), False) if grad_position is None else _check_positions(grad_position, len(args))
        _check_arguments(fn, args, positions)
        res = forward_with_tape(fn, args, positions, ws)
        out = res.outputs
        if has_aux:
            if not isinstance(out, (tuple, list)) or len(out) < 2:
                raise TypeError("grad: has_aux=True needs the function to return a tuple (output, aux...)")
            target = out[0]
        else:
            target = out
        in_grads, w_grads = res.grads(outputs=target)
        pos = tuple(in_grads[p] for p in positions)
        if return_ids:  # (position, gradient) and (parameter name, gradient) pairs, read by ops.get_grad
            pos = tuple((p, g) for p, g in zip(positions, pos))
            w_grads = [(w.name, g) for w, g in zip(ws, w_grads)]
        pos_part = pos[0] if single else pos
        w_part = w_grads[0] if single_weight else tuple(w_grads)
        if grad_position is None:
            g = w_part
        elif weights is None:
            g = pos_part
        else:
            g = (pos_part, w_part)
        if with_value:
            return out, g
        if has_aux:
            return g, tuple(out[1:])
        return g

    return wrapped


def grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False, return_ids: bool = False):
    """MindSpore's ``ops.grad``: the gradient of ``fn`` w.r.t. inputs at grad_position and/or weights."""
    return _grad_impl(fn, grad_position, weights, has_aux, with_value=False, return_ids=bool(return_ids))


def value_and_grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False, return_ids: bool = False):
    """MindSpore's ``ops.value_and_grad``: returns ``(outputs, gradients)``."""
    return _grad_impl(fn, grad_position, weights, has_aux, with_value=True, return_ids=bool(return_ids))


def vjp(fn: Callable, *inputs, weights=None, has_aux: bool = False):
    """MindSpore's ``ops.vjp``: returns ``(outputs, vjp_fn)`` (and aux when has_aux)."""
    return _vjp(fn, inputs, weights, has_aux, hold=True)


def vjp_immediate(fn: Callable, *inputs, weights=None):
    """``vjp`` for callers that run the backward before writing anything the forward read (the train-step
    cells): nothing holds the tape, so the optimizer's writes stay on the fast path."""
    return _vjp(fn, inputs, weights, False, hold=False)


def _vjp(fn: Callable, inputs: tuple, weights, has_aux: bool, hold: bool):
    ws, _ = _weights_list(weights)
    _check_arguments(fn, inputs, tuple(range(len(inputs))))
    res = forward_with_tape(fn, inputs, None, ws)
    out = res.outputs
    target = out[0] if has_aux else out

    def vjp_fn(*cotangent):
        sens = cotangent[0] if len(cotangent) == 1 else cotangent
        in_grads, w_grads = res.grads(sens=sens, outputs=target)
        g = tuple(in_grads)
        return (g, tuple(w_grads)) if weights is not None else g

    if hold:  # the backward runs when vjp_fn is called: until vjp_fn is gone, writes keep the values it reads
        dispatch.hold_tape(res.tape)
        weakref.finalize(vjp_fn, dispatch.release_tape, res.tape)
    if has_aux:
        return target, vjp_fn, tuple(out[1:])
    return out, vjp_fn


class GradOperation:
    """``ops.GradOperation(get_all=False, get_by_list=False, sens_param=False)``: a higher-order
    function; ``GradOperation()(net)(*inputs)`` or ``GradOperation(get_by_list=True)(net, weights)(*inputs)``."""

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False):
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise TypeError(f"GradOperation: {name} must be a bool, got {v!r}")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn: Callable, weights=None):
        if self.get_by_list and weights is None:
            raise TypeError("GradOperation(get_by_list=True) needs weights: grad_op(net, weights)")
        ws, _ = _weights_list(weights) if self.get_by_list else ([], False)

        def wrapped(*args):
            sens = None
            if self.sens_param:
                if not args:
                    raise TypeError("GradOperation(sens_param=True): the last input must be the sens value")
                args, sens = args[:-1], args[-1]
            res = forward_with_tape(fn, args, None, ws)
            in_grads, w_grads = res.grads(sens=sens)
            in_part = tuple(g for g in in_grads if g is not None)
            if self.get_all and self.get_by_list:
                return in_part, tuple(w_grads)
            if self.get_by_list:
                return tuple(w_grads)
            if self.get_all:
                return in_part
            if not in_part:
                raise TypeError("GradOperation: the function has no tensor input to differentiate")
            return in_part[0]

        return wrapped

# function transforms built on grad/vjp, exported through the same entry as grad (ops imports them from here)
from .transforms import derivative, get_grad, jacfwd, jacrev, jet, jvp, linearize, vmap  # noqa: E402,F401
