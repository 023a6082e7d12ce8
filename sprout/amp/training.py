"""``build_train_network``: a network, loss and optimizer made into one mixed-precision, loss-scaled train step."""
from __future__ import annotations

from .. import dtype as mstype
from .. import nn
from ..nn import _precision
from ..train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager
from .levels import AMP_BLACK_LIST, _mark_black, auto_mixed_precision

_KEYS = ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager")


def _config(level: str) -> dict:
    """MindSpore's per-level defaults (O2 brings a DynamicLossScaleManager)."""
    return {
        "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
               "loss_scale_manager": DynamicLossScaleManager()},
        "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    }[level]


def _check_level(level, boost_level) -> None:
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'], but got type "
                        f"{type(level)}.")
    if level == "auto":
        raise NotImplementedError("build_train_network: level='auto' is not supported by sprout; use 'O1'-'O3'")
    if level not in ("O0", "O1", "O2", "O3"):
        raise ValueError(f"For 'build_train_network', the 'level' must be in ['O0', 'O1', 'O2', 'O3', 'auto'], "
                         f"but got '{level}'.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'build_train_network', the 'boost_level' must be in ['O0', 'O1', 'O2'], but got "
                         f"'{boost_level}'.")
    if boost_level != "O0":
        raise NotImplementedError(f"build_train_network: boost_level={boost_level!r} is not supported by sprout")


def _check_kwargs(kwargs: dict) -> None:
    for key in kwargs:
        if key not in _KEYS:
            raise ValueError(f"Unsupported arg '{key}'")
    cast_type = kwargs.get("cast_model_type", mstype.float32)
    if cast_type not in (mstype.float16, mstype.float32):
        raise TypeError(f"For 'cast_model_type', the type must be float16 or float32, but got {cast_type}.")
    if not isinstance(kwargs.get("keep_batchnorm_fp32", False), bool):
        raise TypeError("For 'keep_batchnorm_fp32', the type must be bool.")
    manager = kwargs.get("loss_scale_manager")
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'loss_scale_manager', the type must be LossScaleManager, but got {type(manager)}.")


def _apply_precision(network, config: dict, level: str):
    """MindSpore's order of decisions: a float16 ``cast_model_type`` wins, then O2 without keep_batchnorm_fp32,
    then a float32 cast_model_type at O2/O3 (no conversion), else the level itself."""
    if config["cast_model_type"] is mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _mark_black(network, AMP_BLACK_LIST, mstype.float16)
        return network
    if not config["keep_batchnorm_fp32"] and level == "O2":
        return network.to_float(mstype.float16)
    if level in ("O2", "O3"):
        return network
    return auto_mixed_precision(network, level)


class _AmpWithLossCell(nn.Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss of a float16 network in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = _precision.cast_floats(self._backbone(data), mstype.float32)
        return self._loss_fn(out, _precision.cast_floats(label, mstype.float32))

    @property
    def backbone_network(self):
        return self._backbone


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """MindSpore's ``amp.build_train_network``: the train step for ``network`` at mixed-precision ``level``.

    kwargs: ``cast_model_type`` (float16/float32), ``keep_batchnorm_fp32`` (bool), ``loss_scale_manager``
    (None, FixedLossScaleManager or DynamicLossScaleManager; O2 defaults to a DynamicLossScaleManager).
    A manager that drops overflowed updates gives a TrainOneStepWithLossScaleCell (returns
    ``(loss, overflow, scale)``); otherwise a TrainOneStepCell whose gradients are scaled by the manager's
    fixed scale (the optimizer's own ``loss_scale`` must divide it out, as in MindSpore)."""
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(f"For 'build_train_network', the 'optimizer' must be an Optimizer, but got "
                        f"{type(optimizer).__name__}.")
    _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_config(level), **kwargs)
    network = _apply_precision(network, config, level)
    if loss_fn:
        if not isinstance(loss_fn, nn.Cell):
            raise TypeError(f"For 'build_train_network', the 'loss_fn' must be a Cell, but got "
                            f"{type(loss_fn).__name__}.")
        if config["cast_model_type"] is mstype.float16 or getattr(network, "_amp_level", None) in ("O2", "O3"):
            network = _AmpWithLossCell(network, loss_fn)
        else:
            network = nn.WithLossCell(network, loss_fn)
    manager = config["loss_scale_manager"]
    loss_scale = None
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()
