"""Execution modes and every flag sprout has (MindSpore's set_context/get_context)."""
from __future__ import annotations

import os
import re
from typing import Any

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEFAULTS: dict[str, Any] = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    # write the IR of every compile stage that changed the graph (issue: graph compiler)
    "save_graphs": False,
    "save_graphs_path": ".",
    # log every compile / cache miss / graph break as it happens (quiet by default)
    "jit_log": False,
    # number of distinct sizes seen on one axis before jit switches that axis to symbolic
    "jit_dynamic_after": 3,
    # most compiled graphs kept per jitted function (least recently used evicted first; 0 = unbounded)
    "jit_cache_size": 64,
    # guarded entries kept per PIJit resume point (least recently used evicted first)
    "pijit_cache_size": 16,
    # directory for compiled kernels shared between processes ("" disables the disk cache)
    "kernel_cache_dir": os.path.join(os.path.expanduser("~"), ".cache", "sprout"),
    # optimisation level for compiled graphs when jit() gives none: "O0" no fusion, "O1" fusion (docs/fusion.md)
    "jit_level": "",
    # what AST capture does with code a graph cannot express when jit() gives no level (docs/syntax.md):
    # "LAX" runs it as Python between graph segments (JIT Fallback), "STRICT"/"COMPATIBLE" refuse it
    "jit_syntax_level": "LAX",
    # run the IR verifier (sprout.ir.verify: SSA, types, effect token and write-backs) on every graph after
    # tracing and after every pass; on for the whole test suite (tests/conftest.py), off by default (compile time)
    "verify_ir": False,
    # print progress lines to stderr when a dataset folder scan or a first pass over the data is slow
    "dataset_progress": True,
    # accepted for MindSpore compatibility, checked as MindSpore checks them, reported by get_context; they change
    # nothing on CPU (docs/context.md says why each is meaningless here)
    "max_call_depth": 1000,
    "pynative_synchronize": False,
    "enable_graph_kernel": False,
    "graph_kernel_flags": "",
    "max_device_memory": 1024.0,
    "variable_memory_max_size": "0",
    "mempool_block_size": 1.0,
    "memory_optimize_level": 0,
    "runtime_num_threads": 0,
    "inter_op_parallel_num": 0,
    "op_timeout": 900,
    "deterministic": "OFF",
    "check_bprop": False,
    "print_file_path": "",
    "jit_config": None,
    "reserve_class_name_in_scope": True,
    "enable_reduce_precision": True,
    "enable_auto_mixed_precision": False,
    "enable_sparse": False,
    "auto_tune_mode": "NO_TUNE",
    "ascend_config": {},
    "gpu_config": {},
    "exec_order": "bfs",
    "debug_level": 0,
    "enable_compile_cache": False,
    "compile_cache_path": "",
    "disable_format_transform": False,
    "aoe_tune_mode": "",
    "aoe_config": {},
    "profiling_options": "training_trace",
    "enable_profiling": False,
    "env_config_path": "",
    "infer_boost": "off",
    # distributed (docs/distributed.md): seconds a rank may wait in one collective before the job is ended with
    # the missing ranks named (None: wait forever); and the cross-rank check of every collective's op, shape
    # and dtype before its data moves (one small all-gather; a mismatch raises on every rank instead of hanging
    # or returning garbage)
    "comm_timeout": 300.0,
    "comm_check": True,
}

_VALID_DEVICE = ("CPU", "GPU", "Ascend")
# MindSpore's syntax-level constants (ms.STRICT, ms.COMPATIBLE, ms.LAX) and names
STRICT, COMPATIBLE, LAX = 0, 1, 2
_SYNTAX_LEVELS = {STRICT: "STRICT", COMPATIBLE: "COMPATIBLE", LAX: "LAX", "STRICT": "STRICT",
                  "COMPATIBLE": "COMPATIBLE", "LAX": "LAX"}
_flags: dict[str, Any] = dict(_DEFAULTS)


