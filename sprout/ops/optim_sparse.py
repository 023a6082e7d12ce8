"""Row-indexed (sparse) optimizer updates: SparseApplyAdagrad(V2), SparseApplyProximalAdagrad, SparseApplyFtrl,
SparseApplyRMSProp and SparseApplyAdadelta update only the rows ``indices`` of the variable and its state, with the
dense kernels' formulas (optim_kernels2.py / optim_kernels3.py) applied to those rows and ``grad`` (one row per
index). Indices must be unique (MindSpore leaves duplicates undefined; sprout rejects them)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import type_of
from ._infer import fmt_shape
from .optim_kernels2 import _adadelta, _adagrad, _ftrl, _proximal_adagrad, _rmsprop
from .optim_kernels3 import _adagrad_v2


def _sparse(name: str, impl, n_state: int, grad_at: int, full_grad: bool = False):
    """Register an update of the variable (input 0) and ``n_state`` state tensors of its shape; ``grad`` sits at
    ``grad_at`` and the int indices right after it; ``full_grad``: grad must have the variable's whole shape (one
    index per row: MindSpore's RMSProp and Adadelta variants)."""
    def infer(var, *rest, **attrs):
        if not hasattr(var, "shape") or not var.dtype.is_float:
            raise TypeError(f"For '{name}', the variable must be a float Parameter, got {var!r}.")
        for i, state in enumerate(rest[:n_state], 1):
            if tuple(state.shape) != tuple(var.shape):
                raise OpError(f"For '{name}', input {i} of shape {fmt_shape(state.shape)} must have the variable's "
                              f"shape {fmt_shape(var.shape)}.")
        grad, indices = rest[grad_at - 1], rest[grad_at]
        if indices.dtype not in (mstype.int32, mstype.int64) or indices.ndim != 1:
            raise TypeError(f"For '{name}', 'indices' must be a 1-D int32 or int64 tensor, but got "
                            f"{indices.dtype}{fmt_shape(indices.shape)}.")
        if full_grad and tuple(grad.shape) != tuple(var.shape):
            raise OpError(f"For '{name}', the grad shape {fmt_shape(grad.shape)} must equal the variable's "
                          f"{fmt_shape(var.shape)}.")
        if tuple(grad.shape[1:]) != tuple(var.shape[1:]) or grad.shape[0] not in (None, indices.shape[0]):
            raise OpError(f"For '{name}', 'grad' must have one row of the variable's row shape per index: "
                          f"{fmt_shape(grad.shape)} for {fmt_shape(indices.shape)} indices into "
                          f"{fmt_shape(var.shape)}.")
        return var

    def checked(*args, **attrs):
        infer(*map(type_of, args))  # eager calls check too (dispatch runs infer only when a kernel fails)
        return impl(*args, **attrs)

    checked.__doc__ = impl.__doc__
    return register(Op(name, checked, infer, None, kind="effect", side_effect=True, doc=impl.__doc__ or "",
                       extra={"mutates": tuple(range(n_state + 1))}))


def _on_rows(name: str, arrays: tuple, indices, update) -> None:
    """Run ``update`` on copies of the indexed rows of ``arrays``, then write the rows back."""
    idx = np.asarray(indices, np.int64)
    rows = arrays[0].shape[0]
    if np.any((idx < -rows) | (idx >= rows)):
        raise IndexError(f"For '{name}', every index must be in [{-rows}, {rows}), but got {idx.tolist()}.")
    idx = idx % rows
    if len(np.unique(idx)) != len(idx):
        raise ValueError(f"For '{name}', the indices must be unique, but got {idx.tolist()}.")
    picked = [a[idx] for a in arrays]
    update(*picked)
    for a, p in zip(arrays, picked):
        a[idx] = p


def _sparse_adagrad(var, accum, grad, indices, lr=0.01, update_slots=True):
    """Adagrad on the indexed rows"""
    _on_rows("SparseApplyAdagrad", (var, accum), indices, lambda v, a: _adagrad(v, a, lr, grad, update_slots))
    return var


def _sparse_adagrad_v2(var, accum, grad, indices, lr=0.01, epsilon=1e-6, update_slots=True):
    """AdagradV2 (epsilon outside the square root) on the indexed rows"""
    _on_rows("SparseApplyAdagradV2", (var, accum), indices,
             lambda v, a: _adagrad_v2(v, a, lr, grad, epsilon, update_slots))
    return var


def _sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices):
    """ProximalAdagrad on the indexed rows"""
    _on_rows("SparseApplyProximalAdagrad", (var, accum), indices,
             lambda v, a: _proximal_adagrad(v, a, lr, l1, l2, grad))
    return var


def _sparse_ftrl(var, accum, linear, grad, indices, lr=0.01, l1=0.0, l2=0.0, lr_power=-0.5):
    """FTRL-proximal on the indexed rows"""
    _on_rows("SparseApplyFtrl", (var, accum, linear), indices,
             lambda v, a, lin: _ftrl(v, a, lin, grad, lr, l1, l2, lr_power))
    return var


def _sparse_rmsprop(var, ms, mom, lr, grad, indices, rho=0.9, momentum=0.0, epsilon=1e-10):
    """RMSProp on the indexed rows"""
    _on_rows("SparseApplyRMSProp", (var, ms, mom), indices,
             lambda v, m, mo: _rmsprop(v, m, mo, lr, grad, rho, momentum, epsilon))
    return var


def _sparse_adadelta(var, accum, accum_update, lr, rho, grad, indices, epsilon=1e-6):
    """Adadelta on the indexed rows"""
    _on_rows("SparseApplyAdadelta", (var, accum, accum_update), indices,
             lambda v, a, u: _adadelta(v, a, u, lr, rho, epsilon, grad))
    return var


SPARSE_APPLY_ADAGRAD = _sparse("SparseApplyAdagrad", _sparse_adagrad, 1, 2)
SPARSE_APPLY_ADAGRAD_V2 = _sparse("SparseApplyAdagradV2", _sparse_adagrad_v2, 1, 2)
SPARSE_APPLY_PROXIMAL_ADAGRAD = _sparse("SparseApplyProximalAdagrad", _sparse_proximal_adagrad, 1, 5)
SPARSE_APPLY_FTRL = _sparse("SparseApplyFtrl", _sparse_ftrl, 2, 3)
SPARSE_APPLY_RMSPROP = _sparse("SparseApplyRMSProp", _sparse_rmsprop, 2, 4, full_grad=True)
SPARSE_APPLY_ADADELTA = _sparse("SparseApplyAdadelta", _sparse_adadelta, 2, 5, full_grad=True)
