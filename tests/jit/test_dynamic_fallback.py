"""dynamic=1: symbolic batch where the ops allow it; per-shape compiles (counted) where an op needs a size."""
import numpy as np

import sprout as ms
import sprout.nn as nn
from sprout import Tensor, ops


def _data(n, rng):
    x = Tensor(rng.standard_normal((n, 20)).astype(np.float32))
    y = Tensor(np.eye(5, dtype=np.float32)[rng.integers(0, 5, n)])
    return x, y


def _xent(logits, onehot):
    z = logits - ops.amax(logits, 1, True)
    return -ops.mean(ops.sum((z - ops.log(ops.sum(ops.exp(z), 1, True))) * onehot, 1))


def test_forward_mlp_symbolic_batch_does_not_recompile():
    net = nn.SequentialCell([nn.Dense(20, 16), nn.ReLU(), nn.Dense(16, 5)])
    f = ms.jit(lambda x: ops.relu(net(x)) * 2.0, dynamic=1)
    rng = np.random.default_rng(0)
    for n in (32, 17, 9):
        x, _ = _data(n, rng)
        assert np.allclose(f(x).asnumpy(), (ops.relu(net(x)) * 2.0).asnumpy(), atol=1e-6)
    assert f.stats["compiles"] == 1 and f.stats["static_fallbacks"] == 0
    assert "?" in f.get_ir(x)


def test_train_grads_compile_once_with_symbolic_batch_and_match_eager():
    net = nn.SequentialCell([nn.Dense(20, 16), nn.ReLU(), nn.Dense(16, 5)])
    params = net.trainable_params()
    grad_fn = ms.value_and_grad(lambda a, b: _xent(net(a), b), None, params)
    step = ms.jit(lambda a, b: grad_fn(a, b), dynamic=1)
    rng = np.random.default_rng(0)
    for n in (32, 17, 32):
        x, y = _data(n, rng)
        loss, grads = step(x, y)
        loss_e, grads_e = grad_fn(x, y)
        assert np.allclose(loss.asnumpy(), loss_e.asnumpy(), atol=1e-6)
        for g, ge in zip(grads, grads_e):
            assert np.allclose(g.asnumpy(), ge.asnumpy(), atol=1e-6)
    st = step.stats
    # the mean's bprop broadcasts to x's shape at run time and divides by a run-time count
    assert st["static_fallbacks"] == 0 and st["compiles"] == 1 and st["hits"] == 2


def test_a_new_tensor_of_symbolic_size_falls_back_to_per_shape_and_matches_eager():
    # ops.zeros needs concrete sizes: the symbolic trace fails once, then one graph per batch size
    fn = lambda x: x * 2.0 + ops.zeros((x.shape[0], 20))  # noqa: E731
    f = ms.jit(fn, dynamic=1)
    rng = np.random.default_rng(0)
    for n in (32, 17, 32):
        x, _ = _data(n, rng)
        assert np.allclose(f(x).asnumpy(), fn(x).asnumpy())
    st = f.stats
    assert st["static_fallbacks"] == 1 and st["compiles"] == 2 and st["hits"] == 1
