"""Complex MatrixInverse/MatrixSolve and the image/detection ops of issue 10 (ScaleAndTranslate, ExtractGlimpse,
SampleDistortedBoundingBoxV2) against MindSpore 2.10's CPU kernels."""
import numpy as np

from . import OC, U, I, C


def CWELL(n, batch=(), dtype="complex64"):
    """A well-conditioned complex matrix (diagonally dominant)."""
    return lambda rng: (rng.uniform(-1, 1, batch + (n, n)) + 1j * rng.uniform(-1, 1, batch + (n, n))
                        + 3 * np.eye(n)).astype(dtype)


def CU(*shape, dtype="complex64"):
    return lambda rng: (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)


CASES = [
    OC("inverse_c64", "ops.inverse(x)", {"x": CWELL(3)}, rtol=1e-5, atol=1e-6),
    OC("inverse_c128_batch", "ops.MatrixInverse()(x)", {"x": CWELL(3, (2,), "complex128")}, rtol=1e-10, atol=1e-12),
    OC("inverse_c64_adjoint", "ops.MatrixInverse(adjoint=True)(x)", {"x": CWELL(2, (2,))}, rtol=1e-5, atol=1e-6),
    OC("matrix_solve_c64", "ops.matrix_solve(a, b)", {"a": CWELL(3), "b": CU(3, 2)}, rtol=1e-4, atol=1e-5),
    OC("matrix_solve_c128_adjoint", "ops.MatrixSolve(adjoint=True)(a, b)",
       {"a": CWELL(3, (2,), "complex128"), "b": CU(2, 3, 2, dtype="complex128")}, rtol=1e-10, atol=1e-12),
    OC("matrix_solve_c64_mixed_raises", "ops.MatrixSolve()(a, b)", {"a": CWELL(2), "b": CU(2, 2, dtype="complex128")},
       check="raises", match="MatrixSolve: rhs"),
    OC("matrix_solve_c64_real_rhs_raises", "ops.matrix_solve(a, b)", {"a": CWELL(2), "b": U(2, 2)},
       check="raises", match="MatrixSolve: rhs"),
    OC("inverse_int_raises", "ops.MatrixInverse()(x)", {"x": I(2, 2)}, check="raises", match="MatrixInverse"),
]


def sat_grad(ms, ops, kernel, size, x, s, t, w):
    """d sum(ScaleAndTranslate(x) * w) / dx (``ms``/``ops``: the framework running the case)."""
    def loss(a):
        return (ops.ScaleAndTranslate(kernel)(a, ms.Tensor(np.array(size, np.int32)), s, t) * w).sum()

    return ms.grad(loss)(x)


def fpe_grad(ms, ops, x):
    """d sum(float_power_ext(x, 2.5)) / dx."""
    def loss(a):
        return ops.float_power_ext(a, 2.5).sum()

    return ms.grad(loss)(x)


HELPERS = {"sat_grad": sat_grad, "fpe_grad": fpe_grad}


def SZ(h, w):
    """An int32 size tensor written into the expression (a constant: the output shape depends on it)."""
    return f"Tensor(np.array([{h}, {w}], np.int32))"


def _sat(kernel, antialias, size, key, img=None, scale=(1.0, 1.0), trans=(0.0, 0.0)):
    return OC(f"sat_{key}", f"ops.ScaleAndTranslate({kernel!r}, {antialias})(x, {SZ(*size)}, s, t)",
              {"x": img or U(2, 5, 6, 3, lo=0, hi=4), "s": C(scale, "float32"), "t": C(trans, "float32")},
              rtol=1e-5, atol=1e-5)


