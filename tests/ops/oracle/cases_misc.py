"""Einsum, loss primitives, function transforms and the remaining functional names."""
from . import OC, U, C

LOGP = C([[-0.5, -1.2, -2.0], [-0.1, -3.0, -1.0], [-1.0, -0.7, -0.2]], "float32")
LAB = C([2, 0, 1], "int32")
W3 = C([1.0, 2.0, 0.5], "float32")
P = U(2, 3, lo=0.05, hi=0.95)
T = C([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]], "float32")



# functions handed to the transforms: module-level, so MindSpore can read their source for its graph compiler;
# they use Tensor methods only, so the same definitions run under both libraries
def cube(a):
    return a * a * a


def a_sin_b(a, b):
    return a * b.sin()


def exp2x(a):
    return a.exp() * 2


def mul(a, b):
    return a * b


def sin(a):
    return a.sin()


def exp_sin(a):
    return a.sin().exp()


def dot(a, b):
    return (a * b).sum()


def twice(a):
    return a * 2


HELPERS = {f.__name__: f for f in (cube, a_sin_b, exp2x, mul, sin, exp_sin, dot, twice)}

CASES = [
    OC("bce", "ops.BinaryCrossEntropy()(p, t)", {"p": P, "t": T}),
    OC("bce_none_w", "ops.BinaryCrossEntropy('none')(p, t, w)", {"p": P, "t": T, "w": U(2, 3, lo=0.5, hi=2)}),
    OC("bce_sum", "ops.BinaryCrossEntropy('sum')(p, t)", {"p": P, "t": T}),
    OC("smooth_l1", "ops.SmoothL1Loss()(a, b)", {"a": U(2, 3), "b": U(2, 3)}),
    OC("smooth_l1_sum", "ops.SmoothL1Loss(0.5, 'sum')(a, b)", {"a": U(2, 3), "b": U(2, 3)}),
    OC("nll", "ops.NLLLoss()(x, y, w)", {"x": LOGP, "y": LAB, "w": W3}),
    OC("nll_none", "ops.NLLLoss('none')(x, y, w)", {"x": LOGP, "y": LAB, "w": W3}),
    OC("nll_ignore", "ops.NLLLoss('sum', ignore_index=2)(x, y, w)", {"x": LOGP, "y": LAB, "w": W3}),
    OC("kldiv", "ops.KLDivLoss('sum')(a, b)", {"a": U(2, 3), "b": P}),
    OC("kldiv_mean", "ops.KLDivLoss('mean')(a, b)", {"a": U(2, 3), "b": P}),
    OC("multi_margin", "ops.MultiMarginLoss()(x, y, w)", {"x": U(3, 3), "y": C([2, 0, 1], "int64"), "w": W3}),
    OC("jvp", "ops.jvp(cube, x, v)", {"x": U(3), "v": U(3)}),
    OC("jvp_two", "ops.jvp(a_sin_b, (x, y), (v, w))", {"x": U(3), "y": U(3), "v": U(3),
                                                                         "w": U(3)}),
    OC("jacrev", "ops.jacrev(exp2x)(x)", {"x": U(3)}),
    OC("jacfwd", "ops.jacfwd(mul, (0, 1))(x, y)", {"x": U(2), "y": U(2)}),
    OC("linearize", "(lambda r: (r[0], r[1](v)))(ops.linearize(sin, (x,)))", {"x": U(3),
                                                                                             "v": U(3)}),
    OC("jet", "ops.jet(exp_sin, x, s)",
       {"x": C([[1.0, 2.0], [3.0, 4.0]], "float32"),
        "s": C([[[1.0, 1.0], [1.0, 1.0]], [[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], "float32")},
       rtol=1e-4, atol=1e-5),
    OC("derivative", "ops.derivative(exp_sin, x, 2)", {"x": U(2, 2)}, rtol=1e-4, atol=1e-5),
    OC("vmap", "ops.vmap(dot, (0, None))(x, y)", {"x": U(3, 2), "y": U(2)}),
    OC("vmap_out1", "ops.vmap(twice, 1, 1)(x)", {"x": U(2, 3)}),
    OC("get_grad", "ops.get_grad(ops.grad(dot, (0, 1), return_ids=True)(x, y), 1)",
       {"x": U(3), "y": U(3)}),
    OC("grad_ids", "ops.grad(dot, (0, 1), return_ids=True)(x, y)", {"x": U(3), "y": U(3)}),
    OC("tensor_slice", "ops.tensor_slice(x, (0, 1), (2, 2))", {"x": U(3, 4)}),
    OC("deepcopy", "ops.deepcopy(x)", {"x": U(3)}),
    OC("col2im", "ops.col2im(x, Tensor([4, 5], ms.int32), 2, 1, 1, 2)", {"x": U(2, 3, 4, 9)}),
    OC("fftshift", "ops.fftshift(x)", {"x": U(3, 4)}),
    OC("ifftshift", "ops.ifftshift(x, 1)", {"x": U(3, 5)}),
    OC("fftfreq", "ops.fftfreq(5, 0.1)", {}),
    OC("rfftfreq", "ops.rfftfreq(6)", {}),
    OC("real", "ops.real(x)", {"x": U(3)}),
    OC("imag", "ops.imag(x)", {"x": U(3)}),
    OC("conj", "ops.conj(x)", {"x": U(3)}),
    OC("cond", "ops.cond(x)", {"x": U(2, 3, 3)}, rtol=1e-4),
    OC("cond_fro", "ops.cond(x, 'fro')", {"x": U(3, 3)}, rtol=1e-4),
    OC("cond_1", "ops.cond(x, 1)", {"x": U(3, 3)}, rtol=1e-4),
    OC("cosine_embedding_loss", "ops.cosine_embedding_loss(a, b, y, 0.2)",
       {"a": U(3, 4), "b": U(3, 4), "y": C([1, -1, -1], "int32")}),
    OC("diff_ext", "ops.diff_ext(x)", {"x": U(3, 4)}),
    OC("isnan_ext", "ops.isnan_ext(x)", {"x": C([1.0, float("nan")], "float32")}),
    OC("constexpr", "ops.constexpr(lambda n: tuple(range(n)))(3)", {}),
    # MindSpore CPU has no Einsum kernel (values are checked against NumPy in the op table); its equation
    # checks run before kernel selection
    OC("einsum_operand_count", "ops.einsum('ij,jk->ik', a)", {"a": U(2, 3)}, check="raises"),
    OC("einsum_unknown_output", "ops.einsum('ij->k', a)", {"a": U(2, 3)}, check="raises"),
    OC("einsum_rank", "ops.einsum('ijk->i', a)", {"a": U(2, 3)}, check="raises"),
]
