"""MindSpore 2.10's Profiler options and enums, checked: kept when they change nothing on a host, refused otherwise."""
from __future__ import annotations

from enum import Enum


class ProfilerLevel(Enum):
    """How much device data MindSpore collects; sprout has no device, so every level records the same host events."""
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    AiCoreNone = "AiCoreNone"
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"


class ExportType(Enum):
    Db = "db"
    Text = "text"


# options that collect device or system data sprout cannot produce: only their default is accepted
_DEVICE_ONLY = {"l2_cache": False, "hbm_ddr": False, "pcie": False, "sys_io": False, "sys_interconnection": False,
                "parallel_strategy": False, "mstx": False}
# options whose every value leaves sprout's host output unchanged (kept in profiler_info.json):
# sync_enable (GPU kernel timing mode: host ops are synchronous), data_simplification (MindSpore deletes its
# intermediate FRAMEWORK files; sprout writes none)
_HOST_NEUTRAL = {"sync_enable": True, "data_simplification": True}
_BOOLS = {"with_stack": False, "profile_memory": False, "data_process": False, "record_shapes": False,
          **_DEVICE_ONLY, **_HOST_NEUTRAL}


def _enum(cls, value, name: str):
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        raise TypeError(f"Profiler: {name} must be a {cls.__name__} (one of {[m.value for m in cls]}), "
                        f"got {value!r}") from None


def check_options(kwargs: dict) -> dict:
    """The Profiler keyword options (other than output_path / start_profile) with MindSpore's defaults filled in."""
    known = set(_BOOLS) | {"profiler_level", "activities", "aic_metrics", "host_sys", "export_type",
                           "mstx_domain_include", "mstx_domain_exclude", "schedule", "on_trace_ready"}
    for key in kwargs:
        if key not in known:
            raise TypeError(f"Profiler got an unexpected keyword argument {key!r}")
    opts = {}
    for key, default in _BOOLS.items():
        value = kwargs.get(key, default)
        if not isinstance(value, bool):
            raise TypeError(f"Profiler: {key} must be a bool, got {value!r}")
        if key in _DEVICE_ONLY and value != default:
            raise ValueError(f"Profiler: {key}={value} collects Ascend device or system data; sprout runs on the host "
                             "and has none to collect")
        opts[key] = value
    if opts["data_process"]:
        raise NotImplementedError("Profiler: data_process=True (dataset pipeline timing) is not supported by sprout")
    if opts["record_shapes"]:
        raise NotImplementedError("Profiler: record_shapes=True is not supported by sprout (events carry no shapes)")
    opts["profiler_level"] = _enum(ProfilerLevel, kwargs.get("profiler_level", ProfilerLevel.Level0), "profiler_level")
    activities = kwargs.get("activities", [ProfilerActivity.CPU, ProfilerActivity.NPU])
    if not isinstance(activities, (list, tuple)):
        raise TypeError(f"Profiler: activities must be a list of ProfilerActivity, got {activities!r}")
    activities = [_enum(ProfilerActivity, a, "activities item") for a in activities]
    if ProfilerActivity.CPU not in activities:
        raise ValueError("Profiler: activities must include ProfilerActivity.CPU: sprout records host (framework) "
                         "events only, and there is no NPU/GPU data to collect")
    opts["activities"] = activities
    metrics = _enum(AicoreMetrics, kwargs.get("aic_metrics", AicoreMetrics.AiCoreNone), "aic_metrics")
    if metrics is not AicoreMetrics.AiCoreNone:
        raise ValueError(f"Profiler: aic_metrics={metrics.value} reads Ascend AI Core counters; sprout has none")
    opts["aic_metrics"] = metrics
    for key in ("host_sys", "mstx_domain_include", "mstx_domain_exclude"):
        value = kwargs.get(key) or []
        if value:
            raise ValueError(f"Profiler: {key}={value!r} is Ascend-only (msprof system / mstx data); sprout has none")
        opts[key] = []
    export = [_enum(ExportType, e, "export_type item") for e in (kwargs.get("export_type") or [ExportType.Text])]
    if export != [ExportType.Text]:
        raise ValueError("Profiler: export_type must be [ExportType.Text]; sprout writes no database (db) export")
    opts["export_type"] = export
    for key in ("schedule", "on_trace_ready"):
        if kwargs.get(key) is not None:
            raise NotImplementedError(f"Profiler: {key} is not supported by sprout (no step schedule: the profiler "
                                      "records from start() to stop())")
        opts[key] = None
    return opts
