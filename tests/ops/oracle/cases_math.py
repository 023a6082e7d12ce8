"""Elementwise math: trigonometric, special functions, Bessel, two-argument and integer functions."""
from . import OC, U, I, C

X = U(3, 4, lo=-0.9, hi=0.9)
P = U(3, 4, lo=0.2, hi=3.0)
UNARY_UNIT = ["tan", "asin", "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "asinh", "arcsinh",
              "atanh", "arctanh", "sinc", "erfc", "erfinv", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e",
              "bessel_j0", "bessel_j1", "i0", "frac", "sgn", "signbit", "deg2rad", "rad2deg", "exp2", "positive",
              "isneginf", "isposinf", "isreal", "trunc", "rsqrt"]
UNARY_POS = ["acosh", "arccosh", "lgamma", "digamma", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e",
             "bessel_k1", "bessel_k1e", "log2", "log10", "logit", "inv"]

CASES = [OC(f"{f}", f"ops.{f}(x)", {"x": X}) for f in UNARY_UNIT]
CASES += [OC(f"{f}_pos", f"ops.{f}(x)", {"x": U(3, 4, lo=1.1, hi=3.0) if "acosh" in f else
                                         U(3, 4, lo=0.05, hi=0.95) if f == "logit" else P}) for f in UNARY_POS]
INT_RAISES = ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erfc", "erfinv",
              "digamma", "bessel_i0", "bessel_j1", "bessel_k1e", "log2", "log10", "deg2rad", "logit", "isneginf"]
INT_OK = ["sinc", "lgamma", "exp2", "frac", "sgn", "signbit", "trunc", "inv", "isreal"]
CASES += [OC(f"{f}_int_raises", f"ops.{f}(x)", {"x": I(4, lo=1, hi=5)}, check="raises") for f in INT_RAISES]
CASES += [OC(f"{f}_int", f"ops.{f}(x)", {"x": I(4, lo=1, hi=5)}) for f in INT_OK]
CASES += [OC(f"{f}_int_raises", f"ops.{f}(x, y)", {"x": I(4, lo=1, hi=5), "y": I(4, lo=1, hi=5)}, check="raises")
          for f in ["atan2", "hypot", "xlogy", "xdivy", "logaddexp", "nextafter", "igamma", "zeta"]]
CASES += [OC(f"{f}_int", f"ops.{f}(x, y)", {"x": I(4, lo=-3, hi=5), "y": I(4, lo=1, hi=5)})
          for f in ["copysign", "heaviside", "fmax"]]
