"""Layer-wise and sign-based optimizers: Lamb, LARS (wraps another optimizer), ASGD, Rprop and AdaFactor."""
from __future__ import annotations

import numpy as np

from ... import ops
from ...core.dispatch import bind
from ...core.tensor import Parameter, ParameterTuple, Tensor
from .. import _check as V
from ...ops import optim_kernels2 as K2
from .adam import _check_betas
from .adaptive import _Prepared, _float
from .optimizer import Optimizer, clone_state


class Lamb(Optimizer):
    """Adam's bias-corrected direction plus decoupled weight decay, scaled per parameter by the trust ratio
    ||param|| / ||update|| (LAMB). State ``lamb_m``, ``lamb_v``; weight decay skips names with beta/gamma."""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, v in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
            V.type_of(v, float, name, self.cls_name)
        _check_betas(beta1, beta2, eps, self.cls_name)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.params = self.parameters
        self.moments1 = clone_state(self.parameters, "lamb_m", "zeros")
        self.moments2 = clone_state(self.parameters, "lamb_v", "zeros")

    def construct(self, gradients):
        gradients = self._check_grads(gradients)
        wds = self.weight_decay if self.is_group else (self.weight_decay,) * self.param_length
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        gradients = self.gradients_centralization(gradients)
        for p, m, v, lr, g, wd, flag in zip(self.parameters, self.moments1, self.moments2, lrs, gradients, wds,
                                            self.decay_flags):
            bind(K2.LAMB, (p, m, v, lr, self.beta1, self.beta2, self.eps, wd if flag else 0.0, self.global_step, g),
                 {})
        return True


def _default_lars_filter(p) -> bool:
    return "LayerNorm" not in p.name and "bias" not in p.name


class LARS(Optimizer):
    """Layer-wise adaptive rate scaling around ``optimizer``: each filtered gradient (with the optimizer's weight
    decay folded in) is scaled by coefficient ||w|| / (||g|| + wd ||w|| + epsilon) (``use_clip``: by
    min(that / lr, 1)) before the wrapped optimizer steps. The wrapped optimizer's own decay and loss scale are
    turned off (LARS applies them)."""

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=_default_lars_filter):
        super().__init__(0.0, [Parameter(Tensor(np.float32(0.0)), name="fake_param")])
        owner = self.cls_name
        V.type_of(optimizer, Optimizer, "optimizer", owner)
        self.epsilon = V.type_of(epsilon, float, "epsilon", owner)
        self.coefficient = V.type_of(coefficient, float, "coefficient", owner)
        self.use_clip = V.type_of(use_clip, bool, "use_clip", owner)
        self.opt = optimizer
        self.__dict__["parameters"] = optimizer.parameters
        self.param_length = len(optimizer.parameters)
        self.lars_flag = tuple(bool(lars_filter(p)) for p in optimizer.parameters)
        self.is_group = optimizer.is_group
        self.weight_decay = optimizer.weight_decay
        self.decay_flags = optimizer.decay_flags
        self.need_scale, self.loss_scale = optimizer.need_scale, optimizer.loss_scale
        self.global_step = optimizer.global_step
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the dynamic learning rate "
                             "and group learning rate cannot both be true.")
        optimizer.decay_flags = tuple(False for _ in optimizer.decay_flags)
        optimizer.exec_weight_decay = False
        optimizer.need_scale = False

    def construct(self, gradients):
        gradients = self._check_grads(gradients)
        if self.need_scale:
            gradients = tuple(ops.mul(g, 1.0 / self.loss_scale) for g in gradients)
        lrs = self._lr_list(self.opt.get_lr()) if self.use_clip else (None,) * self.param_length
        wds = self.weight_decay if self.is_group else (self.weight_decay,) * self.param_length
        out = []
        for p, g, lr, wd, decay, lars in zip(self.parameters, gradients, lrs, wds, self.decay_flags, self.lars_flag):
            if lars:
                g = self._scaled(p, g, wd / self.loss_scale if decay else 0.0, lr)
            out.append(g)
        return self.opt(tuple(out))

    def _scaled(self, w, g, wd, lr):
        w_norm = ops.sqrt(ops.sum(ops.square(w)))
        g_norm = ops.sqrt(ops.sum(ops.square(g)))
        ratio = ops.div(ops.mul(w_norm, self.coefficient), ops.add(ops.add(g_norm, ops.mul(w_norm, wd)), self.epsilon))
        positive = ops.logical_and(ops.greater(w_norm, 0.0), ops.greater(g_norm, 0.0))
        ratio = ops.where(positive, ratio, ops.ones_like(ratio))
        if self.use_clip:
            ratio = ops.minimum(ops.div(ratio, lr), 1.0)
        return ops.mul(ops.add(g, ops.mul(w, wd)) if wd else g, ratio)


