"""ONNX export of sprout's optimized graph (``sprout.onnx.export``, ``export(..., file_format="ONNX")``)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..ir.graph import Var
from .graph_export import ExportError, ExportGraph, ValueNames
from .onnx_ops import ONNX_OPS

OPSET = 17


def _onnx():
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        raise ImportError("ONNX export needs the 'onnx' package: pip install 'sprout[export]'") from None
    return onnx, helper, numpy_helper


class Emitter(ValueNames):
    """Builds the ONNX node list: one name per sprout value, constants as initializers."""

    fmt = "ONNX"

    def __init__(self, helper, numpy_helper, tensor_proto):
        super().__init__()
        self.helper, self.numpy_helper, self.TP = helper, numpy_helper, tensor_proto
        self.nodes, self.initializers = [], []
        self._count = 0

    def fresh(self, hint: str) -> str:
        self._count += 1
        return f"{hint}_{self._count}"

    def dtype_code(self, dtype) -> int:
        return self.helper.np_dtype_to_tensor_dtype(np.dtype(dtype.np))

    def const(self, arr: np.ndarray, hint: str = "const") -> str:
        name = self.fresh(hint)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def ints(self, values) -> str:
        return self.const(np.asarray(values, np.int64), "ints")

    def scalar(self, value, dtype) -> str:
        return self.const(np.asarray(value, dtype.np))

    def node(self, op_type: str, inputs: list, node=None, **attrs) -> str:
        """Append an ONNX node; it defines ``node``'s (single) output when ``node`` is given."""
        out = self.fresh(op_type.lower())
        if node is not None:
            self.names[node.outputs[0].uid] = out
        self.nodes.append(self.helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def node_multi(self, op_type: str, inputs: list, node, **attrs) -> list:
        outs = [self.fresh(op_type.lower()) for _ in node.outputs]
        for v, name in zip(node.outputs, outs):
            self.names[v.uid] = name
        self.nodes.append(self.helper.make_node(op_type, inputs, outs, name=outs[0], **attrs))
        return outs

    def unsupported(self, node, what: str) -> ExportError:
        return ExportError(f"ONNX export: {node.op.name} with {what} has no ONNX mapping{_where(node)}")


def _where(node) -> str:
    loc = getattr(node, "loc", None)
    return f" (at {loc.file}:{loc.line})" if loc is not None and getattr(loc, "file", None) else ""


def to_model(eg: ExportGraph, input_names=None, output_names=None, export_params=True,
             keep_initializers_as_inputs=False):
    """The ONNX ModelProto for an ExportGraph."""
    onnx, helper, numpy_helper = _onnx()
    em = Emitter(helper, numpy_helper, onnx.TensorProto)
    input_names = list(input_names or [])
    if len(input_names) > len(eg.inputs):
        raise ValueError(f"ONNX export: {len(input_names)} input_names for a model with {len(eg.inputs)} inputs")
    names = input_names + [i.name for i in eg.inputs[len(input_names):]]
    graph_inputs = []
    for inp, name in zip(eg.inputs, names):
        if inp.var is not None:
            em.names[inp.var.uid] = name
        graph_inputs.append(helper.make_tensor_value_info(name, em.dtype_code(inp.type.dtype), list(inp.type.shape)))
    initializers = []
    for p in eg.params:
        em.names[p.var.uid] = p.name
        if export_params:
            initializers.append(numpy_helper.from_array(p.value, p.name))
        if keep_initializers_as_inputs or not export_params:
            graph_inputs.append(helper.make_tensor_value_info(p.name, em.dtype_code(p.var.type.dtype),
                                                              list(p.value.shape)))
    for node in eg.graph.nodes:
        em.current = node
        rule = ONNX_OPS.get(node.op.name)
        if rule is None or node.subgraphs():
            raise ExportError(f"ONNX export: the sprout op '{node.op.name}' has no ONNX mapping{_where(node)}")
        rule(em, node)
    out_names = list(output_names or [])
    outputs = []
    for k, v in enumerate(eg.outputs):
        name = out_names[k] if k < len(out_names) else f"output_{k}" if len(eg.outputs) > 1 else "output"
        src = em.value(v, getattr(v, "type", None) and getattr(v.type, "dtype", None))
        em.nodes.append(helper.make_node("Identity", [src], [name], name=f"{name}_identity"))
        t = v.type if isinstance(v, Var) else None
        dtype = t.dtype if t is not None else mstype.float32
        shape = list(t.shape) if t is not None else None
        outputs.append(helper.make_tensor_value_info(name, em.dtype_code(dtype), shape))
    graph = helper.make_graph(em.nodes, eg.name, graph_inputs, outputs, initializer=initializers + em.initializers)
    model = helper.make_model(graph, producer_name="sprout", opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = min(model.ir_version, 8)  # ONNX IR 8 = opset 17's release: loads in older runtimes too
    onnx.checker.check_model(model)
    return model


def export_onnx(net, *inputs, file_name, input_names=None, output_names=None, export_params=True,
                keep_initializers_as_inputs=False, dynamic_axes=None) -> str:
    """Write ``net`` traced on ``inputs`` as an ONNX file; returns the path (``.onnx`` added when missing)."""
    from .files import atomic_write, with_suffix

    if input_names is not None and not isinstance(input_names, list):
        raise ValueError(f"For 'export', 'input_names' must be a list, but got {type(input_names).__name__}.")
    if output_names is not None and not isinstance(output_names, list):
        raise ValueError(f"For 'export', 'output_names' must be a list, but got {type(output_names).__name__}.")
    if dynamic_axes is not None and not isinstance(dynamic_axes, dict):
        raise ValueError(f"For 'export', 'dynamic_axes' must be a dict, but got {type(dynamic_axes).__name__}.")
    if dynamic_axes:
        raise ExportError("ONNX export: dynamic_axes is not supported (sprout exports the graph traced for the "
                          "given input shapes; export once per shape)")
    model = to_model(ExportGraph(net, inputs), input_names, output_names, export_params,
                     keep_initializers_as_inputs)
    path = with_suffix(file_name, ".onnx")
    atomic_write(path, model.SerializeToString())
    return path
