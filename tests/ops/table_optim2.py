"""Op-table entries of the optimizer kernels in sprout/ops/optim_kernels2.py (RMSProp, Adagrad, Adadelta, AdaMax,
FTRL, ProximalAdagrad, Lamb, ASGD, Rprop, AdaFactor) and optim_kernels3.py (AdagradV2, AddSign, PowerSign, proximal
gradient descent, Keras momentum, AMSGrad, AdagradDA) and optim_sparse.py (their row-indexed variants): one update
against a NumPy reference, in every mode."""
import numpy as np

from sprout.core.dispatch import bind
from sprout.core.op import REGISTRY
from optable import CONST, F64, PARAM, POS, PY, Case


def _kernel(name, n_params, attr_names=()):
    """Call kernel ``name`` (its first ``n_params`` inputs are Parameters updated in place); returns the output and
    every Parameter read back."""
    def run(*args):
        params, rest = args[:n_params], args[n_params:len(args) - len(attr_names)]
        attrs = dict(zip(attr_names, args[len(args) - len(attr_names):]))
        out = bind(REGISTRY[name], tuple(params) + tuple(rest), attrs)
        return (out,) + tuple(p + 0 for p in params)

    return run


def _rmsprop_ref(var, ms, mom, lr, g, decay, momentum, eps):
    ms = decay * ms + (1 - decay) * g * g
    mom = momentum * mom + lr * g / np.sqrt(ms + eps)
    return var - mom, var - mom, ms, mom


def _centered_ref(var, mg, ms, mom, g, lr, decay, momentum, eps):
    mg = decay * mg + (1 - decay) * g
    ms = decay * ms + (1 - decay) * g * g
    mom = momentum * mom + lr * g / np.sqrt(ms - mg * mg + eps)
    return var - mom, var - mom, mg, ms, mom


def _adagrad_ref(var, acc, lr, g, slots):
    acc = acc + g * g if slots else acc
    return var - lr * g / np.sqrt(acc), var - lr * g / np.sqrt(acc), acc


def _adadelta_ref(var, acc, upd, lr, rho, eps, g):
    acc = rho * acc + (1 - rho) * g * g
    u = np.sqrt(upd + eps) / np.sqrt(acc + eps) * g
    upd = rho * upd + (1 - rho) * u * u
    return var - lr * u, var - lr * u, acc, upd


def _adamax_ref(var, m, v, b1p, lr, b1, b2, eps, g):
    m = b1 * m + (1 - b1) * g
    v = np.maximum(b2 * v, np.abs(g))
    new = var - lr / (1 - b1p) * m / (v + eps)
    return new, new, m, v


def _ftrl_ref(var, acc, lin, g, lr, l1, l2, p):
    new_acc = acc + g * g
    lin = lin + g - (new_acc ** -p - acc ** -p) / lr * var
    new = np.where(np.abs(lin) > l1, (np.sign(lin) * l1 - lin) / (new_acc ** -p / lr + 2 * l2), 0)
    return new, new, new_acc, lin


def _prox_ref(var, acc, lr, l1, l2, g):
    acc = acc + g * g
    rate = lr / np.sqrt(acc)
    prox = var - rate * g
    new = np.sign(prox) / (1 + rate * l2) * np.maximum(np.abs(prox) - rate * l1, 0)
    return new, new, acc


def _lamb_ref(var, m, v, lr, b1, b2, eps, decay, step, g):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    t = float(np.asarray(step).ravel()[0])
    r = m / (1 - b1 ** t) / (np.sqrt(v / (1 - b2 ** t)) + eps) + decay * var
    new = var - lr * np.linalg.norm(var) / np.linalg.norm(r) * r
    return new, new, m, v


def _asgd_ref(var, ax, mu, eta, lr, g, step, lambd, alpha, t0):
    e = lr  # step 1: eta starts at lr
    new = var * (1 - lambd * e) - e * g
    ax = ax + (new - ax) * mu if mu != 1 else new
    eta = lr / (1 + lambd * lr * 1.0) ** alpha
    mu = 1.0 / max(1.0, 1.0 - t0)
    return new, new, ax, np.float64(mu), np.float64(eta)


def _rprop_ref(var, prev, size, lr, g, step, etaminus, etaplus, lo, hi):
    s = np.sign(g * prev)  # step 2: the stored step sizes are used
    f = np.where(s > 0, etaplus, np.where(s < 0, etaminus, 1.0))
    size = np.clip(size * f, lo, hi)
    g2 = np.where(f == etaminus, 0.0, g)
    new = var - np.sign(g2) * size
    return new, new, g2, size


