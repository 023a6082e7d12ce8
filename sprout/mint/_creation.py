"""mindspore.mint creation and random functions (PyTorch-style: ``size``, keyword ``dtype``; Python ints give
Int64, floats Float32; random draws from sprout's seeded stream)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ..core.generator import generator_key
from ._math import _t


def _size(size, name):
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        size = (int(size),)
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"mint.{name}: 'size' must be an int or a tuple/list of ints, got {type(size).__name__}")
    for s in size:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"mint.{name}: every entry of 'size' must be an int, got {s!r}")
        if s < 0:
            raise ValueError(f"mint.{name}: 'size' cannot hold negative numbers, got {tuple(size)}")
    return tuple(int(s) for s in size)


def _varsize(size, name):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        return _size(size[0], name)
    return _size(tuple(size), name)


def _dt(dtype, default):
    return default if dtype is None else mstype.to_dtype(dtype)


def _no_device(device, name):
    if device not in (None, "cpu", "CPU"):
        raise ValueError(f"mint.{name}: sprout runs on CPU, got device={device!r}")


def _gen(generator, name):
    """The RandomSeed key of a ``generator=`` argument (None: the default generator)."""
    return generator_key(generator, f"mint.{name}")


def zeros(size, *, dtype=None):
    return ops.fill(_dt(dtype, mstype.float32), _size(size, "zeros"), 0)


def ones(size, *, dtype=None):
    return ops.fill(_dt(dtype, mstype.float32), _size(size, "ones"), 1)


def empty(*size, dtype=None, device=None, pin_memory=False):
    """Uninitialised in PyTorch; sprout gives zeros (a defined value). ``pin_memory`` has no meaning on CPU."""
    _no_device(device, "empty")
    return ops.fill(_dt(dtype, mstype.float32), _varsize(size, "empty"), 0)


def _fill_dtype(value):
    if isinstance(value, bool):
        return mstype.bool_
    if isinstance(value, int):
        return mstype.int64
    return mstype.float32


def full(size, fill_value, *, dtype=None):
    if isinstance(fill_value, Tensor):
        return ops.broadcast_to(ops.cast(fill_value, _dt(dtype, fill_value.dtype)), _size(size, "full"))
    return ops.fill(_dt(dtype, _fill_dtype(fill_value)), _size(size, "full"), fill_value)


def zeros_like(input, *, dtype=None):  # noqa: A002
    x = _t(input, "zeros_like")
    return ops.fill(_dt(dtype, x.dtype), x.shape, 0)


def ones_like(input, *, dtype=None):  # noqa: A002
    x = _t(input, "ones_like")
    return ops.fill(_dt(dtype, x.dtype), x.shape, 1)


def empty_like(input, *, dtype=None, device=None, pin_memory=False):  # noqa: A002
    _no_device(device, "empty_like")
    return zeros_like(input, dtype=dtype)


def full_like(input, fill_value, *, dtype=None):  # noqa: A002
    x = _t(input, "full_like")
    dt = _dt(dtype, x.dtype)
    return ops.fill(dt, x.shape, int(fill_value) if dt.is_int else fill_value)


def arange(start=0, end=None, step=1, *, dtype=None):
    """Int64 when start, end and step are ints, else Float32 (PyTorch's defaults)."""
    if end is None:
        start, end = 0, start
    vals = [v.asnumpy().item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if vals[2] == 0:
        raise ValueError("mint.arange: 'step' must not be 0")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise ValueError(f"mint.arange: the range from {vals[0]} to {vals[1]} does not agree with step {vals[2]}")
    ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in vals)
    dt = _dt(dtype, mstype.int64 if ints else mstype.float32)
    n = int(np.ceil((vals[1] - vals[0]) / vals[2]))
    return Tensor((vals[0] + np.arange(n) * vals[2]).astype(dt.np))


def linspace(start, end, steps, *, dtype=None):
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"mint.linspace: 'steps' must be a non-negative int, got {steps!r}")
    s = start.asnumpy().item() if isinstance(start, Tensor) else start
    e = end.asnumpy().item() if isinstance(end, Tensor) else end
    dt = _dt(dtype, mstype.float32)
    vals = np.linspace(float(s), float(e), steps)
    return Tensor((np.trunc(vals) if dt.is_int else vals).astype(dt.np))