class ASGD(_Prepared):
    """Averaged SGD: param = param (1 - lambd eta) - eta g with eta = lr / (1 + lambd lr t)^alpha (eta = lr on the
    first step), and ``ax_`` the running average of the parameter from step t0 on. State ``mu_<p>``, ``eta_<p>``,
    ``ax_.<p>``."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        owner = self.cls_name
        self.lambd = V.type_of(lambd, float, "lambd", owner)
        self.alpha = V.type_of(alpha, float, "alpha", owner)
        self.t0 = V.type_of(t0, float, "t0", owner)
        self.mu = ParameterTuple(Parameter(Tensor(np.float32(1.0)), name=f"mu_{p.name}", requires_grad=False)
                                 for p in self.parameters)
        self.eta = ParameterTuple(Parameter(Tensor(np.float32(0.0)), name=f"eta_{p.name}", requires_grad=False)
                                  for p in self.parameters)
        self.ax = clone_state(self.parameters, "ax_", "zeros")

    def construct(self, gradients):
        gradients, lrs = self._prepare(gradients)
        attrs = {"lambd": self.lambd, "alpha": self.alpha, "t0": self.t0}
        for p, ax, mu, eta, lr, g in zip(self.parameters, self.ax, self.mu, self.eta, lrs, gradients):
            bind(K2.APPLY_ASGD, (p, ax, mu, eta, lr, g, self.global_step), attrs)
        return True


class Rprop(_Prepared):
    """Resilient backpropagation: per-element step sizes (starting at lr) grow by etas[1] while the gradient keeps
    its sign and shrink by etas[0] when it flips, clipped to ``step_sizes``. State ``prev``, ``step_size``."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        owner = self.cls_name
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(step_sizes)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got {len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal step size, but got "
                             f"{step_sizes[0]} > {step_sizes[1]}.")
        _float(etas[0], "etaminus", owner, 0.0, low_open=True, high=1.0, high_open=True)
        V.type_of(etas[1], float, "etaplus", owner)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        V.type_of(step_sizes[0], float, "min_step_sizes", owner)
        V.type_of(step_sizes[1], float, "max_step_sizes", owner)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = clone_state(self.parameters, "prev", "zeros")
        self.step_size = clone_state(self.parameters, "step_size", "zeros")

    def construct(self, gradients):
        gradients, lrs = self._prepare(gradients)
        attrs = {"etaminus": self.etaminus, "etaplus": self.etaplus, "step_min": self.step_size_min,
                 "step_max": self.step_size_max}
        for p, prev, size, lr, g in zip(self.parameters, self.prev, self.step_size, lrs, gradients):
            bind(K2.APPLY_RPROP, (p, prev, size, lr, g, self.global_step), attrs)
        return True


