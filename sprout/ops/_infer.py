"""Shared shape/dtype rules (``infer`` functions) for op records."""
from __future__ import annotations

from ..core.op import OpError
from ..core.types import TensorType
from .. import dtype as mstype


def is_tensor_type(x) -> bool:
    return isinstance(x, TensorType)


def fmt_shape(shape) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def broadcast_shapes(op: str, *shapes: tuple) -> tuple:
    """NumPy broadcasting of shapes that may hold ``None`` (symbolic) dimensions."""
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for i in range(ndim):
        dim = 1
        for s in shapes:
            k = i - (ndim - len(s))
            if k < 0:
                continue
            d = s[k]
            if d == 1:
                continue
            if dim == 1:
                dim = d
            elif d is None or dim is None:
                dim = d if dim is None else dim
            elif d != dim:
                raise OpError(f"{op}: shapes {', '.join(fmt_shape(s) for s in shapes)} cannot be broadcast together")
        result.append(dim)
    return tuple(result)


_KIND_NAMES = {"f": "float", "i": "signed int", "u": "unsigned int", "b": "bool", "c": "complex"}


def elementwise_infer(op: str, out_dtype: mstype.Type | None = None, kinds: str | None = None):
    """Rule for an elementwise op: broadcast the shapes; inputs' dtypes must agree (the functional
    layer promotes first); ``out_dtype`` fixes the result dtype (comparisons give Bool); ``kinds``
    (NumPy kind letters, "f" float, "iu" ints, "b" bool) limits the accepted dtypes (TypeError otherwise)."""

    def infer(*inputs, **attrs):
        tensors = [x for x in inputs if is_tensor_type(x)]
        if not tensors:
            raise OpError(f"{op}: needs at least one tensor input")
        if kinds is not None:
            for t in tensors:
                if t.dtype.np.kind not in kinds:
                    allowed = " or ".join(_KIND_NAMES[k] for k in kinds)
                    raise TypeError(f"{op}: expects {allowed} tensors, got {t.dtype}{fmt_shape(t.shape)}")
        dtypes = {t.dtype for t in tensors}
        if len(dtypes) > 1:
            names = ", ".join(f"{t.dtype}{fmt_shape(t.shape)}" for t in tensors)
            raise OpError(f"{op}: input dtypes differ ({names}); cast them to one dtype first")
        shape = broadcast_shapes(op, *[t.shape for t in tensors])
        return TensorType(shape, out_dtype or tensors[0].dtype)

    return infer


def check_axis(op: str, axis: int, ndim: int) -> int:
    if not isinstance(axis, int) or isinstance(axis, bool):  # a wrong type: TypeError, as MindSpore
        raise TypeError(f"{op}: axis must be an int, got {type(axis).__name__} {axis!r}")
    if not -ndim <= axis < max(ndim, 1):
        raise OpError(f"{op}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def check_dims(op: str, shape: tuple, unknown: bool = False) -> None:
    """Every dim a non-negative int (None: symbolic; with ``unknown``, one -1 may stand for the rest)."""
    low = -1 if unknown else 0
    bad = [d for d in shape if d is not None and d < low]
    if bad:
        what = "non-negative (or -1 for the inferred size)" if unknown else "non-negative"
        raise OpError(f"{op}: shape dims must be {what}, got {bad[0]} in {fmt_shape(shape)}")


def _physical_memory() -> int:
    import os

    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not POSIX: no up-front limit beyond NumPy's own
        return 1 << 62


def check_alloc(op: str, shape: tuple, dtype: mstype.Type) -> None:
    """Refuse, before allocating, a result larger than the machine's physical memory (MemoryError)."""
    if any(d is None for d in shape):
        return
    n = 1
    for d in shape:
        n *= int(d)
    need = n * dtype.np.itemsize
    have = _physical_memory()
    if need > have:
        raise MemoryError(f"{op}: the result {fmt_shape(shape)} {dtype} would need {need / 2**30:.1f} GiB, more than "
                          f"this machine's {have / 2**30:.1f} GiB of memory")


def norm_axes(op: str, axis, ndim: int) -> tuple:
    """Normalise a reduction axis spec (None, int, tuple) into a sorted tuple of non-negative axes."""
    if axis is None or axis == ():
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    axes = tuple(sorted({check_axis(op, a, ndim) for a in axis}))
    return axes


def reduce_shape(shape: tuple, axes: tuple, keep_dims: bool) -> tuple:
    if keep_dims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def shapes_compatible(a, b) -> bool:
    """Equal ranks and equal dimensions wherever both are known."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))
