"""``ckpt_to_safetensors`` / ``safetensors_to_ckpt``: convert checkpoint files between the two formats.

A single file converts next to itself (or into ``save_path``); a directory converts the files in its ``rank*``
sub-directories into the same layout under ``save_path``, as MindSpore lays out per-rank checkpoints.
"""
from __future__ import annotations

import os
import re
from .serialization import load_checkpoint, save_checkpoint

_SUFFIX = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def _convert_one(task) -> str:
    src, dst, name_map, src_format, dst_format = task
    params = load_checkpoint(src, format=src_format)
    if name_map:
        params = {name_map.get(name, name): value for name, value in params.items()}
    save_checkpoint(params, dst, format=dst_format)  # atomic: a failed write leaves no partial file
    return dst


def _tasks_for_dir(api, file_path, save_path, regex, name_map, src_format, dst_format) -> list:
    rank_dirs = sorted(d for d in os.listdir(file_path)
                       if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
    if not rank_dirs:
        raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
    tasks = []
    for rank_dir in rank_dirs:
        src_dir = os.path.join(file_path, rank_dir)
        dst_dir = os.path.join(save_path, rank_dir) if save_path is not None else src_dir
        for name in sorted(os.listdir(src_dir)):
            src = os.path.join(src_dir, name)
            if not name.endswith(_SUFFIX[src_format]) or not os.path.isfile(src):
                continue
            if regex is not None and not re.findall(regex, src):
                continue
            os.makedirs(dst_dir, exist_ok=True)
            dst = os.path.join(dst_dir, name[: -len(_SUFFIX[src_format])] + _SUFFIX[dst_format])
            tasks.append((src, dst, name_map, src_format, dst_format))
    return tasks


def _convert(api, file_path, save_path, name_map, file_name_regex, processes_num, src_format, dst_format) -> list:
    if not isinstance(file_path, str) or not (os.path.isdir(file_path) or os.path.isfile(file_path)):
        raise ValueError(f"For {api}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {api}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {api}, the type of 'name_map' must be a dict, but got '{type(name_map)}'")
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(f"For {api}, 'processes_num' must be a positive int, but got {processes_num!r}")
    if os.path.isdir(file_path):
        tasks = _tasks_for_dir(api, file_path, save_path, file_name_regex, name_map, src_format, dst_format)
    else:
        suffix = _SUFFIX[src_format]
        if not file_path.endswith(suffix):
            raise ValueError(f"For {api}, the input file must be a {suffix} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {api}, the input file does not match the regular expression.")
        dst_dir = save_path or os.path.dirname(file_path)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        base = os.path.basename(file_path)[: -len(suffix)] + _SUFFIX[dst_format]
        tasks = [(file_path, os.path.join(dst_dir, base), name_map, src_format, dst_format)]
    if processes_num > 1 and len(tasks) > 1:
        from concurrent.futures import ProcessPoolExecutor  # only here: multiprocessing costs import time

        with ProcessPoolExecutor(max_workers=processes_num) as pool:
            return list(pool.map(_convert_one, tasks))
    return [_convert_one(t) for t in tasks]


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert MindSpore ``.ckpt`` files (one file, or the ``rank*`` sub-directories of a directory) to safetensors;
    ``name_map`` renames parameters, ``file_name_regex`` selects files. Returns the written paths."""
    return _convert("ckpt_to_safetensors", file_path, save_path, name_map, file_name_regex, processes_num,
                    "ckpt", "safetensors")


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert ``.safetensors`` files to MindSpore ``.ckpt`` (same layout and options as ``ckpt_to_safetensors``)."""
    return _convert("safetensors_to_ckpt", file_path, save_path, name_map, file_name_regex, processes_num,
                    "safetensors", "ckpt")
