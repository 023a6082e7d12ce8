"""ops.NonMaxSuppressionWithOverlaps against MindSpore 2.10's CPU kernel: threshold ties, score ties, limits, and its
argument errors (NonMaxSuppressionV3 has no CPU kernel there: tests/ops/table_detection.py checks it against a loop)."""
import numpy as np

from . import OC, U, C

OV = C([[1.0, 0.5, 0.2], [0.5, 1.0, 0.6], [0.2, 0.6, 1.0]], "float32")
SC = C([0.9, 0.8, 0.7], "float32")
I32 = "Tensor(np.int32({}))".format
F32 = "Tensor(np.float32({}))".format


def _random_overlaps(n):
    def make(rng):
        a = rng.uniform(0, 1, (n, n))
        a = (a + a.T) / 2
        np.fill_diagonal(a, 1.0)
        return a.astype("float32")
    return make


def _call(k, thr, sthr):
    return f"ops.NonMaxSuppressionWithOverlaps()(ov, sc, {I32(k)}, {F32(thr)}, {F32(sthr)})"


CASES = [
    OC("with_overlaps_equal_threshold", _call(3, 0.5, 0.0), {"ov": OV, "sc": SC}),
    OC("with_overlaps_just_above", _call(3, 0.51, 0.0), {"ov": OV, "sc": SC}),
    OC("with_overlaps_keeps_all", _call(3, 0.61, 0.0), {"ov": OV, "sc": SC}),
    OC("with_overlaps_score_threshold", _call(3, 0.7, 0.8), {"ov": OV, "sc": SC}),
    OC("with_overlaps_score_ties", _call(3, 0.7, 0.0), {"ov": OV, "sc": C([0.7, 0.8, 0.8], "float32")}),
    OC("with_overlaps_limit", _call(1, 0.7, 0.0), {"ov": OV, "sc": SC}),
    OC("with_overlaps_none", _call(0, 0.7, 0.0), {"ov": OV, "sc": SC}),
    OC("with_overlaps_random", _call(6, 0.4, 0.2), {"ov": _random_overlaps(12), "sc": U(12, lo=0.0, hi=1.0)}),
    OC("with_overlaps_float64", "ops.NonMaxSuppressionWithOverlaps()(ov, sc, Tensor(np.int32(3)), "
       "Tensor(np.float64(0.55)), Tensor(np.float64(0.0)))", {"ov": OV, "sc": SC}),
    OC("with_overlaps_negative_limit", _call(-1, 0.7, 0.0), {"ov": OV, "sc": SC}, check="raises"),
    OC("with_overlaps_shape", _call(3, 0.7, 0.0), {"ov": C(np.ones((2, 3)), "float32"), "sc": SC}, check="raises"),
    OC("with_overlaps_python_limit", "ops.NonMaxSuppressionWithOverlaps()(ov, sc, 3, 0.5, 0.0)",
       {"ov": OV, "sc": SC}, check="raises"),
]