def set_context(**kwargs: Any) -> None:
    """Set one or more flags; unknown names and bad values raise ValueError."""
    for key, value in kwargs.items():
        if key in _ASCEND_ONLY:
            raise ValueError(f"set_context: set {key!r} through ascend_config (ascend_config={{{key!r}: ...}})")
        if key not in _flags:
            raise ValueError(f"set_context: unknown context option {key!r}; known: {sorted(_flags)}")
        value = _check_ms_flag(key, value)
        if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"set_context: mode must be GRAPH_MODE (0) or PYNATIVE_MODE (1), got {value!r}")
        if key == "device_target":
            if value not in _VALID_DEVICE:
                raise ValueError(f"set_context: device_target must be one of {_VALID_DEVICE}, got {value!r}")
            if value != "CPU":
                raise ValueError(f"set_context: sprout runs on CPU only; device_target={value!r} is not available")
        if key == "jit_level" and value not in ("", "O0", "O1", "O2"):
            raise ValueError(f"set_context: jit_level must be one of 'O0', 'O1', 'O2', got {value!r}")
        if key == "jit_syntax_level":
            value = _SYNTAX_LEVELS.get(value, value)
            if value not in _SYNTAX_LEVELS.values():
                raise ValueError(f"set_context: jit_syntax_level must be STRICT, COMPATIBLE or LAX, got {value!r}")
        if key == "comm_timeout" and value is not None and (isinstance(value, bool) or not isinstance(
                value, (int, float)) or value <= 0):
            raise ValueError(f"set_context: comm_timeout must be a positive number of seconds or None, got {value!r}")
        if key == "max_call_depth" and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise ValueError(f"set_context: max_call_depth must be a positive int, got {value!r}")
        if key == "comm_check" and not isinstance(value, bool):
            raise TypeError(f"set_context: comm_check must be a bool, got {type(value).__name__}")
        _flags[key] = value
        for fn in tuple(_listeners):
            fn(key)


# MindSpore's set_context type rules (a wrong type is a TypeError, as its args_type_check raises)
_MS_TYPES: dict[str, Any] = {
    "mode": int, "device_target": str, "device_id": int, "save_graphs": (bool, int), "save_graphs_path": str,
    "aoe_tune_mode": str, "aoe_config": dict, "enable_reduce_precision": bool, "variable_memory_max_size": str,
    "enable_auto_mixed_precision": bool, "inter_op_parallel_num": int, "enable_graph_kernel": bool,
    "reserve_class_name_in_scope": bool, "check_bprop": bool, "max_device_memory": str, "print_file_path": str,
    "max_call_depth": int, "env_config_path": str, "graph_kernel_flags": str, "runtime_num_threads": int,
    "pynative_synchronize": bool, "mempool_block_size": str, "disable_format_transform": bool, "op_timeout": int,
    "deterministic": str, "ascend_config": dict, "debug_level": int, "gpu_config": dict, "jit_config": dict,
    "enable_compile_cache": bool, "compile_cache_path": str, "exec_order": str,
    "profiling_options": str, "enable_profiling": bool, "infer_boost": str, "enable_sparse": bool,
    "auto_tune_mode": str,
}
_CHOICES: dict[str, tuple] = {
    "deterministic": ("ON", "OFF"), "exec_order": ("bfs", "dfs"), "debug_level": (0, 1),
    "memory_optimize_level": ("O0", "O1"), "aoe_tune_mode": ("online", "offline"), "infer_boost": ("on", "off"),
}
# keys MindSpore takes only inside ascend_config
_ASCEND_ONLY = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32", "conv_allow_hf32",
                "op_precision_mode", "host_scheduling_max_threshold", "ge_options", "op_debug_option")
_ASCEND_CFG: dict[str, Any] = {
    "precision_mode": ["force_fp16", "allow_fp32_to_fp16", "allow_mix_precision", "must_keep_origin_dtype",
                       "force_fp32", "allow_fp32_to_bf16", "allow_mix_precision_fp16", "allow_mix_precision_bf16"],
    "jit_compile": [True, False], "atomic_clean_policy": [0, 1], "matmul_allow_hf32": [True, False],
    "conv_allow_hf32": [True, False], "op_precision_mode": (str,), "ge_options": (dict,),
    "parallel_speed_up_json_path": (str, type(None)), "host_scheduling_max_threshold": (int,),
    "hccl_watchdog": (bool,), "op_debug_option": (str, type(None)),
}
_GPU_CFG: dict[str, list] = {
    "conv_fprop_algo": ["normal", "performance", "implicit_gemm", "precomp_gemm", "gemm", "direct", "fft",
                        "fft_tiling", "winograd", "winograd_nonfused"],
    "conv_dgrad_algo": ["normal", "performance", "algo_0", "algo_1", "fft", "fft_tiling", "winograd",
                        "winograd_nonfused"],
    "conv_wgrad_algo": ["normal", "performance", "algo_0", "algo_1", "fft", "algo_3", "fft_tiling",
                        "winograd_nonfused"],
    "conv_allow_tf32": [True, False], "matmul_allow_tf32": [True, False]}
