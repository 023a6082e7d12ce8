"""Every collective, eager and compiled, with reductions that depend on the order; the results of all ranks are
saved by rank 0 (``collectives.py out.npz``), or, with ``--simulate N``, computed on the simulated mesh."""
import sys

import numpy as np

import sprout as ms
from sprout import ops
from sprout.communication import collective, get_group_size, get_rank, init, simulate


def body():
    init()
    r, n = get_rank(), get_group_size()
    rng = np.random.default_rng(r)
    x = ms.Tensor(rng.standard_normal((n * 4, 3)).astype(np.float32))
    outs = [ops.AllReduce(op)(x).asnumpy() for op in ("sum", "max", "min", "prod", "avg")]
    outs += [ops.AllGather()(x).asnumpy(), ops.ReduceScatter()(x).asnumpy(), ops.Broadcast(n - 1)((x,))[0].asnumpy(),
             ops.AlltoAll(n, 0, 1)(x).asnumpy(), ops.Reduce(0)(x).asnumpy()]
    step = ms.jit(lambda t: ops.AllReduce()(t * 2) + ops.AllGather()(t)[: t.shape[0]])
    outs.append(step(x).asnumpy())
    outs.append(ms.grad(step)(x).asnumpy())
    big = ms.Tensor(rng.standard_normal(100003).astype(np.float32))  # more elements than ranks: chunked reduction
    outs.append(ops.AllReduce()(big).asnumpy())
    outs.append(ops.AllReduce()(ms.Tensor(rng.standard_normal(7).astype(np.float16))).asnumpy())
    sizes = [k + 1 for k in range(n)]  # uneven: rank k holds k + 1 elements
    mine = ms.Tensor(rng.standard_normal(r + 1).astype(np.float32))
    outs.append(ops.AllGatherV()(mine, sizes).asnumpy())
    outs.append(ops.ReduceScatterV("max")(ms.Tensor(rng.standard_normal(sum(sizes)).astype(np.float32)),
                                          sizes).asnumpy())
    outs.append(ms.grad(lambda t: (ops.AllGatherV()(t, sizes) ** 2).sum())(mine).asnumpy())
    send = [(r + j) % 3 for j in range(n)]
    recv = [(i + r) % 3 for i in range(n)]
    outs.append(ops.AlltoAllV(block_size=2)(ms.Tensor(rng.standard_normal(2 * sum(send)).astype(np.float32)),
                                            send, recv).asnumpy())
    if n > 1:
        if r == 0:
            ops.Send(5, 1)(x)
        elif r == 1:
            outs.append(ops.Receive(5, 0, tuple(x.shape), ms.float32)().asnumpy())
    return outs


if __name__ == "__main__":
    if sys.argv[1] == "--simulate":
        every = simulate(body, int(sys.argv[2]))
        np.savez(sys.argv[3], *[a for rank in every for a in rank])
    else:
        every = collective.allgather_object(body(), "hccl_world_group")
        if get_rank() == 0:
            np.savez(sys.argv[1], *[a for rank in every for a in rank])
