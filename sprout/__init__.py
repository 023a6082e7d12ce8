"""sprout: MindSpore's programming model (PyNative, graph mode, @jit) in pure Python on NumPy."""
import sys as _sys

from ._launch import launcher_process as _launcher_process

if _launcher_process(_sys.argv, getattr(_sys, "orig_argv", ())):  # msrun needs only the standard library
    from .msrun import main as _msrun_main

    raise SystemExit(_msrun_main(_sys.argv[1:]))
from . import dtype  # noqa: F401
from .dtype import (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16,  # noqa: F401
                    float32, float64, bfloat16, complex64, complex128, cfloat, cdouble, half, single, double,
                    float8_e4m3fn, float8_e5m2, hifloat8, dtype_to_nptype, pytype_to_dtype)
from . import context  # noqa: F401
from .context import STRICT, COMPATIBLE, LAX  # noqa: F401
from .context import (set_context, get_context, GRAPH_MODE, PYNATIVE_MODE, ParallelMode,  # noqa: F401
                      set_auto_parallel_context, get_auto_parallel_context, reset_auto_parallel_context)
from .core.tensor import Tensor, Parameter, ParameterTuple  # noqa: F401
from . import ops  # noqa: F401
from .ops.sparse_tensor import COOTensor, CSRTensor, RowTensor, SparseTensor  # noqa: F401
from .autodiff.saved_hooks import saved_tensors_hooks  # noqa: F401
from .autodiff.api import grad, value_and_grad, vjp, GradOperation  # noqa: F401
from ._seed import set_seed, get_seed  # noqa: F401
from .core.generator import (Generator, default_generator, seed, manual_seed, initial_seed,  # noqa: F401
                             get_rng_state, set_rng_state)
from .jit.api import jit, ms_function, mutable, JitConfig  # noqa: F401
from .jit.classes import jit_class  # noqa: F401
from .common import initializer  # noqa: F401
from .context import set_algo_parameters, get_algo_parameters, reset_algo_parameters  # noqa: F401
from .context import (set_device, get_current_device, set_deterministic, set_recursion_limit,  # noqa: F401
                      DeviceInfo)
from . import debug  # noqa: F401  (records compiles from the start: sprout.debug.report())
from .common.tensor_api import tensor, from_numpy, from_dlpack, to_dlpack, frombuffer, swap_tensors  # noqa: F401
from .dtype import (int_, float_, uint, number, string, list_, tuple_, type_none, tensor_type,  # noqa: F401,A004
                    TensorType, Type, long, short, byte, ubyte, ushort, intc, intp, uintc, uintp,
                    dtype_to_pytype, get_py_obj_dtype)
from .dtype_kinds import BUILTIN_NAMED as _BUILTIN_NAMED
from .ops import constexpr, is_tensor, vmap, jvp, jacfwd, jacrev, get_grad  # noqa: F401
from .jit.inline import lazy_inline, no_inline  # noqa: F401
from .run_check import run_check  # noqa: F401  (the function, not the module of the same name)

from . import version  # noqa: F401
from .version import __version__  # noqa: F401  (the MindSpore API level; sprout's own: version.sprout_version)

# Imported on first use (PEP 562), so that `import sprout` costs only what every program needs (tensors, ops,
# jit): a job's ranks import sprout at start-up, and nn/train/dataset... are about half of the whole import.
# `ms.nn`, `from sprout import Model` and `import sprout.train` behave as if they had been imported here.
_LAZY_SUBMODULES = ("nn", "dataset", "mindrecord", "communication", "parallel", "runtime", "train", "amp", "onnx",
                    "log", "deploy", "profiler", "device_context", "hal", "numpy", "mint",
                    "experimental")
_LAZY_NAMES = {
    "parallel": ("Layout", "reshard", "shard", "build_searched_strategy", "load_distributed_checkpoint",
                 "merge_sliced_parameter", "transform_checkpoints", "rank_list_for_transform",
                 "transform_checkpoint_by_rank", "unified_safetensors", "load_segmented_checkpoints",
                 "merge_pipeline_strategys", "sync_pipeline_shared_parameters"),
    "train": ("Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
              "EarlyStopping", "ReduceLROnPlateau", "History", "LambdaCallback", "LearningRateScheduler", "Metric",
              "Accuracy", "Loss", "MAE", "MSE", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
              "Top5CategoricalAccuracy", "get_metric_fn", "names", "save_checkpoint", "load_checkpoint",
              "load_param_into_net", "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
              "SummaryRecord", "SummaryCollector", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric",
              "CosineSimilarity", "Dice", "F1", "Fbeta", "HausdorffDistance", "MeanSurfaceDistance",
              "OcclusionSensitivity", "Perplexity", "Precision", "ROC", "Recall", "RootMeanSquareDistance", "auc",
              "rearrange_inputs", "BackupAndRestore", "OnRequestExit"),
    "train.ckpt_async": ("load_checkpoint_async", "async_ckpt_thread_status"),
    "train.ckpt_convert": ("ckpt_to_safetensors", "safetensors_to_ckpt"),
    "train.dataset_helper": ("DatasetHelper", "connect_network_with_dataset", "data_sink"),
    "mindrecord": ("FileWriter", "FileReader", "Cifar10ToMR", "Cifar100ToMR", "CsvToMR", "ImageNetToMR", "MnistToMR",
                   "SUCCESS", "FAILED"),
    "amp": ("build_train_network",),
    "deploy": ("export", "load"),
    "deploy.mindir_proto": ("load_mindir", "save_mindir"),
    "profiler": ("Profiler",),
    "runtime": ("synchronize", "empty_cache", "launch_blocking", "dispatch_threads_num", "set_memory",
                "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
                "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated",
                "reset_max_memory_reserved", "Stream", "Event", "StreamCtx", "current_stream", "default_stream",
                "communication_stream", "set_cur_stream", "ms_memory_recycle"),
    "log": ("get_level", "get_log_config"),
    "nn.recompute": ("recompute",),
}
_LAZY = {name: module for module, names in _LAZY_NAMES.items() for name in names}


def __getattr__(name):
    if name in _BUILTIN_NAMED:  # ms.int / ms.float / ms.bool (never globals here: they would shadow the builtins)
        return _BUILTIN_NAMED[name]
    if name in _LAZY_SUBMODULES or name in _LAZY:
        import importlib

        if name in _LAZY_SUBMODULES:
            return importlib.import_module(f"{__name__}.{name}")  # the import binds it here too
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value  # later lookups are plain attribute reads
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | set(_LAZY))


# `from sprout import *` gives what it gave when everything was imported here (the lazy names import on the way;
# ms.numpy / mint / experimental never were in it: `numpy` would shadow the user's)
__all__ = sorted({n for n in globals() if not n.startswith("_")} | set(_LAZY)
                 | set(_LAZY_SUBMODULES) - {"numpy", "mint", "experimental"})