CASES += [
    OC("erfinv_f64", "ops.erfinv(x)", {"x": U(5, lo=-0.99, hi=0.99, dtype="float64")}),
    OC("lgamma_neg", "ops.lgamma(x)", {"x": U(6, lo=-3.5, hi=-0.1)}),
    OC("digamma_f64", "ops.digamma(x)", {"x": U(6, lo=0.1, hi=9.0, dtype="float64")}),
    OC("polygamma1", "ops.polygamma(Tensor(1), x)", {"x": P}, rtol=1e-4),
    OC("polygamma3", "ops.polygamma(Tensor(3), x)", {"x": P}, rtol=1e-4),
    OC("mvlgamma", "ops.mvlgamma(x, 3)", {"x": U(2, 3, lo=1.2, hi=4.0)}),
    OC("atan2", "ops.atan2(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("atan2_bcast", "ops.atan2(x, y)", {"x": U(3, 4), "y": U(4)}),
    OC("arctan2", "ops.arctan2(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("hypot", "ops.hypot(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("xlogy", "ops.xlogy(x, y)", {"x": U(3, 4), "y": P}),
    OC("xlogy_zero", "ops.xlogy(x, y)", {"x": C([0.0, 1.0, 0.0], "float32"), "y": C([0.0, 2.0, 3.0], "float32")}),
    OC("xdivy", "ops.xdivy(x, y)", {"x": U(3, 4), "y": P}),
    OC("xdivy_zero", "ops.xdivy(x, y)", {"x": C([0.0, 1.0, 0.0], "float32"), "y": C([0.0, 2.0, 3.0], "float32")}),
    OC("copysign", "ops.copysign(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("copysign_scalar", "ops.copysign(x, -1.0)", {"x": U(3, 4)}),
    OC("fmod", "ops.fmod(x, y)", {"x": U(3, 4, lo=-5, hi=5), "y": P}),
    OC("fmod_int", "ops.fmod(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)}),
    OC("logaddexp", "ops.logaddexp(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("logaddexp2", "ops.logaddexp2(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("heaviside", "ops.heaviside(x, y)", {"x": C([-1.0, 0.0, 2.0, 0.0], "float32"),
                                            "y": C([0.5, 0.5, 0.5, 0.25], "float32")}),
    OC("nextafter", "ops.nextafter(x, y)", {"x": U(4, dtype="float32"), "y": U(4, dtype="float32")}),
    OC("igamma", "ops.igamma(a, x)", {"a": P, "x": P}),
    OC("igammac", "ops.igammac(a, x)", {"a": P, "x": P}),
    OC("zeta", "ops.zeta(x, q)", {"x": U(3, 4, lo=1.5, hi=4.0), "q": P}, rtol=1e-4),
    OC("truncate_div", "ops.truncate_div(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)}),
    OC("truncate_div_f", "ops.truncate_div(x, y)", {"x": U(6, lo=-9, hi=9), "y": U(6, lo=0.2, hi=3.0)}),
    OC("truncate_mod", "ops.truncate_mod(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)}),
    OC("gcd", "ops.gcd(x, y)", {"x": I(6, lo=-20, hi=20), "y": I(6, lo=1, hi=30)}),
    OC("lcm", "ops.lcm(x, y)", {"x": I(6, lo=-20, hi=20), "y": I(6, lo=1, hi=30)}),
    OC("left_shift", "ops.bitwise_left_shift(x, y)", {"x": I(6, lo=0, hi=20), "y": I(6, lo=0, hi=4)}),
    OC("right_shift", "ops.bitwise_right_shift(x, y)", {"x": I(6, lo=-20, hi=20), "y": I(6, lo=0, hi=4)}),
    OC("invert", "ops.invert(x)", {"x": I(6, lo=-20, hi=20, dtype="int16")}),
    OC("population_count", "ops.population_count(x)", {"x": I(6, lo=-200, hi=200, dtype="int16")}),
    OC("ldexp", "ops.ldexp(x, y)", {"x": U(3, 4), "y": I(3, 4, lo=-2, hi=3)}),
    OC("float_power", "ops.float_power(x, y)", {"x": P, "y": U(3, 4)}),
    OC("lerp", "ops.lerp(x, y, 0.3)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("lerp_t", "ops.lerp(x, y, w)", {"x": U(3, 4), "y": U(3, 4), "w": U(3, 4, lo=0, hi=1)}),
    OC("logit_eps", "ops.logit(x, eps=0.1)", {"x": U(3, 4, lo=0.0, hi=1.0)}),
    OC("fmax", "ops.fmax(x, y)", {"x": C([1.0, float('nan'), 3.0, float('nan')], "float32"),
                                  "y": C([2.0, 1.0, float('nan'), float('nan')], "float32")}),
    OC("nan_to_num", "ops.nan_to_num(x, 1.0, 100.0, -100.0)",
       {"x": C([1.0, float('nan'), float('inf'), -float('inf')], "float32")}),
    OC("nan_to_num_default", "ops.nan_to_num(x)", {"x": C([1.0, float('nan'), float('inf')], "float32")}),
    OC("addcdiv", "ops.addcdiv(x, y, z, Tensor(0.5))", {"x": U(3, 4), "y": U(3, 4), "z": P}),
    OC("addcmul", "ops.addcmul(x, y, z, Tensor(0.5))", {"x": U(3, 4), "y": U(3, 4), "z": U(3, 4)}),
    OC("approximate_equal", "ops.approximate_equal(x, y, 0.5)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("cosine_similarity", "ops.cosine_similarity(x, y)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("cosine_similarity0", "ops.cosine_similarity(x, y, 0)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("subtract_alpha", "ops.subtract(x, y, alpha=2)", {"x": U(3, 4), "y": U(3, 4)}),
    OC("multiply", "ops.multiply(x, y)", {"x": U(3, 4), "y": I(3, 4)}),
    OC("floor_divide", "ops.floor_divide(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)}),
    OC("tensor_mod", "ops.tensor_mod(x, y)", {"x": U(6, lo=-9, hi=9), "y": U(6, lo=0.2, hi=3.0)}),
    OC("broadcast_raises", "ops.truncate_div(x, y)", {"x": U(6), "y": P}, check="raises"),
    OC("is_nonzero", "ops.is_nonzero(x)", {"x": C([0.5], "float32")}),
    OC("is_complex", "ops.is_complex(x)", {"x": U(2)}),
    OC("eq", "ops.eq(x, y)", {"x": I(6), "y": I(6)}),
]
