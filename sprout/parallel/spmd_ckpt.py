"""Checkpoints of sharded parameters: which block of each parameter a rank owns (recorded by the SPMD pass),
per-rank slices (``save_checkpoint(..., integrated_save=False)``), the strategy file, and MindSpore's merge /
transform functions (``merge_sliced_parameter``, ``build_searched_strategy``, ``transform_checkpoints``,
``load_distributed_checkpoint``), all in NumPy with the same layout math."""
from __future__ import annotations

import json
import math
import os
import weakref

import numpy as np

from .. import context
from ..communication import management
from ..core.tensor import Parameter, Tensor

_LAYOUTS: dict = {}  # id(Parameter) -> (weakref to it, {"dev_matrix", "tensor_map", "shape"})


# ---- the layout record -----------------------------------------------------------------------------------------
def record(p: Parameter, mesh_shape: tuple, dims: tuple, shape: tuple, rank_list: list | None = None) -> None:
    """The SPMD pass placed ``p`` (global ``shape``) with ``dims`` (mesh axes per dim, major first) on a mesh whose
    device positions hold ``rank_list`` (recorded only when it is not the identity)."""
    n = len(mesh_shape)
    tensor_map = [(-1 if not axes else (n - 1 - axes[0] if len(axes) == 1 else [n - 1 - a for a in axes]))
                  for axes in dims]
    info = {"dev_matrix": list(mesh_shape), "tensor_map": tensor_map, "shape": list(shape)}
    if rank_list is not None and list(rank_list) != list(range(len(rank_list))):
        info["rank_list"] = list(rank_list)
    _LAYOUTS[id(p)] = (weakref.ref(p), info)


def layout_of(p: Parameter) -> dict | None:
    entry = _LAYOUTS.get(id(p))
    if entry is None or entry[0]() is not p:
        return None
    return entry[1]


def _axes(info: dict, d: int) -> list:
    """Mesh axes (from the left, major first) splitting dim ``d``."""
    n = len(info["dev_matrix"])
    e = info["tensor_map"][d]
    entries = e if isinstance(e, list) else [e]
    return [n - 1 - x for x in entries if x != -1]


def _coordinate(dev_matrix: list, rank: int) -> list:
    coord = []
    for m in reversed(dev_matrix):
        coord.append(rank % m)
        rank //= m
    return list(reversed(coord))


def block_index(info: dict, rank: int) -> tuple:
    """The index (slices) of ``rank``'s block of the parameter."""
    order = info.get("rank_list")
    coord = _coordinate(info["dev_matrix"], order.index(rank) if order else rank)
    out = []
    for d, size in enumerate(info["shape"]):
        axes = _axes(info, d)
        parts = math.prod(info["dev_matrix"][a] for a in axes)
        b = 0
        for a in axes:
            b = b * info["dev_matrix"][a] + coord[a]
        step = size // parts
        out.append(slice(b * step, (b + 1) * step))
    return tuple(out)


def slice_of(p: Parameter, rank: int | None = None) -> np.ndarray:
    """This rank's block of ``p`` (the whole array when the pass left it replicated or never saw it)."""
    info = layout_of(p)
    data = p.asnumpy()
    if info is None:
        return data
    return np.ascontiguousarray(data[block_index(info, management.get_rank() if rank is None else rank)])


# ---- the strategy file -----------------------------------------------------------------------------------------
def strategy_save_file() -> str:
    cfg = context.get_auto_parallel_context("strategy_ckpt_config") or {}
    return cfg.get("save_file") or context.get_auto_parallel_context("strategy_ckpt_save_file") or ""


def strategy_load_file() -> str:
    cfg = context.get_auto_parallel_context("strategy_ckpt_config") or {}
    return cfg.get("load_file") or context.get_auto_parallel_context("strategy_ckpt_load_file") or ""


def loaded_dims(info: dict, mesh_shape: tuple, rank_list: list, shape: tuple, name: str) -> tuple:
    """The mesh axes splitting each dim of parameter ``name`` as a loaded strategy file records them; the file must
    describe the same mesh, rank order and shape (else ValueError)."""
    if list(info["dev_matrix"]) != list(mesh_shape) or list(info["shape"]) != list(shape):
        raise ValueError(f"strategy_ckpt_config load_file: parameter {name!r} was saved as shape {info['shape']} on a "
                         f"device matrix {info['dev_matrix']}; here it has shape {list(shape)} on {list(mesh_shape)}")
    if info.get("rank_list", list(range(len(rank_list)))) != list(rank_list):
        raise ValueError(f"strategy_ckpt_config load_file: parameter {name!r} was saved with rank_list "
                         f"{info['rank_list']}; here the ranks are in the order {list(rank_list)}")
    return tuple(tuple(_axes(info, d)) for d in range(len(shape)))