class AdaFactor(Optimizer):
    """AdaFactor: factored second moments (row and column means for matrices), update clipping, optional first
    moment (``beta1``), relative step sizes min(0.01, 1/sqrt(t)) (``relative_step``) scaled by the parameter's RMS
    (``scale_parameter``). State ``exp_avg.<p>``, ``exp_avg_sq_row_<p>``, ``exp_avg_sq_col_<p>``,
    ``exp_avg_sq_<p>``, ``afactor_step``. Gradients are used as given (MindSpore applies no loss scale here)."""

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8, beta1=0.9,
                 weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False, compression=False,
                 loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        self_scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, 0.0, loss_scale)
        owner = self.cls_name
        V.type_of(eps, (list, tuple), "eps", owner)
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, e in enumerate(eps):
            _float(e, f"eps{i}", owner, 0.0)
        self.clip_threshold = _float(clip_threshold, "clip_threshold", owner, 0.0)
        _float(decay_rate, "decay_rate", owner, 0.0, low_open=True, high=1.0, high_open=True)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)) or not 0 <= weight_decay < 1:
            raise ValueError(f"For '{owner}', the 'weight_decay' must be in range of [0, 1), but got {weight_decay}.")
        for name, v in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                        ("compression", compression)):
            V.type_of(v, bool, name, owner)
        V.type_of(beta1, (int, float), "beta1", owner)
        _float(float(beta1), "beta1", owner, 0.0)
        self.eps, self.decay_rate, self.beta1 = tuple(float(e) for e in eps), -float(decay_rate), float(beta1)
        self.weight_decay, self.weight_decay_flag = float(weight_decay), bool(weight_decay)
        self.scale_lr = self_scale_lr
        self.scale_parameter = scale_parameter and self_scale_lr
        self.relative_step, self.warmup_init, self.compression = relative_step, warmup_init, compression
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = clone_state(self.parameters, "exp_avg", "zeros")
        else:  # the kernel's first-moment input, never read or written without one
            self.__dict__["_no_first_moment"] = Parameter(Tensor(np.zeros(1, np.float32)), name="exp_avg",
                                                          requires_grad=False)
        rows, cols, sqs = [], [], []
        for p in self.parameters:
            shape, name = tuple(p.shape), p.name
            if len(shape) > 1:
                rows.append(Parameter(np.zeros(shape[:-1], np.float32), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(np.zeros(shape[:-2] + shape[-1:], np.float32), name=f"exp_avg_sq_col_{name}"))
                sqs.append(Parameter(np.zeros((1,), np.float32), name=f"exp_avg_sq_{name}"))
            else:
                rows.append(Parameter(np.zeros((1,), np.float32), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(np.zeros((1,), np.float32), name=f"exp_avg_sq_col_{name}"))
                sqs.append(Parameter(np.zeros(shape, np.float16 if compression else np.float32),
                                     name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row, self.exp_avg_sq_col = ParameterTuple(rows), ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(sqs)
        self.step = Parameter(Tensor(np.zeros(1, np.float32)), name="afactor_step", requires_grad=False)

    def construct(self, gradients):
        gradients = self._check_grads(gradients)
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        step = ops.assign_add(self.step, Tensor(np.ones(1, np.float32)))
        if self.scale_lr and self.relative_step:
            min_step = ops.mul(step, 1e-6) if self.warmup_init else 0.01
            lr = ops.minimum(min_step, ops.div(1.0, ops.sqrt(step)))
            lrs = (lr,) * self.param_length
        beta2t = ops.sub(1.0, ops.pow(step, self.decay_rate))
        attrs = {"eps1": self.eps[0], "eps2": self.eps[1], "clip_threshold": self.clip_threshold, "beta1": self.beta1,
                 "weight_decay": self.weight_decay, "scale_parameter": self.scale_parameter,
                 "first_moment": self.use_first_moment, "use_weight_decay": self.weight_decay_flag}
        avgs = self.exp_avg if self.use_first_moment else (self._no_first_moment,) * self.param_length
        for p, avg, row, col, sq, g, lr in zip(self.parameters, avgs, self.exp_avg_sq_row, self.exp_avg_sq_col,
                                               self.exp_avg_sq, gradients, lrs):
            bind(K2.FUSED_ADAFACTOR, (p, avg, row, col, sq, g, lr, beta2t), attrs)
        return True
