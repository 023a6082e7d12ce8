"""MindSpore 2.10's old functional reduce_max / reduce_min / reduce_mean (primitive instances),
MultinomialWithReplacement, MatrixLogarithm, EditDistance and CombinedNonMaxSuppression against its CPU kernels.
RNNTLoss has no CPU kernel there (tests/ops/table_misc2.py checks it by enumeration and finite differences)."""
import numpy as np

from . import OC, U, I, C

I64 = "Tensor(np.array({}, np.int64))".format
I32 = "Tensor(np.int32({}))".format
F32 = "Tensor(np.float32({}))".format


def _cplx(*shape):
    return lambda rng: (np.eye(shape[-1]) * 2 + 0.3 * (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
                        ).astype("complex64")


def _boxes(b, n, q):
    def make(rng):
        lo = rng.uniform(-0.1, 0.8, (b, n, q, 2))
        return np.concatenate([lo, lo + rng.uniform(0.05, 0.4, (b, n, q, 2))], -1).astype("float32")
    return make


def _edit(normalize, hyp, truth, shape_h, shape_t):
    (hi, hv), (ti, tv) = hyp, truth
    return (f"ops.EditDistance({normalize})({I64(hi)}, Tensor(np.array({hv}, np.float32)), {I64(shape_h)}, "
            f"{I64(ti)}, Tensor(np.array({tv}, np.float32)), {I64(shape_t)})")


# batch (2, 2): entry (0, 0) kitten/sitting-like, (0, 1) empty hypothesis, (1, 0) empty truth, (1, 1) both empty
HYP = ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 0, 0], [1, 0, 1]], [1, 2, 3, 4, 5, 6])
TRUTH = ([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1]], [1, 3, 4, 7, 8])
CNMS = "ops.CombinedNonMaxSuppression({})(b, s, {}, {}, {}, {})"