_GB = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")


def _gb(key: str, value: str, minimum: float = 0.0) -> float:
    """A MindSpore size string ("3.5GB") in GB: more than 0, and at least ``minimum`` when one is given."""
    if not _GB.fullmatch(value):
        raise ValueError(f"set_context: '{key}' must be a size in GB such as \"5GB\" or \"3.5GB\", got {value!r}")
    size = float(value[:-2])
    if size == 0.0 or size < minimum:
        raise ValueError(f"set_context: '{key}' must be at least {minimum or 'more than 0'}GB, got {value!r}")
    return size


def _check_cfg(key: str, value: dict, table: dict) -> dict:
    for k, v in value.items():
        if k not in table:
            raise ValueError(f"set_context: the keys of '{key}' must be among {sorted(table)}, got {k!r}")
        allowed = table[k]
        if isinstance(allowed, list) and v not in allowed:
            raise ValueError(f"set_context: {key}[{k!r}] must be one of {allowed}, got {v!r}")
        if isinstance(allowed, tuple) and not isinstance(v, allowed):
            raise TypeError(f"set_context: {key}[{k!r}] must be {' or '.join(t.__name__ for t in allowed)}, "
                            f"got {type(v).__name__}")
    return dict(value)


def _check_ms_flag(key: str, value: Any) -> Any:
    """``value`` checked and normalised as MindSpore's set_context does (types: TypeError; values: ValueError)."""
    kind = _MS_TYPES.get(key)
    if kind is not None and not isinstance(value, kind) and not (key == "jit_config" and value is None):
        want = " or ".join(t.__name__ for t in kind) if isinstance(kind, tuple) else kind.__name__
        raise TypeError(f"set_context: '{key}' must be {want}, got {type(value).__name__} {value!r}")
    if key in _CHOICES and value not in _CHOICES[key]:
        raise ValueError(f"set_context: '{key}' must be one of {list(_CHOICES[key])}, got {value!r}")
    if key == "save_graphs":
        value = 2 if value is True else int(value)
        if not 0 <= value <= 3:
            raise ValueError(f"set_context: 'save_graphs' must be a bool or 0-3, got {value!r}")
    elif key == "max_call_depth" and value <= 0:
        raise ValueError(f"set_context: 'max_call_depth' must be greater than 0, got {value}")
    elif key == "device_id" and not 0 <= value <= 4095:
        raise ValueError(f"set_context: 'device_id' must be in range [0, 4095], got {value}")
    elif key in ("runtime_num_threads", "inter_op_parallel_num", "op_timeout") and value < 0:
        raise ValueError(f"set_context: '{key}' must be >= 0, got {value}")
    elif key == "max_device_memory":
        value = _gb(key, value)
    elif key == "mempool_block_size":
        value = _gb(key, value, 1.0)
    elif key == "variable_memory_max_size":
        if _gb(key, value) > 31:
            raise ValueError(f"set_context: 'variable_memory_max_size' must not be greater than 31GB, got {value!r}")
    elif key == "memory_optimize_level":
        value = 0 if value == "O0" else 1
    elif key == "ascend_config":
        value = _check_cfg(key, value, _ASCEND_CFG)
    elif key == "gpu_config":
        value = _check_cfg(key, value, _GPU_CFG)
    elif key == "aoe_config":
        value = _check_cfg(key, value, {"job_type": ["1", "2"]})
    elif key == "jit_config" and value is not None:
        value = _check_cfg(key, value, {"jit_level": ["O0", "O1", "O2"], "infer_boost": ["on", "off"]})
        if value.get("infer_boost") == "on" and value.get("jit_level") in ("O1", "O2"):
            raise ValueError("set_context: jit_config infer_boost='on' needs jit_level 'O0'")
    elif key == "env_config_path":
        _check_json_file(key, value)
    elif key == "print_file_path" and value and os.path.isdir(value):
        raise OSError(f"set_context: 'print_file_path' must be a file path, got the directory {value!r}")
    return value


