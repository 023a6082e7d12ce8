"""MindSpore dtype objects (ms.float32 ...), NumPy mapping and type promotion."""
from __future__ import annotations

import sys

import numpy as np


class Type:
    """A tensor element type; prints the way MindSpore prints it (``Float32``)."""

    __slots__ = ("name", "np", "category", "bits")

    def __init__(self, name: str, np_dtype, category: int, bits: int):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.category = category  # 0 bool, 1 unsigned int, 2 signed int, 3 float, 4 complex
        self.bits = bits

    def __repr__(self) -> str:
        # MindSpore: repr(ms.float32) == 'mindspore.float32', repr(ms.float8_e4m3fn) == 'mindspore.float8_e4m3fn'
        return "mindspore." + _REPR_NAMES.get(self.name, self.name.lower())

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_float(self) -> bool:
        return self.category == 3

    @property
    def is_complex(self) -> bool:
        return self.category == 4

    @property
    def is_inexact(self) -> bool:
        """float or complex."""
        return self.category >= 3

    @property
    def is_differentiable(self) -> bool:
        """Every number dtype but bool: the dtypes gradients flow through, as eagerly and in MindSpore's graphs
        (an int32 input's gradient is computed in int32)."""
        return self.category >= 1

    @property
    def is_int(self) -> bool:
        return self.category in (1, 2)


bool_ = Type("Bool", np.bool_, 0, 8)
uint8 = Type("UInt8", np.uint8, 1, 8)
uint16 = Type("UInt16", np.uint16, 1, 16)
uint32 = Type("UInt32", np.uint32, 1, 32)
uint64 = Type("UInt64", np.uint64, 1, 64)
int8 = Type("Int8", np.int8, 2, 8)
int16 = Type("Int16", np.int16, 2, 16)
int32 = Type("Int32", np.int32, 2, 32)
int64 = Type("Int64", np.int64, 2, 64)
float16 = Type("Float16", np.float16, 3, 16)
float32 = Type("Float32", np.float32, 3, 32)
float64 = Type("Float64", np.float64, 3, 64)


class _Watched(Type):
    """A dtype whose NumPy type is imported on first use and whose first use is announced (``on_first_use``):
    bfloat16, stored as ml_dtypes' type (that import costs ~0.7 s, so a process that never uses bfloat16 never
    pays it) and computed on a lowered route (core/bf16.py) that eager dispatch switches on only then; and the
    8-bit floats (``storage_only``: MindSpore 2.10's CPU builds, prints and copies them but no kernel takes them,
    so dispatch refuses every op on them). ``encode`` (hifloat8) converts an array into the storage format
    where NumPy's ``astype`` cannot."""

    __slots__ = ("_load", "storage_only", "encode")

    def __init__(self, name: str, load, category: int, bits: int, storage_only: bool = False, encode=None):
        self.name, self.category, self.bits, self._load = name, category, bits, load
        self.storage_only, self.encode = storage_only, encode

    @property
    def np(self):
        try:
            found = Type.np.__get__(self)
        except AttributeError:  # first use: import the storage type
            found = np.dtype(self._load())
            Type.np.__set__(self, found)
            _FROM_NP[found] = self
        if _first_use:
            announce_use()
        return found


_first_use: list = []  # callbacks run (then dropped) the first time bfloat16's NumPy dtype is asked for


def on_first_use(callback) -> None:
    _first_use.append(callback)


def announce_use() -> None:
    """A bfloat16 array exists or is about to: run the waiting callbacks (dispatch turns on the bf16 route)."""
    while _first_use:
        _first_use.pop()()


def _ml_dtypes_bfloat16():
    import ml_dtypes

    return ml_dtypes.bfloat16


def _ml_dtypes_type(name: str):
    def load():
        import ml_dtypes

        return getattr(ml_dtypes, name)

    return load


def _hifloat8_storage():
    from .core.float8 import HIF8_STORAGE

    return HIF8_STORAGE


def _hifloat8_encode(arr):
    from .core.float8 import hif8_encode

    return hif8_encode(arr)


def is_bfloat16_np(np_dtype) -> bool:
    """Whether a NumPy dtype is bfloat16, without importing ml_dtypes: until something imported it, no array
    can have that dtype."""
    mod = sys.modules.get("ml_dtypes")
    return mod is not None and np_dtype == mod.bfloat16


# bfloat16: stored as ml_dtypes' NumPy bfloat16; ops compute it in float32 and round once (core/bf16.py)
bfloat16 = _Watched("BFloat16", _ml_dtypes_bfloat16, 3, 16)
# 8-bit floats: ml_dtypes' storage for the OCP formats, raw bytes for Huawei's HiFloat8 (core/float8.py); no op
# computes on them (MindSpore 2.10's CPU kernels refuse them all), a tensor can be built, printed and copied
float8_e4m3fn = _Watched("Float8E4M3FN", _ml_dtypes_type("float8_e4m3fn"), 3, 8, storage_only=True)
float8_e5m2 = _Watched("Float8E5M2", _ml_dtypes_type("float8_e5m2"), 3, 8, storage_only=True)
hifloat8 = _Watched("HiFloat8", _hifloat8_storage, 3, 8, storage_only=True, encode=_hifloat8_encode)
storage_only_types = (float8_e4m3fn, float8_e5m2, hifloat8)
_REPR_NAMES = {"Float8E4M3FN": "float8_e4m3fn", "Float8E5M2": "float8_e5m2", "HiFloat8": "hifloat8"}
complex64 = Type("Complex64", np.complex64, 4, 64)
complex128 = Type("Complex128", np.complex128, 4, 128)

