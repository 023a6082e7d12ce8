"""Writing MindIR: sprout's optimized graph as the ModelProto MindSpore 2.10 itself writes (and loads)."""
from __future__ import annotations

import numpy as np

from ..ir.graph import Var
from . import mindir_schema as S
from .graph_export import ExportError, ExportGraph, ValueNames
from .mindir_emit import MINDIR_OPS

PRODUCER_VERSION = "2.10.0"  # the MindSpore release whose MindIR layout this follows


def tensor_proto(arr: np.ndarray, name: str = "", with_data: bool = True) -> dict:
    code = S.NP_TO_DTYPE.get(arr.dtype)
    if code is None:
        raise ExportError(f"MindIR export: tensors of dtype {arr.dtype} cannot be stored")
    t = {"dims": list(arr.shape), "data_type": code}
    if name:
        t["name"] = name
    if with_data:
        t["raw_data"] = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return t


def type_proto(t) -> dict:
    return {"dims": [int(d) for d in t.shape], "data_type": S.NP_TO_DTYPE[np.dtype(t.dtype.np)]}


def value_attr(value, name: str = "value") -> dict:
    """A Python value (bool/int/float/str/tuple/list/None/ndarray) as an AttributeProto of MindSpore's tagging."""
    a = {"name": name} if name else {}
    if isinstance(value, (bool, np.bool_)):
        a.update(i=int(value), type=S.A_BOOL)
    elif isinstance(value, (int, np.integer)):
        a.update(i=int(value), type=S.A_INT64)
    elif isinstance(value, (float, np.floating)):
        a.update(f=float(value), type=S.A_FLOAT)
    elif isinstance(value, str):
        a.update(s=value.encode("utf-8"), type=S.A_STRING)
    elif isinstance(value, (tuple, list)):
        items = []
        for v in value:
            item = value_attr(v, "")
            if "i" in item:  # elements of a sequence hold their scalar in the repeated field
                item["ints"] = [item.pop("i")]
            elif "f" in item:
                item["floats"] = [item.pop("f")]
            elif "s" in item:
                item["strings"] = [item.pop("s")]
            items.append(item)
        a.update(type=S.A_TUPLE if isinstance(value, tuple) else S.A_LIST, values=items)
    elif value is None:
        a.update(type=S.A_NONE)
    elif isinstance(value, np.ndarray):
        a.update(tensors=[tensor_proto(value, "value0")], type=S.A_TENSORS)
    else:
        raise ExportError(f"MindIR export: cannot store the value {value!r}")
    return a


class Writer(ValueNames):
    """Accumulates nodes, constants and primitives; every name is prefixed by the graph name as MindSpore does."""

    fmt = "MindIR"

    def __init__(self, graph_name: str):
        super().__init__()
        self.gname = graph_name
        self.nodes, self.prims = [], {}
        self._n = 0

    def fresh(self, hint: str) -> str:
        self._n += 1
        return f"{self.gname}:{hint}:{self._n}"

    def const(self, value) -> str:
        """A Constant value node (scalars, tuples, tensors)."""
        self._n += 1
        name = f"ValueNode_{self._n}"
        self.nodes.append({"output": [name], "name": name, "op_type": "Constant", "attribute": [value_attr(value)]})
        return name

    def primitive(self, op_type: str, attrs: dict, function: bool) -> str:
        key = (op_type, tuple(sorted((k, repr(v)) for k, v in attrs.items())), function)
        ref = self.prims.get(key)
        if ref is None:
            ref = f"{op_type}:{len(self.prims) + 1}"
            self.prims[key] = ref
            self.prims[ref] = {"name": ref, "op_type": op_type, "instance_name": "",
                               "attribute": [value_attr(v, k) for k, v in attrs.items()],
                               "prim_type": S.PRIM_FUNCTION if function else S.PRIM_PRIMITIVE}
        return ref

    def node(self, op_type: str, inputs: list, node=None, out_type=None, attrs=None, function=True) -> str:
        """A node applying MindSpore primitive ``op_type``; it defines ``node``'s output when ``node`` is given."""
        ref = self.primitive(op_type, attrs or {}, function)
        out = self.fresh(op_type)
        t = out_type if out_type is not None else (node.outputs[0].type if node is not None else None)
        entry = {"input": inputs, "output": [out], "name": out, "op_type": f"REF::{ref}"}
        if t is not None:
            entry["attribute"] = [{"name": "shape", "tensors": [type_proto(t)], "type": S.A_TENSORS}]
        self.nodes.append(entry)
        if node is not None:
            self.names[node.outputs[0].uid] = out
        return out

    def unsupported(self, node, what: str) -> ExportError:
        return ExportError(f"MindIR export: {node.op.name} with {what} has no MindSpore counterpart")


def to_model(eg: ExportGraph) -> dict:
    w = Writer(f"sprout_{eg.name}")
    inputs = []
    for inp in eg.inputs:
        name = f"{w.gname}:{inp.name}"
        if inp.var is not None:
            w.names[inp.var.uid] = name
        inputs.append({"name": name, "tensor": [type_proto(inp.type)]})
    params = []
    for p in eg.params:
        name = f"{w.gname}:{p.name}"
        w.names[p.var.uid] = name
        params.append(dict(tensor_proto(p.value, name), ref_key=p.name))
    for node in eg.graph.nodes:
        w.current = node
        rule = MINDIR_OPS.get(node.op.name)
        if rule is None or node.subgraphs():
            raise ExportError(f"MindIR export: the sprout op '{node.op.name}' has no MindSpore counterpart")
        rule(w, node)
    w.current = None
    outs = [w.value(v) for v in eg.outputs]
    if eg.single_output:
        out_name = outs[0]
        t = eg.outputs[0].type if isinstance(eg.outputs[0], Var) else None
        output = {"name": out_name, "tensor": [type_proto(t)] if t is not None else []}
    else:
        types = [v.type for v in eg.outputs if isinstance(v, Var)]
        shape = {"type": S.A_TUPLE, "values": [{"tensors": [type_proto(t)], "type": S.A_TENSORS} for t in types],
                 "seq_info": {"is_dyn_len": False}}
        out_name = w.node("MakeTuple", outs, function=False)
        w.nodes[-1]["attribute"] = [dict(shape, name="shape")]
        output = {"name": out_name, "denotation": "Tuple", "attr_info": shape}
    graph = {"node": w.nodes, "name": w.gname, "parameter": params, "input": inputs, "output": [output]}
    prims = [v for k, v in w.prims.items() if isinstance(k, str)]
    return {"ir_version": "1.1", "producer_name": "sprout", "model_version": PRODUCER_VERSION, "graph": graph,
            "little_endian": True, "primitives": prims, "mind_ir_version": 3}


def export_mindir(net, *inputs, file_name) -> str:
    from .files import atomic_write, with_suffix

    model = to_model(ExportGraph(net, inputs))
    path = with_suffix(file_name, ".mindir")
    atomic_write(path, S.SCHEMA.encode("Model", model))
    return path