_KERNELS = ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic")
CASES += [_sat(k, True, (3, 4), f"{k}_down", scale=(0.6, 0.7), trans=(0.2, -0.3)) for k in _KERNELS]
CASES += [_sat(k, False, (9, 11), f"{k}_up", scale=(1.8, 1.7), trans=(-0.4, 0.5)) for k in _KERNELS]
CASES += [
    _sat("lanczos3", False, (3, 4), "down_no_antialias", scale=(0.6, 0.7), trans=(0.2, -0.3)),
    _sat("triangle", True, (4, 7), "int32", img=I(1, 5, 6, 2, lo=-9, hi=9), scale=(0.9, 1.3), trans=(0.5, 1.0)),
    _sat("keyscubic", True, (4, 5), "float64", img=U(1, 5, 6, 2, dtype="float64"), scale=(0.9, 0.8)),
    _sat("box", True, (6, 6), "outside", scale=(1.0, 1.0), trans=(3.0, -4.5)),
    OC("sat_doc_example", f"ops.ScaleAndTranslate()(x, {SZ(2, 2)}, s, t)",
       {"x": C([[[[9.0], [5.0], [2.0], [1.0]], [[6.0], [1.0], [9.0], [7.0]]]], "float32"),
        "s": C([1.0, 1.0], "float32"), "t": C([1.0, 1.0], "float32")}),
    OC("sat_grad", "sat_grad(ms, ops, 'triangle', (3, 4), x, s, t, w)",
       {"x": U(2, 4, 5, 3), "s": C([0.8, 1.2], "float32"), "t": C([0.3, -0.2], "float32"), "w": U(2, 3, 4, 3)},
       rtol=1e-5, atol=1e-5),
    OC("sat_grad_lanczos", "sat_grad(ms, ops, 'lanczos3', (2, 3), x, s, t, w)",
       {"x": U(1, 5, 6, 2), "s": C([0.5, 0.6], "float32"), "t": C([0.0, 0.7], "float32"), "w": U(1, 2, 3, 2)},
       rtol=1e-5, atol=1e-5),
    OC("sat_uint8_raises", f"ops.ScaleAndTranslate()(x, {SZ(3, 3)}, s, t)",
       {"x": I(1, 4, 4, 1, dtype="uint8"), "s": C([1.0, 1.0], "float32"), "t": C([0.0, 0.0], "float32")},
       check="raises", match="ScaleAndTranslate: images"),
    OC("sat_scale_zero_raises", f"ops.ScaleAndTranslate()(x, {SZ(3, 3)}, s, t)",
       {"x": U(1, 4, 4, 1), "s": C([0.0, 1.0], "float32"), "t": C([0.0, 0.0], "float32")},
       check="raises", match="ScaleAndTranslate: scale", jit=False),
    OC("sat_size_zero_raises", f"ops.ScaleAndTranslate()(x, {SZ(0, 3)}, s, t)",
       {"x": U(1, 4, 4, 1), "s": C([1.0, 1.0], "float32"), "t": C([0.0, 0.0], "float32")},
       check="raises", match="ScaleAndTranslate: size"),
    OC("sat_rank3_raises", f"ops.ScaleAndTranslate()(x, {SZ(3, 3)}, s, t)",
       {"x": U(4, 4, 1), "s": C([1.0, 1.0], "float32"), "t": C([0.0, 0.0], "float32")},
       check="raises", match="ScaleAndTranslate: images"),
    OC("sat_scale_f64_raises", f"ops.ScaleAndTranslate()(x, {SZ(3, 3)}, s, t)",
       {"x": U(1, 4, 4, 1), "s": C([1.0, 1.0], "float64"), "t": C([0.0, 0.0], "float32")},
       check="raises", match="ScaleAndTranslate: scale"),
    OC("sat_bad_kernel_raises", "ops.ScaleAndTranslate('cubic')", check="raises", match="kernel_type", jit=False),
    OC("sat_antialias_int_raises", "ops.ScaleAndTranslate('box', 1)", check="raises", match="antialias", jit=False),
]


def _glimpse(key, centered, normalized, size, offsets, img=None):
    return OC(f"glimpse_{key}", f"ops.ExtractGlimpse({centered}, {normalized}, False, 'zero')(x, {SZ(*size)}, o)",
              {"x": img or U(2, 5, 6, 2), "o": C(offsets, "float32")})


