"""mindspore.numpy math: elementwise (unary, binary, dtype=), reductions, cumulative ops, products, polynomials,
statistics."""
import numpy as np

from . import Case, U, I, C, B

X = U(3, 4)
Y = U(3, 4)
P = U(3, 4, lo=0.2, hi=3.0)
UNARY = ["absolute", "abs", "fabs", "negative", "positive", "square", "sqrt", "cbrt", "reciprocal", "exp", "exp2",
         "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
         "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg", "radians", "floor", "ceil", "trunc", "rint",
         "sign", "fix"]
POS = {"sqrt", "log", "log2", "log10", "reciprocal", "arccosh"}
UNIT = {"arcsin", "arccos", "arctanh"}
SMOOTH = {"absolute", "abs", "fabs", "negative", "positive", "square", "sqrt", "cbrt", "reciprocal", "exp", "exp2",
          "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
          "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg", "radians"}


def _x(f):
    if f in POS:
        return U(3, 4, lo=1.2, hi=3.0) if f == "arccosh" else P
    if f in UNIT:
        return U(3, 4, lo=-0.9, hi=0.9)
    if f == "log1p":
        return U(3, 4, lo=-0.5, hi=2.0)
    return X


CASES = [Case(f"{f}", f"mnp.{f}(x)", {"x": _x(f)}, grad=f in SMOOTH, rtol=1e-4 if f == "cbrt" else 1e-5)
         for f in UNARY]
LOOSE = {"tanh": 1e-4}  # MindSpore's tanh(5.0) is 1.0000098
CASES += [Case(f"{f}_int", f"mnp.{f}(x)", {"x": I(5, lo=1, hi=6) if f not in UNIT else I(5, lo=0, hi=2)},
               rtol=LOOSE.get(f, 1e-5)) for f in UNARY]
CASES += [Case(f"{f}_bool", f"mnp.{f}(x)", {"x": B(5)}) for f in ["absolute", "negative", "square", "sqrt", "exp",
                                                                 "sign", "floor", "positive"]]
CASES += [Case(f"{f}_dtype", f"mnp.{f}(x, dtype=mnp.float16)", {"x": P}, rtol=1e-2, atol=1e-3)
          for f in ["sqrt", "exp", "square", "absolute"]]
BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "maximum", "minimum",
          "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "heaviside", "fmod", "mod", "remainder",
          "floor_divide"]
BSMOOTH = {"add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "maximum", "minimum",
           "arctan2", "hypot", "logaddexp", "logaddexp2"}
CASES += [Case(f"{f}", f"mnp.{f}(x, y)", {"x": P if "power" in f else X, "y": P if f in (
    "fmod", "mod", "remainder", "floor_divide", "divide", "true_divide") else Y}, grad=f in BSMOOTH) for f in BINARY]
CASES += [Case(f"{f}_bcast", f"mnp.{f}(x, y)", {"x": U(3, 1), "y": U(4, lo=0.5, hi=2.0)}, grad=f in BSMOOTH)
          for f in ["add", "multiply", "divide", "maximum", "arctan2"]]
CASES += [Case(f"{f}_scalar", f"mnp.{f}(x, 2)", {"x": P}) for f in ["add", "subtract", "divide",
                                                                     "power", "maximum", "fmod", "remainder"]]
CASES += [Case("multiply_scalar", "mnp.multiply(x, 2)", {"x": P}, numpy="x * np.float32(2)",
               note="MindSpore 2.10 refuses a Python number in multiply (TypeError) though add takes one"),
          Case("multiply_list", "mnp.multiply([1, 2, 3], [4, 5, 6])", numpy="np.array([4, 10, 18], np.int32)")]
