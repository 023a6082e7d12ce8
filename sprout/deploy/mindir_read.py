"""Reading MindIR files: ``load`` gives a MindIRGraph whose ``run`` evaluates the nodes with sprout ops."""
from __future__ import annotations

import os

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import mindir_schema as S
from .mindir_ops import MONAD, run_node
from .protowire import WireError


class MindIRError(RuntimeError):
    """A MindIR file sprout cannot read (corrupt, or using features sprout does not support)."""


def tensor_value(t: dict) -> np.ndarray:
    """A TensorProto as a NumPy array (data from raw_data or the typed repeated fields)."""
    code = t.get("data_type", 0)
    np_type = S.DTYPE_TO_NP.get(code)
    if np_type is None:
        raise MindIRError(f"MindIR tensor {t.get('name', '')!r}: unsupported data type code {code}")
    dims = tuple(t.get("dims", ()))
    if "raw_data" in t:
        arr = np.frombuffer(t["raw_data"], dtype=np.dtype(np_type).newbyteorder("<"))
    elif "external_data" in t:
        raise MindIRError(f"MindIR tensor {t.get('name', '')!r} keeps its data in an external file, which sprout "
                          "does not read")
    else:
        field = {1: "float_data", 11: "double_data", 17: "double_data", 7: "int64_data", 13: "uint64_data"}.get(
            code, "int32_data")
        arr = np.asarray(t.get(field, []), dtype=np_type)
    count = int(np.prod(dims)) if dims else 1
    if arr.size != count:
        raise MindIRError(f"MindIR tensor {t.get('name', '')!r}: {arr.size} values for shape {list(dims)}")
    return arr.astype(np_type).reshape(dims)


def attr_value(a: dict):
    """An AttributeProto as a Python value (tuple/list/scalar/str/array/None/monad) by its type tag."""
    kind = a.get("type", 0)
    if kind in (S.A_TUPLE, S.A_LIST):
        items = [attr_value(v) for v in a.get("values", [])]
        return tuple(items) if kind == S.A_TUPLE else items
    if kind == S.A_BOOL:
        return bool(a["i"] if "i" in a else (a.get("ints") or [0])[0])
    if kind in (S.A_UINT8, S.A_INT8, S.A_UINT16, S.A_INT16, S.A_INT32, S.A_INT64, S.A_UINT32, S.A_UINT64):
        return int(a["i"] if "i" in a else (a.get("ints") or [0])[0])
    if kind in (S.A_FLOAT, S.A_FLOAT16):
        return float(a["f"] if "f" in a else (a.get("floats") or [0.0])[0])
    if kind == S.A_DOUBLE:
        return float(a["d"] if "d" in a else (a.get("doubles") or [0.0])[0])
    if kind == S.A_STRING:
        raw = a["s"] if "s" in a else (a.get("strings") or [b""])[0]
        return raw.decode("utf-8")
    if kind == S.A_TENSORS:
        return tensor_value(a["tensors"][0])
    if kind == S.A_TENSOR:
        return tensor_value(a["t"])
    if kind in (S.A_NONE, S.A_TYPE_NULL):
        return None
    if kind in (S.A_UMONAD, S.A_IOMONAD):
        return MONAD
    raise MindIRError(f"MindIR attribute {a.get('name', '')!r}: value type {kind} is not supported")


def _attrs(items) -> dict:
    return {a["name"]: attr_value(a) for a in items if a.get("name") not in ("shape", "input_names", "output_names")}


