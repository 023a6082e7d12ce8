"""Execution modes and every flag sprout has (MindSpore's set_context/get_context)."""
from __future__ import annotations

import os
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
    # accepted for MindSpore compatibility; they change nothing on CPU
    "max_call_depth": 1000,
    "pynative_synchronize": False,
    "enable_graph_kernel": False,
    "max_device_memory": "1024GB",
    "memory_optimize_level": "O0",
    "runtime_num_threads": 0,
    "inter_op_parallel_num": 0,
    "deterministic": "OFF",
    "check_bprop": False,
    "print_file_path": "",
    "jit_config": None,
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
        if key not in _flags:
            raise ValueError(f"set_context: unknown context option {key!r}; known: {sorted(_flags)}")
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
        if key == "save_graphs":
            value = int(value)
        if key == "comm_timeout" and value is not None and (isinstance(value, bool) or not isinstance(
                value, (int, float)) or value <= 0):
            raise ValueError(f"set_context: comm_timeout must be a positive number of seconds or None, got {value!r}")
        if key == "comm_check" and not isinstance(value, bool):
            raise TypeError(f"set_context: comm_check must be a bool, got {type(value).__name__}")
        _flags[key] = value
        for fn in tuple(_listeners):
            fn(key)


def get_context(key: str) -> Any:
    if key not in _flags:
        raise ValueError(f"get_context: unknown context option {key!r}")
    return _flags[key]


def reset_context() -> None:
    """Restore every flag to its default (used by tests)."""
    _flags.clear()
    _flags.update(_DEFAULTS)
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
    "strategy_ckpt_load_file": ("", str), "strategy_ckpt_save_file": ("", str),
    "strategy_ckpt_config": ({"load_file": "", "save_file": "", "only_trainable_params": True}, dict),
    "comm_fusion": ({"openstate": True, "allreduce": {"mode": "auto", "config": None},
                     "allgather": {"mode": "auto", "config": None},
                     "reducescatter": {"mode": "auto", "config": None}}, dict),
    "enable_alltoall": (False, bool), "force_fp32_communication": (False, bool), "grad_accumulation_step": (1, int),
    "sharding_propagation": (False, bool), "optimizer_weight_shard_size": (-1, int),
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
    return value


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
    _auto_parallel.update(checked)
    _auto_parallel_set.update(checked)


def get_auto_parallel_context(key: str) -> Any:
    if key not in _auto_parallel:
        raise ValueError(f"Get context keyword {key} is not recognized!")
    return _auto_parallel[key]


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
