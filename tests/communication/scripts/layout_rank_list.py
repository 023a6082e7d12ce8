"""A sharded MatMul whose Layout puts rank 1 at device position 0 (rank_list=[1, 0]): value and gradients to
argv[1]_rank{r}.npz (compared with the simulated mesh's by tests/communication/test_layout_rank_list.py)."""
import sys

import numpy as np

import sprout as ms
from sprout import context, ops
from sprout.communication import get_rank, init

init()
context.set_auto_parallel_context(parallel_mode=context.ParallelMode.SEMI_AUTO_PARALLEL, full_batch=True)
rng = np.random.default_rng(0)
x = ms.Tensor(rng.integers(-3, 4, (8, 12)).astype(np.float32))
w = ms.Tensor(np.random.default_rng(1).integers(-3, 4, (12, 4)).astype(np.float32))
lay = ms.Layout((2,), ("mp",), rank_list=[1, 0])


def mm(a, b):
    return ops.relu(ops.matmul(a, b)).sum()


f = ms.shard(mm, in_strategy=(lay("None", "mp"), lay("mp", "None")))
gx, gw = ms.grad(f, grad_position=(0, 1))(x, w)
np.savez(f"{sys.argv[1]}_rank{get_rank()}.npz", value=f(x, w).asnumpy(), gx=gx.asnumpy(), gw=gw.asnumpy())