CASES = [
    OC("reduce_max_all", "ops.reduce_max(x)", {"x": U(3, 4)}),
    OC("reduce_min_axis", "ops.reduce_min(x, 1)", {"x": I(3, 4, lo=-9, hi=9)}),
    OC("reduce_mean_axes", "ops.reduce_mean(x, (0, 2))", {"x": U(2, 3, 4)}),
    OC("reduce_mean_int", "ops.reduce_mean(x, -1)", {"x": I(3, 4, lo=-9, hi=9)}),
    OC("reduce_max_bad_axis", "ops.reduce_max(x, 2)", {"x": U(3, 4)}, check="raises", match="ReduceMax"),
    OC("multinomial_wr", "ops.MultinomialWithReplacement(6, True)(w, Tensor(np.int64(2)), Tensor(np.int64(5)))",
       {"w": U(3, 5, lo=0.1, hi=1.0)}, check="shape"),
    OC("multinomial_wr_global", "ops.MultinomialWithReplacement(3)(w, Tensor(np.int64(0)), Tensor(np.int64(0)))",
       {"w": U(4, lo=0.1, hi=1.0)}, check="shape"),
    OC("multinomial_wr_one_hot", "ops.MultinomialWithReplacement(4, True)(w, Tensor(np.int64(1)), Tensor(np.int64(1)))",
       {"w": C([[0.0, 0.0, 3.0], [1.0, 0.0, 0.0]], "float32")}),
    OC("multinomial_wr_negative", "ops.MultinomialWithReplacement(-1)", check="raises", jit=False),
    OC("matrix_log", "ops.MatrixLogarithm()(x)", {"x": _cplx(3, 3)}, rtol=1e-4, atol=1e-5),
    OC("matrix_log_batch128", "ops.MatrixLogarithm()(x)",
       {"x": lambda rng: _cplx(2, 2, 4, 4)(rng).astype("complex128")}, rtol=1e-9, atol=1e-10),
    OC("matrix_log_real", "ops.MatrixLogarithm()(x)", {"x": U(3, 3)}, check="raises", match="MatrixLogarithm"),
    OC("matrix_log_nonsquare", "ops.MatrixLogarithm()(x)", {"x": lambda rng: _cplx(3, 3)(rng)[:2]}, check="raises",
       match="MatrixLogarithm"),
    OC("edit_distance", _edit(False, HYP, TRUTH, [2, 2, 4], [2, 2, 3])),
    OC("edit_distance_normalized", _edit(True, HYP, TRUTH, [2, 2, 4], [2, 2, 3])),
    OC("edit_distance_doc", "ops.EditDistance(True)(" + I64([[0, 0, 0], [1, 0, 1], [1, 1, 1]]) +
       ", Tensor(np.array([1, 2, 3], np.float32)), " + I64([2, 2, 2]) + ", " + I64([[0, 1, 0], [0, 0, 1], [1, 1, 0],
       [1, 0, 1]]) + ", Tensor(np.array([1, 3, 2, 1], np.float32)), " + I64([2, 2, 2]) + ")"),
    OC("edit_distance_int_values", "ops.EditDistance(False)(" + I64([[0, 0], [0, 1], [1, 0]]) + ", " +
       I64([3, 1, 2]) + ", " + I64([3, 2]) + ", " + I64([[0, 0], [2, 0], [2, 1]]) + ", " + I64([1, 5, 5]) + ", " +
       I64([3, 2]) + ")"),
    OC("edit_distance_bad_normalize", "ops.EditDistance(1)", check="raises", jit=False),
    OC("cnms_shared_boxes", CNMS.format("", I32(3), I32(5), F32(0.4), F32(0.2)),
       {"b": _boxes(2, 8, 1), "s": U(2, 8, 3, lo=0, hi=1)}),
    OC("cnms_class_boxes", CNMS.format("", I32(2), I32(7), F32(0.3), F32(0.1)),
       {"b": _boxes(1, 6, 3), "s": U(1, 6, 3, lo=0, hi=1)}),
    OC("cnms_pad_per_class", CNMS.format("True, False", I32(2), I32(20), F32(0.5), F32(0.3)),
       {"b": _boxes(2, 6, 1), "s": U(2, 6, 2, lo=0, hi=1)}),
    OC("cnms_no_clip", CNMS.format("False, False", I32(4), I32(4), F32(0.6), F32(0.0)),
       {"b": lambda rng: _boxes(1, 5, 1)(rng) * 2 - 0.5, "s": U(1, 5, 2, lo=0, hi=1)}),
    OC("cnms_doc", CNMS.format("", I32(2), I32(1), F32(0.0), F32(0.0)),
       {"b": C([[[[0, 0, 1, 1]], [[0, 0, 1, 1]], [[0, 0, 1, 1]], [[0, 0, 1, 1]], [[0, 0, 1, 1]], [[0, 0, 1, 1]]]],
               "float32"),
        "s": C([[[0.1, 0.2, 0.3], [0.3, 0.5, 0.9], [0.1, 0.3, 0.6], [0.9, 0.5, 0.1], [0.6, 0.3, 0.2],
                 [0.2, 0.9, 0.1]]], "float32")}),
    OC("cnms_bad_iou", CNMS.format("", I32(2), I32(3), F32(1.5), F32(0.0)),
       {"b": _boxes(1, 4, 1), "s": U(1, 4, 2, lo=0, hi=1)}, check="raises", match="iou_threshold", jit=False),
    OC("cnms_float64", CNMS.format("", I32(2), I32(3), F32(0.5), F32(0.0)),
       {"b": lambda rng: _boxes(1, 4, 1)(rng).astype("float64"), "s": U(1, 4, 2, lo=0, hi=1)}, check="raises",
       match="boxes", jit=False),
    OC("cnms_q_mismatch", CNMS.format("", I32(2), I32(3), F32(0.5), F32(0.0)),
       {"b": _boxes(1, 4, 2), "s": U(1, 4, 3, lo=0, hi=1)}, check="raises", match="CombinedNonMaxSuppression",
       jit=False),
]
