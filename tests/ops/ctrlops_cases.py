"""Programs over the loop, custom and morph primitives, run by tools/ms_oracle_ctrlops.py under MindSpore 2.10 and by
tests/ops/test_ctrlops.py under sprout: ``use(framework)`` binds ``ms`` / ``ops`` (this file imports neither)."""
import numpy as np

ms = ops = None


def use(framework) -> None:
    global ms, ops
    ms, ops = framework, framework.ops


X = np.array([0.5, 1.25, -0.75], np.float32)
Y = np.array([2.0, -1.5, 0.25], np.float32)


# ---- WhileLoop ------------------------------------------------------------------------------------
def w_cond(v):
    return v.sum() < 10


def w_body(v):
    return v * 1.5 + 1


def while_tensor(x):
    return ops.WhileLoop()(w_cond, w_body, x)


def wt_cond(s):
    return s[1] < 4


def wt_body(s):
    return s[0] * s[0] * 0.5 + 0.25, s[1] + 1


def while_tuple(x):
    return ops.WhileLoop()(wt_cond, wt_body, (x, 0))[0]


def while_counter(x):
    return ops.WhileLoop()(wt_cond, wt_body, (x, ms.Tensor(0, ms.int64)))[0]


# ---- ForiLoop -------------------------------------------------------------------------------------
def f_body(i, v):
    return ops.sin(v) * v + i


def fori_unroll(x):
    return ops.ForiLoop()(0, 3, f_body, x)


def fori_loop(x):
    return ops.ForiLoop()(0, 3, f_body, x, unroll=False)


def fori_tensor(x):
    return ops.ForiLoop()(ms.Tensor(1, ms.int64), ms.Tensor(4, ms.int64), f_body, x)


# ---- Scan -----------------------------------------------------------------------------------------
def s_body(c, e):
    c = c * e + ops.sin(c)
    return c, c * 2 - e


def scan_xs(x):
    return ops.Scan()(s_body, x, [x * 0.5, x + 1, x * x])


def scan_loop(x):
    return ops.Scan()(s_body, x, [x * 0.5, x + 1, x * x], None, False)


def sn_body(c, e):
    return c * 0.5 + 1, ops.cos(c)


def scan_none(x):
    return ops.Scan()(sn_body, x, None, 3)


LOOPS = {"while_tensor": while_tensor, "while_tuple": while_tuple, "while_counter": while_counter,
         "fori_unroll": fori_unroll, "fori_loop": fori_loop, "fori_tensor": fori_tensor,
         "scan_xs": scan_xs, "scan_loop": scan_loop, "scan_none": scan_none}


def first(out):
    """The tensor a case's gradient is taken of: the result, or a Scan's final carry."""
    return out[0] if isinstance(out, tuple) else out


def flat(out) -> list:
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flat(o)]
    return [out]


# ---- Custom (pyfunc) and Morph --------------------------------------------------------------------
def np_affine(a, b):
    return a * b + 1


def affine_bprop(a, b, out, dout):
    return dout * b, dout * a


def custom_callables():
    return ops.Custom(np_affine, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc",
                      bprop=affine_bprop)


def np_two(a):
    return a * 2, np.sum(a * a).astype(a.dtype)


def custom_multi():
    return ops.Custom(np_two, out_shape=((3,), ()), out_dtype=(ms.float32, ms.float32), func_type="pyfunc")


def morph_fn(x, y):
    return x * y * 3


def morph_infer(*args):
    return args[0]


def morph_bprop(x, y, out, dout):
    return dout * 7, dout * y


def morph_plain(x, y):
    return ops.Morph(morph_fn, morph_infer, morph_infer)(x, y) * x


def morph_custom(x, y):
    return ops.Morph(morph_fn, morph_infer, morph_infer, morph_bprop)(x, y) * x


def misuse_cases() -> dict:
    """Misuses whose exception type (and, for some, text) the test compares with MindSpore's."""
    x = ms.Tensor(X)

    def ident(v):
        return v

    def no(v):
        return False

    def fori_body(i, v):
        return v + i

    def scan_body(c, e):
        return c + e, c

    def matmul3(v):
        return v @ v @ v

    def npf(a):
        return a

    return {
        "while_cond_not_function": lambda: ops.WhileLoop()(1, ident, x),
        "while_body_not_function": lambda: ops.WhileLoop()(no, ms.nn.ReLU(), x),
        "while_body_fails": lambda: ops.WhileLoop()(w_cond, matmul3, x),
        "fori_lower_float": lambda: ops.ForiLoop()(0.0, 3, fori_body, x),
        "fori_upper_bool": lambda: ops.ForiLoop()(0, True, fori_body, x),
        "fori_body_not_function": lambda: ops.ForiLoop()(0, 3, 5, x),
        "scan_xs_tensor": lambda: ops.Scan()(scan_body, x, x),
        "scan_body_not_function": lambda: ops.Scan()(3, x, [x]),
        "scan_body_one_output": lambda: ops.Scan()(ident, x, [1, 2]),
        "custom_kind_unknown": lambda: ops.Custom(npf, out_shape=(3,), out_dtype=ms.float32, func_type="julia"),
        "custom_no_out_shape": lambda: ops.Custom(npf, func_type="pyfunc")(x),
        "custom_no_bprop_grad": lambda: ms.grad(lambda a: ops.Custom(npf, (3,), ms.float32, "pyfunc")(a).sum())(x),
        "tensordump_bad_mode": lambda: ops.TensorDump("all"),
        "tensordump_file_int": lambda: ops.TensorDump()(3, x),
        "tensordump_file_empty": lambda: ops.TensorDump()("", x),
        "tensordump_not_tensor": lambda: ops.TensorDump()("f", X),
        "morph_pynative": lambda: ops.Morph(morph_fn, morph_infer, morph_infer)(x, x),
        "morph_bprop_varargs": lambda: ops.Morph(morph_infer, morph_infer, morph_infer, morph_bprop),
        "pyfunc_in_types_not_list": lambda: ops.PyFunc(npf, ms.float32, [], [], []),
    }
