"""Tensor's in-place methods (``add_``, ``fill_``, ``scatter_`` ...) and its sampling methods (``uniform_``,
``normal_``, ``bernoulli`` ...). An in-place method computes the new value with the functional op, keeps the
tensor's shape and casts the result into the tensor's dtype, and writes it (``functional_gather.write_inplace``:
an Assign for a Parameter, a write of the tensor's value inside a graph, of its memory eagerly, which its views
and base see); it returns the tensor."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.generator import generator_key
from ..core.tensor import Tensor
from . import functional as F
from .functional import _as_tensor
from .functional_gather import _axis_scatter, write_inplace
from .functional_random import sample


def _write(self, out, name):
    if tuple(out.shape) != tuple(self.shape):
        raise RuntimeError(f"Tensor.{name}: the result has shape {tuple(out.shape)}, but an in-place update must "
                           f"keep the tensor's shape {tuple(self.shape)}")
    if out.dtype != self.dtype:
        out = F.cast(out, self.dtype)
    return write_inplace(self, out, f"Tensor.{name}")


def _inplace(name, fn):
    def method(self, *args, **kw):
        return _write(self, fn(self, *args, **kw), name)

    method.__name__ = name
    return method


def _alpha(fn):
    def op(self, other, *, alpha=1):
        return fn(self, other if alpha == 1 else F.mul(other, alpha))

    return op


def _gen(generator, name):
    return generator_key(generator, f"Tensor.{name}")


def _index_fill(self, dim, index, value):
    idx = F.cast(_as_tensor(index, "Tensor.index_fill_"), mstype.int32)
    return F.index_fill(self, dim, idx, value)


def _index_copy(self, dim, index, tensor):
    return _axis_scatter(self, _as_tensor(index, "Tensor.index_copy_"), tensor, dim, "none")


def _index_add(self, dim, index, source, *, alpha=1):
    src = source if alpha == 1 else F.mul(source, alpha)
    return _axis_scatter(self, _as_tensor(index, "Tensor.index_add_"), src, dim, "add")


def _put(self, index, source, accumulate=False):
    """Write ``source`` at the flat positions ``index`` (adding when ``accumulate``)."""
    flat = F.reshape(self, (-1,))
    idx = F.reshape(_as_tensor(index, "Tensor.put_"), (-1,))
    n = flat.shape[0]
    idx = F.select(F.less(idx, 0), F.add(idx, n), idx)
    out = F.tensor_scatter_elements(flat, idx, F.reshape(source, (-1,)), 0, "add" if accumulate else "none")
    return F.reshape(out, tuple(self.shape))


def _scatter(self, *args, **kw):
    return Tensor.scatter(self, *args, **kw)


def _scatter_add(self, dim, index, src):
    return F.tensor_scatter_elements(self, index, src, dim, "add")


def _diagonal_mask(shape, wrap):
    """Boolean mask of the main diagonal (NumPy's fill_diagonal positions, ``wrap`` for tall matrices)."""
    if len(shape) < 2:
        raise ValueError(f"Tensor.fill_diagonal: needs at least 2 dimensions, got {len(shape)}")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"Tensor.fill_diagonal: all dimensions must be equal for a {len(shape)}-d tensor, "
                         f"got {shape}")
    mask = np.zeros(shape, bool)
    np.fill_diagonal(mask, True, wrap=wrap)
    return mask


def _fill_diagonal(self, fill_value, wrap=False):
    mask = Tensor(_diagonal_mask(tuple(self.shape), wrap))
    return F.masked_fill(self, mask, fill_value)


def _scalar(v, name):
    """A bound given as a number or a one-element tensor (MindSpore's uniform_ takes both)."""
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"Tensor.{name}: a tensor bound must hold one element, got shape {tuple(v.shape)}")
        return v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.number)):
        raise TypeError(f"Tensor.{name}: bounds must be numbers or tensors, got {type(v).__name__}")
    return v


def _float_self(self, name):
    if not self.dtype.is_float:
        raise TypeError(f"Tensor.{name}: needs a float tensor, got {self.dtype}")


def _uniform(self, from_=0.0, to=1.0, generator=None):
    key = _gen(generator, "uniform")
    _float_self(self, "uniform")
    from_, to = _scalar(from_, "uniform"), _scalar(to, "uniform")
    if from_ > to:
        raise ValueError(f"Tensor.uniform: from_ ({from_}) must not exceed to ({to})")
    return F.cast(F.uniform(tuple(self.shape), float(from_), float(to), key=key), self.dtype)


def _normal(self, mean=0, std=1, *, generator=None):
    key = _gen(generator, "normal_")
    _float_self(self, "normal_")
    return F.cast(F.normal(tuple(self.shape), float(mean), float(std), key=key), self.dtype)


def _random(self, from_=0, to=None, *, generator=None):
    """Integers uniform in [from_, to) (to defaults to the dtype's top: 2**mantissa for floats)."""
    key = _gen(generator, "random_")
    if to is None:
        from_, to = (0, from_) if from_ else (0, None)
    if to is None:
        dt = self.dtype
        to = 2 ** (np.finfo(dt.np).nmant + 1) if dt.is_float else int(np.iinfo(dt.np).max) + (dt is not mstype.bool_)
    if to <= from_:
        raise ValueError(f"Tensor.random_: to ({to}) must be greater than from_ ({from_})")
    return F.cast(F.randint(int(from_), int(to), tuple(self.shape), key=key), self.dtype)


def _bernoulli_(self, p=0.5, *, generator=None):
    key = _gen(generator, "bernoulli_")
    p = p if isinstance(p, Tensor) else Tensor(np.asarray(p, np.float32))
    probs = F.broadcast_to(F.cast(p, mstype.float32), tuple(self.shape))
    return sample("bernoulli", tuple(self.shape), (probs,), mstype.float32, key)


