"""Tensor methods (MindSpore 2.10's Tensor method list) called as methods, against MindSpore."""
from . import OC, U, C

X = U(2, 3)
SQ = C([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], "float32")  # symmetric positive definite
P = U(2, 3, lo=0.1, hi=0.9)
A = C([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "float32")
INTS = C([[4, 6, -3], [9, 2, 7]], "int32")


def _unary(names, maker=X, **kw):
    return [OC(f"{n}", f"x.{n}()", {"x": maker}, **kw) for n in names]


HALF_TWO = U(2, 3, lo=0.5, hi=2.0)


def _binary(names, a=X, b=HALF_TWO, **kw):
    return [OC(f"{n}", f"x.{n}(y)", {"x": a, "y": b}, **kw) for n in names]


CASES = (
    _unary("cosh sinh tan expm1 erfc erfinv sinc trunc frac sgn signbit positive deg2rad rad2deg isneginf isposinf "
           "isreal is_complex is_floating_point real imag conj t fliplr flipud msort argwhere nonzero nan_to_num "
           "adjoint".split(), X)
    + _unary(["acos", "asin", "atanh", "arccos", "arcsin", "arctanh", "logit"], U(2, 3, lo=-0.9, hi=0.9))
    + _unary(["acosh", "arccosh"], U(2, 3, lo=1.1, hi=3.0))
    + _unary(["asinh", "atan", "arcsinh", "arctan"], X)
    + _unary(["log2", "log10", "digamma", "lgamma", "i0"], U(2, 3, lo=0.2, hi=3.0), rtol=1e-4)
    + _unary(["det", "matrix_determinant", "log_matrix_determinant", "logdet", "slogdet", "inverse", "cholesky",
              "cholesky_inverse"], SQ, rtol=1e-4, atol=1e-5)
    + _unary(["inv"], U(2, 3, lo=0.5, hi=2.0))
    + _unary(["invert"], INTS)
    + _binary(["atan2", "arctan2", "copysign", "hypot", "float_power", "fmax", "fmod", "logaddexp",
               "logaddexp2", "nextafter", "xdivy", "eq", "ge", "gt", "le", "lt", "greater_equal", "less_equal",
               "not_equal", "multiply", "divide", "subtract", "true_divide", "remainder", "isclose",
               "approximate_equal", "logical_xor", "heaviside", "inner", "type_as", "view_as"])
    + _binary(["xlogy", "igamma", "igammac"], U(2, 3, lo=0.5, hi=2.0), rtol=1e-4)
    + _binary(["gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor"], INTS, C([[6, 4, 9], [3, 8, 14]], "int32"))
    + _binary(["bitwise_left_shift", "bitwise_right_shift"], INTS, C([[1, 2, 0], [3, 1, 2]], "int32"))
    + [
        OC("ldexp", "x.ldexp(n)", {"x": X, "n": C([[1, 2, 0], [3, 1, 2]], "int32")}),
        OC("outer", "x.outer(y)", {"x": U(3), "y": U(4)}),
        OC("ger", "x.ger(y)", {"x": U(3), "y": U(4)}),
        OC("mm", "x.mm(y)", {"x": U(2, 3), "y": U(3, 4)}),
        OC("bmm", "x.bmm(y)", {"x": U(2, 2, 3), "y": U(2, 3, 4)}),
        OC("dot", "x.dot(y)", {"x": U(2, 3), "y": U(3, 4)}),
        OC("dot_1d", "x.dot(y)", {"x": U(2), "y": U(2)}, check="raises"),
        OC("cross", "x.cross(y, 1)", {"x": U(2, 3), "y": U(2, 3)}),
        OC("addmm", "x.addmm(a, b, beta=0.5, alpha=2)", {"x": U(2, 4), "a": U(2, 3), "b": U(3, 4)}),
        OC("addbmm", "x.addbmm(a, b)", {"x": U(2, 4), "a": U(3, 2, 3), "b": U(3, 3, 4)}, rtol=1e-4),
        OC("baddbmm", "x.baddbmm(a, b)", {"x": U(3, 2, 4), "a": U(3, 2, 3), "b": U(3, 3, 4)}, rtol=1e-4),
        OC("addmv", "x.addmv(a, v)", {"x": U(2), "a": U(2, 3), "v": U(3)}),
        OC("addr", "x.addr(a, b)", {"x": U(2, 3), "a": U(2), "b": U(3)}),
        OC("addcmul", "x.addcmul(a, b, 0.5)", {"x": X, "a": X, "b": X}),
        OC("addcdiv", "x.addcdiv(a, b, Tensor(0.5))", {"x": X, "a": X, "b": U(2, 3, lo=0.5, hi=2)}),
        OC("lerp", "x.lerp(y, 0.3)", {"x": X, "y": X}),
        OC("matrix_power", "x.matrix_power(3)", {"x": SQ}, rtol=1e-4),
        OC("cholesky_solve", "x.cholesky_solve(c)", {"x": U(3, 2), "c": C([[2.0, 0, 0], [0.5, 1.5, 0],
                                                                             [0.2, 0.1, 1.0]], "float32")}, rtol=1e-4),
        OC("lstsq", "x.lstsq(a)", {"x": U(4, 2), "a": U(4, 3)}, rtol=1e-3, atol=1e-4),
        OC("svd", "x.svd(compute_uv=False)", {"x": SQ}, rtol=1e-4),
        OC("qr_r", "x.qr()[1].abs()", {"x": SQ}, rtol=1e-4),
        OC("geqrf_shape", "x.geqrf()", {"x": SQ}, check="shape"),
        OC("tril", "x.tril(-1)", {"x": U(3, 3)}), OC("triu", "x.triu(1)", {"x": U(3, 3)}),
        OC("diagflat", "x.diagflat(1)", {"x": U(3)}),
        OC("diag_vec", "x.diag()", {"x": U(3)}), OC("diag_mat", "x.diag()", {"x": U(2, 2)}),
        OC("diag_k", "x.diag(1)", {"x": U(3)}, check="raises"),
        OC("diagonal", "x.diagonal(1)", {"x": U(3, 4)}), OC("diagonal_axes", "x.diagonal(0, 1, 2)", {"x": U(2, 3, 3)}),
        OC("trace", "x.trace()", {"x": U(3, 4)}), OC("trace_off", "x.trace(1)", {"x": A}),
        OC("flip", "x.flip((0, 1))", {"x": X}), OC("flip_list", "x.flip([1])", {"x": X}),
        OC("flip_int", "x.flip(0)", {"x": X}, check="raises"),
        OC("rot90", "x.rot90(1, (0, 1))", {"x": X}),
        OC("moveaxis", "x.moveaxis(0, 2)", {"x": U(2, 3, 4)}), OC("movedim", "x.movedim(2, 0)", {"x": U(2, 3, 4)}),
        OC("swapaxes", "x.swapaxes(0, 2)", {"x": U(2, 3, 4)}), OC("swapdims", "x.swapdims(1, 2)", {"x": U(2, 3, 4)}),
        OC("narrow", "x.narrow(1, 1, 2)", {"x": X}),
        OC("unbind", "x.unbind(1)", {"x": X}),
        OC("tensor_split", "x.tensor_split(2, 1)", {"x": X}), OC("hsplit", "x.hsplit(3)", {"x": X}),
        OC("vsplit", "x.vsplit(2)", {"x": U(4, 2)}), OC("dsplit", "x.dsplit(2)", {"x": U(2, 2, 4)}),
        OC("index_select", "x.index_select(1, i)", {"x": X, "i": C([2, 0], "int32")}),
        OC("masked_select", "x.masked_select(x > 0)", {"x": X}),
        OC("masked_scatter", "x.masked_scatter(x > 0, s)", {"x": A, "s": U(6)}),
        OC("gather_elements", "x.gather_elements(1, i)", {"x": X, "i": C([[0, 2], [1, 1]], "int64")}),
        OC("gather_nd", "x.gather_nd(i)", {"x": X, "i": C([[0, 1], [1, 2]], "int32")}),
        OC("take", "x.take(i)", {"x": X, "i": C([0, 4], "int64")}),
        OC("take_axis", "x.take(i, axis=1)", {"x": X, "i": C([0, 2], "int64")}),
        OC("take_wrap", "x.take(i, mode='wrap')", {"x": X, "i": C([0, 7], "int64")}),
        OC("take_clip", "x.take(i)", {"x": X, "i": C([1, 9], "int64")}),
        OC("select_dim", "x.select(1, -1)", {"x": X}),
        OC("select_cond", "x.select(x > 0, 9.0)", {"x": X}),
        OC("select_scatter", "x.select_scatter(s, 0, 1)", {"x": X, "s": U(3)}),
        OC("slice_scatter", "x.slice_scatter(s, 1, 0, 2)", {"x": X, "s": U(2, 2)}),
        OC("diagonal_scatter", "x.diagonal_scatter(s)", {"x": U(3, 3), "s": U(3)}),
        OC("scatter", "x.scatter(1, i, s)", {"x": X, "i": C([[0], [1]], "int64"), "s": U(2, 1)}),
        OC("scatter_value", "x.scatter(1, i, 5.0)", {"x": X, "i": C([[0], [1]], "int64")}),
        OC("scatter_add_old", "x.scatter_add(i, s)", {"x": X, "i": C([[1], [1]], "int32"), "s": U(2, 3)}),
        OC("scatter_add_rank1", "x.scatter_add(i, s)", {"x": X, "i": C([1], "int32"), "s": U(1, 3)}, check="raises"),
        OC("scatter_sub", "x.scatter_sub(i, s)", {"x": X, "i": C([[1, 2], [0, 0]], "int32"), "s": U(2)}),
        OC("scatter_mul", "x.scatter_mul(i, s)", {"x": X, "i": C([[0]], "int32"), "s": U(1, 3)}),
        OC("scatter_div", "x.scatter_div(i, s)", {"x": X, "i": C([[0]], "int32"), "s": U(1, 3, lo=1, hi=2)}),
        OC("scatter_max", "x.scatter_max(i, s)", {"x": X, "i": C([[1]], "int32"), "s": U(1, 3)}),
        OC("scatter_min", "x.scatter_min(i, s)", {"x": X, "i": C([[1]], "int32"), "s": U(1, 3)}),
        OC("index_add", "x.index_add(i, y, 1)", {"x": X, "i": C([0, 0], "int32"), "y": U(2, 2)}),
        OC("index_add_int64", "x.index_add(1, i, y)", {"x": X, "i": C([0, 0], "int64"), "y": U(2, 2)},
           check="raises"),
        OC("index_fill", "x.index_fill(1, i, 5.0)", {"x": X, "i": C([0, 2], "int32")}),
        OC("index_put", "x.index_put((i, j), v)", {"x": X, "i": C([0, 1], "int32"), "j": C([2, 0], "int32"),
                                                   "v": U(2)}),
        OC("index_put_acc", "x.index_put((i, j), v, True)", {"x": X, "i": C([0, 0], "int32"),
                                                             "j": C([2, 2], "int32"), "v": U(2)}),
        OC("inplace_update", "x.inplace_update(v, (1,))", {"x": X, "v": U(1, 3)}),
        OC("unsorted_segment_max", "x.unsorted_segment_max(s, 2)", {"x": U(3, 2), "s": C([0, 1, 0], "int32")}),
        OC("unsorted_segment_min", "x.unsorted_segment_min(s, 2)", {"x": U(3, 2), "s": C([0, 1, 0], "int32")}),
        OC("unsorted_segment_prod", "x.unsorted_segment_prod(s, 2)", {"x": U(3, 2), "s": C([0, 1, 0], "int32")}),
        OC("bincount", "x.bincount()", {"x": C([1, 2, 2, 5], "int32")}),
        OC("bincount_w", "x.bincount(w, 7)", {"x": C([1, 2, 2, 5], "int32"), "w": U(4)}),
        OC("histc", "x.histc(4, 0, 6)", {"x": A}),
        OC("cummax", "x.cummax(1)", {"x": X}), OC("cummin", "x.cummin(0)", {"x": X}),
        OC("cumprod", "x.cumprod(1)", {"x": X}), OC("logcumsumexp", "x.logcumsumexp(1)", {"x": X}),
        OC("diff", "x.diff()", {"x": X}),
        OC("median", "x.median()", {"x": U(3, 5)}), OC("median_axis", "x.median(0)", {"x": U(5, 3)}),
        OC("median_keep", "x.median(dim=1, keepdim=True)", {"x": U(3, 5)}),
        OC("nanmedian", "x.nanmedian(1)", {"x": C([[1.0, float('nan'), 3.0], [4.0, 2.0, 0.0]], "float32")}),
        OC("nanmean", "x.nanmean(1)", {"x": C([[1.0, float('nan'), 3.0], [4.0, 2.0, 0.0]], "float32")}),
        OC("nansum", "x.nansum()", {"x": C([[1.0, float('nan'), 3.0], [4.0, 2.0, 0.0]], "float32")}),
        OC("nansum_axis", "x.nansum(1)", {"x": C([[1.0, float('nan'), 3.0], [4.0, 2.0, 0.0]], "float32")}),
        OC("count_nonzero", "x.count_nonzero(1)", {"x": A}),
        OC("count_nonzero_kw", "x.count_nonzero(axis=0, keep_dims=True)", {"x": A}),
        OC("unique_consecutive", "x.unique_consecutive(True, True)", {"x": C([1, 1, 2, 2, 3, 1], "int64")}),
        OC("unique_with_pad", "x.unique_with_pad(-1)", {"x": C([3, 1, 3, 2], "int32")}),
        OC("argmax_with_value", "x.argmax_with_value(1)", {"x": X}),
        OC("argmin_with_value", "x.argmin_with_value(0, True)", {"x": X}),
        OC("argmax_with_value_int", "x.argmax_with_value()", {"x": INTS}),
        OC("aminmax", "x.aminmax()", {"x": X}), OC("aminmax_axis", "x.aminmax(axis=1, keepdims=True)", {"x": X}),
        OC("top_k", "x.top_k(2)", {"x": X}),
        OC("renorm", "x.renorm(2, 0, 1.0)", {"x": X}),
        OC("hardshrink", "x.hardshrink(1.0)", {"x": X}), OC("soft_shrink", "x.soft_shrink(0.7)", {"x": X}),
        OC("nan_to_num_inf", "x.nan_to_num(0.0, 9.0, -9.0)",
           {"x": C([1.0, float('nan'), float('inf'), -float('inf')], "float32")}),
        OC("cov", "x.cov()", {"x": U(2, 4)}),
        OC("col2im", "x.col2im(Tensor([4, 5], ms.int32), 2, 1, 1, 2)", {"x": U(2, 3, 4, 9)}),
        OC("fold", "x.fold(Tensor([4, 5], ms.int32), 2, 1, 1, 2)", {"x": U(2, 12, 9)}),
        OC("unfold", "x.unfold(2)", {"x": U(1, 2, 4, 4)}),
        OC("reverse", "x.reverse([0])", {"x": X}),
        OC("reverse_sequence", "x.reverse_sequence(Tensor([2, 3]), 1)", {"x": U(2, 4)}),
        OC("repeat_interleave", "x.repeat_interleave(2)", {"x": X}),
        OC("repeat_interleave_dim", "x.repeat_interleave(2, 1)", {"x": X}),
        OC("repeat_interleave_t", "x.repeat_interleave(Tensor([1, 2]), 0)", {"x": X}),
        OC("mvlgamma", "x.mvlgamma(2)", {"x": U(2, 3, lo=1.0, hi=3.0)}, rtol=1e-4),
        OC("expand", "x.expand(3, 2, 3)", {"x": X}), OC("expand_tuple", "x.expand((2, -1))", {"x": U(1, 3)}),
        OC("expand_tensor", "x.expand(Tensor([2, 3]))", {"x": U(1, 3)}),
        OC("searchsorted", "x.searchsorted(v)", {"x": C([1.0, 2.0, 3.0], "float32"), "v": C([1.5, 3.0], "float32")}),
        OC("searchsorted_right", "x.searchsorted(v, side='right')",
           {"x": C([1.0, 2.0, 3.0], "float32"), "v": C([1.5, 3.0], "float32")}),
        OC("allclose", "x.allclose(x + 1e-9)", {"x": X}, jit=False),
        OC("allclose_no", "x.allclose(x + 1)", {"x": X}, jit=False),
        OC("choose", "x.choose(c)", {"x": C([0, 1, 0], "int64"), "c": C([[1, 2, 3], [4, 5, 6]], "int64")}),
        OC("ptp", "x.ptp()", {"x": X}), OC("ptp_axis", "x.ptp(1, True)", {"x": X}),
        OC("sum_to_size", "x.sum_to_size(1, 3)", {"x": X}), OC("sum_to_size_t", "x.sum_to_size((3,))", {"x": X}),
        OC("reshape_as", "x.reshape_as(y)", {"x": X, "y": U(3, 2)}),
        OC("resize_small", "x.resize(4)", {"x": X}), OC("resize_big", "x.resize(2, 4)", {"x": X}),
        OC("resize_same", "x.resize((3, 2))", {"x": X}),
        OC("new_ones", "x.new_ones((2,))", {"x": X}), OC("new_zeros", "x.new_zeros(2, dtype=ms.int32)", {"x": X}),
        OC("new_empty", "x.new_empty((2, 1)).shape", {"x": X}),
        OC("stride", "x.stride()", {"x": U(2, 3, 4)}, jit=False),
        OC("stride_dim", "x.stride(1)", {"x": U(2, 3, 4)}, jit=False),
        OC("storage_offset", "x.storage_offset()", {"x": X}),
        OC("ndimension", "x.ndimension()", {"x": X}), OC("is_signed", "x.is_signed()", {"x": X}),
        OC("is_signed_int", "x.is_signed()", {"x": INTS}),
        OC("byte", "x.byte()", {"x": C([1.7, 200.2, 3.0], "float32")}), OC("short", "x.short()", {"x": X}),
        OC("value", "x.value()", {"x": X}), OC("data", "x.data", {"x": X}),
        OC("init_none", "x.init is None", {"x": X}), OC("device", "x.device == 'CPU'", {"x": X}),
        OC("mT", "x.mT", {"x": U(2, 3, 4)}), OC("H", "x.H", {"x": X}), OC("mH", "x.mH", {"x": U(2, 3, 4)}),
        OC("from_numpy", "Tensor.from_numpy(np.asarray(x) * 2)", {"x": X}),
        OC("fill_diagonal", "x.fill_diagonal(9.0)", {"x": U(3, 3)}),
        OC("fill_diagonal_wide", "x.fill_diagonal(9.0)", {"x": U(2, 4)}),
        OC("itemset", "(x.itemset(1, 7.0), x)", {"x": X}),
        OC("itemset_tuple", "(x.itemset((1, 2), 7.0), x)", {"x": X}),
        OC("copy_", "x.copy_(y)", {"x": X, "y": U(2, 3)}),
        OC("copy_bcast", "x.copy_(y)", {"x": X, "y": U(3)}),
        OC("add_", "x.add_(y)", {"x": X, "y": U(2, 3)}),
        OC("add_alpha", "x.add_(y, alpha=2)", {"x": X, "y": U(2, 3)}),
        OC("sub_", "x.sub_(y)", {"x": X, "y": U(2, 3)}),
        OC("mul_", "x.mul_(3)", {"x": X}),
        OC("div_", "x.div_(y)", {"x": X, "y": U(2, 3, lo=0.5, hi=2)}),
        OC("exp_", "x.exp_()", {"x": X}),
        OC("remainder_", "x.remainder_(0.7)", {"x": X}),
        OC("multinomial", "x.multinomial(2, False)", {"x": P}, check="shape"),
        OC("random_categorical", "x.random_categorical(3)", {"x": X}, check="shape"),
        OC("log_normal", "x.log_normal()", {"x": X}, check="shape"),
        OC("cauchy", "x.cauchy()", {"x": X}, check="shape"),
    ]
)