def _check_json_file(key: str, path: str) -> None:
    import json

    if not os.path.isfile(path):
        raise ValueError(f"set_context: the '{key}' file {os.path.realpath(path)!r} does not exist")
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
    except ValueError as exc:
        raise ValueError(f"set_context: the '{key}' file {path!r} is not valid JSON: {exc}") from exc


def syntax_level_override() -> str | None:
    """MindSpore's ``MS_DEV_JIT_SYNTAX_LEVEL`` environment variable (0 STRICT, 1 COMPATIBLE, 2 LAX): when set it
    beats a jit_config's and the context's jit_syntax_level, as in MindSpore (read at each compile)."""
    value = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL")
    if not value:
        return None
    level = _SYNTAX_LEVELS.get(int(value) if value.strip().isdigit() else value.strip().upper())
    if level is None:
        raise ValueError(f"MS_DEV_JIT_SYNTAX_LEVEL must be 0 (STRICT), 1 (COMPATIBLE) or 2 (LAX), got {value!r}")
    return level


def jit_syntax_level(*preferred: str | None) -> str:
    """The syntax level a compile uses, resolved in one place for AST jit entries and PIJit segments alike:
    ``MS_DEV_JIT_SYNTAX_LEVEL`` when set, else the first non-empty ``preferred`` level (a decorator's, a Cell's
    jit_config), else ``set_context(jit_syntax_level=...)``."""
    return syntax_level_override() or next((p for p in preferred if p), None) or _flags["jit_syntax_level"]


def get_context(key: str) -> Any:
    if key not in _flags:
        raise ValueError(f"get_context: unknown context option {key!r}")
    return _flags[key]


def reset_context() -> None:
    """Restore every flag to its default (used by tests)."""
    _flags.clear()
    _flags.update(_DEFAULTS)
    _device_chosen.clear()
    for fn in tuple(_listeners):
        fn("")


_listeners: list = []


def on_change(fn) -> None:
    """Call ``fn(key)`` after ``set_context`` changes a flag (``""``: after ``reset_context``). The jit
    empties its per-call fast tables this way, so a changed flag reaches the cache key."""
    _listeners.append(fn)


def set_default(**kwargs: Any) -> None:
    """Change the value ``reset_context()`` restores, and the current one (a test suite turns
    ``verify_ir`` on for every test this way)."""
    for key in kwargs:
        if key not in _DEFAULTS:
            raise ValueError(f"set_default: unknown context option {key!r}")
    set_context(**kwargs)
    _DEFAULTS.update({k: _flags[k] for k in kwargs})


def is_graph_mode() -> bool:
    return _flags["mode"] == GRAPH_MODE


