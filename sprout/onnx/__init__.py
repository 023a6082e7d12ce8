"""``mindspore.onnx``: ONNX export of a network (``export(net, *inputs, file_name=...)``)."""
from ..deploy.onnx_export import export_onnx as export  # noqa: F401

__all__ = ["export"]
