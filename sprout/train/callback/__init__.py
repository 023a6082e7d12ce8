"""Training/evaluation callbacks (MindSpore's ``mindspore.train.callback``)."""
from ._callback import Callback, RunContext, CallbackManager as _CallbackManager  # noqa: F401
from ._callback import InternalCallbackParam as _InternalCallbackParam  # noqa: F401
from ._monitors import LossMonitor, TimeMonitor, ProgressBar
from ._checkpoint import CheckpointConfig, ModelCheckpoint
from ._early_stop import EarlyStopping, ReduceLROnPlateau
from ._history import History, LambdaCallback, LearningRateScheduler
from ._summary_collector import SummaryCollector
from ._restore import BackupAndRestore, OnRequestExit

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "ProgressBar", "CheckpointConfig",
           "ModelCheckpoint", "EarlyStopping", "ReduceLROnPlateau", "History", "LambdaCallback",
           "LearningRateScheduler", "SummaryCollector", "BackupAndRestore", "OnRequestExit"]
