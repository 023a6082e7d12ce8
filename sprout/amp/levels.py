"""Mixed-precision levels O0-O3: white/black lists, auto/custom_mixed_precision, build_train_network."""
from __future__ import annotations

import logging

from .. import dtype as mstype
from .. import nn, ops
from ..nn import _precision

logger = logging.getLogger("sprout.amp")

_LEVELS = ("O0", "O1", "O2", "O3", "auto")

# MindSpore 2.10's lists. Cells of the white list run wholly in float16 under O1 (float32 results); the
# primitives of the white list compute in float16 under O1 wherever they are called. The black list stays
# float32 under O2.
AMP_WHITE_LIST = [nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Conv1dTranspose, nn.Conv2dTranspose, nn.Conv3dTranspose,
                  nn.Dense, nn.LSTMCell, nn.RNNCell, nn.GRUCell,
                  ops.Conv2D, ops.Conv3D, ops.Conv2DTranspose, ops.Conv3DTranspose, ops.Conv2DBackpropInput,
                  ops.MatMul, ops.BatchMatMul, ops.PReLU, ops.ReLU, ops.Ger]
AMP_BLACK_LIST = [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]

# The op records (by name) the white-list primitives run as in sprout. PReLU, Ger and Conv3D are built from
# other primitives in sprout, so O1 does not single them out (their building blocks run as written).
_WHITE_OPS = frozenset(("MatMul", "Conv2D", "Conv2DBackpropInput", "ReLU"))


class _OutputTo32(nn.Cell):
    """Runs ``backbone`` and casts every float tensor of its result to float32 (the O2/O3 top level)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _precision.cast_floats(self._backbone(*args, **kwargs), mstype.float32)


def _check_network(network, level: str) -> None:
    if not isinstance(network, nn.Cell):
        raise TypeError(f"For amp_level '{level}', the network type should be Cell.")


def _check_dtype(dtype) -> None:
    if dtype is not mstype.float16 and dtype is not mstype.bfloat16:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")


def _set_by_user(cell) -> bool:
    return any(cell.__dict__.get(flag) for flag in ("fp16", "fp32", "bf16"))


def _island(cell, dtype, out) -> None:
    """``cell`` and its sub-cells compute in ``dtype``; the cell's float results come out as ``out``. (MindSpore
    wraps such a cell in an output-cast cell; sprout keeps the tree as it is, so ``net.bn`` stays the BatchNorm.)"""
    cell.to_float(dtype)
    _precision.set_policy(cell, _precision.CastAll(dtype, out))


def _wrap_black(network, black_list, dtype):
    """``network`` in ``dtype`` except the cells of ``black_list``: those run in float32 and give ``dtype``."""
    network.to_float(dtype)
    _mark_black(network, black_list, dtype)
    return network


def _mark_black(network, black_list, dtype) -> None:
    for sub in network.cells():
        if isinstance(sub, tuple(black_list)):
            _island(sub, mstype.float32, dtype)
        else:
            _mark_black(sub, black_list, dtype)


def _wrap_white(network, white_cells, dtype) -> None:
    for sub in network.cells():
        if _set_by_user(sub):
            continue
        if isinstance(sub, tuple(white_cells)):
            _island(sub, dtype, mstype.float32)
        else:
            _wrap_white(sub, white_cells, dtype)


class _ListedOps(nn.Cell):
    """O1's top level: the white-list primitives compute in ``dtype`` (float32 results) inside ``backbone``."""

    def __init__(self, backbone, dtype, op_names):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        _precision.set_policy(self, _precision.CastListed(dtype, frozenset(op_names)))

    def construct(self, *args, **kwargs):
        return self._backbone(*args, **kwargs)


def _white_op_names(white_list) -> set:
    names = set()
    for item in white_list:
        if isinstance(item, type) and not issubclass(item, nn.Cell):
            name = item.__name__
            if name in ("BatchMatMul",):
                name = "MatMul"
            elif name in ("Conv2DTranspose",):
                name = "Conv2DBackpropInput"
            if name in _WHITE_OPS:
                names.add(name)
    return names


def _o1(network, white_list, dtype):
    _wrap_white(network, [c for c in white_list if isinstance(c, type) and issubclass(c, nn.Cell)], dtype)
    return _ListedOps(network, dtype, _white_op_names(white_list))


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """MindSpore's ``amp.auto_mixed_precision``: "O0" unchanged; "O1" the white list in float16; "O2" all in
    float16 except the black list (BatchNorm, LayerNorm), float32 outputs; "O3" all in float16, float32 outputs.
    Returns the network to use (O1-O3 wrap it)."""
    if amp_level == "auto":
        raise NotImplementedError("auto_mixed_precision: amp_level='auto' (per-operator white/black/promote "
                                  "lists) is not supported by sprout; use 'O1', 'O2' or 'O3'")
    _check_network(network, amp_level)
    _check_dtype(dtype)
    if amp_level == "O0":
        return network
    previous = getattr(network, "_amp_level", None)
    if previous in ("O1", "O2", "O3"):
        logger.warning("The network's auto mixed-precision level is adjusted from %s to %s, and repeated calls to "
                       "mixed-precision interfaces can cause performance degradation.", previous, amp_level)
    if amp_level == "O1":
        network = _o1(network, AMP_WHITE_LIST, dtype)
    elif amp_level == "O2":
        network = _OutputTo32(_wrap_black(network, AMP_BLACK_LIST, dtype))
    elif amp_level == "O3":
        network = _OutputTo32(network.to_float(dtype))
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    network.__dict__["_amp_level"] = amp_level
    return network


def _check_list(items, list_name: str) -> None:
    if not isinstance(items, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(items)}")
    for elem in items:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "black_list" and not issubclass(elem, nn.Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")
    if list_name == "black_list":
        for elem in AMP_BLACK_LIST:
            if elem not in items:
                logger.warning("%s is removed from internal black list.", elem)


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=mstype.float16):
    """O1 with your own white list, or O2 with your own black list (exactly one of them)."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if (white_list is None) == (black_list is None):
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided"
                         if white_list is None else
                         "For custom_mixed_precision, the white_list or black_list cannot be provided at the same "
                         "time, please provide one or the other.")
    _check_dtype(dtype)
    if white_list is not None:
        _check_list(white_list, "white_list")
        return _o1(network, white_list, dtype)
    _check_list(black_list, "black_list")
    return _OutputTo32(_wrap_black(network, black_list, dtype))


def get_white_list() -> list:
    return list(AMP_WHITE_LIST)


def get_black_list() -> list:
    return list(AMP_BLACK_LIST)
