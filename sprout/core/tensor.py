"""Tensor and Parameter: thin holders of a NumPy array; every operator goes through dispatch."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from . import host as _host
from . import printing



def _to_array(data, dtype: mstype.Type | None) -> np.ndarray:
    if isinstance(data, Tensor):
        arr = data.asnumpy()
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, int, float, complex)) and not isinstance(data, np.generic):
        arr = np.asarray(data, dtype=mstype.scalar_dtype(data).np)
    elif isinstance(data, np.generic):
        arr = np.asarray(data)
    elif isinstance(data, (list, tuple)):
        arr = _from_sequence(data)
    else:
        raise TypeError(f"Tensor: cannot build a tensor from {type(data).__name__}; "
                        "pass a NumPy array, a list/tuple, a Python scalar or a Tensor")
    if dtype is not None:
        if dtype.is_int and arr.size and arr.dtype.kind in "iuf" and not isinstance(data, (Tensor, np.ndarray)):
            _check_fits(arr, dtype)
        if (dtype.bits == 8 and dtype.category == 3) or mstype._FROM_NP.get(arr.dtype) in mstype.storage_only_types:
            return _float8_array(arr, dtype)
        arr = arr.astype(dtype.np, copy=False)
    elif arr.dtype not in mstype._FROM_NP:
        found = mstype.watched_np(arr.dtype)
        if found is None:
            raise TypeError(f"Tensor: unsupported element type {arr.dtype}")
        found.np  # noqa: B018  (the first such array came from the user: register its storage type)
    if mstype._first_use and mstype.watched_np(arr.dtype) is not None:
        mstype.announce_use()
    if not isinstance(data, np.ndarray) or arr.base is None and arr is not data:
        return arr
    # a NumPy array is copied, as in MindSpore (Tensor.from_numpy shares it): x[i] = v never reaches it
    return arr.copy() if np.may_share_memory(arr, data) else arr


def _float8_array(arr: np.ndarray, dtype: mstype.Type) -> np.ndarray:
    """Numbers into an 8-bit float's storage (through float32, as MindSpore's host conversion), or an 8-bit float
    tensor's array kept as is; converting one to another dtype is a Cast, which MindSpore's CPU refuses."""
    have = mstype._FROM_NP.get(arr.dtype)
    if have is dtype:
        return arr
    if have in mstype.storage_only_types:
        raise TypeError(f"Tensor: converting a {have} tensor to {dtype} is a Cast, and {have} tensors are not "
                        f"supported on CPU (MindSpore 2.10's CPU kernels take no 8-bit float)")
    wide = arr.astype(np.float32)
    if dtype.encode is not None:
        return dtype.encode(wide)
    out = wide.astype(dtype.np)
    nan = np.isnan(wide)
    if nan.any():  # MindSpore stores a NaN as 0x7f (0xff with the sign bit); ml_dtypes' float8_e5m2 as 0x7e
        out.view(np.uint8)[nan] = np.where(np.signbit(wide[nan]), 0xFF, 0x7F)
    return out


def _check_fits(arr: np.ndarray, dtype: mstype.Type) -> None:
    """Python numbers given for an integer dtype must fit it (a cast from an array wraps as NumPy's astype)."""
    info = np.iinfo(dtype.np)
    lo, hi = arr.min(), arr.max()
    if lo < info.min or hi > info.max:
        bad = lo if lo < info.min else hi
        raise ValueError(f"Tensor: the value {bad.item()!r} does not fit {dtype} (range [{info.min}, {info.max}])")


def _from_sequence(data) -> np.ndarray:
    flat_items = []

    def walk(x):
        if isinstance(x, (list, tuple)):
            for item in x:
                walk(item)
        else:
            flat_items.append(x)

    walk(data)
    items = [x.asnumpy() if isinstance(x, Tensor) else x for x in data] if any(
        isinstance(x, Tensor) for x in flat_items) else data
    arr = np.asarray(items)
    # MindSpore builds a list/tuple as float32 when it holds any float, int64 when it holds ints
    # (NumPy scalars and nested arrays included: Tensor([np.float64(1)]) is Float32)
    if arr.dtype == np.float64:
        arr = arr.astype(np.float32)
    elif arr.dtype.kind in "iu" and arr.dtype != np.int64:
        arr = arr.astype(np.int64)
    if arr.dtype.kind == "U" or arr.dtype == object:
        raise TypeError(f"Tensor: cannot build a tensor from a ragged or non-numeric sequence {data!r:.80}")
    return arr


def _escaped(t, how: str) -> None:
    for tape in _tapes:
        if tape.is_live(t):
            tape.escapes.append(how)


def _host_reentry(t, data) -> None:
    """``t`` was built from a host value of a recorded tensor: tapes holding that tensor record the step, and a
    gradient reaching it is an error (it cannot pass through NumPy; before, it was silently dropped)."""
    found = _host.source_of(data)
    if found is None:
        return
    src, how = found
    for tape in _tapes:
        if tape.is_live(src):
            tape.record_custom((src,), t, _host.no_gradient(how))


def _will_write(t) -> None:
    """``t``'s value is about to change: gradient tapes holding it keep the value they read."""
    from . import dispatch

    if dispatch._holders:
        dispatch.will_write(t)


class Tensor:
    """MindSpore's Tensor: ``Tensor(input_data, dtype=None)``. Arithmetic, comparison and
    method calls are installed by ``sprout.ops.tensor_methods`` and all dispatch through one entry."""

    # _view: set (True) on a view op's result sharing its input's memory (core/views.py)
    __slots__ = ("_data", "_view", "__weakref__")
    __array_priority__ = 100  # so ndarray OP Tensor defers to Tensor's reflected operator

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False, internal=False):
        dt = mstype.to_dtype(dtype) if dtype is not None else None
        if input_data is None:
            if shape is None and dt is None:
                raise TypeError("Tensor: give input_data, or shape and dtype (with init)")
            shape = (shape,) if isinstance(shape, int) else (None if shape is None else tuple(shape))
            if init is None and (shape is None or None in shape or -1 in shape):
                from . import placeholder  # a shape-only declaration: Tensor(shape=[None, 3], dtype=...)

                placeholder.make(self, shape, dt or mstype.float32)
                return
            if init is not None and hasattr(init, "init_data"):
                self._data = init.init_data(shape, dt or mstype.float32)
                return
            self._data = np.zeros(shape, (dt or mstype.float32).np)
            return
        self._data = _to_array(input_data, dt)
        if self._data.__class__ is _host.HostArray:  # a tensor holds plain arrays
            self._data = self._data.view(np.ndarray)
        if _tapes:
            _host_reentry(self, input_data)

    # ---- metadata -------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._data.shape

    @property
    def dtype(self) -> mstype.Type:
        return mstype._FROM_NP[self._data.dtype]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def strides(self) -> tuple:
        return self._data.strides

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    # ---- host access ------------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        if _tapes:  # a gradient cannot flow through NumPy: tapes note the escape (autodiff.api reports it)
            return _host.hand_out(self, self._data, "asnumpy()", _tapes)
        return self._data

    def numpy(self) -> np.ndarray:
        if _tapes:
            return _host.hand_out(self, self._data, "numpy()", _tapes)
        return self._data

    def __array__(self, dtype=None, copy=None):
        """NumPy's protocol: ``copy=True`` always gives an array of its own (writing it leaves the tensor as it
        was, as MindSpore 2.10 copies), ``copy=False`` refuses a conversion that would have to copy (ValueError,
        NumPy 2's rule), None copies only to change the dtype."""
        if _tapes:
            _escaped(self, "a NumPy conversion")
        data = self._data
        if dtype is not None and np.dtype(dtype) != data.dtype:
            if copy is False:
                raise ValueError(f"Tensor.__array__: copy=False, but converting {data.dtype} to {np.dtype(dtype)} "
                                 "needs a copy")
            return data.astype(dtype)
        return data.copy() if copy else data

    def item(self, index=None):
        if self._data.dtype.num in _NO_KERNEL:
            raise _refuse_float8("Tensor.item", self)
        if index is None:
            if self._data.size != 1:
                raise ValueError(f"Tensor.item: only a tensor with one element converts to a Python scalar, "
                                 f"this one has shape {list(self.shape)}")
            return self._data.item()
        return self._data.item(index)

    def tolist(self):
        if self._data.dtype.num in _NO_KERNEL:
            raise _refuse_float8("Tensor.tolist", self)
        if _tapes:
            return _host.hand_out(self, self._data.tolist(), "tolist()", _tapes)
        return self._data.tolist()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __bool__(self) -> bool:
        if self._data.dtype.num in _NO_KERNEL:
            raise _refuse_float8("Tensor.__bool__", self)
        if self._data.size != 1:
            raise ValueError(f"The truth value of a Tensor with shape {list(self.shape)} is ambiguous; "
                             "use .any() or .all()")
        return bool(self._data)

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __index__(self) -> int:
        if self.dtype.is_int and self._data.size == 1:
            return int(self._data)
        raise TypeError(f"only an integer tensor with one element can be used as an index, got {self.dtype}")

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return printing.tensor_repr(self.shape, self.dtype.name, self._data)

    def __str__(self) -> str:
        return printing.tensor_str(self._data)

    def __format__(self, spec: str) -> str:
        if spec and self._data.size == 1:
            return format(self._data.item(), spec)
        return str(self)

    def __reduce__(self):
        return (Tensor, (self._data,))

    def __copy__(self):
        return Tensor(self._data.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def init_data(self):
        return self

    def set_dtype(self, dtype):
        _will_write(self)
        self._data = self._data.astype(mstype.to_dtype(dtype).np)
        return self

    def assign_value(self, value) -> Tensor:
        _will_write(self)
        self._data = _to_array(value, None).astype(self._data.dtype, copy=True)
        return self

    @property
    def T(self):
        return self.transpose()

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    @property
    def has_init(self) -> bool:
        """Whether the values are still to be made (``nn.no_init_parameters``); a property, as in MindSpore."""
        return False


class Parameter(Tensor):
    """A trainable Tensor with a name; updated in place by optimizers and ``ops.assign``."""

    __slots__ = ("name", "requires_grad", "layerwise_parallel", "parallel_optimizer", "_cell_attr", "comm_fusion")

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True):
        if getattr(default_input, "_plain", None) is Tensor:  # initializer(...) under nn.no_init_parameters
            from .lazy_init import adopt

            adopt(self, default_input)
            self._set_attrs(name, requires_grad, layerwise_parallel, parallel_optimizer)
            return
        if isinstance(default_input, Tensor):
            data = np.array(default_input.asnumpy(), copy=True)
        elif isinstance(default_input, np.ndarray):
            data = np.array(default_input, copy=True)
        else:
            data = _to_array(default_input, None)
        if not data.flags.writeable:
            data = data.copy()
        if mstype._first_use and mstype.is_bfloat16_np(data.dtype):
            mstype.announce_use()
        self._data = data
        self._set_attrs(name, requires_grad, layerwise_parallel, parallel_optimizer)

    def _set_attrs(self, name, requires_grad, layerwise_parallel, parallel_optimizer) -> None:
        if name is not None and not isinstance(name, str):
            raise ValueError(f"Parameter: name must be a str or None, got {type(name).__name__} {name!r}")
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self._cell_attr = None
        self.comm_fusion = 1  # data parallel: gradients with the same id share one all-reduce bucket

    def set_data(self, data, slice_shape=False) -> Parameter:
        arr = data.asnumpy() if isinstance(data, Tensor) else np.asarray(data)
        if arr.shape != self._data.shape and not slice_shape:
            raise ValueError(f"Parameter {self.name}: set_data with shape {list(arr.shape)} does not match "
                             f"the parameter's shape {list(self._data.shape)}")
        _will_write(self)
        self._data = np.array(arr, dtype=arr.dtype, copy=True)
        return self

    def clone(self, init="same") -> Parameter:
        """A new Parameter of the same name, shape and dtype holding a copy of this one's data (``init="same"``)
        or ``init``: "zeros", "ones", a number, or an initializer object (anything with ``init_data``)."""
        return Parameter(_cloned_data(self._data, init), name=self.name, requires_grad=self.requires_grad)

    @property
    def data(self) -> Parameter:
        return self

    @property
    def init(self):
        """The initializer still to run (``nn.no_init_parameters``), else None."""
        return None

    def __repr__(self) -> str:
        return f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, " \
               f"requires_grad={self.requires_grad})"

    __str__ = __repr__  # MindSpore prints a Parameter's description, not its values

    def __reduce__(self):
        return (Parameter, (self._data, self.name, self.requires_grad))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()


