"""SummaryRecord: scalars, images, histograms and tensors written to a TensorBoard event file."""
from __future__ import annotations

import io
import os
import platform
import re
import time
import weakref

import numpy as np

from ... import log as logger
from ...ops.summary_ops import take_cached
from . import _event_file as ev

_PLUGINS = ("scalar", "image", "histogram", "tensor")
_NOT_SUPPORTED = ("graph", "train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data", "LANDSCAPE")
_NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]*$")
_HISTOGRAM_BINS = 30


def _tensor_types():
    from ...core.tensor import Tensor
    return Tensor


def _make_directory(path, arg_name: str) -> str:
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"The '{arg_name}' should be a non-empty string, but got {path!r}.")
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path


def event_file_name(prefix: str, suffix: str, time_second: str) -> str:
    """``<prefix>.out.tfevents.<time>.<rank>.<host><suffix>``: MindSpore's layout with TensorBoard's ``tfevents``
    mark (TensorBoard only opens files whose name contains it)."""
    return f"{prefix}.out.tfevents.{time_second}.{logger._rank_id()}.{platform.node()}{suffix}"


def _to_numpy(plugin: str, value) -> np.ndarray:
    array = np.array(value.asnumpy(), copy=True)
    if plugin == "scalar" and array.size != 1:
        raise ValueError(f'For "SummaryRecord", the v rank must be less than or equal to 1, but got {array.size}.')
    if plugin == "image" and array.ndim != 4:
        raise ValueError('For "SummaryRecord", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram") and array.ndim == 0:
        raise ValueError('For "SummaryRecord", the value should not be empty.')
    return array


def _image_value(tag: str, array: np.ndarray):
    """An NCHW batch as one PNG grid of up to 8 columns, mapped linearly onto 0-255 (None when not an image)."""
    from PIL import Image
    if array.shape[1] not in (1, 3) or 0 in array.shape:
        logger.error(f"The image summary {tag!r} needs an NCHW tensor with 1 or 3 channels, got shape {array.shape}.")
        return None
    if array.shape[1] == 1:
        array = np.repeat(array, 3, axis=1)
    if array.dtype != np.uint8:
        data = array.astype(np.float64)
        lo, hi = float(np.nanmin(data)), float(np.nanmax(data))
        if lo >= 0 and hi <= 1:
            data = data * 255.0
        elif hi > lo:
            data = (data - lo) * (255.0 / (hi - lo))
        else:
            data = data - lo
        array = np.clip(np.nan_to_num(data), 0, 255).round().astype(np.uint8)
    n, _, h, w = array.shape
    cols = min(n, 8)
    rows = -(-n // cols)
    canvas = np.zeros((h * rows, w * cols, 3), np.uint8)
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[y * h:(y + 1) * h, x * w:(x + 1) * w] = array[i].transpose(1, 2, 0)
    buf = io.BytesIO()
    Image.fromarray(canvas).save(buf, format="PNG")
    return {"height": canvas.shape[0], "width": canvas.shape[1], "colorspace": 3,
            "encoded_image_string": buf.getvalue()}


def _histogram_value(array: np.ndarray) -> dict:
    data = array.astype(np.float64).ravel()
    finite = data[np.isfinite(data)]
    if finite.size == 0:
        logger.warning(f"There are no valid values in the ndarray(size={data.size}, shape={array.shape})")
        return {"min": 0.0, "max": 0.0, "num": float(data.size), "sum": 0.0, "sum_squares": 0.0}
    lo, hi = float(finite.min()), float(finite.max())
    counts, edges = np.histogram(finite, bins=_HISTOGRAM_BINS if hi > lo else 1, range=(lo, hi) if hi > lo else None)
    return {"min": lo, "max": hi, "num": float(finite.size), "sum": float(finite.sum()),
            "sum_squares": float((finite * finite).sum()), "bucket_limit": [float(e) for e in edges[1:]],
            "bucket": [float(c) for c in counts]}


def _tensor_value(array: np.ndarray) -> dict:
    code = ev.TF_DTYPES.get(array.dtype)
    if code is None:
        raise TypeError(f'For "SummaryRecord", a tensor summary of dtype {array.dtype} is not supported.')
    return {"dtype": code, "tensor_shape": {"dim": [{"size": int(d)} for d in array.shape]},
            "tensor_content": np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()}


class SummaryRecord:
    """Writes summaries to ``log_dir`` in TensorBoard's event format (``tensorboard --logdir <log_dir>`` shows
    them). ``add_value`` and the summary operators (``ops.ScalarSummary`` ...) collect values; ``record(step)``
    writes them as one event at that step."""

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(max_file_size, (int, type(None))) or isinstance(max_file_size, bool):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but got type "
                            f"{type(max_file_size)}")
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError("For 'SummaryRecord', `file_prefix` and `file_suffix`  should be str, but got type "
                            f"{type(file_prefix) if not isinstance(file_prefix, str) else type(file_suffix)}")
        for text in (file_prefix, file_suffix):
            if not _NAME_RE.match(text):
                raise ValueError(f"The str {text!r} must match the pattern {_NAME_RE.pattern}.")
        if not isinstance(raise_exception, bool):
            raise TypeError(f"The 'raise_exception' must be bool, but got {type(raise_exception).__name__}.")
        if network is not None:
            raise NotImplementedError("SummaryRecord(network=...): sprout does not write the graph to summaries.")
        if export_options is not None:
            raise NotImplementedError("SummaryRecord(export_options=...): sprout does not export summary tensors.")
        if max_file_size is not None and max_file_size < 0:
            logger.warning(f"For 'SummaryRecord', the 'max_file_size' should be greater than 0. "
                           f"but got value {max_file_size}.")
            max_file_size = None
        self.base_log_dir = log_dir
        directory = _make_directory(log_dir, "log_dir")
        self.file_prefix, self.file_suffix = file_prefix, file_suffix
        self.raise_exception = raise_exception
        self._remaining = max_file_size
        self._mode = "train"
        self._pool: dict = {}
        self._closed = False
        name = event_file_name(file_prefix, file_suffix, str(int(time.time())))
        self.file_info = {"file_name": name, "file_path": os.path.join(directory, name)}
        self._file = open(self.file_info["file_path"], "ab")
        self._finalizer = weakref.finalize(self, self._file.close)  # also at interpreter exit, as MindSpore's atexit
        self._write(ev.event_bytes({"wall_time": time.time(), "file_version": "brain.Event:2"}))
        self._file.flush()
        SummaryRecord.count += 1

    @property
    def log_dir(self) -> str:
        """The path of the event file this record writes."""
        return self.file_info["file_path"]

    def __enter__(self):
        if self._closed:
            raise ValueError('For "SummaryRecord", SummaryRecord has been closed, '
                             'please check if close() method is called')
        return self

    def __exit__(self, *err):
        self.close()

    def set_mode(self, mode):
        if mode not in ("train", "eval"):
            raise ValueError(f'For "SummaryRecord.set_mode", {mode!r} is not a recognized mode, expect the '
                             'parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue ``value`` (a Tensor) under tag ``name`` for the next ``record``; plugin is 'scalar', 'image'
        (NCHW), 'histogram' or 'tensor'."""
        if plugin in _PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "SummaryRecord", the parameter "name" type should be str, but got {type(name)}.')
            if not isinstance(value, _tensor_types()):
                raise TypeError(f'For "SummaryRecord", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}')
            array = _to_numpy(plugin, value)
            entries = self._pool.setdefault(plugin, {})
            if name in entries:
                logger.warning(f'For "SummaryRecord.add_value", {name + "/" + plugin!r} has duplicate values. '
                               'Only the newest one will be recorded.')
            entries[name] = array
        elif plugin in _NOT_SUPPORTED:
            raise NotImplementedError(f"SummaryRecord.add_value: the {plugin!r} plugin is MindInsight's; sprout "
                                      "writes TensorBoard summaries (scalar, image, histogram, tensor) only.")
        else:
            raise ValueError(f'For "SummaryRecord.add_value", no such "plugin" of {plugin!r}, expect value is one '
                             f'of {list(_PLUGINS)}')

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the queued values as one event at ``step``; returns False once closed."""
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"The 'step' must be int, but got {type(step).__name__}.")
        if train_network is not None:
            from ...nn.cell import Cell
            if not isinstance(train_network, Cell):
                raise TypeError(f"The 'train_network' must be Cell or None, but got {type(train_network).__name__}.")
        if self._closed:
            logger.error("For 'SummaryRecord', The record writer is closed, please check if close() method is called")
            return False
        cached = take_cached()  # what summary ops (ops.ScalarSummary ...) kept since the last record
        if self._mode == "train":  # in eval mode MindSpore does not record the summary operators' data
            for (plugin, tag), array in cached.items():
                self._pool.setdefault(plugin, {})[tag] = array
        pool, self._pool = self._pool, {}
        values = []
        for plugin in _PLUGINS:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            for tag, array in pool.get(plugin, {}).items():
                value = self._value(plugin, tag, array)
                if value is not None:
                    values.append(value)
        if values:
            self._write(ev.event_bytes({"wall_time": time.time(), "step": step, "summary": {"value": values}}))
        return True

    @staticmethod
    def _value(plugin: str, tag: str, array: np.ndarray):
        if plugin == "scalar":
            return {"tag": tag, "simple_value": float(array.reshape(-1)[0])}
        if plugin == "image":
            image = _image_value(tag, array)
            return None if image is None else {"tag": tag, "image": image}
        if plugin == "histogram":
            return {"tag": tag, "histo": _histogram_value(array)}
        return {"tag": tag, "tensor": _tensor_value(array)}

    def _write(self, data: bytes) -> None:
        if self._remaining is not None:
            if len(data) > self._remaining:
                message = (f"'max_file_size' reached: There are {self._remaining} bytes remaining, but the "
                           f"'{self.file_info['file_path']}' requires to write {len(data)} bytes.")
                if self.raise_exception:
                    raise RuntimeError(message)
                logger.error(message)
                return
            self._remaining -= len(data)
        try:
            self._file.write(data)
        except OSError:
            if self.raise_exception:
                raise
            logger.error(f"Writing the summary file {self.file_info['file_path']} failed.")

    def flush(self):
        """Push what was recorded to the file (TensorBoard sees it from then on)."""
        if not self._closed:
            self._file.flush()

    def close(self):
        """Flush and close the event file; later ``record`` calls return False."""
        if not self._closed:
            self._finalizer()
            self._closed = True
            SummaryRecord.count -= 1
