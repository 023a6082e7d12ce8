"""MindSpore's PascalCase primitive classes (``ops.Add()(x, y)``) over the functional API."""
from __future__ import annotations

from . import functional as F


class Primitive:
    """Base of the PascalCase op classes: instantiate with attributes, call with tensors."""

    def __init__(self, name: str | None = None):
        self.name = name or type(self).__name__

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"

    def add_prim_attr(self, name, value):
        setattr(self, name, value)
        return self


def _simple(name: str, fn):
    cls = type(name, (Primitive,), {"__call__": lambda self, *args: fn(*args), "__doc__": f"ops.{name}()"})
    return cls


Add = _simple("Add", F.add)
Sub = _simple("Sub", F.sub)
Mul = _simple("Mul", F.mul)
Div = _simple("Div", F.div)
RealDiv = _simple("RealDiv", F.div)
Neg = _simple("Neg", F.neg)
Pow = _simple("Pow", F.pow)
Square = _simple("Square", F.square)
Sqrt = _simple("Sqrt", F.sqrt)
Exp = _simple("Exp", F.exp)
Log = _simple("Log", F.log)
Sin = _simple("Sin", F.sin)
Cos = _simple("Cos", F.cos)
Tanh = _simple("Tanh", F.tanh)
Sigmoid = _simple("Sigmoid", F.sigmoid)
ReLU = _simple("ReLU", F.relu)
Abs = _simple("Abs", F.abs)
Maximum = _simple("Maximum", F.maximum)
Minimum = _simple("Minimum", F.minimum)
Equal = _simple("Equal", F.equal)
Greater = _simple("Greater", F.greater)
Less = _simple("Less", F.less)
Cast = _simple("Cast", F.cast)
Reshape = _simple("Reshape", F.reshape)
Transpose = _simple("Transpose", F.transpose)
ExpandDims = _simple("ExpandDims", F.expand_dims)
BroadcastTo = None  # defined below: its shape is an init attribute
Select = _simple("Select", F.where)
ZerosLike = _simple("ZerosLike", F.zeros_like)
OnesLike = _simple("OnesLike", F.ones_like)
StopGradient = _simple("StopGradient", F.stop_gradient)


class MatMul(Primitive):
    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__()
        self.transpose_a, self.transpose_b = transpose_a, transpose_b

    def __call__(self, x, y):
        return F.matmul(x, y, transpose_a=self.transpose_a, transpose_b=self.transpose_b)


BatchMatMul = MatMul


class _Reduce(Primitive):
    fn = None

    def __init__(self, keep_dims=False):
        super().__init__()
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self).fn(x, axis if axis != () else None, self.keep_dims)


class ReduceSum(_Reduce):
    fn = staticmethod(F.sum)


class ReduceMean(_Reduce):
    fn = staticmethod(F.mean)


class ReduceMax(_Reduce):
    fn = staticmethod(F.amax)


class ReduceMin(_Reduce):
    fn = staticmethod(F.amin)


class ReduceProd(_Reduce):
    fn = staticmethod(F.prod)


class BroadcastTo(Primitive):  # noqa: F811
    def __init__(self, shape):
        super().__init__()
        self.shape = tuple(shape)

    def __call__(self, x):
        return F.broadcast_to(x, self.shape)


class Squeeze(Primitive):
    def __init__(self, axis=()):
        super().__init__()
        self.axis = axis

    def __call__(self, x):
        return F.squeeze(x, self.axis if self.axis != () else None)


class Concat(Primitive):
    def __init__(self, axis=0):
        super().__init__()
        self.axis = axis

    def __call__(self, tensors):
        return F.concat(tensors, self.axis)


class Stack(Primitive):
    def __init__(self, axis=0):
        super().__init__()
        self.axis = axis

    def __call__(self, tensors):
        return F.stack(tensors, self.axis)


class Argmax(Primitive):
    def __init__(self, axis=-1, output_type=None):
        super().__init__()
        self.axis = axis

    def __call__(self, x):
        return F.argmax(x, self.axis)


class Fill(Primitive):
    def __call__(self, dtype, shape, value):
        return F.fill(dtype, shape, value)


__all__ = [n for n, v in list(globals().items()) if isinstance(v, type) and issubclass(v, Primitive)]