CASES += [Case(f"{f}_rscalar", f"mnp.{f}(3, x)", {"x": P}) for f in ["subtract", "divide", "power", "remainder"]]
CASES += [Case(f"{f}_int", f"mnp.{f}(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)})
          for f in ["add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "maximum",
                    "fmod", "mod", "remainder", "floor_divide", "gcd", "lcm", "bitwise_and", "bitwise_or",
                    "bitwise_xor", "heaviside", "copysign", "hypot", "arctan2"]]
CASES += [Case(f"{f}_list", f"mnp.{f}([1, 2, 3], [4, 5, 6])") for f in ["add", "divide", "power"]]
CASES += [Case(f"{f}_mixed", f"mnp.{f}(x, y)", {"x": I(6, lo=-9, hi=9), "y": U(6, lo=0.5, hi=2.0)})
          for f in ["add", "multiply", "divide", "maximum", "fmod", "floor_divide"]]
CASES += [Case(f"{f}_dtype", f"mnp.{f}(x, y, dtype=mnp.float64)", {"x": X, "y": P})
          for f in ["add", "multiply", "divide"]]
CASES += [
    Case("divmod", "mnp.divmod(x, y)", {"x": U(6, lo=-5, hi=5), "y": U(6, lo=0.5, hi=2.0)}),
    Case("divmod_int", "mnp.divmod(x, y)", {"x": I(6, lo=-9, hi=9), "y": I(6, lo=1, hi=4)}),
    Case("invert", "mnp.invert(x)", {"x": I(6, lo=-9, hi=9)}),
    Case("bitwise_not", "mnp.bitwise_not(x)", {"x": I(6, lo=0, hi=9, dtype="uint8")}),
    Case("bitwise_not_bool", "mnp.invert(x)", {"x": B(5)}),
    Case("clip", "mnp.clip(x, -0.5, 0.5)", {"x": X}, grad=True),
    Case("clip_none", "mnp.clip(x, None, 0.5)", {"x": X}),
    Case("clip_tensor", "mnp.clip(x, a, b)", {"x": X, "a": U(4, lo=-1, hi=0), "b": U(4, lo=0, hi=1)}),
    Case("clip_int", "mnp.clip(x, 1, 3)", {"x": I(6, lo=-9, hi=9)}),
    Case("clip_both_none_raises", "mnp.clip(x, None, None)", {"x": X}, check="raises"),
    Case("around", "mnp.around(x, 1)", {"x": X}),
    Case("round", "mnp.round(x)", {"x": X}),
    Case("round_dec", "mnp.round(x, 2)", {"x": X}),
    Case("round_neg_dec", "mnp.around(x, -1)", {"x": U(5, lo=-100, hi=100)}, rtol=1e-5, atol=1e-4),
    Case("signbit", "mnp.signbit(x)", {"x": X}),
    Case("signbit_int", "mnp.signbit(x)", {"x": I(6, lo=-3, hi=3)}),
    Case("sum", "mnp.sum(x)", {"x": X}, grad=True),
    Case("sum_axis", "mnp.sum(x, axis=1)", {"x": X}, grad=True),
    Case("sum_axes_keep", "mnp.sum(x, axis=(0, 2), keepdims=True)", {"x": U(2, 3, 4)}, grad=True),
    Case("sum_initial", "mnp.sum(x, 0, initial=2.0)", {"x": X}),
    Case("sum_int", "mnp.sum(x)", {"x": I(3, 4)}),
    Case("sum_bool", "mnp.sum(x)", {"x": B(3, 4)}),
    Case("sum_dtype", "mnp.sum(x, dtype=mnp.float64)", {"x": I(3, 4)}),
    Case("sum_int8", "mnp.sum(x, 0)", {"x": I(3, 4, dtype="int8")}),
    Case("mean", "mnp.mean(x)", {"x": X}, grad=True),
    Case("mean_axis", "mnp.mean(x, 0, keepdims=True)", {"x": X}, grad=True),
    Case("mean_int", "mnp.mean(x)", {"x": I(3, 4)}),
    Case("mean_dtype", "mnp.mean(x, 1, dtype=mnp.float16)", {"x": X}, rtol=1e-2, atol=1e-2),
    Case("amax", "mnp.amax(x)", {"x": X}, grad=True),
    Case("amax_axis", "mnp.amax(x, 1, keepdims=True)", {"x": X}, grad=True),
    Case("amax_initial", "mnp.amax(x, 0, initial=1.0)", {"x": X}),
    Case("amax_where", "mnp.amax(x, 0, initial=-5.0, where=w)", {"x": X, "w": C([True, False, True, True])}),
    Case("amin", "mnp.amin(x, axis=0)", {"x": X}, grad=True),
    Case("max", "mnp.max(x, axis=1)", {"x": X}),
    Case("min", "mnp.min(x)", {"x": X}),
    Case("max_int", "mnp.max(x, 0)", {"x": I(3, 4)}),
    Case("ptp", "mnp.ptp(x)", {"x": X}),
    Case("ptp_axis", "mnp.ptp(x, 1, keepdims=True)", {"x": X}),
    Case("argmax", "mnp.argmax(x)", {"x": X}),
    Case("argmax_axis", "mnp.argmax(x, 1)", {"x": X}),
    Case("argmin_axis", "mnp.argmin(x, axis=0)", {"x": X}),
    Case("argmin_int", "mnp.argmin(x)", {"x": I(3, 4)}),
    Case("std", "mnp.std(x)", {"x": X}, grad=True),
    Case("std_axis_ddof", "mnp.std(x, 1, ddof=1, keepdims=True)", {"x": X}, grad=True),
    Case("var", "mnp.var(x, 0)", {"x": X}, grad=True),
    Case("var_int", "mnp.var(x)", {"x": I(3, 4)}),
    Case("average", "mnp.average(x)", {"x": X}, grad=True),
    Case("average_axis_w", "mnp.average(x, 1, w)", {"x": X, "w": U(4, lo=0.1, hi=1.0)}, grad=True),
    Case("average_returned", "mnp.average(x, 0, w, returned=True)", {"x": X, "w": U(3, 4, lo=0.1, hi=1.0)}),
    Case("nansum", "mnp.nansum(x)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nansum_axis", "mnp.nansum(x, 0, keepdims=True)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nanmean", "mnp.nanmean(x, 1)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nanmax", "mnp.nanmax(x)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nanmin", "mnp.nanmin(x, 1)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nanvar", "mnp.nanvar(x, 0)", {"x": C([[1.0, np.nan], [2.0, 3.0], [5.0, 1.0]], "float32")}),
    Case("nanstd", "mnp.nanstd(x)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("nancumsum", "mnp.nancumsum(x, 1)", {"x": C([[1.0, np.nan], [2.0, 3.0]], "float32")}),
    Case("cumsum", "mnp.cumsum(x)", {"x": X}, grad=True),
    Case("cumsum_axis", "mnp.cumsum(x, 1)", {"x": X}, grad=True),
    Case("cumsum_int", "mnp.cumsum(x, 0)", {"x": I(3, 4)}),
    Case("cumsum_bool", "mnp.cumsum(x)", {"x": B(5)}),
    Case("cumsum_dtype", "mnp.cumsum(x, 0, mnp.float32)", {"x": I(3, 4)}),
    Case("cumprod", "mnp.cumprod(x, 1)", {"x": P}, grad=True),
    Case("cumprod_flat", "mnp.cumprod(x)", {"x": P}),
    Case("cumprod_int", "mnp.cumprod(x)", {"x": I(5, lo=1, hi=4)}),
    Case("count_nonzero", "mnp.count_nonzero(x)", {"x": I(3, 4)}),
    Case("count_nonzero_axis", "mnp.count_nonzero(x, 1, keepdims=True)", {"x": I(3, 4)}),
    Case("matmul", "mnp.matmul(x, y)", {"x": U(3, 4), "y": U(4, 2)}, grad=True),
    Case("matmul_batch", "mnp.matmul(x, y)", {"x": U(2, 3, 4), "y": U(4, 5)}, grad=True),
    Case("matmul_1d", "mnp.matmul(x, y)", {"x": U(4), "y": U(4, 3)}, grad=True),
    Case("matmul_vec", "mnp.matmul(x, y)", {"x": U(4), "y": U(4)}),
    Case("matmul_int", "mnp.matmul(x, y)", {"x": I(2, 3), "y": I(3, 2)}),
    Case("dot", "mnp.dot(x, y)", {"x": U(3, 4), "y": U(4, 2)}, grad=True),
    Case("dot_1d", "mnp.dot(x, y)", {"x": U(4), "y": U(4)}, grad=True),
    Case("dot_nd", "mnp.dot(x, y)", {"x": U(2, 3, 4), "y": U(5, 4, 2)}, grad=True),
    Case("dot_scalar", "mnp.dot(x, 2.0)", {"x": U(3)}),
    Case("inner", "mnp.inner(x, y)", {"x": U(3, 4), "y": U(2, 4)}, grad=True),
    Case("outer", "mnp.outer(x, y)", {"x": U(3), "y": U(2, 2)}, grad=True),
    Case("tensordot", "mnp.tensordot(x, y)", {"x": U(2, 3, 4), "y": U(3, 4, 5)}, grad=True),
    Case("tensordot_axes", "mnp.tensordot(x, y, axes=([0, 2], [2, 0]))", {"x": U(2, 3, 4), "y": U(4, 5, 2)},
         grad=True),
    Case("tensordot_1", "mnp.tensordot(x, y, 1)", {"x": U(2, 3), "y": U(3, 4)}),
    Case("kron", "mnp.kron(x, y)", {"x": U(2, 3), "y": U(2, 2)}, grad=True),
    Case("kron_1d", "mnp.kron(x, y)", {"x": U(3), "y": U(2, 2)}),
    Case("cross", "mnp.cross(x, y)", {"x": U(4, 3), "y": U(4, 3)}, grad=True),
    Case("cross_2", "mnp.cross(x, y)", {"x": U(4, 2), "y": U(4, 2)}),
    Case("cross_axis", "mnp.cross(x, y, axis=0)", {"x": U(3, 4), "y": U(3, 4)}),
    Case("cross_23", "mnp.cross(x, y)", {"x": U(4, 2), "y": U(4, 3)}),
    Case("multi_dot", "mnp.multi_dot([a, b, c])", {"a": U(2, 3), "b": U(3, 4), "c": U(4, 2)}, grad=True),
    Case("multi_dot_vec", "mnp.multi_dot([a, b, c])", {"a": U(3), "b": U(3, 4), "c": U(4)}),
    Case("matrix_power", "mnp.matrix_power(x, 3)", {"x": U(3, 3, lo=-1, hi=1)}, grad=True),
    Case("matrix_power_0", "mnp.matrix_power(x, 0)", {"x": U(2, 3, 3)}),
    Case("matrix_power_neg_raises", "mnp.matrix_power(x, -1)", {"x": U(3, 3)}, check="raises"),
    Case("norm_fro", "mnp.norm(x)", {"x": X}, grad=True),
    Case("norm_vec", "mnp.norm(x)", {"x": U(5)}, grad=True),
    Case("norm_vec_ord1", "mnp.norm(x, 1)", {"x": U(5)}),
    Case("norm_vec_inf", "mnp.norm(x, np.inf)", {"x": U(5)}),
    Case("norm_vec_ord3", "mnp.norm(x, 3)", {"x": U(5)}),
    Case("norm_axis", "mnp.norm(x, axis=1, keepdims=True)", {"x": X}, grad=True),
    Case("norm_mat_1", "mnp.norm(x, 1)", {"x": X}),
    Case("norm_mat_inf", "mnp.norm(x, np.inf)", {"x": X}),
    Case("norm_mat_fro", "mnp.norm(x, 'fro', (0, 1))", {"x": U(2, 3, 4)}),
    Case("norm_mat_nuc", "mnp.norm(x, 'nuc')", {"x": X}, rtol=1e-4, numpy="np.float32(np.linalg.norm(x, 'nuc'))",
         note="MindSpore 2.10: NotImplementedError"),
    Case("norm_mat_2", "mnp.norm(x, 2)", {"x": X}, rtol=1e-4, numpy="np.float32(np.linalg.norm(x, 2))"),
    Case("diff", "mnp.diff(x)", {"x": X}, grad=True),
    Case("diff_n2_axis0", "mnp.diff(x, 2, axis=0)", {"x": U(4, 3)}),
    Case("diff_prepend", "mnp.diff(x, prepend=0.0, append=y)", {"x": U(5), "y": U(2)}),
    Case("ediff1d", "mnp.ediff1d(x)", {"x": X}),
    Case("ediff1d_ends", "mnp.ediff1d(x, to_end=[1.0, 2.0], to_begin=-1.0)", {"x": U(4)}),
    Case("gradient", "mnp.gradient(x)", {"x": U(6)}),
    Case("gradient_2d", "mnp.gradient(x)", {"x": U(4, 5)}),
    Case("gradient_spacing", "mnp.gradient(x, 2.0)", {"x": U(6)}),
    Case("gradient_axis", "mnp.gradient(x, axis=1)", {"x": U(4, 5)}),
    Case("convolve", "mnp.convolve(a, v)", {"a": U(6), "v": U(3)}),
    Case("convolve_same", "mnp.convolve(a, v, 'same')", {"a": U(6), "v": U(3)}),
    Case("convolve_valid", "mnp.convolve(a, v, 'valid')", {"a": U(6), "v": U(3)}),
    Case("correlate", "mnp.correlate(a, v)", {"a": U(6), "v": U(3)}),
    Case("correlate_full", "mnp.correlate(a, v, 'full')", {"a": U(6), "v": U(3)}),
    Case("cov", "mnp.cov(x)", {"x": X}, rtol=1e-4),
    Case("cov_rowvar", "mnp.cov(x, rowvar=False, bias=True)", {"x": X}, rtol=1e-4),
    Case("cov_y_ddof", "mnp.cov(x, y, ddof=0)", {"x": U(5), "y": U(5)}, rtol=1e-4),
    Case("cov_weights", "mnp.cov(x, fweights=f, aweights=a)", {"x": U(2, 5), "f": C([1, 2, 1, 3, 1], "int32"),
                                                                 "a": U(5, lo=0.2, hi=1.0)}, rtol=1e-4,
         numpy="np.cov(x, fweights=f, aweights=a).astype(np.float32)",
         note="MindSpore 2.10 refuses Int32 fweights (TypeError: weights must be integer)"),
    Case("corrcoef", "mnp.corrcoef(x)", {"x": X}, rtol=1e-4),
    Case("corrcoef_y", "mnp.corrcoef(x, y)", {"x": U(5), "y": U(5)}, rtol=1e-4),
    Case("polyadd", "mnp.polyadd(a, b)", {"a": U(3), "b": U(5)}),
    Case("polysub", "mnp.polysub(a, b)", {"a": U(4), "b": U(2)}),
    Case("polymul", "mnp.polymul(a, b)", {"a": U(3), "b": U(4)}),
    Case("polyval", "mnp.polyval(p, x)", {"p": U(4), "x": U(5)}, grad=True),
    Case("polyval_list", "mnp.polyval([3, 0, 1], 5)"),
    Case("polyder", "mnp.polyder(p)", {"p": U(5)}),
    Case("polyder_m2", "mnp.polyder(p, 2)", {"p": U(5)}),
    Case("polyint", "mnp.polyint(p)", {"p": U(4)}),
    Case("polyint_m2_k", "mnp.polyint(p, 2, k=[1.0, 2.0])", {"p": U(4)}),
    Case("interp", "mnp.interp(x, xp, fp)", {"x": C([0.0, 0.5, 1.2, 2.5, 3.5], "float32"),
                                             "xp": C([0.0, 1.0, 2.0, 3.0], "float32"), "fp": U(4)}),
    Case("interp_lr", "mnp.interp(x, xp, fp, left=-1.0, right=9.0)",
         {"x": C([-1.0, 0.5, 4.0], "float32"), "xp": C([0.0, 1.0, 2.0], "float32"), "fp": U(3)}),
    Case("trapz", "mnp.trapz(y)", {"y": X}),
    Case("trapz_x", "mnp.trapz(y, x, axis=0)", {"y": U(4, 3), "x": C([0.0, 0.5, 1.5, 3.0], "float32")}),
    Case("trapz_dx", "mnp.trapz(y, dx=0.5)", {"y": U(6)}),
    Case("unwrap", "mnp.unwrap(p)", {"p": C([0.0, 3.0, 6.5, 0.2, -3.5], "float32")}),
    Case("unwrap_axis", "mnp.unwrap(p, axis=0)", {"p": U(4, 3, lo=-6, hi=6)}),
    Case("lcm", "mnp.lcm(x, y)", {"x": I(6, lo=1, hi=20), "y": I(6, lo=1, hi=30)}),
    Case("gcd", "mnp.gcd(x, y)", {"x": I(6, lo=-20, hi=20), "y": I(6, lo=1, hi=30)}),
    Case("bincount", "mnp.bincount(x)", {"x": I(8, lo=0, hi=5)}, jit=False),
    Case("bincount_w_min", "mnp.bincount(x, w, minlength=7)", {"x": I(8, lo=0, hi=5), "w": U(8)}, jit=False),
    Case("bincount_length", "mnp.bincount(x, length=6)", {"x": I(8, lo=0, hi=5)}),
    Case("histogram", "mnp.histogram(x)", {"x": U(20)}, jit=False),
    Case("histogram_bins", "mnp.histogram(x, bins=4, range=(-1.0, 1.0), density=True)", {"x": U(20)}),
    Case("histogram_edges", "mnp.histogram(x, bins=[-2.0, -0.5, 0.0, 2.0], weights=w)", {"x": U(20), "w": U(20)}),
    Case("histogram_bin_edges", "mnp.histogram_bin_edges(x, 5)", {"x": U(20)}, jit=False),
    Case("histogram2d", "mnp.histogram2d(x, y, bins=3)", {"x": U(20), "y": U(20)}, jit=False),
    Case("histogramdd", "mnp.histogramdd(s, bins=(2, 3))", {"s": U(20, 2)}, jit=False),
    Case("digitize", "mnp.digitize(x, b)", {"x": U(8), "b": C([-1.0, 0.0, 1.0], "float32")}),
    Case("digitize_right", "mnp.digitize(x, b, right=True)", {"x": C([-1.0, 0.0, 0.5, 1.0], "float32"),
                                                              "b": C([-1.0, 0.0, 1.0], "float32")}),
    Case("digitize_desc", "mnp.digitize(x, b)", {"x": U(8), "b": C([1.0, 0.0, -1.0], "float32")}),
    Case("searchsorted", "mnp.searchsorted(a, v)", {"a": C([1.0, 2.0, 3.0, 4.0], "float32"), "v": U(5, lo=0, hi=5)}),
    Case("searchsorted_right", "mnp.searchsorted(a, v, 'right')", {"a": C([1, 2, 2, 3], "int32"),
                                                                   "v": C([2, 0, 3], "int32")}),
    Case("searchsorted_sorter", "mnp.searchsorted(a, v, sorter=s)", {"a": C([3.0, 1.0, 2.0], "float32"),
                                                                     "v": C([2.5, 0.0], "float32"),
                                                                     "s": C([1, 2, 0], "int32")}),
    Case("sum_bad_axis_raises", "mnp.sum(x, 2)", {"x": X}, check="raises"),
    Case("sum_float_axis_raises", "mnp.sum(x, 1.0)", {"x": X}, check="raises"),
    Case("matmul_mismatch_raises", "mnp.matmul(x, y)", {"x": U(3, 4), "y": U(3, 4)}, check="raises"),
    Case("cumsum_axis_raises", "mnp.cumsum(x, 5)", {"x": X}, check="raises"),
    Case("dot_mismatch_raises", "mnp.dot(x, y)", {"x": U(3), "y": U(4)}, check="raises"),
    Case("add_str_raises", "mnp.add(x, 'a')", {"x": X}, check="raises"),
    Case("std_bad_axis_raises", "mnp.std(x, 3)", {"x": X}, check="raises"),
]
