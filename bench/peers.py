"""Peer contestants: PyTorch (eager, torch.compile) and JAX (eager, jax.jit), each workload written the
idiomatic way for that framework, from the same inputs and initial parameters as numpy_ref (the real
models M1-M3: model_peers.py)."""
from __future__ import annotations

import numpy as np

import model_peers
import numpy_ref as ref
from common import Prepared, have


class NotApplicable(RuntimeError):
    pass


# ================================ PyTorch =========================================================
def _torch():
    import torch
    return torch


def _t2np(out) -> list:
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _t2np(o)]
    return [out.detach().cpu().numpy()]


def torch_sgd_steps(params: list, loss_fn, x, y, buffers: list = ()) -> Prepared:
    """Train steps of plain SGD on ``params`` minimising ``loss_fn(x, y)`` (torch.compile'd: compiled forward
    + AOT backward); the state checked is ``params`` after the first step, then ``buffers`` (tensors the step
    updates in place, e.g. BatchNorm running statistics)."""
    opt = _torch().optim.SGD(params, lr=ref.LR)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(x, y)
        loss.backward()
        opt.step()
        return loss

    return Prepared(step, to_numpy=_t2np, state=lambda: [t.detach().numpy().copy() for t in [*params, *buffers]])


def torch_prepare(workload: str, compiled: bool) -> Prepared:
    if workload in model_peers.MODELS:
        return model_peers.torch_prepare(workload, compiled)
    torch = _torch()
    F = torch.nn.functional

    def maybe(fn):
        return torch.compile(fn) if compiled else fn

    if workload in ("W1", "W1s"):
        x = torch.from_numpy(ref.w1_data())

        def seed(a):
            a = a + a
            a = a + a
            a = a * a
            a = a * a
            a = a + a
            return a + a

        f = maybe(seed)
        return Prepared(lambda: f(x), to_numpy=_t2np)
    if workload == "W2":
        if compiled:
            raise NotApplicable("eager only")
        x, c, d = (torch.from_numpy(a) for a in ref.w2_data())

        def ops1000():
            y = x
            for _ in range(ref.W2_PAIRS):
                y = y * c
                y = y + d
            return y

        return Prepared(ops1000, to_numpy=_t2np, per=2 * ref.W2_PAIRS)
    if workload == "W3":
        x, y = (torch.from_numpy(a) for a in ref.w3_data())

        def expr(x, y):
            f = (x * y + x - y) / (torch.abs(y) + 1.0)
            g = torch.tanh(f)
            return (torch.clamp_min(torch.exp(g * 0.5) - 1.0, 0.0) * torch.sqrt(torch.abs(f)) + g) * y

        f = maybe(expr)
        return Prepared(lambda: f(x, y), to_numpy=_t2np)
    if workload in ("W4", "W5"):
        if workload == "W4":
            x, y, params = ref.mlp_data()
            a, b, c, d = ref.MLP_SIZES
            L = torch.nn.Linear
            net = torch.nn.Sequential(L(a, b), torch.nn.ReLU(), L(b, c), torch.nn.ReLU(), L(c, d))
        else:
            x, y, params = ref.lenet_data()
            nn = torch.nn
            net = nn.Sequential(nn.Conv2d(1, 6, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                                nn.Conv2d(6, 16, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                                nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
        with torch.no_grad():
            for p, arr in zip(net.parameters(), params):
                p.copy_(torch.from_numpy(arr))
        tx, ty = torch.from_numpy(x), torch.from_numpy(y).long()
        return torch_sgd_steps(list(net.parameters()), maybe(lambda a, b: F.cross_entropy(net(a), b)), tx, ty)
    if workload == "W6":
        xs, h0, params = ref.rnn_data()
        wx, wh, b = (torch.tensor(a, requires_grad=True) for a in params)
        txs, th0 = torch.from_numpy(xs), torch.from_numpy(h0)

        def loss_fn(xs, h):
            for t in range(ref.RNN_T):
                h = torch.tanh(xs[t] @ wx + h @ wh + b)
            return (h * h).mean()

        lf = maybe(loss_fn)

        def fwd_bwd():
            loss = lf(txs, th0)
            return (loss,) + torch.autograd.grad(loss, (wx, wh, b))

        return Prepared(fwd_bwd, to_numpy=_t2np)
    if workload == "W7b":
        x0 = torch.from_numpy(ref.chain_data())

        def chain(x):
            for _ in range(ref.CHAIN_PAIRS):
                x = x * 0.999
                x = x + 0.001
            return x

        f = maybe(chain)
        return Prepared(lambda: f(x0), to_numpy=_t2np)
    raise NotApplicable(workload)


# ================================ JAX ==============================================================
def _jax_np(out) -> list:
    import jax
    return [np.asarray(a) for a in jax.tree_util.tree_leaves(out)]


def _jax_sync(out):
    import jax
    return jax.block_until_ready(out)


def _xent(logits, y):
    import jax
    import jax.numpy as jnp
    logp = jax.nn.log_softmax(logits, axis=1)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def _mlp_loss(params, x, y):
    import jax.numpy as jnp
    w1, b1, w2, b2, w3, b3 = params
    h = jnp.maximum(x @ w1.T + b1, 0)
    h = jnp.maximum(h @ w2.T + b2, 0)
    return _xent(h @ w3.T + b3, y)


def _lenet_loss(params, x, y):
    import jax.numpy as jnp
    from jax import lax
    c1, c2, w1, b1, w2, b2, w3, b3 = params

    def conv_relu_pool(a, w):
        a = lax.conv_general_dilated(a, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
        a = jnp.maximum(a, 0)
        return lax.reduce_window(a, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    a = conv_relu_pool(conv_relu_pool(x, c1), c2).reshape(x.shape[0], -1)
    a = jnp.maximum(a @ w1.T + b1, 0)
    a = jnp.maximum(a @ w2.T + b2, 0)
    return _xent(a @ w3.T + b3, y)


def _rnn_loss(params, xs, h):
    import jax.numpy as jnp
    wx, wh, b = params
    for t in range(ref.RNN_T):
        h = jnp.tanh(xs[t] @ wx + h @ wh + b)
    return jnp.mean(h * h)


def jax_prepare(workload: str, jitted: bool) -> Prepared:
    import jax
    import jax.numpy as jnp

    if workload in model_peers.MODELS:
        return model_peers.jax_prepare(workload, jitted)

    def maybe(fn):
        return jax.jit(fn) if jitted else fn

    def prep(step, state=None, per=1):
        return Prepared(step, to_numpy=_jax_np, state=state, sync=_jax_sync, per=per)

    if workload in ("W1", "W1s"):
        x = jnp.asarray(ref.w1_data())

        def seed(a):
            a = a + a
            a = a + a
            a = a * a
            a = a * a
            a = a + a
            return a + a

        f = maybe(seed)
        return prep(lambda: f(x))
    if workload == "W2":
        if jitted:
            raise NotApplicable("eager only")
        x, c, d = (jnp.asarray(a) for a in ref.w2_data())

        def ops1000():
            y = x
            for _ in range(ref.W2_PAIRS):
                y = y * c
                y = y + d
            return y

        return prep(ops1000, per=2 * ref.W2_PAIRS)
    if workload == "W3":
        x, y = (jnp.asarray(a) for a in ref.w3_data())

        def expr(x, y):
            f = (x * y + x - y) / (jnp.abs(y) + 1.0)
            g = jnp.tanh(f)
            return (jnp.maximum(jnp.exp(g * 0.5) - 1.0, 0.0) * jnp.sqrt(jnp.abs(f)) + g) * y

        f = maybe(expr)
        return prep(lambda: f(x, y))
    if workload in ("W4", "W5"):
        x, y, params = ref.mlp_data() if workload == "W4" else ref.lenet_data()
        loss_fn = _mlp_loss if workload == "W4" else _lenet_loss
        vg = jax.value_and_grad(loss_fn)

        def train_step(params, x, y):
            loss, grads = vg(params, x, y)
            return loss, [p - ref.LR * g for p, g in zip(params, grads)]

        f = maybe(train_step)
        holder = [[jnp.asarray(p) for p in params]]
        jx, jy = jnp.asarray(x), jnp.asarray(y)

        def step():
            loss, holder[0] = f(holder[0], jx, jy)
            return loss, holder[0]

        return Prepared(step, to_numpy=lambda out: [np.asarray(out[0])], sync=_jax_sync,
                        state=lambda: [np.asarray(p) for p in holder[0]])
    if workload == "W6":
        xs, h0, params = ref.rnn_data()
        f = maybe(jax.value_and_grad(_rnn_loss))
        jp = [jnp.asarray(p) for p in params]
        jxs, jh = jnp.asarray(xs), jnp.asarray(h0)
        return prep(lambda: f(jp, jxs, jh))
    if workload == "W7b":
        x0 = jnp.asarray(ref.chain_data())

        def chain(x):
            for _ in range(ref.CHAIN_PAIRS):
                x = x * 0.999
                x = x + 0.001
            return x

        f = maybe(chain)
        return prep(lambda: f(x0))
    raise NotApplicable(workload)


def warm_up(name: str) -> None:
    """Compile one trivial function, so first-call times exclude the framework's one-time set-up."""
    if name == "torch.compile":
        torch = _torch()
        torch.compile(lambda a: a + a)(torch.ones(2))
    elif name.startswith("jax"):
        import jax
        import jax.numpy as jnp
        fn = jax.jit(lambda a: a + a) if name == "jax.jit" else (lambda a: a + a)
        jax.block_until_ready(fn(jnp.ones(2)))


def contestants(workloads: list[str]) -> list[tuple[str, str, object]]:
    """(workload, contestant name, prepare) for the peers installed in this interpreter."""
    out = []
    for w in workloads:
        if have("torch"):
            out.append((w, "torch eager", lambda w=w: torch_prepare(w, False)))
            if w != "W2":
                out.append((w, "torch.compile", lambda w=w: torch_prepare(w, True)))
        if have("jax"):
            out.append((w, "jax eager", lambda w=w: jax_prepare(w, False)))
            if w != "W2":
                out.append((w, "jax.jit", lambda w=w: jax_prepare(w, True)))
    return out