class ParallelMode:
    """MindSpore's parallel modes. On CPU sprout runs STAND_ALONE, DATA_PARALLEL and HYBRID_PARALLEL (data
    parallel when no operator is sharded); SEMI_AUTO_PARALLEL / AUTO_PARALLEL need ``shard``."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


# MindSpore's auto-parallel context: name -> (default, required type). Values are checked as MindSpore checks
# them; what sprout does with each is in docs/distributed.md.
_AUTO_PARALLEL_DEFAULTS: dict[str, tuple] = {
    "parallel_mode": (ParallelMode.STAND_ALONE, str), "device_num": (1, int), "global_rank": (0, int),
    "gradients_mean": (False, bool), "gradient_fp32_sync": (True, bool), "loss_repeated_mean": (True, bool),
    "parameter_broadcast": (False, bool), "full_batch": (False, bool), "dataset_strategy": ("data_parallel", None),
    "search_mode": ("recursive_programming", str), "auto_parallel_search_mode": ("recursive_programming", str),
    "enable_parallel_optimizer": (False, bool), "all_reduce_fusion_config": ([], list), "pipeline_stages": (1, int),
    "pipeline_result_broadcast": (False, bool),
    "strategy_ckpt_load_file": ("", str), "strategy_ckpt_save_file": ("", str),
    "strategy_ckpt_config": ({"load_file": "", "save_file": "", "only_trainable_params": True}, dict),
    "comm_fusion": ({"openstate": True, "allreduce": {"mode": "auto", "config": None},
                     "allgather": {"mode": "auto", "config": None},
                     "reducescatter": {"mode": "auto", "config": None}}, dict),
    "enable_alltoall": (False, bool), "force_fp32_communication": (False, bool), "grad_accumulation_step": (1, int),
    "sharding_propagation": (False, bool), "optimizer_weight_shard_size": (-1, int),
    "parallel_optimizer_config": ({}, dict),
    "pipeline_config": ({"pipeline_interleave": False, "pipeline_scheduler": "1f1b"}, dict),
}
_SEARCH_MODES = ("recursive_programming", "sharding_propagation", "dynamic_programming")


def _auto_parallel_fresh() -> dict[str, Any]:
    import copy

    return {k: copy.deepcopy(v[0]) for k, v in _AUTO_PARALLEL_DEFAULTS.items()}


_auto_parallel: dict[str, Any] = _auto_parallel_fresh()
_auto_parallel_set: set = set()  # keys given explicitly (device_num: unset means the group size)


def _check_auto_parallel(key: str, value: Any) -> Any:
    if key not in _AUTO_PARALLEL_DEFAULTS:
        raise ValueError(f"Set context keyword {key} is not recognized!")
    kind = _AUTO_PARALLEL_DEFAULTS[key][1]
    if kind is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
    if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
        raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                         "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                         f"but got the value : {value}.")
    if key == "device_num" and not 1 <= value <= 4096:
        raise ValueError("The context configuration parameter 'device_num' must be a positive integer, "
                         f"but got the value of device_num : {value}.")
    if key == "global_rank" and not 0 <= value <= 4095:
        raise ValueError("The context configuration parameter 'global_rank' must be in [0, 4095], "
                         f"but got the value of global_rank : {value}.")
    if key in ("search_mode", "auto_parallel_search_mode") and value not in _SEARCH_MODES:
        raise ValueError(f"The context configuration parameter '{key}' only support 'recursive_programming', "
                         f"'dynamic_programming' and 'sharding_propagation', but got the value : {value}.")
    if key == "pipeline_stages" and value < 1:
        raise ValueError("For 'set_auto_parallel_context', the argument 'pipeline_stages' must be larger than "
                         f"zero, but got value: {value}.")
    if key == "grad_accumulation_step" and value != 1:
        raise ValueError("The interface is deprecated. To use gradient accumulation, please use GradAccumulation "
                         "in mindspore.nn.wrap.cell_wrapper.")
    if key == "dataset_strategy" and not (value in ("data_parallel", "full_batch") or isinstance(value, tuple)):
        raise ValueError("For 'set_auto_parallel_context', the argument 'dataset_strategy' must be "
                         f"'full_batch', 'data_parallel' or a tuple of strategies, but got {value!r}.")
    if key == "all_reduce_fusion_config":
        if any(not isinstance(i, int) or isinstance(i, bool) or i < 0 for i in value):
            raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', the argument "
                            f"'indices' must be a list of non-negative ints, but got {value!r}.")
        if len(set(value)) != len(value):
            raise ValueError("The indices has duplicate elements")
        value = sorted(value)
    if key == "comm_fusion":
        value = _check_comm_fusion(value)
    if key == "parallel_optimizer_config":
        value = _check_parallel_optimizer_config(value)
    if key == "pipeline_config":
        value = _check_pipeline_config(value)
    return value


_PIPELINE_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _check_pipeline_config(config: dict) -> dict:
    """MindSpore's checks of ``pipeline_config``: both keys given; without interleave only '1f1b' is allowed."""
    unknown = [k for k in config if k not in ("pipeline_interleave", "pipeline_scheduler")]
    if unknown:
        raise ValueError(f"Unknown config: {unknown}")
    interleave, scheduler = config["pipeline_interleave"], config["pipeline_scheduler"]  # KeyError as MindSpore
    if not isinstance(interleave, bool):
        raise TypeError("For 'pipeline_interleave', the 'pipeline_interleave' must be a bool, but got "
                        f"{type(interleave).__name__}.")
    if not isinstance(scheduler, str) or scheduler not in _PIPELINE_SCHEDULERS:
        raise ValueError(f"The 'parameter' must be str and must be in '{list(_PIPELINE_SCHEDULERS)}', but got "
                         f"{scheduler!r}.")
    if not interleave and scheduler != "1f1b":
        raise TypeError(f"When pipeline_interleave is False, {scheduler!r} is not supported, only '1f1b' is allowed.")
    return {"pipeline_interleave": interleave, "pipeline_scheduler": scheduler}


