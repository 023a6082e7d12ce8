"""Image decoding with Pillow (JPEG, PNG, BMP, GIF, TIFF, WebP): Decode, RandomCropDecodeResize, ToPIL,
ToNumpy and the read_file/read_image helpers."""
from __future__ import annotations

import io
import os
from enum import IntEnum

import numpy as np

from .base import ImageOp, image_in, image_out
from .geometry import CropBox, Inter, resize_image


class EncodedImage(np.ndarray):
    """A 1-D uint8 array of an encoded image file that remembers where it came from (``source``), so a
    decoding error can name the file."""

    source = None

    def __array_finalize__(self, obj):
        self.source = getattr(obj, "source", None)

    def __reduce__(self):  # keep the file name when a worker process sends the array back
        rebuild, args, state = super().__reduce__()
        return rebuild, args, (state, self.source)

    def __setstate__(self, state):
        base, self.source = state
        super().__setstate__(base)


def encoded(data: bytes, source: str | None) -> EncodedImage:
    arr = np.frombuffer(data, np.uint8).view(EncodedImage)
    arr.source = source
    return arr


def _payload(op: str, value) -> tuple[bytes, str | None]:
    """The encoded bytes in ``value`` (bytes, a 1-D uint8 array, or a one-element bytes array as MindDataset
    gives) and the file they came from, if known."""
    source = getattr(value, "source", None)
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value), source
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "S" and value.size == 1:
            return value.reshape(-1)[:1].tobytes(), source
        if value.dtype == np.uint8 and value.ndim == 1:
            return value.tobytes(), source
        if value.ndim >= 2:
            raise ValueError(f"{op}: the input looks already decoded (shape {value.shape}); Decode takes the encoded "
                             "file bytes as a 1-D uint8 array")
    raise TypeError(f"{op}: input must be encoded image bytes (a 1-D uint8 array or bytes), got "
                    f"{type(value).__name__} {getattr(value, 'dtype', '')}")


def open_image(op: str, data: bytes, source: str | None):
    """A loaded PIL image, or a RuntimeError naming the file (or the data) that cannot be decoded."""
    from PIL import Image
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
        return img
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for bad data
        where = f"image file {source!r}" if source else f"image data ({len(data)} bytes, starting {data[:8]!r})"
        raise RuntimeError(f"{op}: cannot decode {where}: {type(exc).__name__}: {exc}") from exc


def decode_rgb(op: str, value) -> np.ndarray:
    """Decode to an (H, W, 3) uint8 RGB array (gray and palette images are expanded, alpha dropped)."""
    data, source = _payload(op, value)
    img = open_image(op, data, source)
    return np.asarray(img if img.mode == "RGB" else img.convert("RGB"))


class Decode(ImageOp):
    """Decode an encoded image into an RGB (H, W, 3) uint8 array (``to_pil=True``: a PIL RGB image)."""

    def __init__(self, to_pil=False):
        self.to_pil = bool(to_pil)

    def __call__(self, *args):
        if len(args) != 1:
            raise TypeError(f"Decode: takes one column of encoded images, got {len(args)}")
        return image_out(decode_rgb("Decode", args[0]), self.to_pil)


class RandomCropDecodeResize(CropBox, ImageOp):
    """Decode, crop a random box (area fraction in ``scale``, aspect ratio in ``ratio``) and resize it to
    ``size`` — the usual first step of ImageNet training pipelines."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._init_box("RandomCropDecodeResize", size, scale, ratio, interpolation, max_attempts)

    def __call__(self, *args):
        if len(args) != 1:
            raise TypeError(f"RandomCropDecodeResize: takes one column of encoded images, got {len(args)}")
        img = decode_rgb("RandomCropDecodeResize", args[0])
        top, left, ch, cw = self._box(*img.shape[:2])
        return resize_image("RandomCropDecodeResize", img[top:top + ch, left:left + cw], *self.size,
                            self.interpolation, False)


class ToPIL(ImageOp):
    """A NumPy HWC/HW uint8 image to a PIL image (a PIL image passes through)."""

    def __call__(self, *args):
        img, pil = image_in("ToPIL", args)
        if pil:
            return args[0]
        if img.dtype != np.uint8:
            raise TypeError(f"ToPIL: expects a uint8 image, got {img.dtype}")
        if img.ndim == 3 and img.shape[2] == 1:
            img = img[:, :, 0]
        return image_out(img, True)


class ToNumpy(ImageOp):
    """A PIL image to a NumPy array (a NumPy array passes through)."""

    def __call__(self, *args):
        img, _ = image_in("ToNumpy", args, ())
        return np.array(img)


class ImageReadMode(IntEnum):
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def read_file(filename) -> np.ndarray:
    """The bytes of ``filename`` as a 1-D uint8 array."""
    if not isinstance(filename, (str, os.PathLike)):
        raise TypeError(f"read_file: filename must be a path, got {type(filename).__name__}")
    if not os.path.isfile(filename):
        raise ValueError(f"read_file: {os.fspath(filename)!r} is not a file")
    with open(filename, "rb") as f:
        return encoded(f.read(), os.fspath(filename))


def read_image(filename, mode=ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode ``filename`` into an (H, W, C) uint8 array: UNCHANGED keeps the file's channels, GRAYSCALE
    gives one, COLOR three."""
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"read_image: mode must be a vision.ImageReadMode, got {mode!r}")
    data = read_file(filename)
    img = open_image("read_image", data.tobytes(), os.fspath(filename))
    if mode is ImageReadMode.GRAYSCALE:
        img = img.convert("L")
    elif mode is ImageReadMode.COLOR or img.mode not in ("L", "RGB", "RGBA"):
        img = img.convert("RGBA" if mode is ImageReadMode.UNCHANGED and "A" in img.getbands() else "RGB")
    arr = np.asarray(img)
    return arr[:, :, None] if arr.ndim == 2 else arr


def get_image_num_channels(image) -> int:
    img, _ = image_in("get_image_num_channels", (image,))
    return 1 if img.ndim == 2 else int(img.shape[2])


def get_image_size(image) -> list:
    img, _ = image_in("get_image_size", (image,))
    return [int(img.shape[0]), int(img.shape[1])]