class MindIRGraph:
    """A loaded MindIR graph: inputs (name, shape, dtype), parameters (full name -> (own name, array)), and the
    nodes in execution order. ``nn.GraphCell`` runs it; ``run`` evaluates it with sprout ops (eagerly, or as graph
    nodes while a jit traces)."""

    def __init__(self, model: dict, path: str = ""):
        graph = model.get("graph")
        if graph is None:
            raise MindIRError(f"MindIR file {path!r} holds no graph")
        if model.get("functions"):
            raise MindIRError(f"MindIR file {path!r} has sub-graphs (control flow or nested functions), which "
                              "sprout's MindIR reader does not support")
        self.path = path
        self.name = graph.get("name", "")
        self.producer = model.get("producer_name", "")
        prims = {p["name"]: (p.get("op_type", ""), _attrs(p.get("attribute", []))) for p in model.get("primitives", [])}
        self.inputs = []
        for vi in graph.get("input", []):
            t = (vi.get("tensor") or [{}])[0]
            np_type = S.DTYPE_TO_NP.get(t.get("data_type", 1), np.float32)
            self.inputs.append((vi["name"], tuple(t.get("dims", ())), mstype._FROM_NP[np.dtype(np_type)]))
        self.params = {}
        for p in graph.get("parameter", []):
            own = p.get("ref_key") or p["name"].split(":", 1)[-1]
            self.params[p["name"]] = (own, tensor_value(p))
        self.constants, self.nodes = {}, []
        for node in graph.get("node", []):
            op_type, out = node.get("op_type", ""), node["output"][0]
            if op_type == "Constant":
                self.constants[out] = attr_value(node["attribute"][0])
                continue
            if op_type.startswith("REF::"):
                key = op_type[5:]
                if key not in prims:
                    raise MindIRError(f"MindIR node {out!r} refers to an unknown primitive {key!r}")
                op_name, attrs = prims[key]
            else:
                op_name, attrs = op_type, _attrs(node.get("attribute", []))
            self.nodes.append((op_name, list(node.get("input", [])), out, attrs))
        outs = graph.get("output", [])
        if len(outs) != 1:
            raise MindIRError(f"MindIR graph {self.name!r} has {len(outs)} outputs; expected one (a tuple is one)")
        self.output = outs[0]["name"]

    def __repr__(self) -> str:
        ins = ", ".join(f"{n.split(':')[-1]}: {dt}{list(s)}" for n, s, dt in self.inputs)
        return f"MindIRGraph({self.name!r}, inputs=({ins}), {len(self.params)} parameters, {len(self.nodes)} nodes)"

    def check_inputs(self, args: tuple) -> None:
        if len(args) != len(self.inputs):
            raise ValueError(f"For 'GraphCell', the graph takes {len(self.inputs)} inputs, but got {len(args)}.")
        for i, (arg, (_, shape, dtype)) in enumerate(zip(args, self.inputs)):
            if not isinstance(arg, Tensor):
                raise TypeError(f"For 'GraphCell', input {i} must be a Tensor, but got {type(arg).__name__}.")
            if arg.dtype != dtype or len(arg.shape) != len(shape) or any(
                    d >= 0 and d != a for d, a in zip(shape, arg.shape)):
                raise ValueError(f"For 'GraphCell', input {i} must be a {dtype} tensor of shape {list(shape)}, but "
                                 f"got {arg.dtype} {list(arg.shape)}.")

    def run(self, params: dict, *args):
        """Evaluate with ``params`` (full parameter name -> Parameter/Tensor) on ``args``."""
        env = dict(self.constants)
        env.update(params)
        env.update((name, a) for (name, _, _), a in zip(self.inputs, args))
        for op_name, inputs, out, attrs in self.nodes:
            try:
                values = [env[i] for i in inputs]
            except KeyError as exc:
                raise MindIRError(f"MindIR node {out!r} ({op_name}) reads {exc.args[0]!r}, which nothing defines") \
                    from None
            env[out] = run_node(op_name, values, attrs)
        result = env[self.output]
        return tuple(result) if isinstance(result, list) else result


def read(file_name: str) -> MindIRGraph:
    """Parse a ``.mindir`` file."""
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', please input "
                         "the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, please check whether the "
                         "'file_name' is correct.")
    with open(file_name, "rb") as f:
        data = f.read()
    try:
        model = S.SCHEMA.decode("Model", data)
    except (WireError, KeyError, IndexError) as exc:
        raise MindIRError(f"Load MindIR failed: {file_name} is not a valid MindIR file ({exc})") from None
    return MindIRGraph(model, file_name)