def _cloned_data(data: np.ndarray, init) -> np.ndarray:
    if isinstance(init, str) and init == "same":
        return data.copy()
    if isinstance(init, str) and init in ("zeros", "ones"):
        return np.full(data.shape, 0 if init == "zeros" else 1, data.dtype)
    if isinstance(init, (bool, int, float)):
        return np.full(data.shape, init, data.dtype)
    if hasattr(init, "init_data"):  # an Initializer (sprout.common.initializer)
        return np.asarray(init.init_data(data.shape, mstype._FROM_NP[data.dtype]), data.dtype)
    raise ValueError(f"Parameter.clone: init must be 'same', 'zeros', 'ones', a number or an initializer object "
                     f"(e.g. initializer('normal', ...)), got {init!r}")


class ParameterTuple(tuple):
    """A tuple of Parameters (MindSpore's container for ``weights``)."""

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: every element must be a Parameter, got {type(p).__name__}")
        owner: dict = {}
        for p in items:
            if p.name is not None and owner.setdefault(p.name, id(p)) != id(p):
                raise ValueError(f"ParameterTuple: the name {p.name!r} is used by two different Parameters; "
                                 f"give each Parameter a unique name")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init="same") -> ParameterTuple:
        out = []
        for p in self:
            q = p.clone(init)
            q.name = f"{prefix}.{p.name}"
            out.append(q)
        return ParameterTuple(out)


from .dispatch import _tapes  # noqa: E402  (the active gradient tapes; dispatch imports this module last)
from .bf16 import _NO_KERNEL  # noqa: E402  (NumPy dtype nums of the 8-bit floats: no host read takes them)
from .float8 import refuse as _refuse  # noqa: E402


def _refuse_float8(what: str, t: Tensor) -> TypeError:
    return _refuse(what, t.dtype)
