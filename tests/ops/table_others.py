"""Op-table entries for ops registered outside sprout/ops: the optimizer kernels (sprout/nn/optim),
the autodiff tape's custom_vjp, and the compiler's GraphCall and FusedElementwise. Their owners may
move these into a table file of their own; the op table only needs every op to have an entry."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.core import dispatch
from sprout.core.dispatch import bind
from sprout.core.op import REGISTRY
from sprout.core.types import type_of
from optable import CONST, F64, PARAM, POS, PY, Case, finite_differences


def _kernel(name, n_params, attr_names=()):
    """Call optimizer kernel ``name``; its first ``n_params`` inputs are Parameters (updated in place).
    Returns the kernel's output and every Parameter's value read back afterwards."""
    def run(*args):
        params, rest = args[:n_params], args[n_params:len(args) - len(attr_names)]
        attrs = dict(zip(attr_names, args[len(args) - len(attr_names):]))
        out = bind(REGISTRY[name], tuple(params) + tuple(rest), attrs)
        return (out,) + tuple(p + 0 for p in params)

    return run


def _momentum_ref(var, accum, lr, grad, momentum, nesterov):
    accum = accum * momentum + grad
    var = var - lr * (grad + momentum * accum if nesterov else accum)
    return var, var, accum


def _adam_ref(var, m, v, b1p, b2p, lr, b1, b2, eps, grad):
    m = m + (1 - b1) * (grad - m)
    v = v + (1 - b2) * (grad * grad - v)
    var = var - lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(v) + eps)
    return var, var, m, v


def _adamw_ref(var, m, v, lr, b1, b2, eps, decay, grad):
    m = b1 * m + (1 - b1) * grad
    v = b2 * v + (1 - b2) * grad * grad
    var = var - lr * (m / (np.sqrt(v) + eps) + decay * var)
    return var, var, m, v


def _sgd_ref(var, grad, lr, accum, momentum, stat, dampening, weight_decay, nesterov):
    grad = grad + weight_decay * var
    accum = momentum * accum + (1 - dampening) * grad  # stat == 0: not the first step
    step = grad + momentum * accum if nesterov else accum
    var = var - lr * step
    return var, var, accum, stat


CASES = [
    Case("ApplyGradientDescent", _kernel("ApplyGradientDescent", 1), (PARAM(F64(2, 3)), PY(0.1), F64(2, 3)),
         lambda var, lr, d: (var - lr * d, var - lr * d), grad=()),
    Case("ApplyMomentum", _kernel("ApplyMomentum", 2, ("use_nesterov",)),
         (PARAM(F64(3)), PARAM(F64(3)), PY(0.1), F64(3), PY(0.9), PY(True)), _momentum_ref, grad=()),
    Case("SGD", _kernel("SGD", 1, ("dampening", "weight_decay", "nesterov")),
         (PARAM(F64(3)), F64(3), PY(0.1), PARAM(F64(3)), PY(0.9), PARAM(CONST(np.zeros(3))), PY(0.1), PY(0.01),
          PY(False)),
         lambda var, g, lr, acc, mom, stat, damp, wd, nest: _sgd_ref(var, g, lr, acc, mom, stat, damp, wd, nest)[:2],
         grad=()),
    Case("Adam", _kernel("Adam", 3), (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PY(0.9), PY(0.999), PY(1e-3),
                                       PY(0.9), PY(0.999), PY(1e-8), F64(4)), _adam_ref, grad=()),
    Case("AdamWeightDecay", _kernel("AdamWeightDecay", 3),
         (PARAM(F64(4)), PARAM(F64(4)), PARAM(POS(4)), PY(1e-3), PY(0.9), PY(0.999), PY(1e-8), PY(0.01), F64(4)),
         _adamw_ref, grad=()),
]


# ---- ops that only exist on tapes or inside compiled graphs: entries that check themselves -------------
def check_custom_vjp():
    """A call recorded with a user backward (Cell.bprop, a jitted graph's backward): the gradient is
    whatever the vjp says, the forward is the untouched eager value."""
    def f(x):
        with dispatch.suspend_tapes(dispatch.active_tapes()):
            y = ops.sin(x)
        from sprout.autodiff.tape import record_custom

        record_custom((x,), y, lambda args, out, dout: (ops.mul(dout, 3.0),))
        return y

    x = ms.Tensor(np.array([0.5, 1.5]))
    np.testing.assert_allclose(f(x).asnumpy(), np.sin([0.5, 1.5]))
    np.testing.assert_allclose(ms.grad(lambda t: ops.sum(f(t)))(x).asnumpy(), [3.0, 3.0])


def _traced(fn, *arrays, level=""):
    from sprout.jit.api import jit

    return jit(fn, jit_level=level).explain(*[ms.Tensor(a) for a in arrays]).executable.graph


def _sin_mul(x, y):
    return ops.sin(x) * y + x


def check_graph_call():
    """GraphCall's infer gives the callee's output types; its gradient (the callee split into forward +
    residuals and backward, autodiff/control.py) matches finite differences of the callee, through
    grad-of-jit and jit-of-grad."""
    a, b = np.array([0.3, -1.2, 2.0]), np.array([1.5, 0.5, -2.0])
    graph = _traced(_sin_mul, a, b)
    op = REGISTRY["GraphCall"]
    (t,) = op.infer(type_of(ms.Tensor(a)), type_of(ms.Tensor(b)), graph=graph)
    assert tuple(t.shape) == (3,) and t.dtype is ms.float64
    w = np.array([1.0, 2.0, 0.5])

    def loss(x, y):
        (out,) = bind(op, (x, y), {"graph": graph})
        return ops.sum(out * ms.Tensor(w))

    fd = finite_differences(lambda arrs: float((np.sin(arrs[0]) * arrs[1] + arrs[0]) @ w), [a, b])
    for grads in (ms.grad(ms.jit(loss), (0, 1))(ms.Tensor(a), ms.Tensor(b)),
                  ms.jit(ms.grad(loss, (0, 1)))(ms.Tensor(a), ms.Tensor(b))):
        np.testing.assert_allclose(grads[0].asnumpy(), fd[0], rtol=1e-6)
        np.testing.assert_allclose(grads[1].asnumpy(), fd[1], rtol=1e-6)


def check_fused_elementwise():
    """A fused group gives the unfused values eagerly, and its bprop the unfused gradients."""
    from sprout.passes.fuse import fuse_elementwise

    a, b = np.array([0.3, -1.2, 2.0]), np.array([1.5, 0.5, -2.0])
    graph = fuse_elementwise(_traced(_sin_mul, a, b, level="O0"), choose=lambda sub, n: "numpy_blocked",
                             min_elements=1)   # (O0: O1 would already have fused the tiny Mul+Add group)
    (node,) = [n for n in graph.nodes if n.op.name == "FusedElementwise"]
    op = REGISTRY["FusedElementwise"]
    x, y = ms.Tensor(a), ms.Tensor(b)
    (out,) = bind(op, (x, y), node.attrs)
    np.testing.assert_allclose(out.asnumpy(), _sin_mul(x, y).asnumpy())
    got = ms.grad(lambda p, q: ops.sum(bind(op, (p, q), node.attrs)[0]), (0, 1))(x, y)
    want = ms.grad(lambda p, q: ops.sum(_sin_mul(p, q)), (0, 1))(x, y)
    for g, e in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy())


ENTRIES = {"custom_vjp": check_custom_vjp, "GraphCall": check_graph_call, "FusedElementwise": check_fused_elementwise}
