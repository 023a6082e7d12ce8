"""Function transforms of MindSpore's ``ops`` built on reverse mode: ``jvp`` (the transpose of a vjp, which is
linear in its cotangent), ``linearize``, ``jacrev``/``jacfwd``, higher-order ``jet``/``derivative`` by nested jvps,
``vmap`` (the function applied per batch slice, results stacked) and ``get_grad``."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from ..core.tensor import Tensor
from .api import grad, vjp


def _tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _float(t: Tensor) -> Tensor:
    from ..ops import functional as F

    return t if t.dtype.is_float else F.cast(t, _f32())


def _f32():
    from .. import dtype as mstype

    return mstype.float32


def jvp(fn: Callable, inputs, v, has_aux: bool = False):
    """(fn(*inputs), J v): the directional derivative along ``v`` (same structure as ``inputs``). J v is the
    gradient, with respect to the cotangent u, of <vjp(u), v>."""
    from ..ops import functional as F

    xs, vs = _tuple(inputs), _tuple(v)
    if len(xs) != len(vs):
        raise ValueError(f"jvp: v has {len(vs)} entries, inputs {len(xs)}")
    for x, t in zip(xs, vs):
        if tuple(x.shape) != tuple(t.shape):
            raise ValueError(f"jvp: a tangent of shape {list(t.shape)} does not match its input {list(x.shape)}")

    def run(*args):
        out = fn(*args)
        return out

    res = vjp(run, *xs, has_aux=has_aux)
    outputs = res[0]
    outs = _tuple(outputs)

    def pairing(*us):
        back = vjp(run, *xs, has_aux=has_aux)[1]
        gs = _tuple(back(*us))
        total = None
        for g, t in zip(gs, vs):
            term = F.sum(F.mul(g, F.cast(t, g.dtype)))
            total = term if total is None else F.add(total, term)
        return total

    seeds = [F.zeros_like(_float(o)) for o in outs]
    jv = grad(pairing, tuple(range(len(seeds))))(*seeds)
    jv = _tuple(jv)
    result = jv[0] if not isinstance(outputs, (tuple, list)) else type(outputs)(jv)
    if has_aux:
        return outputs, result, res[2]
    return outputs, result


def linearize(fn: Callable, inputs):
    """(fn(*inputs), jvp_fn) with jvp_fn(*v) = J v at ``inputs``."""
    outputs = fn(*_tuple(inputs))

    def jvp_fn(*v):
        return jvp(fn, inputs, v if len(v) > 1 else v[0])[1]

    return outputs, jvp_fn


def _positions(grad_position, n):
    if isinstance(grad_position, int):
        return (grad_position,), True
    return tuple(grad_position), False


def jacrev(fn: Callable, grad_position=0, has_aux: bool = False):
    """The Jacobian (output shape + input shape) by one vjp per output element."""
    from ..ops import functional as F

    def jac(*args):
        pos, single = _positions(grad_position, len(args))
        res = vjp(fn, *args, has_aux=has_aux)
        out, vjp_fn = res[0], res[1]
        if isinstance(out, (tuple, list)):
            raise TypeError("jacrev: fn must return one tensor")
        rows = []
        for k in range(out.size):
            e = np.zeros(out.size, out.dtype.np)
            e[k] = 1
            g = _tuple(vjp_fn(Tensor(e.reshape(out.shape))))
            rows.append([g[p] for p in pos])
        jacs = tuple(F.reshape(F.stack([r[i] for r in rows]), tuple(out.shape) + tuple(args[p].shape))
                     for i, p in enumerate(pos))
        result = jacs[0] if single else jacs
        return (result, res[2]) if has_aux else result

    return jac


def jacfwd(fn: Callable, grad_position=0, has_aux: bool = False):
    """The Jacobian (output shape + input shape) by one jvp per input element."""
    from ..ops import functional as F

    def jac(*args):
        pos, single = _positions(grad_position, len(args))
        jacs, out = [], None
        for p in pos:
            cols = []
            for k in range(args[p].size):
                tangents = [F.zeros_like(_float(a)) for a in args]
                e = np.zeros(args[p].size, tangents[p].dtype.np)
                e[k] = 1
                tangents[p] = Tensor(e.reshape(args[p].shape))
                res = jvp(fn, args, tuple(tangents), has_aux=has_aux)
                out = res
                cols.append(res[1])
            o = cols[0]
            jacs.append(F.reshape(F.stack(cols, -1), tuple(o.shape) + tuple(args[p].shape)))
        result = jacs[0] if single else tuple(jacs)
        return (result, out[2]) if has_aux else result

    return jac


def jet(fn: Callable, primals, series):
    """(fn(primals), derivatives 1..n of fn along the input path whose derivatives 1..n are ``series`` (stacked on
    axis 0)): the k-th derivative of t -> fn(x(t)), x(t) = x + sum_k s_k t^k / k!, by nested jvps in t."""
    from ..ops import functional as F

    xs, ss = _tuple(primals), _tuple(series)
    xs = tuple(_float(x) for x in xs)
    n = ss[0].shape[0]

    def path(t):
        powers, p = [], None  # t, t^2, ...: products, not pow (whose gradient at t = 0 involves log 0)
        for _ in range(n):
            p = t if p is None else F.mul(p, t)
            powers.append(p)
        args = []
        for x, s in zip(xs, ss):
            acc = x
            for k in range(n):
                coef = F.div(powers[k], float(np.prod(range(1, k + 2))))
                acc = F.add(acc, F.mul(F.cast(s[k], x.dtype), coef))
            args.append(acc)
        return fn(*args)

    out = fn(*xs)
    derivs = []
    g = path
    for _ in range(n):
        g = _dt(g)
        derivs.append(g(Tensor(np.zeros((), xs[0].dtype.np))))
    return out, F.stack(derivs, 0)


def _dt(g: Callable) -> Callable:
    """t -> d g(t) / dt for a scalar t."""
    def dg(t):
        return jvp(g, (t,), (Tensor(np.ones((), t.dtype.np)),))[1]

    return dg


def derivative(fn: Callable, primals, order: int):
    """(fn(primals), the ``order``-th derivative of fn along the all-ones direction)."""
    from ..ops import functional as F

    if not isinstance(order, int) or order < 1:
        raise ValueError(f"derivative: order must be a positive int, got {order!r}")
    xs = _tuple(primals)
    series = tuple(F.concat([F.expand_dims(F.ones_like(_float(x)), 0)] + [F.expand_dims(F.zeros_like(_float(x)), 0)]
                            * (order - 1), 0) for x in xs)
    out, ds = jet(fn, primals, series if len(series) > 1 else series[0])
    return out, ds[order - 1]


def _in_axes(in_axes, n):
    if isinstance(in_axes, (tuple, list)):
        if len(in_axes) != n:
            raise ValueError(f"vmap: in_axes has {len(in_axes)} entries for {n} arguments")
        return tuple(in_axes)
    return (in_axes,) * n


def _take(x, axis, i):
    from ..ops import functional as F

    if axis is None:
        return x
    if isinstance(x, (tuple, list)):
        return type(x)(_take(e, axis, i) for e in x)
    idx = [slice(None)] * x.ndim
    idx[axis % x.ndim] = i
    return x[tuple(idx)] if isinstance(x, Tensor) else F.identity(x)


def vmap(fn: Callable, in_axes=0, out_axes=0):
    """``fn`` mapped over an axis of its arguments (``in_axes``: one per argument, None = not mapped), the results
    stacked along ``out_axes``. Runs ``fn`` once per batch index."""
    from ..ops import functional as F

    def mapped(*args):
        axes = _in_axes(in_axes, len(args))
        sizes = {a.shape[ax] for a, ax in zip(args, axes) if ax is not None and isinstance(a, Tensor)}
        if len(sizes) != 1:
            raise ValueError(f"vmap: the mapped axes must have one size, got {sorted(sizes)}")
        size = sizes.pop()
        results = [fn(*[_take(a, ax, i) for a, ax in zip(args, axes)]) for i in range(size)]
        first = results[0]
        if isinstance(first, (tuple, list)):
            oax = _in_axes(out_axes, len(first))
            return type(first)(F.stack([r[k] for r in results], oax[k]) for k in range(len(first)))
        return F.stack(results, out_axes if isinstance(out_axes, int) else out_axes[0])

    return mapped


def get_grad(gradients: Any, identifier):
    """The gradient for ``identifier`` (an input position or a Parameter) in the output of
    ``grad(..., return_ids=True)``: (id, gradient) pairs, possibly nested."""
    from ..core.tensor import Parameter

    key = identifier.name if isinstance(identifier, Parameter) else identifier
    if isinstance(identifier, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"get_grad: identifier must be an int position or a Parameter, got {identifier!r}")

    def search(g):
        if isinstance(g, tuple) and len(g) == 2 and isinstance(g[0], (int, str)) and not isinstance(g[0], bool) \
                and isinstance(g[1], Tensor):
            return g[1] if g[0] == key else None
        if isinstance(g, (tuple, list)):
            for e in g:
                found = search(e)
                if found is not None:
                    return found
        return None

    found = search(gradients)
    if found is None:
        raise RuntimeError(f"get_grad: no gradient for {identifier!r} in the given gradients")
    return found
