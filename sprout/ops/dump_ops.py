"""TensorDump (save a tensor as ``<file>_<dtype>_<id>.npy`` when it runs, eagerly and inside graphs, in program order)
and DumpGradient (dump the gradient flowing back through a point)."""
from __future__ import annotations

import itertools
import os
import tempfile
import threading

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.op import Op, register
from ..core.tensor import Tensor
from ..core.types import TensorType
from .debug_ops import insert_gradient_of
from .primitive import Primitive

# MindSpore numbers every dump of the process with one increasing id (shared by all files and both modes)
_ids = itertools.count()
_lock = threading.Lock()


def dump_path(file: str, dtype_name: str, ident: int) -> str:
    """MindSpore's dump file name: a trailing ``.npy`` of ``file`` is dropped, then ``_<dtype>_<id>.npy``."""
    stem = file[:-4] if file.endswith(".npy") else file
    return f"{stem}_{dtype_name}_{ident}.npy"


def _save_atomic(path: str, arr: np.ndarray) -> None:
    """Write ``arr`` to ``path`` through a temporary file in the same directory (readers never see half a file)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".npy.tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.save(f, arr)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _dump_impl(x, file="", dtype_name=""):
    arr = np.asarray(x)
    if dtype_name == "bfloat16":  # stored as float32, named after the original dtype (as MindSpore does)
        arr = arr.astype(np.float32)
    with _lock:
        ident = next(_ids)
    _save_atomic(dump_path(file, dtype_name, ident), arr)
    return np.zeros((), np.int32)


TENSOR_DUMP = register(Op("TensorDump", _dump_impl, lambda x, file="", dtype_name="": TensorType((), mstype.int32),
                          kind="effect", side_effect=True,
                          doc="save the input as <file>_<dtype>_<id>.npy when it runs (atomic write, program order)"))


def _check_file(op: str, file) -> None:
    if not isinstance(file, str):
        raise TypeError(f"For '{op}', the type of 'file' should be 'str', but got type '{type(file).__name__}'.")
    if not file:
        raise ValueError(f"For '{op}', the input argument[file] cannot be an empty string.")


def tensor_dump(file: str, x, op: str = "TensorDump") -> None:
    """Dump ``x`` (a Tensor) to ``<file>_<dtype>_<id>.npy``; inside a graph, when the graph runs."""
    _check_file(op, file)
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the type of 'input_x' should be 'Tensor', but got type '{type(x).__name__}'.")
    bind(TENSOR_DUMP, (x,), {"file": file, "dtype_name": str(x.dtype).lower()})


def _check_mode(op: str, mode) -> None:
    if mode not in ("in", "out"):
        raise ValueError(f"For '{op}', the 'input_output' argument should be one of ['in', 'out'], but got: {mode!r}")


class TensorDump(Primitive):
    """``TensorDump(input_output='out')(file, x)``: save ``x`` to ``<file>_<dtype>_<id>.npy`` (``file`` without a
    trailing ``.npy``; bfloat16 is stored as float32; ``id`` counts every dump of the process). Eagerly at once,
    inside ``jit`` when the graph runs, in program order. ``input_output`` only matters for parallel layouts
    (MindSpore CPU names both modes' files alike)."""

    def __init__(self, input_output="out"):
        super().__init__()
        _check_mode("TensorDump", input_output)
        self.input_output = input_output

    def __call__(self, file, input_x):
        tensor_dump(file, input_x)


class DumpGradient(Primitive):
    """``DumpGradient()(path, x, input_output)``: ``x``; during a backward pass the gradient flowing back to ``x``
    is dumped with TensorDump's naming (``<path>_<dtype>_<id>.npy``)."""

    def __call__(self, path, x, input_output):
        _check_file("DumpGradient", path)
        _check_mode("DumpGradient", input_output)
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'DumpGradient', the type of 'x' should be 'Tensor', but got type "
                            f"'{type(x).__name__}'.")

        def dump(d):
            tensor_dump(path, d, "DumpGradient")
            return d

        return insert_gradient_of(x, dump)


__all__ = ["TensorDump", "DumpGradient"]
