"""The remaining functional names: in-place spellings, MindSpore's ``*_ext`` aliases, the complex helpers (from
complex_ops), FFT sample frequencies and shifts, condition numbers, rotary embeddings, tensor dumps."""
from __future__ import annotations


import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .composite import _float_input
from .functional import _as_tensor
from .complex_ops import angle, conj, imag, polar, real, view_as_real  # noqa: F401  (re-exported)

__all__ = ["tensor_slice", "stop_gradient_", "tanh_", "clamp_", "inplace_sigmoid", "deepcopy", "isnan_ext",
           "diff_ext", "baddbmm_ext", "mse_loss_ext", "adaptive_avg_pool2d_ext", "einsum_ext", "col2im",
           "rotary_position_embedding", "tensordump", "move_to", "fftshift", "ifftshift", "fftfreq", "rfftfreq",
           "real", "imag", "conj", "angle", "polar", "view_as_real", "cond", "cosine_embedding_loss", "float_status",
           "normal_", "uniform_", "random_", "exponential_", "bernoulli_", "bernoulli_ext"]


def _inplace(x, out, name):
    from .functional_gather import write_inplace

    return write_inplace(x, out, name)


def tensor_slice(input, begin, size):  # noqa: A002
    from .functional_shape import slice as slice_fn

    return slice_fn(input, begin, size)


def stop_gradient_(input):  # noqa: A002
    return _inplace(input, F.stop_gradient(input), "stop_gradient_")


def tanh_(input):  # noqa: A002
    return _inplace(input, F.tanh(input), "tanh_")


def clamp_(input, min=None, max=None):  # noqa: A002
    return _inplace(input, F.clamp(input, min, max), "clamp_")


def inplace_sigmoid(input):  # noqa: A002
    return _inplace(input, F.sigmoid(input), "inplace_sigmoid")


def deepcopy(input_x):
    """A new tensor holding a copy of the values."""
    return F.identity(_as_tensor(input_x, "deepcopy"))


def isnan_ext(tensor):
    return F.isnan(tensor)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    return F.diff(input, n, dim, prepend, append)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return F.baddbmm(input, batch1, batch2, beta, alpha)


def mse_loss_ext(input, target, reduction="mean"):  # noqa: A002
    return F.mse_loss(input, target, reduction)


def adaptive_avg_pool2d_ext(input, output_size):  # noqa: A002
    return F.adaptive_avg_pool2d(input, output_size)


def einsum_ext(equation, *operands):
    return F.einsum(equation, *operands)


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """(N, C, kh*kw, L) blocks summed back into (N, C, H, W) (Col2Im)."""
    from .functional_image import fold

    x = _as_tensor(input_x, "Col2Im")
    n, c = x.shape[:2]
    return fold(F.reshape(x, (n, -1, x.shape[-1])), output_size, kernel_size, dilation, padding_value, stride)


