"""mindspore.experimental.optim.Optimizer: PyTorch-style parameter groups (``param_groups`` of dicts with their
own hyper-parameters, ``add_param_group``), one learning-rate Parameter per group (``lrs``, what the schedulers
change), called with the gradients of ``optimizer.parameters``."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, ParameterTuple, Tensor
from ...nn.cell import Cell


class Optimizer(Cell):
    """Base class: subclasses give ``defaults`` and a ``construct(gradients)`` that updates
    ``self.param_groups[i]["params"]`` (gradients are flat, group after group; ``group_start_id[i]`` is where
    group i starts)."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        groups = self._check_params(params)
        self.defaults = dict(defaults)
        self.state = defaultdict(dict)
        self.param_groups = []
        self.lrs = []
        self.group_start_id = [0]
        self._flat: list = []
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self._flat)

    @staticmethod
    def _check_params(params):
        if params is None:
            raise ValueError("For 'Optimizer', the argument params can not be None.")
        if not isinstance(params, Iterable):
            raise TypeError(f"For 'Optimizer', the argument params must be Iterable type, but got {type(params)}.")
        params = list(params)
        if not params:
            raise ValueError("For 'Optimizer', the argument params must not be empty.")
        return params

    def add_param_group(self, param_group):
        """Add a group (a dict with "params" and optional hyper-parameters; the defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError("For 'Optimizer', a param group must be a dict.")
        params = param_group["params"]
        if isinstance(params, Parameter):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("For 'Optimizer', parameters must be in an ordered collection (a list), not a set.")
        params = list(params)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'Optimizer', only Parameters can be optimized, got {type(p).__name__}.")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("For 'Optimizer', some parameters appear in more than one parameter group.")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        gid = len(self.param_groups)
        lr = self._lr_parameter(group.get("lr"), f"learning_rate_group_{gid}")
        group["lr"] = lr
        group["weight_decay"] = self._weight_decay(group.get("weight_decay", 0.0))
        self.lrs.append(lr)
        self.param_groups.append(group)
        self.group_start_id.append(self.group_start_id[-1] + len(params))
        self._flat.extend(params)
        if hasattr(self, "parameters"):
            self.parameters = ParameterTuple(self._flat)
            self._new_group_state(group)

    def _new_group_state(self, group):
        """Subclasses with per-parameter state extend it for a group added after construction."""

    def _lr_parameter(self, lr, name):
        if isinstance(lr, bool):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, got bool.")
        if isinstance(lr, (int, float)):
            if lr < 0:
                raise ValueError(f"For '{self.cls_name}', the learning rate must be >= 0, got {lr}.")
            return Parameter(Tensor(float(lr), mstype.float32), name=name, requires_grad=False)
        if isinstance(lr, Tensor):
            if lr.ndim != 0:
                raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor")
            return Parameter(ops.cast(lr, mstype.float32), name=name, requires_grad=False)
        raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, "
                        f"but got {type(lr)}.")

    def _weight_decay(self, wd):
        if isinstance(wd, bool) or not isinstance(wd, (int, float)):
            raise TypeError(f"For 'Optimizer', the argument 'weight_decay' must be int or float, but got {type(wd)}")
        if wd < 0:
            raise ValueError(f"For '{self.cls_name}', the weight_decay must be >= 0, got {wd}.")
        return float(wd)

    def _group(self, gradients, gid):
        """(params, grads) of group ``gid``, the gradients negated under ``maximize``."""
        start, end = self.group_start_id[gid], self.group_start_id[gid + 1]
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for {len(self.parameters)} "
                             "parameters.")
        grads = tuple(gradients[start:end])
        if self.param_groups[gid].get("maximize"):
            grads = tuple(-g for g in grads)
        return self.parameters[start:end], grads

    @staticmethod
    def _decay_weight(weight_decay, params, grads):
        """L2 weight decay folded into the gradients: g + weight_decay * p."""
        if weight_decay == 0.0:
            return grads
        return tuple(g + p * weight_decay for p, g in zip(params, grads))

    def construct(self, gradients):
        raise NotImplementedError(f"{self.cls_name} must define construct(gradients)")

    def __repr__(self):
        lines = [f"{self.__class__.__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    value = float(value.asnumpy()) if key == "lr" and isinstance(value, Parameter) else value
                    lines.append(f"    {key}: {value}")
        return "\n".join(lines) + "\n)"


def check_not_less_than(value, name, owner, bound=0.0):
    if value < bound:
        raise ValueError(f"For {owner}, the {name} must be greater than or equal to {bound}, but got {value}.")


def check_greater_than(value, name, owner, bound=0.0):
    if value <= bound:
        raise ValueError(f"For {owner}, the {name} must be greater than {bound}, but got {value}.")


def check_range(value, name, owner, low, high, left_open=False, right_open=True):
    bad = value <= low if left_open else value < low
    bad = bad or (value >= high if right_open else value > high)
    if bad:
        raise ValueError(f"For '{owner}', the '{name}' must be in range {'(' if left_open else '['}{low}, {high}"
                         f"{')' if right_open else ']'}, but got {value}.")
