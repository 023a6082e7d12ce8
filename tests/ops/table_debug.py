"""Op-table entries of the check and gradient-hook primitives (sprout/ops/debug_ops.py)."""
import warnings

import numpy as np

from sprout import ops
from optable import CONST, F64, Case

_SEEN: list = []


def _loss_weights(shape):
    """The weights optable.scalar_objective draws for its loss sum(w * out) (seed 7): the expected gradient of
    InsertGradientOf(3 d)(x) * 2 is 3 * 2 * w, not the finite-difference derivative 2 * w."""
    return np.random.default_rng(7).uniform(0.5, 1.5, shape)


def _observe(grads):
    _SEEN.append(grads)  # returns None: the gradient flows on unchanged


def _hooked_square(x):
    with warnings.catch_warnings():  # the jit modes skip the hook and warn, as documented
        warnings.simplefilter("ignore", UserWarning)
        return ops.HookBackward(_observe)(x) * x


CASES = [
    Case("Assert", lambda c, x: ops.Assert(2)(c, [x]), (CONST(True), F64(3)), lambda c, x: c, grad=()),
    Case("CheckNumerics", lambda x: ops.CheckNumerics()(x) * 2, (F64(2, 3),), lambda x: x * 2),
    Case("InsertGradientOf", lambda x: ops.InsertGradientOf(lambda d: d * 3)(x) * 2, (F64(2, 3),),
         lambda x: x * 2, grad_ref=lambda x: (6.0 * _loss_weights(x.shape),)),
    # an observing hook (returns None): the same gradient eagerly and in graphs, where MindSpore skips the hook
    Case("HookBackward", _hooked_square, (F64(4),), lambda x: x * x),
]
