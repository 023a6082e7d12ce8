"""Per-rank checkpoint transforms of MindSpore's parallel API: ``rank_list_for_transform`` (which source ranks one
destination rank needs), ``transform_checkpoint_by_rank`` (one destination rank's checkpoint from those) and
``unified_safetensors`` (per-rank safetensors merged into whole parameters), over sprout's strategy files."""
from __future__ import annotations

import math
import os

import numpy as np

from ..core.tensor import Tensor
from .spmd_ckpt import block_index, build_searched_strategy


def _rank(api: str, rank_id) -> int:
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError(f"For '{api}', the argument 'rank_id' should be int, but got {type(rank_id).__name__}.")
    if rank_id < 0:
        raise ValueError(f"For '{api}', the argument 'rank_id' should be non-negative, but got {rank_id}.")
    return rank_id


def _strategy(api: str, arg: str, path) -> dict:
    if path is None:
        return {}
    if not isinstance(path, str):
        raise TypeError(f"For '{api}', the argument '{arg}' should be str or None, but got {type(path).__name__}.")
    return build_searched_strategy(path)


def _devices(strategy: dict) -> int:
    return max((math.prod(i["dev_matrix"]) for i in strategy.values()), default=1)


def _region(info: dict | None, rank: int, shape: tuple) -> tuple:
    return block_index(info, rank) if info else tuple(slice(0, s) for s in shape)


def _overlaps(a: tuple, b: tuple) -> bool:
    return all(x.start < y.stop and y.start < x.stop for x, y in zip(a, b))


