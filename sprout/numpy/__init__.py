"""mindspore.numpy: NumPy's API over sprout Tensors (``import sprout.numpy as mnp``), with MindSpore's defaults
(Python ints Int32, floats Float32) and behaviour; every function is built from sprout ops, so it runs eagerly,
under jit and under grad."""
from .. import dtype as _mstype
from . import array_creations, array_ops, logic_ops, math_ops, linalg_stats, histograms, fft  # noqa: F401
from .array_creations import *  # noqa: F401,F403
from .array_ops import *  # noqa: F401,F403
from .logic_ops import *  # noqa: F401,F403
from .linalg_stats import *  # noqa: F401,F403
from .histograms import *  # noqa: F401,F403
from .pad import pad  # noqa: F401
from .math_ops import (  # noqa: F401
    absolute, abs, fabs, negative, positive, square, reciprocal, exp2, sqrt, cbrt, sin, cos, tan, arcsin, arccos,
    arctan, sinh, cosh, tanh, arcsinh, arccosh, arctanh, deg2rad, radians, rad2deg, sign, fix, trunc, ceil, exp,
    expm1, log, log2, log10, log1p, floor, rint, add, subtract, multiply, divide, true_divide, power, float_power,
    maximum, minimum, arctan2, hypot, logaddexp, logaddexp2, copysign, heaviside, fmod, mod, remainder,
    floor_divide, gcd, lcm, bitwise_and, bitwise_or, bitwise_xor, divmod, invert, bitwise_not, clip, around, round,
    signbit, sum, mean, amax, max, amin, min, ptp, argmax, argmin, var, std, average, nansum, nanmean, nanmax,
    nanmin, nanvar, nanstd, cumsum, cumprod, nancumsum, count_nonzero)

bool_ = _mstype.bool_
int8, int16, int32, int64 = _mstype.int8, _mstype.int16, _mstype.int32, _mstype.int64
uint8, uint16, uint32, uint64 = _mstype.uint8, _mstype.uint16, _mstype.uint32, _mstype.uint64
float16, float32, float64 = _mstype.float16, _mstype.float32, _mstype.float64
int_, uint, float_ = _mstype.int32, _mstype.uint32, _mstype.float32
numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float_",
                 "float16", "float32", "float64", "bool_"]
pi = 3.141592653589793
inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
