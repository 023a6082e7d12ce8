"""MindSpore's pipeline checkpoint helpers: ``load_segmented_checkpoints`` (every stage's checkpoint in a directory,
combined), ``merge_pipeline_strategys`` (the strategy files of several stages or ranks in one file) and
``sync_pipeline_shared_parameters`` (parameters of cells on several stages take the first stage's values)."""
from __future__ import annotations

import glob
import json
import os

from ..communication import management
from ..core.tensor import Tensor
from .spmd_ckpt import build_searched_strategy


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                               dec_mode="AES-GCM", specify_prefix=None, choice_func=None) -> dict:
    """Every ``*.ckpt`` in ``ckpt_file_dir`` loaded (into ``net`` too, when given) in file-name order, combined into
    one dict (a later file's entry replaces an earlier one of the same name)."""
    from ..train.serialization import load_checkpoint  # the checkpoint format belongs to train (an upper layer)

    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    out: dict = {}
    for path in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        out.update(load_checkpoint(path, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
                                   choice_func))
    return out


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file) -> None:
    """The layouts of every strategy file (``*.json``, as sprout writes them) in ``src_strategy_dirs`` written to
    ``dst_strategy_file``; two files giving one parameter different layouts raise ValueError."""
    if not isinstance(src_strategy_dirs, str) or not isinstance(dst_strategy_file, str):
        raise TypeError("For 'merge_pipeline_strategys', 'src_strategy_dirs' and 'dst_strategy_file' must be str.")
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    if not dst_strategy_file.endswith(".json"):
        raise ValueError("For 'merge_pipeline_strategys', sprout writes strategy files as JSON: the file name must "
                         f"end with '.json', got {dst_strategy_file!r}")
    files = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if not files:
        raise ValueError(f"For 'merge_pipeline_strategys', {src_strategy_dirs} holds no strategy file (*.json)")
    merged: dict = {}
    for path in files:
        for name, info in build_searched_strategy(path).items():
            if name in merged and merged[name] != info:
                raise ValueError(f"For 'merge_pipeline_strategys', the strategy files disagree on parameter {name!r}: "
                                 f"{merged[name]} vs {info} ({path})")
            merged[name] = info
    os.makedirs(os.path.dirname(os.path.abspath(dst_strategy_file)), exist_ok=True)
    tmp = f"{dst_strategy_file}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump({"parallel_layout": merged}, f, indent=1)
    os.replace(tmp, dst_strategy_file)


def _stages_of_parameters(net) -> dict:
    """id(Parameter) -> (the Parameter, the pipeline stages of the cells holding it: a cell without a stage of its own
    has its nearest staged ancestor's)."""
    found: dict = {}

    def visit(cell, inherited):
        stage = cell.__dict__.get("_pipeline_stage", inherited)
        for p in cell._params.values():
            if p is not None and stage is not None:
                found.setdefault(id(p), (p, set()))[1].add(stage)
        for child in cell._cells.values():
            if child is not None:
                visit(child, stage)

    visit(net, None)
    return found


def sync_pipeline_shared_parameters(net) -> None:
    """A Parameter held by cells of several pipeline stages (tied embeddings) takes the value of its first stage's
    rank on every rank (one Broadcast each, in parameter order); a collective, so every rank calls it."""
    from ..ops import comm_ops as K

    if not hasattr(net, "parameters_and_names"):
        raise TypeError(f"For 'sync_pipeline_shared_parameters', 'net' should be a Cell, but got {type(net).__name__}.")
    if management.get_group_size() == 1:
        return
    stages = _stages_of_parameters(net)
    for _, p in net.parameters_and_names():
        entry = stages.get(id(p))
        if entry is not None and len(entry[1]) > 1:
            value = K.broadcast(Tensor(p.asnumpy()), min(entry[1]))
            p.set_data(value[0] if isinstance(value, tuple) else value)


__all__ = ["load_segmented_checkpoints", "merge_pipeline_strategys", "sync_pipeline_shared_parameters"]
