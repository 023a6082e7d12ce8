"""High-level training: Model, callbacks, metrics, learning-rate lists and checkpoint serialization."""
from .callback import (Callback, RunContext, LossMonitor, TimeMonitor, ProgressBar, CheckpointConfig,  # noqa: F401
                       ModelCheckpoint, EarlyStopping, ReduceLROnPlateau, History, LambdaCallback,
                       LearningRateScheduler)
from .metrics import (Metric, Accuracy, Loss, MAE, MSE, TopKCategoricalAccuracy, Top1CategoricalAccuracy,  # noqa: F401
                      Top5CategoricalAccuracy, get_metric_fn, get_metrics, names, rearrange_inputs, Precision,
                      Recall, Fbeta, F1, Dice, ConfusionMatrix, ConfusionMatrixMetric, ROC, auc, HausdorffDistance,
                      MeanSurfaceDistance, RootMeanSquareDistance, BleuScore, CosineSimilarity, Perplexity,
                      OcclusionSensitivity)
from . import lr  # noqa: F401
from .lr import (piecewise_constant_lr, exponential_decay_lr, natural_exp_decay_lr, inverse_decay_lr,  # noqa: F401
                 cosine_decay_lr, polynomial_decay_lr, warmup_lr)

from .serialization import save_checkpoint, load_checkpoint, load_param_into_net  # noqa: F401
from .loss_scale_manager import LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager  # noqa: F401
from .model import Model  # noqa: F401
from .callback import SummaryCollector, BackupAndRestore, OnRequestExit  # noqa: F401
from .summary import SummaryRecord  # noqa: F401
from .ckpt_async import load_checkpoint_async, async_ckpt_thread_status  # noqa: F401
from .ckpt_convert import ckpt_to_safetensors, safetensors_to_ckpt  # noqa: F401
from .dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink  # noqa: F401