def save_strategy(params: list, path: str) -> None:
    """Write each placed parameter's layout to ``path`` (JSON, as MindSpore reads a ``.json`` strategy file); rank 0
    writes it, atomically."""
    if not path.endswith(".json"):
        raise ValueError(f"strategy_ckpt_config: sprout writes the strategy file as JSON; the file name must end "
                         f"with '.json', got {path!r}")
    if management.get_rank() != 0:
        return
    table = {p.name: layout_of(p) for p in params if layout_of(p) is not None}
    tmp = f"{path}.tmp{os.getpid()}"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(tmp, "w") as f:
        json.dump({"parallel_layout": table}, f, indent=1)
    os.replace(tmp, path)


def build_searched_strategy(strategy_filename) -> dict:
    """MindSpore's ``build_searched_strategy``: parameter name -> its layout (``dev_matrix``, ``tensor_map`` counted
    from the right, global ``shape``) from a strategy file sprout wrote."""
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For 'build_searched_strategy', the argument 'strategy_filename' should be str, but got "
                        f"{type(strategy_filename).__name__}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} does not exist.")
    if not strategy_filename.endswith(".json"):
        raise ValueError("For 'build_searched_strategy', sprout reads JSON strategy files (it writes them); "
                         f"{strategy_filename!r} is not one")
    with open(strategy_filename) as f:
        table = json.load(f).get("parallel_layout")
    if not isinstance(table, dict):
        raise ValueError(f"For 'build_searched_strategy', {strategy_filename} is not a strategy file")
    return table


# ---- merging ---------------------------------------------------------------------------------------------------
def merge_slices(slices: list, info: dict) -> np.ndarray:
    """The global array from every rank's block (``slices[r]`` is rank r's)."""
    n = math.prod(info["dev_matrix"])
    if len(slices) != n:
        raise ValueError(f"merge: {len(slices)} slices for a layout over {n} devices")
    out = None
    for r, s in enumerate(slices):
        s = np.asarray(s)
        if out is None:
            out = np.empty(tuple(info["shape"]), s.dtype)
        index = block_index(info, r)
        if s.shape != out[index].shape:
            raise ValueError(f"merge: rank {r}'s slice has shape {s.shape}, its block is {out[index].shape}")
        out[index] = s
    return out


def merge_sliced_parameter(sliced_parameters, strategy=None) -> Parameter:
    """MindSpore's ``merge_sliced_parameter``: one Parameter from the slices of every rank (in rank order); with
    ``strategy`` (``build_searched_strategy``'s dict) the slices are placed by the parameter's layout, without it
    they are concatenated on dim 0."""
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For 'merge_sliced_parameter', the 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters).__name__}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the 'sliced_parameters' should not be empty.")
    if strategy is not None and not isinstance(strategy, dict):
        raise TypeError(f"For 'merge_sliced_parameter', the 'strategy' should be dict, but got "
                        f"{type(strategy).__name__}.")
    names = {p.name for p in sliced_parameters}
    if len(names) != 1:
        raise ValueError(f"For 'merge_sliced_parameter', the slices must be one parameter's, got names {sorted(names)}")
    name = names.pop()
    arrays = [p.asnumpy() for p in sliced_parameters]
    if strategy is None:
        merged = np.concatenate(arrays, 0)
    else:
        if name not in strategy:
            raise KeyError(f"For 'merge_sliced_parameter', the parameter {name!r} is not in the strategy.")
        merged = merge_slices(arrays, strategy[name])
    return Parameter(Tensor(merged), name=name, requires_grad=sliced_parameters[0].requires_grad)


def _rank_files(src_dir: str, ckpt_prefix: str) -> list:
    ranks = sorted(int(d[5:]) for d in os.listdir(src_dir) if d.startswith("rank_") and d[5:].isdigit())
    if ranks != list(range(len(ranks))) or not ranks:
        raise ValueError(f"transform_checkpoints: {src_dir} must hold rank_0 ... rank_N-1 directories, found "
                         f"{ranks}")
    files = []
    for r in ranks:
        d = os.path.join(src_dir, f"rank_{r}")
        found = sorted(f for f in os.listdir(d) if f.startswith(ckpt_prefix) and f.endswith(".ckpt"))
        if not found:
            raise ValueError(f"transform_checkpoints: no checkpoint named {ckpt_prefix}*.ckpt in {d}")
        files.append(os.path.join(d, found[-1]))
    return files