CASES += [
    _glimpse("pixels", False, False, (3, 3), [[1.3, 1.7], [-0.4, -0.6]]),
    _glimpse("pixels_edges", False, False, (3, 4), [[-0.5, 0.4999], [2.5, 3.5]]),
    _glimpse("pixels_far", False, False, (2, 2), [[100.0, -100.0], [-1.5, 2.5]]),
    _glimpse("centered_normalized", True, True, (3, 2), [[0.1, -0.3], [-0.9, 0.8]]),
    _glimpse("centered_pixels", True, False, (3, 2), [[1.0, -1.0], [-6.0, 7.5]]),
    _glimpse("normalized", False, True, (2, 4), [[0.5, 0.5], [0.05, 0.95]]),
    _glimpse("big_window", True, True, (7, 9), [[0.0, 0.0], [0.3, -0.2]]),
    OC("glimpse_uniform_shape", f"ops.ExtractGlimpse(False, False, True, 'uniform')(x, {SZ(4, 4)}, o)",
       {"x": U(1, 5, 6, 2), "o": C([[-2.0, -2.0]], "float32")}, check="shape"),
    OC("glimpse_f64_raises", f"ops.ExtractGlimpse(False, False, False, 'zero')(x, {SZ(2, 2)}, o)",
       {"x": U(1, 5, 6, 2, dtype="float64"), "o": C([[1.0, 1.0]], "float32")}, check="raises",
       match="ExtractGlimpse: x"),
    OC("glimpse_size_int64_raises", "ops.ExtractGlimpse(False, False, False, 'zero')(x, Tensor(np.array([2, 2])), o)",
       {"x": U(1, 5, 6, 2), "o": C([[1.0, 1.0]], "float32")}, check="raises", match="ExtractGlimpse: size"),
    OC("glimpse_size_zero_raises", f"ops.ExtractGlimpse(False, False, False, 'zero')(x, {SZ(0, 2)}, o)",
       {"x": U(1, 5, 6, 2), "o": C([[1.0, 1.0]], "float32")}, check="raises", match="ExtractGlimpse: size"),
    OC("glimpse_batch_raises", f"ops.ExtractGlimpse(False, False, False, 'zero')(x, {SZ(2, 2)}, o)",
       {"x": U(1, 5, 6, 2), "o": C([[1.0, 1.0], [1.0, 1.0]], "float32")}, check="raises",
       match="ExtractGlimpse: offsets"),
    OC("glimpse_offsets3_raises", f"ops.ExtractGlimpse(False, False, False, 'zero')(x, {SZ(2, 2)}, o)",
       {"x": U(1, 5, 6, 2), "o": C([[1.0, 1.0, 1.0]], "float32")}, check="raises", match="ExtractGlimpse: offsets"),
    OC("glimpse_rank3_raises", f"ops.ExtractGlimpse(False, False, False, 'zero')(x, {SZ(2, 2)}, o)",
       {"x": U(5, 6, 2), "o": C([[1.0, 1.0]], "float32")}, check="raises", match="ExtractGlimpse: x"),
    OC("glimpse_bad_noise_raises", "ops.ExtractGlimpse(False, False, False, 'foo')", check="raises", match="noise",
       jit=False),
    OC("glimpse_zero_with_uniform_raises", "ops.ExtractGlimpse(False, False, True, 'zero')", check="raises",
       match="noise", jit=False),
    OC("glimpse_centered_int_raises", "ops.ExtractGlimpse(1, False, False, 'zero')", check="raises",
       match="centered", jit=False),
]


def _sdbb(key, seed, seed2, size, boxes, cover, dtype="int32", check="close", **kw):
    args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    return OC(f"sdbb_{key}", f"ops.SampleDistortedBoundingBoxV2({seed}, {seed2}{', ' if args else ''}{args})(n, b, c)",
              {"n": C(size, dtype), "b": C(boxes, "float32"), "c": C([cover], "float32")}, check=check)


_BOX_RNG = np.random.default_rng(2024)


def _random_boxes(n):
    a, b = np.sort(_BOX_RNG.uniform(0, 1, (2, n, 2)), axis=0)
    return np.stack([a[:, 0], a[:, 1], b[:, 0] + 1e-3, b[:, 1] + 1e-3], -1).clip(0, 1).round(3)[None].tolist()


CASES += [
    _sdbb("doc_example", 1, 1, [640, 480, 3], [[[0.38, 0.17, 0.95, 0.40]]], 0.8, aspect_ratio_range=(0.9, 1.1),
          area_range=(0.1, 1.0)),
    _sdbb("seed_only", 5, 0, [100, 200, 3], [[[0.1, 0.1, 0.5, 0.6], [0.3, 0.2, 0.9, 0.9]]], 0.3),
    _sdbb("seed2_only", 0, 7, [57, 91, 1], [[[0.0, 0.0, 1.0, 1.0]]], 0.1, aspect_ratio_range=(0.5, 2.0),
          area_range=(0.2, 0.9)),
    _sdbb("uint8", 3, 9, [200, 150, 3], [[[0.2, 0.2, 0.7, 0.8]]], 0.5, dtype="uint8"),
    _sdbb("int64", 11, 2, [1000, 800, 3], [[[0.05, 0.1, 0.3, 0.2]]], 0.9, dtype="int64"),
    _sdbb("int16_tiny", 8, 8, [7, 5, 3], [[[0.0, 0.0, 0.5, 0.5]]], 0.2, dtype="int16"),
    _sdbb("unreachable", 4, 4, [64, 64, 3], [[[0.0, 0.0, 0.02, 0.02]]], 1.0, max_attempts=5),
    _sdbb("no_boxes", 6, 1, [64, 48, 3], np.zeros((1, 0, 4)), 0.1, use_image_if_no_bounding_boxes=True),
    _sdbb("unseeded_shape", 0, 0, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.1, check="shape"),
]
CASES += [_sdbb(f"random_{i}", int(_BOX_RNG.integers(1, 10**6)), int(_BOX_RNG.integers(0, 10**6)),
                [int(_BOX_RNG.integers(20, 900)), int(_BOX_RNG.integers(20, 900)), 3], _random_boxes(3),
                round(float(_BOX_RNG.uniform(0, 1)), 2), aspect_ratio_range=(0.5, 1.6), area_range=(0.1, 0.9))
          for i in range(24)]