def rotary_position_embedding(x, cos, sin, mode=0):
    """x * cos + rotate(x) * sin: mode 0 rotates halves (-x2, x1), mode 1 rotates interleaved pairs."""
    t = _float_input(x, "rotary_position_embedding")
    d = t.shape[-1]
    if d % 2:
        raise ValueError(f"rotary_position_embedding: the last axis ({d}) must be even")
    if mode == 0:
        x1, x2 = F.split(t, d // 2, -1)
        rot = F.concat([F.neg(x2), x1], -1)
    elif mode == 1:
        pairs = F.reshape(t, tuple(t.shape[:-1]) + (d // 2, 2))
        rot = F.reshape(F.stack([F.neg(pairs[..., 1]), pairs[..., 0]], -1), tuple(t.shape))
    else:
        raise ValueError(f"rotary_position_embedding: mode must be 0 or 1, got {mode!r}")
    return F.add(F.mul(t, cos), F.mul(rot, sin))


def tensordump(file_name, tensor, mode="out"):
    """Save ``tensor`` as ``<file_name>_<dtype>_<id>.npy`` (TensorDump's naming; the write is atomic)."""
    from .dump_ops import tensor_dump

    if mode not in ("out", "in", "all"):
        raise ValueError(f"tensordump: mode must be 'out', 'in' or 'all', got {mode!r}")
    if not isinstance(file_name, str) or not file_name:
        raise ValueError(f"tensordump: file_name must be a non-empty string, got {file_name!r}")
    tensor_dump(file_name, _as_tensor(tensor, "tensordump"), "tensordump")


def move_to(input, to="CPU", blocking=True):  # noqa: A002
    """A copy of ``input`` on the CPU (the only device sprout has)."""
    if to not in ("CPU", "cpu"):
        raise ValueError(f"move_to: sprout runs on the CPU only; cannot move a tensor to {to!r}")
    return F.identity(_as_tensor(input, "move_to"))


def _shift(x, dim, sign):
    t = _as_tensor(x, "fftshift")
    dims = tuple(range(t.ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    shifts = tuple(sign * (t.shape[d] // 2) if sign > 0 else -(t.shape[d] // 2) for d in dims)
    return F.roll(t, shifts, dims)


def fftshift(input, dim=None):  # noqa: A002
    """Move the zero-frequency entry to the centre (a roll by n // 2 along each axis)."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):  # noqa: A002
    return _shift(input, dim, -1)


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an n-point DFT with spacing d: [0, 1, ..., -n//2 ...] / (d n)."""
    return Tensor(np.fft.fftfreq(int(n), float(d)).astype(mstype.to_dtype(dtype or mstype.float32).np))


def rfftfreq(n, d=1.0, dtype=None):
    return Tensor(np.fft.rfftfreq(int(n), float(d)).astype(mstype.to_dtype(dtype or mstype.float32).np))


def cond(A, p=None):  # noqa: N803
    """The condition number of the matrices: s_max / s_min for p None/2 (s_min / s_max for -2), else
    norm_p(A) * norm_p(inv(A))."""
    a = _float_input(A, "cond")
    if p in (None, 2, -2):
        s = F.svd(a, compute_uv=False)
        hi, lo = F.amax(s, -1), F.amin(s, -1)
        return F.div(hi, lo) if p != -2 else F.div(lo, hi)
    return F.mul(F.matrix_norm(a, p), F.matrix_norm(F.inverse(a), p))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(x1, x2) for target 1, max(0, cos(x1, x2) - margin) for target -1."""
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"cosine_embedding_loss: margin must be in [-1, 1], got {margin}")
    a, b = _float_input(input1, "cosine_embedding_loss"), _float_input(input2, "cosine_embedding_loss")
    cos = F.div(F.sum(F.mul(a, b), -1), F.sqrt(F.mul(F.add(F.sum(F.square(a), -1), 1e-12),
                                                    F.add(F.sum(F.square(b), -1), 1e-12))))
    tgt = F.cast(target, cos.dtype)
    loss = F.where(F.greater(tgt, 0.0), F.sub(1.0, cos), F.relu(F.sub(cos, float(margin))))
    if reduction == "none":
        return loss
    if reduction not in ("mean", "sum"):
        raise ValueError(f"cosine_embedding_loss: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    return F.mean(loss) if reduction == "mean" else F.sum(loss)


def float_status(x):
    """[1.0] when ``x`` holds a NaN or an infinity, else [0.0] (Float32, shape (1,))."""
    bad = F.logical_not(F.all(F.isfinite(x)))
    return F.reshape(F.cast(bad, mstype.float32), (1,))


# ---- the in-place random fills (MindSpore's ops.normal_ ... spell Tensor's methods as functions) -------------------
def normal_(input, mean=0, std=1, *, generator=None):  # noqa: A002
    return _as_tensor(input, "normal_").normal_(mean, std, generator=generator)


def uniform_(input, from_=0, to=1, *, generator=None):  # noqa: A002
    return _as_tensor(input, "uniform_").uniform_(from_, to, generator=generator)


def random_(input, from_=0, to=None, *, generator=None):  # noqa: A002
    return _as_tensor(input, "random_").random_(from_, to, generator=generator)


def exponential_(input, lambd=1, *, generator=None):  # noqa: A002
    return _as_tensor(input, "exponential_").exponential_(lambd, generator=generator)


def bernoulli_(input, p=0.5, *, generator=None):  # noqa: A002
    return _as_tensor(input, "bernoulli_").bernoulli_(p, generator=generator)


def bernoulli_ext(input, *, generator=None):  # noqa: A002
    """Samples of Bernoulli(input): ``input`` holds the probabilities (mint.bernoulli's op)."""
    return _as_tensor(input, "bernoulli_ext").bernoulli(generator=generator)
