"""CompareAndBitpack, DataFormatDimMap, DataFormatVecPermute, NoRepeatNGram and RaggedRange against MindSpore 2.10's
CPU kernels (sprout: ops/classes_extra4.py, ops/misc_kernels2.py), with their argument errors."""
import numpy as np

from . import OC, U, I, C

AXES = C(np.array([-4, -3, -2, -1, 0, 1, 2, 3]), "int32")


def _seq(rng):
    return rng.integers(0, 4, (2, 3, 9)).astype("int32")


CASES = [
    OC("bitpack_float", "ops.CompareAndBitpack()(x, Tensor(np.float32(0.5)))", {"x": U(3, 2, 16, lo=0, hi=1)}),
    OC("bitpack_int", "ops.CompareAndBitpack()(x, Tensor(np.int32(2)))", {"x": I(4, 8, lo=0, hi=5)}),
    OC("bitpack_bool", "ops.CompareAndBitpack()(x, Tensor(np.bool_(False)))",
       {"x": lambda rng: rng.random((2, 8)) < 0.5}),
    OC("bitpack_float64", "ops.CompareAndBitpack()(x, Tensor(np.float64(0.0)))", {"x": U(8, dtype="float64")}),
    OC("bitpack_not_8", "ops.CompareAndBitpack()(x, Tensor(np.float32(0.5)))", {"x": U(2, 7)}, check="raises",
       match="CompareAndBitpack"),
    OC("bitpack_rank1_threshold", "ops.CompareAndBitpack()(x, t)", {"x": U(2, 8), "t": U(1)}, check="raises",
       match="threshold"),
    OC("bitpack_dtypes", "ops.CompareAndBitpack()(x, Tensor(np.int32(0)))", {"x": U(2, 8)}, check="raises",
       match="CompareAndBitpack"),
    OC("dim_map", "ops.DataFormatDimMap()(x)", {"x": AXES}),
    OC("dim_map_reverse", "ops.DataFormatDimMap('NCHW', 'NHWC')(x)", {"x": lambda rng: AXES(rng).astype("int64")}),
    OC("dim_map_same", "ops.DataFormatDimMap('NHWC', 'NHWC')(x)", {"x": C([[1, -1], [2, 0]], "int32")}),
    OC("dim_map_bad_format", "ops.DataFormatDimMap('NHWC', 'NCDHW')", check="raises", jit=False),
    OC("vec_permute", "ops.DataFormatVecPermute()(x)", {"x": C([1, 2, 3, 4], "int32")}),
    OC("vec_permute_reverse", "ops.DataFormatVecPermute('NCHW', 'NHWC')(x)", {"x": C([1, 2, 3, 4], "int64")}),
    OC("vec_permute_pairs", "ops.DataFormatVecPermute()(x)", {"x": C([[1, 2], [3, 4], [5, 6], [7, 8]], "int64")}),
    OC("vec_permute_len3", "ops.DataFormatVecPermute()(x)", {"x": C([1, 2, 3], "int32")}, check="raises",
       match="DataFormatVecPermute"),
    OC("vec_permute_float", "ops.DataFormatVecPermute()(x)", {"x": C([1, 2, 3, 4], "float32")}, check="raises",
       match="DataFormatVecPermute"),
    *[OC(f"no_repeat_ngram_{n}", f"ops.NoRepeatNGram({n})(s, p)", {"s": _seq, "p": U(2, 3, 5)}) for n in (1, 2, 3, 4)],
    OC("no_repeat_ngram_doc", "ops.NoRepeatNGram(3)(s, p)",
       {"s": C([[[1, 2, 1, 2, 5, 1, 2], [3, 3, 3, 3, 3, 3, 3]]], "int32"), "p": U(1, 2, 7)}),
    OC("no_repeat_ngram_bad_size", "ops.NoRepeatNGram(0)", check="raises", jit=False),
    OC("ragged_range", "ops.RaggedRange(ms.int64)(a, b, c)",
       {"a": C([0, 5, 8, 3], "int32"), "b": C([3, 5, 12, 0], "int32"), "c": C([1, 1, 2, -1], "int32")}, jit=False),
    OC("ragged_range_float", "ops.RaggedRange(ms.int32)(a, b, c)",
       {"a": C([0.0, 1.0], "float32"), "b": C([1.0, 2.0], "float32"), "c": C([0.3, 0.5], "float32")}, jit=False),
    OC("ragged_range_int64", "ops.RaggedRange(ms.int32)(a, b, c)",
       {"a": C([-3, 7], "int64"), "b": C([4, -2], "int64"), "c": C([3, -4], "int64")}, jit=False),
    OC("ragged_range_shapes", "ops.RaggedRange(ms.int32)(a, b, c)",
       {"a": C([0], "int32"), "b": C([3, 4], "int32"), "c": C([1], "int32")}, check="raises", match="RaggedRange"),
    OC("confusion_bad_classes", "ops.ConfusionMatrix(4.0)", check="raises", jit=False),
    OC("confusion_bad_dtype", "ops.ConfusionMatrix(4, ms.int32)", check="raises", jit=False),
    OC("confusion_rank2", "ops.ConfusionMatrix(4)(a, b)", {"a": C([[0, 1]], "int32"), "b": C([[0, 1]], "int32")},
       check="raises", match="ConfusionMatrix"),
    OC("confusion_shapes", "ops.ConfusionMatrix(4)(a, b)", {"a": C([0, 1], "int32"), "b": C([0, 1, 2], "int32")},
       check="raises", match="ConfusionMatrix"),
]
