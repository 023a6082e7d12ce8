"""nn.Optimizer: parameters (or parameter groups), learning rate forms, weight decay, loss scale, global_step."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ... import ops
from ...core.tensor import Parameter, ParameterTuple, Tensor
from ..cell import Cell
from ..learning_rate_schedule import LearningRateSchedule

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


class _IteratorLearningRate(LearningRateSchedule):
    """A learning-rate list: step i uses entry i (stepping past the end is an error, as in MindSpore)."""

    def __init__(self, learning_rate: Tensor, name: str):
        super().__init__()
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step):
        return ops.reshape(self.learning_rate[global_step], ())


def clone_state(params, prefix: str, init="zeros") -> ParameterTuple:
    """Optimizer state shaped like ``params``, named ``prefix.<param name>`` (so checkpoints carry it); ``init`` is
    "zeros", "ones" or a number."""
    value = {"zeros": 0, "ones": 1}.get(init, init) if isinstance(init, str) else init
    return ParameterTuple(Parameter(np.full_like(p.asnumpy(), value), name=f"{prefix}.{p.name}",
                                    requires_grad=p.requires_grad) for p in params)


class Optimizer(Cell):
    """Base class of optimizers. ``learning_rate``: float, 0-d Tensor, 1-d Tensor / list (one value per step)
    or a LearningRateSchedule; ``parameters``: a list of Parameters or of group dicts with 'params', 'lr',
    'weight_decay' (and one {'order_params': ...} dict). ``opt(grads)`` updates the parameters in place."""

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        if isinstance(parameters, (ParameterTuple, tuple)) or (parameters is not None and not isinstance(
                parameters, list) and isinstance(parameters, Iterable)):
            parameters = list(parameters)
        if parameters is None:
            raise ValueError("For 'Optimizer', the argument 'parameters' can not be None.")
        if not isinstance(parameters, list):
            raise TypeError(f"For 'Optimizer', the argument 'parameters' must be a non-empty list of Parameters or "
                            f"dicts, but got {type(parameters).__name__}.")
        if not parameters:
            raise ValueError("For 'Optimizer', the argument 'parameters' must not be empty.")
        if not (all(isinstance(p, Parameter) for p in parameters) or all(isinstance(p, dict) for p in parameters)):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or "
                            "'dict', please check the 'parameters'.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float) or loss_scale <= 0:
            raise ValueError(f"For '{self.cls_name}', 'loss_scale' must be a positive float, got {loss_scale!r}.")
        self.loss_scale = loss_scale
        self.need_scale = loss_scale != 1.0
        self.dynamic_lr = False
        self.dynamic_weight_decay = False
        self.global_step = Parameter(Tensor(np.zeros(1, np.int32)), name="global_step", requires_grad=False)
        self._one_step = Tensor(np.ones(1, np.int32))
        self.is_group = isinstance(parameters[0], dict)
        self.is_group_lr = False
        learning_rate = self._preprocess_lr(learning_rate)
        if self.is_group:
            self._init_groups(parameters, learning_rate, weight_decay)
        else:
            self.learning_rate = self._build_lr(learning_rate, "learning_rate")
            self.parameters = ParameterTuple(parameters)
            wd = self._preprocess_weight_decay(weight_decay)
            # MindSpore's default filter: no decay for normalisation parameters
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name for p in parameters)
            self.weight_decay = wd
            self.exec_weight_decay = wd > 0
        self._parameters = self.parameters
        self.param_length = len(self.parameters)

    # ---- construction helpers ------------------------------------------------------------------
    def _preprocess_lr(self, lr):
        if isinstance(lr, (float, int)) and not isinstance(lr, bool):
            if lr < 0:
                raise ValueError(f"For '{self.cls_name}', the learning rate must be >= 0, but got {lr}.")
            return float(lr)
        if isinstance(lr, Tensor) and lr.ndim == 0:
            return Tensor(lr.asnumpy().astype(np.float32))
        self.dynamic_lr = True
        if isinstance(lr, LearningRateSchedule):
            return lr
        if isinstance(lr, Tensor):
            if lr.ndim > 1:
                raise ValueError(f"For '{self.cls_name}', a Tensor learning rate must have 0 or 1 dims, got {lr.ndim}.")
            return Tensor(lr.asnumpy().astype(np.float32))
        if isinstance(lr, Iterable) and not isinstance(lr, (str, bytes)):
            return Tensor(np.array(list(lr), np.float32))
        raise TypeError(f"For '{self.cls_name}', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                        f"LearningRateSchedule, but got {type(lr).__name__}.")

    def _build_lr(self, lr, name: str):
        if isinstance(lr, float):
            return Parameter(Tensor(np.float32(lr)), name)
        if isinstance(lr, Tensor) and lr.ndim == 0:
            return Parameter(lr, name)
        if isinstance(lr, Tensor):
            return _IteratorLearningRate(lr, name)
        return lr

    def _preprocess_weight_decay(self, wd) -> float:
        if isinstance(wd, Cell):
            raise NotImplementedError(f"For '{self.cls_name}', a dynamic (Cell) weight_decay is not supported by "
                                      "sprout; pass a float")
        if isinstance(wd, bool) or not isinstance(wd, (int, float)) or wd < 0:
            raise TypeError(f"For '{self.cls_name}', 'weight_decay' must be a non-negative float, got {wd!r}.")
        return float(wd) * self.loss_scale

    def _init_groups(self, groups, default_lr, default_wd) -> None:
        params, lrs, wds, gcs, order = [], [], [], [], None
        for g in groups:
            bad = [k for k in g if k not in _GROUP_KEYS]
            if bad:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {list(_GROUP_KEYS)}, "
                               f"but got {bad}.")
            if "lr" in g:
                self.is_group_lr = True
        shared_lr = self._build_lr(default_lr, "learning_rate")
        for num, g in enumerate(groups):
            if "order_params" in g:
                if len(g) > 1:
                    raise ValueError("For 'Optimizer', the order params dict in group parameters should only include "
                                     "the 'order_params' key.")
                order = list(g["order_params"])
                continue
            group_params = list(g["params"])
            if "lr" in g:
                lr = self._build_lr(self._preprocess_lr(g["lr"]), f"learning_rate_group_{num}")
            else:
                lr = shared_lr
            wd = self._preprocess_weight_decay(g.get("weight_decay", default_wd))
            gc = g.get("grad_centralization", False)
            if not isinstance(gc, bool):
                raise TypeError(f"For 'Optimizer', the 'gradients_centralization' must be bool type, but got "
                                f"{type(gc)}.")
            for p in group_params:
                if not isinstance(p, Parameter):
                    raise TypeError(f"For 'Optimizer', the element in group parameters must be Parameter type, "
                                    f"but got {type(p).__name__}.")
                if any(p is q for q in params):
                    raise RuntimeError(f"For 'Optimizer', the {p.name} parameter already exists, it does not support "
                                       "repeated setting.")
                params.append(p)
                lrs.append(lr)
                wds.append(wd)
                gcs.append(gc)
        if order:
            if len(order) != len(params):
                raise ValueError(f"For 'Optimizer', the length of order parameters must be the same as the length of "
                                 f"group parameters, but got {len(order)} and {len(params)}.")
            index = {id(p): i for i, p in enumerate(params)}
            pick = [index[id(p)] for p in order]
            params, lrs, wds = [params[i] for i in pick], [lrs[i] for i in pick], [wds[i] for i in pick]
            gcs = [gcs[i] for i in pick]
        if self.is_group_lr:
            self.group_lr = lrs
            unique = []
            for lr in lrs:
                if not any(lr is u for u in unique):
                    unique.append(lr)
            for i, lr in enumerate(unique):  # register each distinct lr (Parameter or schedule cell) once
                if isinstance(lr, Parameter):
                    self.insert_param_to_cell(lr.name, lr, check_name_contain_dot=False)
                else:
                    self.insert_child_to_cell(f"learning_rate_{i}", lr)
            self.__dict__["learning_rate"] = tuple(lrs)  # one per parameter; each is registered above
        else:
            self.learning_rate = shared_lr
        self.parameters = ParameterTuple(params)
        self.grad_centralization_flags = tuple(gcs)
        self.weight_decay = tuple(wds)
        self.decay_flags = tuple(w > 0 for w in wds)
        self.exec_weight_decay = any(self.decay_flags)

    # ---- per-step pieces (MindSpore's names) -----------------------------------------------------
    def get_lr(self):
        """The learning rate for this step: a scalar Tensor, or a tuple (one per parameter) with group lrs."""
        if self.is_group_lr:
            cache: dict = {}
            out = []
            for lr in self.learning_rate:
                if id(lr) not in cache:
                    cache[id(lr)] = lr(self.global_step) if isinstance(lr, Cell) else lr
                out.append(cache[id(lr)])
            return tuple(out)
        if self.dynamic_lr:
            return ops.reshape(self.learning_rate(self.global_step), ())
        return self.learning_rate

    def get_lr_parameter(self, param):
        params = param if isinstance(param, list) else [param]
        out = []
        for p in params:
            idx = next((i for i, q in enumerate(self.parameters) if q is p), None)
            if idx is None:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer.")
            lr = self.learning_rate[idx] if self.is_group_lr else self.learning_rate
            out.append(lr.learning_rate if isinstance(lr, _IteratorLearningRate) else lr)
        return out if isinstance(param, list) else out[0]

    def get_weight_decay(self):
        return self.weight_decay

    def flatten_gradients(self, gradients):
        return gradients

    def decay_weight(self, gradients):
        """g + weight_decay * param for the parameters whose decay flag is set."""
        if not self.exec_weight_decay:
            return gradients
        wds = self.weight_decay if self.is_group else (self.weight_decay,) * self.param_length
        return tuple(ops.add(g, ops.mul(p, wd)) if flag and wd > 0 else g
                     for g, p, wd, flag in zip(gradients, self.parameters, wds, self.decay_flags))

    def gradients_centralization(self, gradients):
        """g - mean(g over every axis but the first) for the groups with ``grad_centralization``; as MindSpore,
        only gradients of rank >= 2 whose second dimension is a multiple of 16 are centralised."""
        flags = getattr(self, "grad_centralization_flags", ())
        if not self.is_group or not any(flags):
            return gradients
        out = []
        for g, flag in zip(gradients, flags):
            if flag and g.ndim >= 2 and g.shape[1] % 16 == 0:
                g = ops.sub(g, ops.mean(g, tuple(range(1, g.ndim)), True))
            out.append(g)
        return tuple(out)

    def scale_grad(self, gradients):
        """Undo the loss scale: g / loss_scale."""
        if not self.need_scale:
            return gradients
        inv = 1.0 / self.loss_scale
        return tuple(ops.mul(g, inv) for g in gradients)

    def _step_count(self) -> None:
        ops.assign_add(self.global_step, self._one_step)

    def _check_grads(self, gradients) -> tuple:
        gradients = tuple(gradients)
        if len(gradients) != self.param_length:
            raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for {self.param_length} "
                             "parameters")
        return gradients

    def _lr_list(self, lr) -> tuple:
        return lr if isinstance(lr, tuple) else (lr,) * self.param_length

    def construct(self, *hyper_params):
        raise NotImplementedError
