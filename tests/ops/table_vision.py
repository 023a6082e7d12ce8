"""Op-table cases for issue 10's additions: complex MatrixInverse/MatrixSolve (real float64 parts in, real parts out,
so finite differences check the complex convention dL/dx + i dL/dy; MindSpore 2.10's CPU gradients for the matrix
operand are not that convention's and are not stored) and the image/detection primitives."""
import itertools

import numpy as np

import sprout as ms
from sprout import ops
from optable import CONST, F64, INT, Spec, Case


def z(re, im):
    return ops.Complex()(re, im)


def pairs(w):
    return np.stack([w.real, w.imag], axis=-1)


def CWELL(*batch):
    """Real and imaginary parts of a diagonally dominant complex matrix: the real part carries 3 I."""
    return Spec(lambda rng: rng.uniform(-1, 1, batch + (3, 3)) + 3 * np.eye(3), label=f"well{list(batch)}")


def _herm(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _size(h, w):
    return ms.Tensor(np.array([h, w], np.int32))


def _f32(*v):
    return ms.Tensor(np.array(v, np.float32))


def _triangle(x):
    return max(0.0, 1.0 - abs(x))


def _keys(x):
    x = abs(x)
    return (1.5 * x - 2.5) * x * x + 1 if x < 1 else ((-0.5 * x + 2.5) * x - 4) * x + 2 if x < 2 else 0.0


def _weights(out_n, in_n, scale, shift, kernel, radius, antialias):
    """Row y of the resampling matrix: the kernel centred on (y + 0.5 - shift) / scale over the input pixel
    centres i + 0.5 within the (widened when antialiasing a downscale) radius, normalised."""
    widen = max(1.0 / scale, 1.0) if antialias else 1.0
    m = np.zeros((out_n, in_n))
    for y in range(out_n):
        centre = (y + 0.5 - shift) / scale
        if not 0 <= centre <= in_n:
            continue
        for i in range(in_n):
            if abs(i + 0.5 - centre) <= radius * widen:
                m[y, i] = kernel((i + 0.5 - centre) / widen)
        m[y] /= m[y].sum()
    return m


def _sat_ref(x, size, scale, shift, kernel, radius, antialias=True):
    r = _weights(size[0], x.shape[1], scale[0], shift[0], kernel, radius, antialias)
    c = _weights(size[1], x.shape[2], scale[1], shift[1], kernel, radius, antialias)
    return np.einsum("oh,bhwc,pw->bopc", r, x, c).astype(np.float32)


def _sat_grad_ref(w, x, size, scale, shift, kernel, radius):
    r = _weights(size[0], x.shape[1], scale[0], shift[0], kernel, radius, True)
    c = _weights(size[1], x.shape[2], scale[1], shift[1], kernel, radius, True)
    return np.einsum("oh,bopc,pw->bhwc", r, w, c)


def _sat_grad_fn(x, w):
    return ms.grad(lambda a: (ops.ScaleAndTranslate("keyscubic")(a, _size(3, 4), _f32(0.7, 0.8), _f32(0.2, -0.1))
                              * w).sum())(x)


def _glimpse_ref(x, offsets, size):
    """Uncentered pixel offsets: the window starts at trunc(offset - size / 2); outside the image zeros."""
    out = np.zeros((x.shape[0],) + size + (x.shape[3],), np.float32)
    for b in range(x.shape[0]):
        top, left = (int(np.trunc(np.float32(o) - np.float32(s) / 2)) for o, s in zip(offsets[b], size))
        for i, j in itertools.product(range(size[0]), range(size[1])):
            if 0 <= top + i < x.shape[1] and 0 <= left + j < x.shape[2]:
                out[b, i, j] = x[b, top + i, left + j]
    return out


def _check_glimpse_noise(out, inputs):
    v = out.asnumpy()
    assert v.shape == (1, 4, 4, 2) and v.dtype == np.float32
    inside = v[0, 2:, 2:]  # offsets (0, 0), window 4: rows/columns -2, -1 are outside the image
    np.testing.assert_array_equal(inside, inputs[0][0, :2, :2])
    noise = np.concatenate([v[0, :2].ravel(), v[0, 2:, :2].ravel()])
    assert noise.min() >= -1 and noise.max() < 1 and len(np.unique(noise)) == noise.size


def _hits_ref(t, s):
    rows, cols = [], []
    for i in range(t.shape[0]):
        for k in range(t.shape[1]):
            for j in range(len(s)):
                if s[j] == t[i, k]:
                    rows.append(i)
                    cols.append(j)
    return (np.array(rows, np.int32), np.array(cols, np.int64),
            np.full(len(rows), -np.finfo(np.float32).max, np.float32))


def _sdbb_fn(seed, seed2):
    def fn(n, b, c):
        return ops.SampleDistortedBoundingBoxV2(seed, seed2, (0.9, 1.1), (0.1, 1.0))(n, b, c)

    return fn


def _check_crop(out, inputs):
    """Unseeded: a crop inside the image, begin/size and the normalised box agreeing, covering >= 80% of the box
    (or the whole image when no attempt succeeded)."""
    begin, size, box = (t.asnumpy() for t in out)
    (h, w, _), (y0, x0, y1, x1) = inputs[0], inputs[1][0, 0]
    assert begin[2] == 0 and size[2] == -1 and begin.dtype == size.dtype == np.int32
    assert 0 <= begin[0] and begin[0] + size[0] <= h and 0 <= begin[1] and begin[1] + size[1] <= w
    np.testing.assert_allclose(box[0, 0], [begin[0] / h, begin[1] / w, (begin[0] + size[0]) / h,
                                           (begin[1] + size[1]) / w], rtol=1e-6)
    by0, bx0, by1, bx1 = int(y0 * h), int(x0 * w), int(y1 * h), int(x1 * w)
    iy = max(0, min(by1, begin[0] + size[0]) - max(by0, begin[0]))
    ix = max(0, min(bx1, begin[1] + size[1]) - max(bx0, begin[1]))
    assert iy * ix >= 0.8 * (by1 - by0) * (bx1 - bx0) or (size[0], size[1]) == (h, w)


SDBB_IN = (CONST(np.array([640, 480, 3], np.int32)), CONST(np.array([[[0.38, 0.17, 0.95, 0.40]]], np.float32)),
           CONST(np.array([0.8], np.float32)))

CASES = [
    Case("MatrixInverse", lambda a, b: ops.view_as_real(ops.inverse(z(a, b))), (CWELL(), F64(3, 3, lo=-1, hi=1)),
         lambda a, b: pairs(np.linalg.inv(a + 1j * b)), label="complex"),
    Case("MatrixInverse", lambda a, b: ops.view_as_real(ops.matrix_inverse(z(a, b), True)),
         (CWELL(2), F64(2, 3, 3, lo=-1, hi=1)), lambda a, b: pairs(_herm(np.linalg.inv(a + 1j * b))),
         label="complex-adjoint"),
    Case("MatrixSolve", lambda a, b, c, d: ops.view_as_real(ops.matrix_solve(z(a, b), z(c, d))),
         (CWELL(2), F64(2, 3, 3, lo=-1, hi=1), F64(2, 3, 2), F64(2, 3, 2)),
         lambda a, b, c, d: pairs(np.linalg.solve(a + 1j * b, c + 1j * d)), label="complex"),
    Case("MatrixSolve", lambda a, b, c, d: ops.view_as_real(ops.matrix_solve(z(a, b), z(c, d), True)),
         (CWELL(), F64(3, 3, lo=-1, hi=1), F64(3, 2), F64(3, 2)),
         lambda a, b, c, d: pairs(np.linalg.solve(_herm(a + 1j * b), c + 1j * d)), label="complex-adjoint"),
    Case("ScaleAndTranslate", lambda x: ops.ScaleAndTranslate("triangle")(x, _size(3, 4), _f32(0.6, 0.7),
                                                                        _f32(0.2, -0.3)),
         (F64(2, 5, 6, 3),), lambda x: _sat_ref(x, (3, 4), (0.6, 0.7), (0.2, -0.3), _triangle, 1.0),
         rtol=1e-5, atol=1e-5, fd_eps=1e-2, fd_tol=2e-3, label="triangle-down"),
    Case("ScaleAndTranslate", lambda x: ops.ScaleAndTranslate("keyscubic", False)(x, _size(7, 9), _f32(1.8, 1.7),
                                                                              _f32(-0.4, 0.5)),
         (F64(1, 4, 5, 2),), lambda x: _sat_ref(x, (7, 9), (1.8, 1.7), (-0.4, 0.5), _keys, 2.0, False),
         rtol=1e-5, atol=1e-5, fd_eps=1e-2, fd_tol=2e-3, label="keyscubic-up"),
    Case("ScaleAndTranslate", lambda x: ops.ScaleAndTranslate("triangle")(x, _size(4, 3), _f32(1.1, 0.9),
                                                                        _f32(0.5, 0.0)),
         (INT(1, 5, 4, 2),), lambda x: _sat_ref(x, (4, 3), (1.1, 0.9), (0.5, 0.0), _triangle, 1.0),
         rtol=1e-5, atol=1e-5, label="int32"),
    Case("ScaleAndTranslateGrad", _sat_grad_fn, (F64(2, 5, 6, 3), F64(2, 3, 4, 3)),
         lambda x, w: _sat_grad_ref(w, x, (3, 4), (0.7, 0.8), (0.2, -0.1), _keys, 2.0).astype(np.float64),
         rtol=1e-5, atol=1e-5, grad=(1,), fd_eps=1e-2, fd_tol=2e-3),
    Case("ExtractGlimpse", lambda x, o: ops.ExtractGlimpse(False, False, False, "zero")(x, _size(3, 4), o),
         (F64(2, 5, 6, 2, dtype=np.float32), CONST(np.array([[1.3, 1.7], [-0.4, 4.6]], np.float32))),
         lambda x, o: _glimpse_ref(x, o, (3, 4)), grad=()),
    Case("ExtractGlimpse", lambda x, o: ops.ExtractGlimpse(False, False)(x, _size(4, 4), o),
         (F64(1, 5, 6, 2, dtype=np.float32), CONST(np.array([[0.0, 0.0]], np.float32))), check=_check_glimpse_noise,
         grad=(), label="uniform-noise", why="random noise outside the image: range [-1, 1) and distinct draws"),
    Case("ComputeAccidentalHits", lambda t, s: ops.ComputeAccidentalHits(3)(t, s),
         (INT(4, 3, lo=0, hi=6, dtype=np.int64), INT(7, lo=0, hi=6, dtype=np.int64)), _hits_ref, grad=()),
    Case("ComputeAccidentalHits", lambda t, s: ops.ComputeAccidentalHits(2)(t, s),
         (CONST(np.array([[1, 2], [0, 4], [3, 3]], np.int32)), CONST(np.array([0, 1, 2, 3, 4], np.int32))), _hits_ref,
         grad=(), label="doc-example"),
    # MindSpore 2.10 CPU's values for its documented call (its docs print [133, 1, 0]: the kernel draws the column
    # offset before the row offset, the docs' numbers are the other order)
    Case("SampleDistortedBoundingBoxV2", _sdbb_fn(1, 1), SDBB_IN,
         lambda n, b, c: (np.array([70, 18, 0], np.int32), np.array([502, 457, -1], np.int32),
                          np.array([[[0.109375, 0.0375, 0.89375, 0.98958333]]], np.float32)), grad=(), rtol=1e-6),
    Case("SampleDistortedBoundingBoxV2", _sdbb_fn(0, 0), SDBB_IN, check=_check_crop, grad=(), label="unseeded",
         why="seed = seed2 = 0 draws from the seed stream: the crop's invariants"),
]
