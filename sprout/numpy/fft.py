"""mindspore.numpy.fft: NumPy's FFT names (``axis``/``axes``) over sprout's FFT functions (``dim``), as MindSpore
2.10 spells them; dtypes, normalisation and gradients are those of ``ops.fft`` and its family (docs/ops.md).
``ihfftn`` is the inverse Hermitian FFT (MindSpore 2.10's calls ``ops.hfftn`` by mistake)."""
from __future__ import annotations

from .. import ops as _ops

__all__ = ["fftshift", "ifftshift", "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq"]


def fftshift(x, axes=None):
    """The zero-frequency term moved to the centre of ``axes`` (all axes by default)."""
    return _ops.fftshift(x, axes)


def ifftshift(x, axes=None):
    """The inverse of ``fftshift``."""
    return _ops.ifftshift(x, axes)


def _one_axis(name: str):
    op = getattr(_ops, name)

    def transform(a, n=None, axis=-1, norm=None):
        return op(a, n, axis, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"``ops.{name}`` over ``axis``: ``n`` points (zero-padded or truncated), ``norm``."
    return transform


def _over_axes(name: str, default_axes, doc: str):
    op = getattr(_ops, name)

    def transform(a, s=None, axes=default_axes, norm=None):
        return op(a, s, axes, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"``ops.{name}`` over ``axes`` ({doc}), sizes ``s``, ``norm``."
    return transform


fft, ifft, rfft, irfft, hfft, ihfft = (_one_axis(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fft2, ifft2, rfft2, irfft2, hfft2, ihfft2 = (_over_axes(n + "2", (-2, -1), "the last two by default")
                                            for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fftn, ifftn, rfftn, irfftn, hfftn, ihfftn = (
    _over_axes(n + "n", None, "every axis, or the last ``len(s)`` when only ``s`` is given")
    for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point FFT with spacing ``d`` (float32 unless ``dtype``)."""
    return _ops.fftfreq(n, d, dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """The non-negative sample frequencies of an ``n``-point ``rfft`` with spacing ``d``."""
    return _ops.rfftfreq(n, d, dtype)