def _adafactor_ref(param, avg, row, col, sq, g, lr, beta2t, eps1, eps2, clip, beta1, wd, scale, first, use_wd):
    p = param
    lr_u = lr * max(eps2, np.sqrt(np.mean(p * p))) if scale else lr
    u = g * g + eps1
    row = row * beta2t + u.mean(-1) * (1 - beta2t)
    col = col * beta2t + u.mean(-2) * (1 - beta2t)
    u = (1 / np.sqrt(row / row.mean(-1, keepdims=True)))[..., None] * (1 / np.sqrt(col))[None, :] * g
    u = u / max(np.sqrt(np.mean(u * u)) / clip, 1.0) * lr_u
    avg = avg * beta1 + u * (1 - beta1)
    p = p + p * -wd * lr_u
    new = p - avg
    return new, new, avg, row, col, sq


def _adagrad_v2_ref(var, acc, lr, g, eps, slots):
    acc = acc + g * g if slots else acc
    new = var - lr * g / (np.sqrt(acc) + eps)
    return new, new, acc


def _sign_ref(scale):
    def ref(var, m, lr, a, decay, beta, g):
        m = beta * m + (1 - beta) * g
        new = var - lr * scale(a, decay * np.sign(g) * np.sign(m)) * g
        return new, new, m
    return ref


def _prox_gd_ref(var, alpha, l1, l2, delta):
    prox = var - alpha * delta
    new = np.sign(prox) / (1 + alpha * l2) * np.maximum(np.abs(prox) - alpha * l1, 0)
    return new, new


def _keras_ref(var, acc, lr, g, mom, nesterov):
    acc = acc * mom - g * lr
    new = var + acc * mom - g * lr if nesterov else var + acc
    return new, new, acc


def _amsgrad_ref(var, m, v, vhat, b1p, b2p, lr, b1, b2, eps, g):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    vhat = np.maximum(vhat, v)
    new = var - lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(vhat) + eps)
    return new, new, m, v, vhat


def _amsgrad_attrs_ref(var, m, v, vhat, b1p, b2p, lr, g, b1, b2, eps):
    return _amsgrad_ref(var, m, v, vhat, b1p, b2p, lr, b1, b2, eps, g)


def _adagrad_da_ref(var, ga, sq, g, lr, l1, l2, step):
    ga, sq = ga + g, sq + g * g
    tmp = np.sign(ga) * np.maximum(np.abs(ga) - l1 * step, 0) if l1 > 0 else ga
    new = -lr * tmp / (l2 * step * lr + np.sqrt(sq))
    return new, new, ga, sq


def _rows_ref(dense_ref, n_state):
    """A sparse update's reference: the dense reference on the indexed rows, the other rows unchanged."""
    def ref(*args):
        arrays, idx = [np.array(a, copy=True) for a in args[:n_state + 1]], np.asarray(args[-1])
        picked = dense_ref(*[a[idx] for a in arrays], *args[n_state + 1:-1])
        for a, p in zip(arrays, picked[1:]):
            a[idx] = p
        return (arrays[0],) + tuple(arrays)
    return ref


def _s_adagrad(v, a, g, lr, slots):
    return _adagrad_ref(v, a, lr, g, slots)


def _s_adagrad_v2(v, a, g, lr, eps, slots):
    return _adagrad_v2_ref(v, a, lr, g, eps, slots)


def _s_prox(v, a, lr, l1, l2, g):
    return _prox_ref(v, a, lr, l1, l2, g)


def _s_ftrl(v, a, lin, g, lr, l1, l2, p):
    return _ftrl_ref(v, a, lin, g, lr, l1, l2, p)


def _s_rmsprop(v, ms, mom, lr, g, rho, momentum, eps):
    return _rmsprop_ref(v, ms, mom, lr, g, rho, momentum, eps)


def _s_adadelta(v, a, u, lr, rho, g, eps):
    return _adadelta_ref(v, a, u, lr, rho, eps, g)


def _sparse_kernel(name, n_params, attr_names=()):
    """As _kernel, with the int indices (the last input before the attributes) moved behind the attributes for the
    reference's convenience: run(*params, *rest, *attrs, indices)."""
    inner = _kernel(name, n_params, attr_names)

    def run(*args):
        idx, rest = args[-1], args[:-1]
        body, attrs = rest[:len(rest) - len(attr_names)], rest[len(rest) - len(attr_names):]
        return inner(*body, idx, *attrs)
    return run