def eye(n, m=None, dtype=None):
    return ops.eye(n, n if m is None else m, _dt(dtype, mstype.float32))


def _float_dtype(dtype, name):
    dt = _dt(dtype, mstype.float32)
    if not dt.is_float:
        raise TypeError(f"mint.{name}: dtype must be a float type, got {dt}")
    return dt


def rand(*size, generator=None, dtype=None, device=None):
    key = _gen(generator, "rand")
    _no_device(device, "rand")
    dt = _float_dtype(dtype, "rand")
    out = ops.uniform(_varsize(size, "rand"), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32), key=key)
    return out if dt is mstype.float32 else ops.cast(out, dt)


def randn(*size, generator=None, dtype=None, device=None):
    key = _gen(generator, "randn")
    _no_device(device, "randn")
    dt = _float_dtype(dtype, "randn")
    out = ops.standard_normal(_varsize(size, "randn"), key=key)
    return out if dt is mstype.float32 else ops.cast(out, dt)


def rand_like(input, *, dtype=None, device=None):  # noqa: A002
    x = _t(input, "rand_like")
    return rand(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def randn_like(input, *, dtype=None, device=None):  # noqa: A002
    x = _t(input, "randn_like")
    return randn(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def randint(*args, generator=None, dtype=None, device=None):
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in [low, high) (Int64 by default)."""
    key = _gen(generator, "randint")
    _no_device(device, "randint")
    if len(args) == 2:
        low, (high, size) = 0, args
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError(f"mint.randint: expected (high, size) or (low, high, size), got {len(args)} arguments")
    if high <= low:
        raise ValueError(f"mint.randint: 'high' ({high}) must be greater than 'low' ({low})")
    return ops.randint(int(low), int(high), _size(size, "randint"), dtype=_dt(dtype, mstype.int64), key=key)


def randint_like(*args, dtype=None, device=None):
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    _no_device(device, "randint_like")
    if len(args) == 2:
        x, low, high = args[0], 0, args[1]
    elif len(args) == 3:
        x, low, high = args
    else:
        raise TypeError(f"mint.randint_like: expected (input, high) or (input, low, high), got {len(args)} "
                        "arguments")
    x = _t(x, "randint_like")
    return randint(low, high, x.shape, dtype=x.dtype if dtype is None else dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    key = _gen(generator, "randperm")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"mint.randperm: 'n' must be a non-negative int, got {n!r}")
    keys = ops.uniform((n,), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32), key=key)
    return ops.cast(ops.sort(keys)[1], mstype.to_dtype(dtype))


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal draws with a Tensor or number ``mean``/``std`` (broadcast), or numbers and ``size``."""
    key = _gen(generator, "normal")
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if tensors:
        shape = np.broadcast_shapes(*[tuple(v.shape) for v in tensors])
    elif size is None:
        raise TypeError("mint.normal: give 'size' when mean and std are numbers")
    else:
        shape = _size(size, "normal")
    if not isinstance(std, Tensor) and std < 0:
        raise ValueError(f"mint.normal: 'std' must be >= 0, got {std}")
    z = ops.standard_normal(tuple(shape), key=key)
    return z * std + mean


def bernoulli(input, *, generator=None):  # noqa: A002
    """1 where a uniform draw falls below ``input`` (the probabilities), in input's dtype."""
    key = _gen(generator, "bernoulli")
    p = _t(input, "bernoulli")
    u = ops.uniform(tuple(p.shape), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32), key=key)
    return ops.cast(ops.less(u, p), p.dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    """``num_samples`` category indices per row of ``input``'s weights, as Int64 (PyTorch's and mint's dtype)."""
    key = _gen(generator, "multinomial")
    return ops.cast(ops.multinomial(input, num_samples, replacement, key=key), mstype.int64)
