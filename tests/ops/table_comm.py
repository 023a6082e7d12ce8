"""Op-table entries for the collectives (sprout/ops/comm_ops.py). CASES run each one in a world of one (the
generic harness: forward, infer, finite-difference backward, eager == jit == PIJit). ENTRIES run each one on
the simulated mesh with 2 and 3 ranks in every mode: forward against a NumPy model of the whole group and
gradients against finite differences of the group's objective (sum over ranks of <w_r, out_r>), or against
MindSpore's rule where MindSpore's bprop is not the mathematical gradient (Broadcast)."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.communication import get_rank, init, simulate
from modes import MODES, grad_in_mode, run_in_mode
from optable import DISTINCT, F64, POS, Case

init()  # the op table's process: a world of one (no launcher)

_GROUP_SIZES = (2, 3)


def _all(op):
    return lambda x: ops.AllReduce(op)(x)


def _to_all(n):
    return lambda x: ops.AlltoAll(n, 0, 1)(x)


CASES = [
    Case("AllReduce", _all("sum"), (F64(2, 3),), lambda x: x, label="sum"),
    Case("AllReduce", _all("max"), (DISTINCT(2, 3),), lambda x: x, label="max"),
    Case("AllReduce", _all("prod"), (POS(3),), lambda x: x, label="prod"),
    Case("AllReduce", _all("avg"), (F64(4),), lambda x: x, label="avg"),
    Case("AllGather", lambda x: ops.AllGather()(x), (F64(2, 3),), lambda x: x),
    Case("ReduceScatter", lambda x: ops.ReduceScatter()(x), (F64(2, 3),), lambda x: x),
    Case("Broadcast", lambda x: ops.Broadcast(0)((x,))[0], (F64(3, 2),), lambda x: x),
    Case("AlltoAll", _to_all(1), (F64(2, 3),), lambda x: x),
    Case("Reduce", lambda x: ops.Reduce(0)(x), (F64(2, 2),), lambda x: x),
    Case("AllGatherV", lambda x: ops.AllGatherV()(x, [6]), (F64(2, 3),), lambda x: x.reshape(-1)),
    Case("ReduceScatterV", lambda x: ops.ReduceScatterV()(x, [5]), (F64(5),), lambda x: x),
    Case("AlltoAllV", lambda x: ops.AlltoAllV(block_size=2)(x, [3], [3]), (F64(6),), lambda x: x),
    Case("CollectiveGather", lambda x: ops.CollectiveGather(0)(x), (F64(2, 3),), lambda x: x),
    Case("CollectiveScatter", lambda x: ops.CollectiveScatter(0)(x), (F64(2, 3),), lambda x: x),
    Case("AlltoAllVC", lambda x: ops.AlltoAllVC()(x, [5]), (F64(5),), lambda x: x),
]


# ---- the simulated mesh -------------------------------------------------------------------------------------
def _weights(outs, seed=11):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.5, 1.5, np.shape(o)) for o in outs]


def _fd(objective, inputs, eps=1e-6):
    """d objective / d inputs[r][k] by central differences (objective over all ranks' inputs)."""
    grads = []
    for r, per_rank in enumerate(inputs):
        row = []
        for k, a in enumerate(per_rank):
            g = np.zeros_like(a)
            for i in np.ndindex(a.shape):
                hi = [[b.copy() for b in p] for p in inputs]
                lo = [[b.copy() for b in p] for p in inputs]
                hi[r][k][i] += eps
                lo[r][k][i] -= eps
                g[i] = (objective(hi) - objective(lo)) / (2 * eps)
            row.append(g)
        grads.append(row)
    return grads


def mesh_check(make_fn, inputs, ref, grad="fd", rtol=1e-12):
    """Run ``make_fn(rank)(*inputs[rank])`` on a mesh of ``len(inputs)`` ranks in every mode: outputs equal
    ``ref(inputs)[rank]`` and the modes agree; gradients of sum_r <w_r, out_r> equal finite differences of the
    NumPy model (``grad="fd"``), ``grad(inputs, weights)`` when callable, or are skipped (None)."""
    n = len(inputs)
    want = ref(inputs)
    w = _weights(want)
    expected = None
    if grad == "fd":
        expected = _fd(lambda xs: sum(float(np.sum(o * wr)) for o, wr in zip(ref(xs), w)), inputs)
    elif callable(grad):
        expected = grad(inputs, w)
    for mode in MODES:
        def body(mode=mode):
            init()
            r = get_rank()
            fn = make_fn(r)
            args = [ms.Tensor(a) for a in inputs[r]]
            out = run_in_mode(fn, args, mode).asnumpy()
            g = None
            if expected is not None:
                wt = ms.Tensor(w[r])

                def loss(*a):
                    return (fn(*a) * wt).sum()

                g = [t.asnumpy() for t in grad_in_mode(loss, args, mode, tuple(range(len(args))))]
            return out, g

        for r, (out, g) in enumerate(simulate(body, n)):
            np.testing.assert_allclose(out, want[r], rtol=rtol, atol=1e-12, err_msg=f"rank {r} [{mode}]")
            assert out.dtype == np.asarray(want[r]).dtype, f"rank {r} [{mode}]: dtype {out.dtype}"
            if expected is not None:
                for k, (gk, ek) in enumerate(zip(g, expected[r])):
                    np.testing.assert_allclose(gk, ek, rtol=1e-6, atol=1e-7,
                                               err_msg=f"rank {r} [{mode}] gradient of input {k}")


def _rank_inputs(n, *shape, seed=0, distinct=False, lo=-2.0, hi=2.0):
    rng = np.random.default_rng(seed + n)
    if distinct:
        vals = rng.permutation(n * int(np.prod(shape))) * 0.37 - 3.0
        return [[vals[r::n][:int(np.prod(shape))].reshape(shape).astype(np.float64)] for r in range(n)]
    return [[rng.uniform(lo, hi, shape)] for _ in range(n)]


_REDUCE = {"sum": lambda xs: sum(xs[1:], xs[0].copy()), "prod": lambda xs: np.prod(np.stack(xs), axis=0),
           "max": lambda xs: np.max(np.stack(xs), axis=0), "min": lambda xs: np.min(np.stack(xs), axis=0),
           "avg": lambda xs: sum(xs[1:], xs[0].copy()) / len(xs)}


def check_all_reduce():
    for n in _GROUP_SIZES:
        for op in ("sum", "max", "min", "prod", "avg"):
            inputs = _rank_inputs(n, 2, 3, distinct=op in ("max", "min"), lo=0.5 if op == "prod" else -2.0)
            ref = lambda xs, op=op: [_REDUCE[op]([p[0] for p in xs])] * len(xs)  # noqa: E731
            mesh_check(lambda r, op=op: _all(op), inputs, ref)


def check_all_gather():
    for n in _GROUP_SIZES:
        mesh_check(lambda r: (lambda x: ops.AllGather()(x)), _rank_inputs(n, 2, 3),
                   lambda xs: [np.concatenate([p[0] for p in xs])] * len(xs))


def check_reduce_scatter():
    for n in _GROUP_SIZES:
        for op in ("sum", "avg"):
            def ref(xs, op=op):
                total = _REDUCE[op]([p[0] for p in xs])
                return list(np.split(total, len(xs)))

            mesh_check(lambda r, op=op: (lambda x: ops.ReduceScatter(op)(x)), _rank_inputs(n, 2 * n, 3), ref)


def check_broadcast():
    for n in _GROUP_SIZES:
        mesh_check(lambda r: (lambda x: ops.Broadcast(1)((x,))[0]), _rank_inputs(n, 3, 2),
                   lambda xs: [xs[1][0]] * len(xs),
                   grad=lambda xs, w: [[wr] for wr in w])  # MindSpore's bprop: dout passes through


def check_all_to_all():
    for n in _GROUP_SIZES:
        def ref(xs):
            n = len(xs)
            blocks = [np.split(p[0], n, axis=0) for p in xs]
            return [np.concatenate([blocks[j][r] for j in range(n)], axis=1) for r in range(n)]

        mesh_check(lambda r, n=n: _to_all(n), _rank_inputs(n, 2 * n, 3), ref)


def check_reduce():
    for n in _GROUP_SIZES:
        def ref(xs):
            total = _REDUCE["sum"]([p[0] for p in xs])
            return [total if r == 1 else np.zeros((1,)) for r in range(len(xs))]

        # the output shape depends on the rank (MindSpore's rule): each rank compiles its own function
        mesh_check(lambda r: (lambda x: ops.Reduce(1)(x)), _rank_inputs(n, 2, 2), ref)


def check_barrier():
    for n in _GROUP_SIZES:
        for mode in MODES:
            def body(mode=mode):
                init()
                return run_in_mode(lambda: ops.Barrier()(), [], mode).asnumpy()

            for out in simulate(body, n):
                assert out.dtype == np.float32 and out.shape == (1,)


def _send_recv(r):
    if r == 0:
        return lambda x: ops.Send(3, 1)(x)
    if r == 1:
        return lambda dep: ops.Receive(3, 0, (2, 3), ms.float64)(dep)
    return lambda x: x * 1.0


def check_send():
    def ref(xs):
        return [np.zeros((2, 3)), xs[0][0]] + [p[0] for p in xs[2:]]

    for n in _GROUP_SIZES:
        mesh_check(_send_recv, _rank_inputs(n, 2, 3), ref)


def check_receive():
    """Receive with no inputs (MindSpore's usual form), eagerly and compiled; forward only."""
    for mode in MODES:
        def body(mode=mode):
            init()
            if get_rank() == 0:
                return run_in_mode(lambda x: ops.Send(0, 1)(x), [ms.Tensor(np.arange(4.0))], mode).asnumpy()
            return run_in_mode(lambda: ops.Receive(0, 0, [4], ms.float64)(), [], mode).asnumpy()

        sent, got = simulate(body, 2)
        np.testing.assert_array_equal(got, np.arange(4.0))
        np.testing.assert_array_equal(sent, np.zeros(4))


def _uneven_sizes(n):
    return [r + 1 for r in range(n)]  # rank r holds r + 1 elements


def check_all_gather_v():
    for n in _GROUP_SIZES:
        sizes = _uneven_sizes(n)
        inputs = [[np.random.default_rng(r).uniform(-2, 2, k)] for r, k in enumerate(sizes)]
        mesh_check(lambda r, sizes=sizes: (lambda x: ops.AllGatherV()(x, sizes)), inputs,
                   lambda xs: [np.concatenate([p[0] for p in xs])] * len(xs))
    # a rank with nothing to send, and a 2-D input (flattened)
    inputs = [[np.arange(6.0).reshape(2, 3)], [np.zeros((0,))]]
    mesh_check(lambda r: (lambda x: ops.AllGatherV()(x, [6, 0])), inputs,
               lambda xs: [np.concatenate([p[0].reshape(-1) for p in xs])] * 2)


def check_reduce_scatter_v():
    for n in _GROUP_SIZES:
        sizes = _uneven_sizes(n)
        for op in ("sum", "max", "avg"):
            inputs = _rank_inputs(n, sum(sizes), distinct=op == "max")

            def ref(xs, op=op, sizes=sizes):
                total = _REDUCE[op]([p[0] for p in xs])
                return np.split(total, np.cumsum(sizes)[:-1])

            # MindSpore's bprop exists for SUM only (others raise RuntimeError)
            mesh_check(lambda r, op=op, sizes=sizes: (lambda x: ops.ReduceScatterV(op)(x, sizes)), inputs, ref,
                       grad="fd" if op == "sum" else None)


_BLOCK = 2


def check_all_to_all_v():
    for n in _GROUP_SIZES:
        counts = [[(i + 2 * j) % 3 + 1 for j in range(n)] for i in range(n)]  # rank i sends counts[i][j] blocks to j
        inputs = [[np.random.default_rng(i).uniform(-2, 2, sum(counts[i]) * _BLOCK)] for i in range(n)]

        def ref(xs, counts=counts):
            pieces = [np.split(p[0], np.cumsum([c * _BLOCK for c in counts[i]])[:-1]) for i, p in enumerate(xs)]
            return [np.concatenate([pieces[i][j] for i in range(len(xs))]) for j in range(len(xs))]

        mesh_check(lambda r, counts=counts: (lambda x: ops.AlltoAllV(block_size=_BLOCK)(
            x, counts[r], [counts[i][r] for i in range(len(counts))])), inputs, ref)


def check_collective_gather():
    for n in _GROUP_SIZES:
        def ref(xs):
            whole = np.concatenate([p[0] for p in xs])
            return [whole if r == 1 else np.zeros((1,)) for r in range(len(xs))]

        mesh_check(lambda r: (lambda x: ops.CollectiveGather(1)(x)), _rank_inputs(n, 2, 3), ref)


def check_collective_scatter():
    for n in _GROUP_SIZES:
        mesh_check(lambda r, n=n: (lambda x: ops.CollectiveScatter(n - 1)(x)), _rank_inputs(n, 2 * n, 3),
                   lambda xs: np.split(xs[-1][0], len(xs)))


def check_all_to_all_v_c():
    for n in _GROUP_SIZES:
        counts = [(i + 2 * j) % 3 for i in range(n) for j in range(n)]  # rank i sends counts[i * n + j] to j
        for transpose in (False, True):
            m = np.array(counts).reshape(n, n)
            m = m.T if transpose else m
            inputs = [[np.random.default_rng(i).uniform(-2, 2, int(m[i].sum()) * _BLOCK)] for i in range(n)]

            def ref(xs, m=m):
                pieces = [np.split(p[0], np.cumsum(m[i] * _BLOCK)[:-1]) for i, p in enumerate(xs)]
                outs = [np.concatenate([pieces[i][j] for i in range(len(xs))]) for j in range(len(xs))]
                return [o if o.size else np.zeros(()) for o in outs]

            mesh_check(lambda r, t=transpose, c=counts: (
                lambda x: ops.AlltoAllVC(block_size=_BLOCK, transpose=t)(x, c)), inputs, ref)


ENTRIES = {"CollectiveGather": check_collective_gather, "CollectiveScatter": check_collective_scatter,
           "AlltoAllVC": check_all_to_all_v_c, "AllGatherV": check_all_gather_v,
           "ReduceScatterV": check_reduce_scatter_v,
           "AlltoAllV": check_all_to_all_v, "AllReduce": check_all_reduce,
           "AllGather": check_all_gather, "ReduceScatter": check_reduce_scatter,
           "Broadcast": check_broadcast, "AlltoAll": check_all_to_all, "Reduce": check_reduce,
           "Barrier": check_barrier, "Send": check_send, "Receive": check_receive}
