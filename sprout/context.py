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
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"


_auto_parallel: dict[str, Any] = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False, "device_num": 1}


def set_auto_parallel_context(**kwargs: Any) -> None:
    for key, value in kwargs.items():
        _auto_parallel[key] = value


def get_auto_parallel_context(key: str) -> Any:
    return _auto_parallel.get(key)


def reset_auto_parallel_context() -> None:
    _auto_parallel.clear()
    _auto_parallel.update({"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False, "device_num": 1})
