"""sprout: MindSpore's programming model (PyNative, graph mode, @jit) in pure Python on NumPy."""
import sys as _sys

from ._launch import launcher_process as _launcher_process

if _launcher_process(_sys.argv, getattr(_sys, "orig_argv", ())):  # msrun needs only the standard library
    from .msrun import main as _msrun_main

    raise SystemExit(_msrun_main(_sys.argv[1:]))
from . import dtype  # noqa: F401
from .dtype import (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16,  # noqa: F401
                    float32, float64, half, single, double, dtype_to_nptype, pytype_to_dtype)
from . import context  # noqa: F401
from .context import STRICT, COMPATIBLE, LAX  # noqa: F401
from .context import (set_context, get_context, GRAPH_MODE, PYNATIVE_MODE, ParallelMode,  # noqa: F401
                      set_auto_parallel_context, get_auto_parallel_context, reset_auto_parallel_context)
from .core.tensor import Tensor, Parameter, ParameterTuple  # noqa: F401
from . import ops  # noqa: F401
from .autodiff.api import grad, value_and_grad, vjp, GradOperation  # noqa: F401
from ._seed import set_seed, get_seed  # noqa: F401
from .jit.api import jit, ms_function, mutable, JitConfig  # noqa: F401
from .jit.classes import jit_class  # noqa: F401
from .common import initializer  # noqa: F401
from . import nn  # noqa: F401
from . import dataset  # noqa: F401
from . import mindrecord  # noqa: F401
from . import communication, parallel  # noqa: F401
from .context import set_algo_parameters, get_algo_parameters, reset_algo_parameters  # noqa: F401
from .context import (set_device, get_current_device, set_deterministic, set_recursion_limit,  # noqa: F401
                      DeviceInfo)
from . import runtime  # noqa: F401
from .parallel import Layout  # noqa: F401
from .parallel import (shard, build_searched_strategy, load_distributed_checkpoint,  # noqa: F401
                       merge_sliced_parameter, transform_checkpoints)
from . import train  # noqa: F401
from .train import (Model, Callback, RunContext, LossMonitor, TimeMonitor, ModelCheckpoint,  # noqa: F401
                    CheckpointConfig, EarlyStopping, ReduceLROnPlateau, History, LambdaCallback,
                    LearningRateScheduler, Metric, Accuracy, Loss, MAE, MSE, TopKCategoricalAccuracy,
                    Top1CategoricalAccuracy, Top5CategoricalAccuracy, get_metric_fn, names,
                    save_checkpoint, load_checkpoint, load_param_into_net)
from .train import LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager  # noqa: F401
from .train import SummaryRecord, SummaryCollector  # noqa: F401
from . import amp  # noqa: F401
from .deploy import export, load  # noqa: F401
from . import onnx  # noqa: F401
from . import log  # noqa: F401
from . import debug  # noqa: F401
from .profiler import Profiler  # noqa: F401

__version__ = "0.1.0"

_LAZY_SUBMODULES = ("numpy", "mint", "experimental")  # ms.numpy / ms.mint / ms.experimental, imported on first use


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