def merge_checkpoints(files: list, strategy: dict) -> dict:
    """name -> global array from per-rank checkpoint files (rank order) and a strategy table."""
    from ..train.serialization import load_checkpoint

    loaded = [load_checkpoint(f) for f in files]
    out = {}
    for name, first in loaded[0].items():
        info = strategy.get(name)
        if info is None:  # replicated (or not placed by the pass): every rank holds the whole value
            out[name] = first.asnumpy() if isinstance(first, Tensor) else first
            continue
        out[name] = merge_slices([ld[name].asnumpy() for ld in loaded], info)
    return out


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                          dst_strategy_file=None, process_num=1, output_format="ckpt") -> None:
    """MindSpore's ``transform_checkpoints``: ``src_checkpoints_dir/rank_{r}/`` (one checkpoint per rank, sliced
    by ``src_strategy_file``) to ``dst_checkpoints_dir/rank_{r}/{ckpt_prefix}{r}.ckpt`` sliced by
    ``dst_strategy_file`` (None: the whole parameters, one rank)."""
    from ..train.serialization import save_checkpoint

    for arg, v in (("src_checkpoints_dir", src_checkpoints_dir), ("dst_checkpoints_dir", dst_checkpoints_dir),
                   ("ckpt_prefix", ckpt_prefix)):
        if not isinstance(v, str):
            raise TypeError(f"For 'transform_checkpoints', the '{arg}' should be str, but got {type(v).__name__}.")
    if output_format != "ckpt":
        raise ValueError("For 'transform_checkpoints', sprout writes output_format 'ckpt' only")
    src = build_searched_strategy(src_strategy_file) if src_strategy_file else {}
    merged = merge_checkpoints(_rank_files(src_checkpoints_dir, ckpt_prefix), src)
    dst = build_searched_strategy(dst_strategy_file) if dst_strategy_file else {}
    n_dst = max((math.prod(i["dev_matrix"]) for i in dst.values()), default=1)
    for r in range(n_dst):
        entries = []
        for name, value in merged.items():
            info = dst.get(name)
            if isinstance(value, np.ndarray):
                value = np.ascontiguousarray(value[block_index(info, r)]) if info else value
                entries.append({"name": name, "data": Tensor(value)})
            else:
                entries.append({"name": name, "data": value})
        d = os.path.join(dst_checkpoints_dir, f"rank_{r}")
        os.makedirs(d, exist_ok=True)
        save_checkpoint(entries, os.path.join(d, f"{ckpt_prefix}{r}.ckpt"))


def load_distributed_checkpoint(network, checkpoint_filenames, predict_strategy=None, train_strategy_filename=None,
                                strict_load=False, dec_key=None, dec_mode="AES-GCM", format="ckpt"):  # noqa: A002
    """MindSpore's ``load_distributed_checkpoint`` for a network that holds whole parameters: the per-rank files
    (rank order) merged by ``train_strategy_filename`` and loaded into ``network``."""
    from ..train.serialization import load_param_into_net

    if predict_strategy is not None:
        raise NotImplementedError("load_distributed_checkpoint: predict_strategy (loading into a sharded "
                                  "prediction network) is not supported; load the merged parameters instead")
    if dec_key is not None or format != "ckpt":
        raise NotImplementedError("load_distributed_checkpoint: encrypted or safetensors files are not supported")
    if not isinstance(checkpoint_filenames, list) or not checkpoint_filenames:
        raise TypeError("For 'load_distributed_checkpoint', 'checkpoint_filenames' should be a non-empty list.")
    strategy = build_searched_strategy(train_strategy_filename) if train_strategy_filename else {}
    merged = merge_checkpoints(list(checkpoint_filenames), strategy)
    params = {k: Parameter(Tensor(v), name=k) for k, v in merged.items() if isinstance(v, np.ndarray)}
    return load_param_into_net(network, params, strict_load=strict_load)


def slice_entries(net, entries: dict) -> None:
    """``save_checkpoint(net, ..., integrated_save=False)``: each placed parameter's entry becomes this rank's block."""
    for attr_name, p in net.parameters_and_names():
        name = getattr(p, "name", None) or attr_name
        if name in entries and layout_of(p) is not None:
            entries[name] = slice_of(p)
