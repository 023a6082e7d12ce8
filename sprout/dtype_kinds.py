"""The non-tensor type objects of ``mindspore.common.dtype`` (number, tensor_type, list_, ...), the dtype aliases
named after C/Python types (ms.int, ms.long, ...), ``dtype_to_pytype`` and ``get_py_obj_dtype``."""
from __future__ import annotations

import numbers

import numpy as np

from . import dtype as _dt


class TypeKind:
    """A MindSpore type that is not a tensor element type (``mindspore.number``, ``mindspore.list_`` ...)."""

    __slots__ = ("name", "short", "pytype")

    def __init__(self, name: str, short: str, pytype):
        self.name, self.short, self.pytype = name, short, pytype

    def __repr__(self) -> str:
        return "mindspore." + self.short

    def __str__(self) -> str:
        return self.name


class TensorType:
    """``mindspore.TensorType``: the type of a Tensor, optionally of a given element dtype (``Tensor[Float32]``);
    ``mindspore.tensor_type`` is the one without an element dtype."""

    __slots__ = ("_element",)

    def __init__(self, element=None):
        self._element = None if element is None else _dt.to_dtype(element)

    def element_type(self):
        return self._element

    def __eq__(self, other) -> bool:
        return isinstance(other, TensorType) and other._element is self._element

    def __hash__(self) -> int:
        return hash(("TensorType", self._element))

    def __repr__(self) -> str:
        return "mindspore.tensor" if self._element is None else f"Tensor[{self._element}]"

    def __str__(self) -> str:
        return "Tensor" if self._element is None else f"Tensor[{self._element}]"


number = TypeKind("Number", "number", numbers.Number)
string = TypeKind("String", "string_", str)
list_ = TypeKind("List", "list_", list)
tuple_ = TypeKind("Tuple", "tuple_", tuple)
type_none = TypeKind("None", "type_none", type(None))
tensor_type = TensorType()

# the C/Python-named aliases MindSpore 2.10 exports (ms.int is ms.int32, ms.long is ms.int64, ...). The three named
# like Python builtins are served by the modules' __getattr__ (ms.int, mstype.float) and never bound as globals:
# a global ``int`` would shadow the builtin inside the module that holds it.
BUILTIN_NAMED = {"bool": _dt.bool_, "int": _dt.int32, "float": _dt.float32}
long, short, byte = _dt.int64, _dt.int16, _dt.int8
ubyte, ushort = _dt.uint8, _dt.uint16
intc, intp, uintc, uintp = _dt.int32, _dt.int64, _dt.uint32, _dt.uint64

def dtype_to_pytype(type_):
    """``mindspore.dtype_to_pytype``: the Python type of a MindSpore type (``float32`` -> ``float``)."""
    if isinstance(type_, _dt.Type):
        return (bool, int, int, float, complex)[type_.category]
    if isinstance(type_, TypeKind) and type_ is not number:  # MindSpore has no single Python type for number
        return type_.pytype
    if isinstance(type_, TensorType):
        from .core.tensor import Tensor

        return Tensor
    raise KeyError(type_)  # MindSpore 2.10 raises KeyError too (a failed lookup in its table)


def get_py_obj_dtype(obj):
    """``mindspore.get_py_obj_dtype``: the MindSpore type of a Python object or type (``1`` -> Int64,
    ``Tensor([1.])`` -> ``Tensor[Float32]``, ``ms.float32`` -> itself)."""
    from .core.tensor import Tensor

    if isinstance(obj, (_dt.Type, TypeKind, TensorType)):
        return obj
    if isinstance(obj, Tensor):
        return TensorType(obj.dtype)
    if isinstance(obj, np.generic):
        return _dt.from_numpy(obj.dtype)
    by_value = ((bool, _dt.bool_), (int, _dt.int64), (float, _dt.float64), (complex, _dt.complex128),
                (str, string), (list, list_), (tuple, tuple_), (type(None), type_none))
    for pytype, result in by_value:
        if obj is pytype or isinstance(obj, pytype):
            return result
    raise NotImplementedError(f"The python type {type(obj)} cannot be converted to MindSpore type.")