CASES += [
    _sdbb("no_boxes_raises", 6, 1, [64, 48, 3], np.zeros((1, 0, 4)), 0.1, check="raises"),
    _sdbb("box_outside_raises", 6, 1, [64, 48, 3], [[[0.1, 0.1, 1.2, 0.9]]], 0.1, check="raises"),
    _sdbb("box_inverted_raises", 6, 1, [64, 48, 3], [[[0.5, 0.1, 0.2, 0.9]]], 0.1, check="raises"),
    _sdbb("cover_raises", 6, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 1.5, check="raises"),
    _sdbb("image_zero_raises", 6, 1, [0, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises"),
    _sdbb("size_float_raises", 6, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, dtype="float32", check="raises"),
    _sdbb("size_two_raises", 6, 1, [64, 48], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises"),
    _sdbb("boxes_2d_raises", 6, 1, [64, 48, 3], [[0.1, 0.1, 0.9, 0.9]], 0.5, check="raises"),
    _sdbb("ratio_order_raises", 1, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises",
          aspect_ratio_range=(1.2, 0.9)),
    _sdbb("area_range_raises", 1, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises",
          area_range=(0.1, 1.5)),
    _sdbb("area_order_raises", 1, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises",
          area_range=(0.5, 0.2)),
    _sdbb("attempts_raises", 1, 1, [64, 48, 3], [[[0.1, 0.1, 0.9, 0.9]]], 0.5, check="raises", max_attempts=0),
    OC("sdbb_cover_two_raises", "ops.SampleDistortedBoundingBoxV2(1, 1)(n, b, c)",
       {"n": C([64, 48, 3], "int32"), "b": C([[[0.1, 0.1, 0.9, 0.9]]], "float32"), "c": C([0.5, 0.2], "float32")},
       check="raises", match="min_object_covered"),
    OC("sdbb_seed_float_raises", "ops.SampleDistortedBoundingBoxV2(1.0, 1)", check="raises", match="seed", jit=False),
    OC("sdbb_ratio_int_raises", "ops.SampleDistortedBoundingBoxV2(1, 1, (1, 2))", check="raises",
       match="aspect_ratio_range", jit=False),
]

# ops.float_power_ext (a composite: Float64 power)
CASES += [
    OC("float_power_ext_scalar", "ops.float_power_ext(x, 2)", {"x": U(3, 4)}, rtol=1e-12, atol=1e-12),
    OC("float_power_ext_tensors", "ops.float_power_ext(x, y)", {"x": U(3, 4, lo=0.1, hi=3), "y": U(4, lo=-2, hi=2)},
       rtol=1e-12, atol=1e-12),
    OC("float_power_ext_int", "ops.float_power_ext(x, y)", {"x": I(5, lo=1, hi=6), "y": C([2, -3, -4, 0, 1], "int32")},
       rtol=1e-12, atol=1e-12),
    OC("float_power_ext_number_base", "ops.float_power_ext(2, x)", {"x": U(4)}, rtol=1e-12, atol=1e-12),
    OC("float_power_ext_negative_base", "ops.float_power_ext(x, 0.5)", {"x": C([-2.0, 4.0], "float32")}),
    OC("float_power_ext_grad", "fpe_grad(ms, ops, x)",
       {"x": U(3, lo=0.5, hi=3)}, rtol=1e-6, jit=False),
    OC("float_power_ext_complex_raises", "ops.float_power_ext(x, 2)", {"x": C([1 + 1j], "complex64")},
       check="raises", match="float_power_ext: input"),
    OC("float_power_ext_numbers_raises", "ops.float_power_ext(2, 3)", check="raises", match="float_power_ext",
       jit=False),
]