def _bernoulli(self, *, generator=None):
    """Samples of Bernoulli(self): this tensor holds the probabilities."""
    key = _gen(generator, "bernoulli")
    _float_self(self, "bernoulli")
    return sample("bernoulli", tuple(self.shape), (self,), self.dtype, key)


def _positive_param(v, what, name):
    if v <= 0:
        raise ValueError(f"Tensor.{name}: {what} must be positive, got {v}")
    return Tensor(np.asarray(v, np.float32))


def _exponential(self, lambd=1, *, generator=None):
    key = _gen(generator, "exponential_")
    _float_self(self, "exponential_")
    return sample("exponential", tuple(self.shape), (_positive_param(lambd, "lambd", "exponential_"),), self.dtype,
                  key)


def _log_normal(self, mean=1.0, std=2.0):
    _float_self(self, "log_normal")
    return sample("lognormal", tuple(self.shape), (Tensor(np.asarray(mean, np.float32)),
                                                   _positive_param(std, "std", "log_normal")), self.dtype)


def _cauchy(self, median=0.0, sigma=1.0):
    _float_self(self, "cauchy")
    return sample("cauchy", tuple(self.shape), (Tensor(np.asarray(median, np.float32)),
                                                _positive_param(sigma, "sigma", "cauchy")), self.dtype)


def _copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast to this shape, cast to this dtype) into the tensor."""
    src = _as_tensor(src, "Tensor.copy_")
    try:
        fits = np.broadcast_shapes(tuple(src.shape), tuple(self.shape)) == tuple(self.shape)
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"Tensor.copy_: src of shape {tuple(src.shape)} does not broadcast to the tensor's "
                           f"shape {tuple(self.shape)}")
    # (a copy: the broadcast view of src is read-only and src's memory, which the tensor must not take)
    return _write(self, F.identity(F.broadcast_to(src, tuple(self.shape))), "copy_")


def _itemset(self, *args):
    """NumPy's itemset spelling, returning a new tensor (MindSpore leaves the tensor itself unchanged):
    ``itemset(value)`` for a one-element tensor, ``itemset(index, value)`` otherwise (``index`` a flat int or a
    tuple of ints)."""
    if len(args) == 1:
        if self.size != 1:
            raise ValueError("Tensor.itemset: a single value needs a tensor with one element")
        index, value = (0,) * self.ndim, args[0]
    elif len(args) == 2:
        index, value = args
        if isinstance(index, (int, np.integer)):
            if not -self.size <= index < self.size:
                raise IndexError(f"Tensor.itemset: index {index} is out of range for {self.size} elements")
            index = np.unravel_index(int(index) % self.size, self.shape)
    else:
        raise TypeError(f"Tensor.itemset: takes (value) or (index, value), got {len(args)} arguments")
    mask = np.zeros(self.shape, bool)
    mask[tuple(index)] = True
    return F.masked_fill(self, Tensor(mask), value)


_INPLACE = {
    "add_": _alpha(F.add), "sub_": _alpha(F.sub), "mul_": F.mul,
    "div_": lambda self, other, *, rounding_mode=None: F.div(self, other, rounding_mode=rounding_mode),
    "exp_": F.exp, "log_": F.log, "floor_": F.floor, "sigmoid_": F.sigmoid, "sign_": F.sign,
    "fill_": lambda self, value: F.fill(self.dtype, tuple(self.shape), value),
    "masked_fill_": F.masked_fill, "remainder_": F.remainder, "floor_divide_": F.floor_divide,
    "index_add_": _index_add, "index_fill_": _index_fill, "index_copy_": _index_copy,
    "index_put_": F.index_put, "masked_scatter_": F.masked_scatter, "scatter_": _scatter,
    "scatter_add_": _scatter_add, "put_": _put, "fill_diagonal_": _fill_diagonal,
    "addmm_": F.addmm,
}


# the in-place random draws with MindSpore's own signatures (inspect.signature shows generator=)
def _uniform_inplace(self, from_=0, to=1, *, generator=None):
    return _write(self, _uniform(self, from_, to, generator), "uniform_")


def _normal_inplace(self, mean=0, std=1, *, generator=None):
    return _write(self, _normal(self, mean, std, generator=generator), "normal_")


def _random_inplace(self, from_=0, to=None, *, generator=None):
    return _write(self, _random(self, from_, to, generator=generator), "random_")


def _bernoulli_inplace(self, p=0.5, *, generator=None):
    return _write(self, _bernoulli_(self, p, generator=generator), "bernoulli_")


def _exponential_inplace(self, lambd=1, *, generator=None):
    return _write(self, _exponential(self, lambd, generator=generator), "exponential_")


for _name, _fn in {"uniform_": _uniform_inplace, "normal_": _normal_inplace, "random_": _random_inplace,
                   "bernoulli_": _bernoulli_inplace, "exponential_": _exponential_inplace}.items():
    _fn.__name__ = _name
    setattr(Tensor, _name, _fn)

for _name, _fn in _INPLACE.items():
    setattr(Tensor, _name, _inplace(_name, _fn))
for _name, _fn in {"fill_diagonal": _fill_diagonal, "uniform": _uniform, "bernoulli": _bernoulli,
                   "log_normal": _log_normal, "cauchy": _cauchy, "copy_": _copy_, "itemset": _itemset,
                   "clamp_": F.clamp_, "tanh_": F.tanh_, "erfinv_": F.erfinv_, "zero_": F.zero_}.items():
    setattr(Tensor, _name, _fn)