# MindSpore aliases
half, single, double = float16, float32, float64
cfloat, cdouble = complex64, complex128
int_, uint = int32, uint32
float_ = float32

_ALL = (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16, float32, float64, bfloat16,
        complex64, complex128, float8_e4m3fn, float8_e5m2, hifloat8)
_FROM_NP = {Type.np.__get__(t): t for t in _ALL if not isinstance(t, _Watched)}  # bfloat16 joins on first use
_NAMES = {t.name: t for t in _ALL}
number_type = tuple(t for t in _ALL if t is not bool_)
float_type = (float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2, hifloat8)
complex_type = (complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)


def _by_name(name: str) -> Type:
    return _NAMES[name]


def from_numpy(np_dtype) -> Type:
    """The sprout dtype for a NumPy dtype; raises TypeError for unsupported ones."""
    try:
        found = _FROM_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        found = watched_np(np_dtype)
        if found is None:
            raise TypeError(f"sprout does not support the NumPy dtype {np_dtype!r}") from None
        found.np  # noqa: B018  (registers the storage type)
    if isinstance(found, _Watched) and _first_use:
        announce_use()
    return found


def watched_np(np_dtype) -> Type | None:
    """The lazily loaded dtype (bfloat16, the ml_dtypes 8-bit floats) whose storage ``np_dtype`` is, or None;
    never imports ml_dtypes (until something imported it, no array can have those dtypes)."""
    mod = sys.modules.get("ml_dtypes")
    if mod is None:
        return None
    for t, name in ((bfloat16, "bfloat16"), (float8_e4m3fn, "float8_e4m3fn"), (float8_e5m2, "float8_e5m2")):
        if np_dtype == getattr(mod, name):
            return t
    return None


def to_dtype(value) -> Type:
    """Accept a sprout Type, a NumPy dtype/type or its name; anything else is a TypeError."""
    if isinstance(value, Type):
        if value.__class__ is _Watched and _first_use:
            announce_use()  # a cast to it may come: eager dispatch must check for the 8-bit floats before it runs
        return value
    if isinstance(value, str) and value in _NAMES:
        return _NAMES[value]
    if value is bool:
        return bool_
    if value is int:
        return int64
    if value is float:
        return float32
    if value is complex:
        return complex128
    try:
        return from_numpy(np.dtype(value))
    except TypeError:
        raise TypeError(f"unknown dtype {value!r}; use one of ms.float32, ms.int32, ...") from None


def dtype_to_nptype(t: Type):
    """MindSpore's ``dtype_to_nptype``: the NumPy scalar type of a dtype."""
    return to_dtype(t).np.type


def pytype_to_dtype(t) -> Type:
    return to_dtype(t)


def promote(a: Type, b: Type) -> Type:
    """Result type of a binary op between two tensors, following MindSpore's rules."""
    if a is b:
        return a
    if a.category != b.category:
        hi, lo = (a, b) if a.category > b.category else (b, a)
        if hi.category == 4 and lo is float64:  # a complex64 with float64 parts needs complex128
            return complex128
        if hi.category == 2 and lo.category == 1 and lo.bits >= hi.bits:
            return _signed(min(lo.bits * 2, 64))
        return hi
    if a.bits == b.bits:  # float16 with bfloat16: neither holds the other, MindSpore gives float32
        return float32
    return a if a.bits > b.bits else b


def _signed(bits: int) -> Type:
    return {8: int8, 16: int16, 32: int32, 64: int64}[bits]


def promote_scalar(t: Type, scalar) -> Type:
    """Result type of tensor (dtype t) op Python scalar: the tensor keeps its dtype,
    except that a float scalar lifts an int/bool tensor to float32 and an int scalar a bool one to int64."""
    if isinstance(scalar, bool):
        return t
    if isinstance(scalar, float) and t.category < 3:
        return float32
    if isinstance(scalar, int) and t.category == 0:
        return int64
    return t


def scalar_dtype(value) -> Type:
    """dtype MindSpore gives a tensor built from a Python scalar."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, complex):
        return complex128
    return float32
from .dtype_kinds import (TypeKind, TensorType, number, string, list_, tuple_, type_none, tensor_type,  # noqa: E402,F401
                          long, short, byte, ubyte, ushort, intc, intp, uintc, uintp, dtype_to_pytype,
                          get_py_obj_dtype, BUILTIN_NAMED as _BUILTIN_NAMED)


def __getattr__(name: str):
    # mstype.int / mstype.float / mstype.bool: attributes only, never globals here (they would shadow the builtins)
    if name in _BUILTIN_NAMED:
        return _BUILTIN_NAMED[name]
    if name == "np_bfloat16":  # MindSpore's mstype.np_bfloat16: the NumPy scalar type of bfloat16 (imported lazily)
        return _ml_dtypes_bfloat16()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
