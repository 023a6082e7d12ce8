"""``mindspore.export`` / ``mindspore.load`` (also reached as ``train.serialization.export`` / ``load``)."""
from __future__ import annotations

import logging

logger = logging.getLogger("sprout.export")

_FORMATS = ("AIR", "ONNX", "MINDIR")


def export(net, *inputs, file_name, file_format, **kwargs):
    """Save ``net`` traced on ``inputs`` (example Tensors) for inference: ``file_format="MINDIR"`` writes
    MindSpore's MindIR (``<file_name>.mindir``, loadable by MindSpore and by ``sprout.load``), ``"ONNX"`` an ONNX
    model (``<file_name>.onnx``, needs the ``onnx`` package). The graph is the one jit builds (level O0, the
    network in inference mode); weights are stored with their current values."""
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {list(_FORMATS)}, but got {file_format}.")
    if file_format == "AIR":
        raise NotImplementedError("export: the AIR format (Ascend) is not supported by sprout; use MINDIR or ONNX")
    for key in ("enc_key", "enc_mode", "custom_func", "incremental", "obf_config", "dataset"):
        if kwargs.get(key):
            raise NotImplementedError(f"export: '{key}' is not supported by sprout")
    unknown = set(kwargs) - {"enc_key", "enc_mode", "custom_func", "incremental", "obf_config", "dataset"}
    if unknown:
        raise TypeError(f"export: unexpected keyword arguments {sorted(unknown)}")
    if not inputs:
        raise ValueError("export: give example inputs (the Tensors the network is called with)")
    logger.info("exporting model file:%s format:%s.", file_name, file_format)
    if file_format == "ONNX":
        from .onnx_export import export_onnx

        return export_onnx(net, *inputs, file_name=file_name)
    from .mindir_write import export_mindir

    return export_mindir(net, *inputs, file_name=file_name)


def load(file_name, **kwargs):
    """Read a MINDIR file (written by MindSpore or sprout); run it with ``nn.GraphCell(load(file))``."""
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if kwargs.get("dec_key") is not None:
        raise NotImplementedError("load: encrypted MindIR files (dec_key) are not supported by sprout")
    unknown = set(kwargs) - {"dec_key", "dec_mode"}
    if unknown:
        raise TypeError(f"load: unexpected keyword arguments {sorted(unknown)}")
    from .mindir_read import read

    return read(file_name)