def _sources(name: str, src: dict, dst: dict, rank: int) -> list:
    """The source ranks whose blocks of ``name`` cover ``rank``'s destination block (the lowest rank of each group
    of replicas)."""
    info = src.get(name)
    if info is None:
        return [0]  # replicated (or unsharded): any rank holds it whole
    shape = tuple(info["shape"])
    want = _region(dst.get(name), rank, shape)
    chosen: dict = {}
    for r in range(math.prod(info["dev_matrix"])):
        block = block_index(info, r)
        if _overlaps(block, want):
            chosen.setdefault(tuple((s.start, s.stop) for s in block), r)
    return sorted(chosen.values())


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None) -> list:
    """MindSpore's ``rank_list_for_transform``: the source ranks whose checkpoints ``transform_checkpoint_by_rank``
    needs to build destination rank ``rank_id``'s (``src_strategy_file`` None: an unsharded source, rank 0)."""
    rank_id = _rank("rank_list_for_transform", rank_id)
    src = _strategy("rank_list_for_transform", "src_strategy_file", src_strategy_file)
    dst = _strategy("rank_list_for_transform", "dst_strategy_file", dst_strategy_file)
    if dst and rank_id >= _devices(dst):
        raise ValueError(f"For 'rank_list_for_transform', rank_id {rank_id} is not a rank of the destination strategy "
                         f"({_devices(dst)} devices).")
    if not src:
        return [0]
    needed: set = set()
    for name in src:
        needed.update(_sources(name, src, dst, rank_id))
    return sorted(needed)


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name, src_strategy_file=None,
                                 dst_strategy_file=None) -> None:
    """MindSpore's ``transform_checkpoint_by_rank``: destination rank ``rank_id``'s checkpoint (its blocks under
    ``dst_strategy_file``; None: whole parameters) built from the source ranks' checkpoints in
    ``checkpoint_files_map`` ({source rank: file}) sliced by ``src_strategy_file``."""
    from ..train.serialization import load_checkpoint, save_checkpoint

    api = "transform_checkpoint_by_rank"
    rank_id = _rank(api, rank_id)
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError(f"For '{api}', the argument 'checkpoint_files_map' should be a dict, but got "
                        f"{type(checkpoint_files_map).__name__}.")
    if not isinstance(save_checkpoint_file_name, str):
        raise TypeError(f"For '{api}', the argument 'save_checkpoint_file_name' should be str, but got "
                        f"{type(save_checkpoint_file_name).__name__}.")
    for r, path in checkpoint_files_map.items():
        if not isinstance(r, int) or not isinstance(path, str):
            raise TypeError(f"For '{api}', 'checkpoint_files_map' maps int ranks to file names, got {r!r}: {path!r}.")
        if not os.path.isfile(path):
            raise ValueError(f"For '{api}', the checkpoint file {path} of rank {r} does not exist.")
    src = _strategy(api, "src_strategy_file", src_strategy_file)
    dst = _strategy(api, "dst_strategy_file", dst_strategy_file)
    loaded: dict = {}

    def ckpt(r: int) -> dict:
        if r not in checkpoint_files_map:
            raise ValueError(f"For '{api}', destination rank {rank_id} needs the checkpoint of source rank {r}, "
                             f"which is not in 'checkpoint_files_map' (rank_list_for_transform lists them)")
        if r not in loaded:
            loaded[r] = load_checkpoint(checkpoint_files_map[r])
        return loaded[r]

    first = ckpt(min(checkpoint_files_map)) if checkpoint_files_map else {}
    entries = []
    for name, value in first.items():
        info = src.get(name)
        if not isinstance(value, Tensor):
            entries.append({"name": name, "data": value})
            continue
        if info is None:
            whole = value.asnumpy()
        else:
            whole = np.empty(tuple(info["shape"]), value.asnumpy().dtype)
            for r in _sources(name, src, dst, rank_id):
                whole[block_index(info, r)] = ckpt(r)[name].asnumpy()
        out = whole[_region(dst.get(name), rank_id, whole.shape)]
        entries.append({"name": name, "data": Tensor(np.ascontiguousarray(out))})
    os.makedirs(os.path.dirname(os.path.abspath(save_checkpoint_file_name)), exist_ok=True)
    save_checkpoint(entries, save_checkpoint_file_name)


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True, file_suffix=None,
                        max_process_num=64, choice_func=None, split_dst_file=()) -> None:
    """MindSpore's ``unified_safetensors``: the per-rank safetensors in ``src_dir/rank_{r}/`` merged by
    ``src_strategy_file`` into whole parameters, written to ``dst_dir`` (one file; ``choice_func(name)`` picks
    the parameters kept)."""
    from ..train.serialization import load_checkpoint, save_checkpoint

    api = "unified_safetensors"
    for arg, v in (("src_dir", src_dir), ("dst_dir", dst_dir)):
        if not isinstance(v, str):
            raise TypeError(f"For '{api}', the argument '{arg}' should be str, but got {type(v).__name__}.")
    if not isinstance(merge_with_redundancy, bool):
        raise TypeError(f"For '{api}', 'merge_with_redundancy' should be bool.")
    if not merge_with_redundancy:
        raise NotImplementedError(f"For '{api}', merge_with_redundancy=False (de-duplicated sources saved with "
                                  "remove_redundancy) is not supported by sprout")
    if split_dst_file:
        raise NotImplementedError(f"For '{api}', split_dst_file (writing the result in parts) is not supported by "
                                  "sprout")
    if not isinstance(max_process_num, int) or max_process_num < 1:
        raise ValueError(f"For '{api}', 'max_process_num' should be a positive int, but got {max_process_num!r}.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For '{api}', 'choice_func' should be callable.")
    strategy = build_searched_strategy(src_strategy_file) if src_strategy_file else {}
    ranks = sorted(int(d[5:]) for d in os.listdir(src_dir) if d.startswith("rank_") and d[5:].isdigit())
    if not ranks or ranks != list(range(len(ranks))):
        raise ValueError(f"For '{api}', {src_dir} must hold rank_0 ... rank_N-1 directories, found {ranks}")
    files = []
    for r in ranks:
        d = os.path.join(src_dir, f"rank_{r}")
        found = sorted(f for f in os.listdir(d) if f.endswith(".safetensors")
                       and (file_suffix is None or f.endswith(f"{file_suffix}.safetensors")))
        if not found:
            raise ValueError(f"For '{api}', no safetensors file in {d}")
        files.append(os.path.join(d, found[-1]))
    loaded = [load_checkpoint(f, format="safetensors") for f in files]
    entries = []
    for name, first in loaded[0].items():
        if choice_func is not None and not choice_func(name):
            continue
        info = strategy.get(name)
        if info is None:
            entries.append({"name": name, "data": first})
            continue
        whole = np.empty(tuple(info["shape"]), first.asnumpy().dtype)
        for r in range(math.prod(info["dev_matrix"])):
            whole[block_index(info, r)] = loaded[r][name].asnumpy()
        entries.append({"name": name, "data": Tensor(whole)})
    os.makedirs(dst_dir, exist_ok=True)
    save_checkpoint(entries, os.path.join(dst_dir, "unified.safetensors"), format="safetensors")