CASES = [
    Case("ApplyRMSProp", _kernel("ApplyRMSProp", 3), (PARAM(F64(4)), PARAM(POS(4)), PARAM(F64(4)), PY(0.1), F64(4),
                                                      PY(0.9), PY(0.5), PY(1e-6)), _rmsprop_ref, grad=()),
    Case("ApplyCenteredRMSProp", _kernel("ApplyCenteredRMSProp", 4),
         (PARAM(F64(4)), PARAM(CONST(np.zeros(4))), PARAM(POS(4, lo=2.0, hi=3.0)), PARAM(F64(4)), F64(4), PY(0.1),
          PY(0.9), PY(0.5), PY(1e-6)), _centered_ref, grad=()),
    Case("ApplyAdagrad", _kernel("ApplyAdagrad", 2, ("update_slots",)),
         (PARAM(F64(4)), PARAM(POS(4)), PY(0.1), F64(4), PY(True)), _adagrad_ref, grad=()),
    Case("ApplyAdadelta", _kernel("ApplyAdadelta", 3),
         (PARAM(F64(4)), PARAM(POS(4)), PARAM(POS(4)), PY(0.5), PY(0.9), PY(1e-6), F64(4)), _adadelta_ref, grad=()),
    Case("ApplyAdaMax", _kernel("ApplyAdaMax", 3),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PY(0.81), PY(0.01), PY(0.9), PY(0.99), PY(1e-8), F64(4)),
         _adamax_ref, grad=()),
    Case("ApplyFtrl", _kernel("ApplyFtrl", 3),
         (PARAM(F64(4)), PARAM(POS(4)), PARAM(F64(4)), F64(4), PY(0.1), PY(0.05), PY(0.01), PY(-0.5)),
         _ftrl_ref, grad=()),
    Case("ApplyProximalAdagrad", _kernel("ApplyProximalAdagrad", 2),
         (PARAM(F64(4)), PARAM(POS(4)), PY(0.1), PY(0.01), PY(0.02), F64(4)), _prox_ref, grad=()),
    Case("Lamb", _kernel("Lamb", 3), (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PY(0.05), PY(0.9), PY(0.999),
                                      PY(1e-6), PY(0.01), CONST(np.array([3])), F64(4)), _lamb_ref, grad=()),
    Case("ApplyASGD", _kernel("ApplyASGD", 4, ("lambd", "alpha", "t0")),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(CONST(np.float64(1.0))), PARAM(CONST(np.float64(0.0))), PY(0.05),
          F64(4), CONST(np.array([1])), PY(0.01), PY(0.5), PY(1.0)), _asgd_ref, grad=(), rtol=1e-5, atol=1e-6),
    Case("ApplyRprop", _kernel("ApplyRprop", 3, ("etaminus", "etaplus", "step_min", "step_max")),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4, lo=0.01, hi=0.1)), PY(0.05), F64(4), CONST(np.array([2])),
          PY(0.5), PY(1.2), PY(1e-3), PY(0.08)), _rprop_ref, grad=()),
    Case("FusedAdaFactor", _kernel("FusedAdaFactor", 5, ("eps1", "eps2", "clip_threshold", "beta1", "weight_decay",
                                                         "scale_parameter", "first_moment", "use_weight_decay")),
         (PARAM(F64(3, 4)), PARAM(F64(3, 4)), PARAM(POS(3)), PARAM(POS(4)), PARAM(CONST(np.zeros(1))), F64(3, 4),
          PY(0.01), PY(0.2), PY(1e-30), PY(1e-3), PY(1.0), PY(0.9), PY(0.1), PY(True), PY(True), PY(True)),
         _adafactor_ref, grad=(), rtol=1e-5, atol=1e-6),
    Case("ApplyAdagradV2", _kernel("ApplyAdagradV2", 2, ("epsilon", "update_slots")),
         (PARAM(F64(4)), PARAM(POS(4)), PY(0.1), F64(4), PY(1e-3), PY(True)), _adagrad_v2_ref, grad=()),
    Case("ApplyAddSign", _kernel("ApplyAddSign", 2),
         (PARAM(F64(6)), PARAM(F64(6)), PY(0.1), PY(1.0), PY(0.5), PY(0.9), F64(6)),
         _sign_ref(lambda a, agree: a + agree), grad=()),
    Case("ApplyPowerSign", _kernel("ApplyPowerSign", 2),
         (PARAM(F64(6)), PARAM(F64(6)), PY(0.1), PY(2.7), PY(0.5), PY(0.9), F64(6)),
         _sign_ref(lambda logbase, agree: np.exp(logbase * agree)), grad=()),
    Case("ApplyProximalGradientDescent", _kernel("ApplyProximalGradientDescent", 1),
         (PARAM(F64(6)), PY(0.1), PY(0.3), PY(0.2), F64(6)), _prox_gd_ref, grad=()),
    Case("ApplyKerasMomentum", _kernel("ApplyKerasMomentum", 2, ("use_nesterov",)),
         (PARAM(F64(4)), PARAM(F64(4)), PY(0.1), F64(4), PY(0.9), PY(True)), _keras_ref, grad=()),
    Case("ApplyAdamWithAmsgrad", _kernel("ApplyAdamWithAmsgrad", 4, ("beta1", "beta2", "epsilon")),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PARAM(POS(4)), PY(0.81), PY(0.998), PY(0.01), F64(4),
          PY(0.9), PY(0.999), PY(1e-8)), _amsgrad_attrs_ref, grad=()),
    Case("ApplyAdamWithAmsgradV2", _kernel("ApplyAdamWithAmsgradV2", 4),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PARAM(POS(4)), PY(0.81), PY(0.998), PY(0.01), PY(0.9),
          PY(0.999), PY(1e-8), F64(4)), _amsgrad_ref, grad=()),
    Case("ApplyAdagradDA", _kernel("ApplyAdagradDA", 3),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), F64(4), PY(0.1), PY(0.05), PY(0.02), PY(3)),
         _adagrad_da_ref, grad=()),
    Case("SparseApplyAdagrad", _sparse_kernel("SparseApplyAdagrad", 2, ("lr", "update_slots")),
         (PARAM(F64(5, 3)), PARAM(POS(5, 3)), F64(2, 3), PY(0.1), PY(True), CONST(np.array([3, 0], np.int32))),
         _rows_ref(_s_adagrad, 1), grad=()),
    Case("SparseApplyAdagradV2", _sparse_kernel("SparseApplyAdagradV2", 2, ("lr", "epsilon", "update_slots")),
         (PARAM(F64(5, 3)), PARAM(POS(5, 3)), F64(2, 3), PY(0.1), PY(1e-3), PY(False),
          CONST(np.array([3, 0], np.int32))),
         _rows_ref(_s_adagrad_v2, 1), grad=()),
    Case("SparseApplyProximalAdagrad", _sparse_kernel("SparseApplyProximalAdagrad", 2),
         (PARAM(F64(5, 3)), PARAM(POS(5, 3)), PY(0.1), PY(0.01), PY(0.02), F64(2, 3), CONST(np.array([4, 1]))),
         _rows_ref(_s_prox, 1), grad=()),
    Case("SparseApplyFtrl", _sparse_kernel("SparseApplyFtrl", 3, ("lr", "l1", "l2", "lr_power")),
         (PARAM(F64(5, 3)), PARAM(POS(5, 3)), PARAM(F64(5, 3)), F64(2, 3), PY(0.1), PY(0.05), PY(0.01), PY(-0.5),
          CONST(np.array([3, 0], np.int32))), _rows_ref(_s_ftrl, 2), grad=()),
    Case("SparseApplyRMSProp", _sparse_kernel("SparseApplyRMSProp", 3, ("rho", "momentum", "epsilon")),
         (PARAM(F64(4, 3)), PARAM(POS(4, 3)), PARAM(F64(4, 3)), PY(0.1), F64(4, 3), PY(0.9), PY(0.5), PY(1e-6),
          CONST(np.array([2, 0, 3, 1], np.int32))), _rows_ref(_s_rmsprop, 2), grad=()),
    Case("SparseApplyAdadelta", _sparse_kernel("SparseApplyAdadelta", 3, ("epsilon",)),
         (PARAM(F64(4, 3)), PARAM(POS(4, 3)), PARAM(POS(4, 3)), PY(0.5), PY(0.9), F64(4, 3), PY(1e-6),
          CONST(np.array([1, 3, 0, 2], np.int32))), _rows_ref(_s_adadelta, 2), grad=()),
]