def _check_parallel_optimizer_config(config: dict) -> dict:
    """MindSpore's checks; the keys given are merged into the ones set before (as MindSpore's context keeps them)."""
    known = ("gradient_accumulation_shard", "parallel_optimizer_threshold", "optimizer_weight_shard_size",
             "optimizer_level")
    unknown = [k for k in config if k not in known]
    if unknown:
        raise ValueError(f"Unknown config: {unknown}")
    for name in ("parallel_optimizer_threshold", "optimizer_weight_shard_size"):
        v = config.get(name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise TypeError(f"For '{name}', the type of '{name}' must be int, but got {type(v).__name__}.")
    if not isinstance(config.get("gradient_accumulation_shard", False), bool):
        raise TypeError("For 'gradient_accumulation_shard', the type of 'gradient_accumulation_shard' must be bool.")
    if config.get("parallel_optimizer_threshold", 0) < 0:
        raise ValueError("For 'parallel_optimizer_threshold', the 'parallel_optimizer_threshold' must be a "
                         f"non-negative int, but got {config['parallel_optimizer_threshold']}.")
    size = config.get("optimizer_weight_shard_size", -1)
    if size != -1 and size <= 0:
        raise ValueError(f"For 'optimizer_weight_shard_size', the 'optimizer_weight_shard_size' must be a positive "
                         f"int, but got {size}.")
    level = config.get("optimizer_level")
    if level is not None and level not in ("level1", "level2", "level3"):
        raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {level}")
    return {**_auto_parallel.get("parallel_optimizer_config", {}), **config}


def _check_comm_fusion(config: dict) -> dict:
    fresh = _auto_parallel_fresh()["comm_fusion"]
    for name, item in config.items():
        if name == "openstate":
            if not isinstance(item, bool):
                raise TypeError(f"For 'comm_fusion', the 'openstate' must be bool, but got the type : {type(item)}.")
        elif name in ("allreduce", "allgather", "reducescatter"):
            if not isinstance(item, dict):
                raise TypeError(f"For 'comm_fusion', {name} config must be dict, but got the type : {type(item)}.")
            for needed in ("mode", "config"):
                if needed not in item:
                    raise KeyError(f"For 'comm_fusion', the key '{needed}' should be contained.")
            modes = ("auto", "size", "index") if name == "allreduce" else ("auto", "size")
            if item["mode"] not in modes:
                raise KeyError(f"fusion method mode must be {', '.join(modes)}, but got {item['mode']}")
            if item["mode"] == "size" and not (isinstance(item["config"], (int, float)) and item["config"] > 0):
                raise ValueError(f"fusion threshold must be larger than 0, but got {item['config']}")
        else:
            raise KeyError("comm fusion type must be openstate, allreduce, allgather or reducescatter, "
                           f"but got {name}")
        fresh[name] = item
    return fresh


def set_auto_parallel_context(**kwargs: Any) -> None:
    """MindSpore's auto-parallel settings, checked as MindSpore checks them (unknown keys: ValueError; wrong
    types: TypeError). Read at construction by TrainOneStepCell / Model / DistributedGradReducer."""
    checked = {key: _check_auto_parallel(key, value) for key, value in kwargs.items()}
    for a, b in (("search_mode", "auto_parallel_search_mode"), ("auto_parallel_search_mode", "search_mode")):
        if a in checked:  # two names of one setting (MindSpore keeps one strategy_search_mode)
            checked.setdefault(b, checked[a])
    _auto_parallel.update(checked)
    _auto_parallel_set.update(checked)


def get_auto_parallel_context(key: str) -> Any:
    if key in ("pipeline_interleave", "pipeline_scheduler"):  # MindSpore's getters of pipeline_config's keys
        return _auto_parallel["pipeline_config"][key]
    if key not in _auto_parallel or key == "pipeline_config":
        raise ValueError(f"Get context keyword {key} is not recognized!")
    return _auto_parallel[key]


def swap_pipeline_config(config: dict) -> dict:
    """Install ``config`` as the pipeline configuration (an AutoParallel cell's, checked by its own rules) and return
    the one it replaces."""
    old = _auto_parallel["pipeline_config"]
    _auto_parallel["pipeline_config"] = dict(config)
    return old


def reset_auto_parallel_context() -> None:
    _auto_parallel.clear()
    _auto_parallel.update(_auto_parallel_fresh())
    _auto_parallel_set.clear()


def auto_parallel_is_set(key: str) -> bool:
    """Whether ``key`` was given explicitly (MindSpore's ``get_device_num_is_set``)."""
    return key in _auto_parallel_set


# MindSpore's strategy-search parameters (``set_algo_parameters``): only AUTO_PARALLEL's search reads them
_ALGO_DEFAULTS: dict[str, tuple] = {
    "fully_use_devices": (False, bool), "elementwise_op_strategy_follow": (False, bool),
    "tensor_slice_align_enable": (False, bool), "tensor_slice_align_size": (16, int),
    "enable_algo_approxi": (False, bool), "algo_approxi_epsilon": (0.1, float),
}
_algo: dict[str, Any] = {k: v[0] for k, v in _ALGO_DEFAULTS.items()}


def set_algo_parameters(**kwargs: Any) -> None:
    """MindSpore's parameters of the AUTO_PARALLEL strategy search, checked as MindSpore checks them."""
    for key, value in kwargs.items():
        if key not in _ALGO_DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        kind = _ALGO_DEFAULTS[key][1]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon" and not 0 < value <= 1:
            raise ValueError(f"Epsilon must be in (0, 1], but got {value}")
    _algo.update(kwargs)


def get_algo_parameters(attr_key: str) -> Any:
    if attr_key not in _algo:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _algo[attr_key]


def reset_algo_parameters() -> None:
    _algo.update({k: v[0] for k, v in _ALGO_DEFAULTS.items()})


class DeviceInfo(tuple):
    """``(device_target, device_id)`` as MindSpore's ``get_current_device`` returns it (fields by name too)."""

    __slots__ = ()

    def __new__(cls, device_target: str, device_id: int):
        return super().__new__(cls, (device_target, device_id))

    device_target = property(lambda self: self[0])
    device_id = property(lambda self: self[1])


_device_chosen: list = []  # the (target, id) given to set_device, once


def set_device(device_target: str, device_id: int | None = None) -> None:
    """MindSpore's ``set_device``: the device once per process (a different choice later is a RuntimeError).
    sprout runs on CPU; GPU and Ascend are refused as a CPU-only MindSpore build refuses them."""
    if not isinstance(device_target, str):
        raise TypeError(f"set_device: 'device_target' must be str, got {type(device_target).__name__}")
    if device_target not in _VALID_DEVICE:
        raise ValueError(f"set_device: 'device_target' must be one of {list(_VALID_DEVICE)}, got {device_target}.")
    if device_id is not None and (not isinstance(device_id, int) or isinstance(device_id, bool)):
        raise TypeError(f"set_device: 'device_id' must be int, got {type(device_id).__name__}")
    if device_id is not None and device_id < 0:
        raise ValueError(f"set_device: 'device_id' must be >= 0, got {device_id}")
    if device_target != "CPU":
        raise RuntimeError(f"set_device: unsupported device target {device_target}; sprout runs on CPU only")
    chosen = (device_target, 0 if device_id is None else device_id)
    if _device_chosen and _device_chosen[0] != chosen:
        raise RuntimeError(f"set_device: the device is already {_device_chosen[0]} and cannot be changed")
    _device_chosen[:] = [chosen]
    set_context(device_target=chosen[0], device_id=chosen[1])


def get_current_device() -> DeviceInfo:
    return DeviceInfo(_flags["device_target"], _flags["device_id"])


def set_deterministic(deterministic: bool) -> None:
    """MindSpore's ``set_deterministic``: sprout's kernels are deterministic either way; the flag is reported
    by ``get_context("deterministic")`` ("ON"/"OFF")."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"set_deterministic: 'deterministic' must be bool, got {type(deterministic).__name__}")
    set_context(deterministic="ON" if deterministic else "OFF")


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """MindSpore's ``set_recursion_limit``: the call-depth limit of graph compilation (``max_call_depth``)."""
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool):
        raise TypeError(f"set_recursion_limit: 'recursion_limit' must be int, got {type(recursion_limit).__name__}")
    if recursion_limit <= 0:
        raise ValueError(f"set_recursion_limit: 'recursion_limit' must be > 0, got {recursion_limit}")
    set_context(max_call_depth=recursion_limit)
