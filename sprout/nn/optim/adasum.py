"""``nn.AdaSumByGradWrapCell`` / ``nn.AdaSumByDeltaWeightWrapCell``: Adaptive Summation (AdaSum) of the data-parallel
ranks' gradients (or optimizer steps) instead of their sum or mean.

Two ranks' vectors combine as ``(1 - a.b / (2 |a|^2)) a + (1 - a.b / (2 |b|^2)) b`` (per parameter tensor); the
ranks combine by recursive doubling, partners ``2^k`` apart at level ``k`` (rank order: ((g0, g1), (g2, g3)) ...),
as MindSpore pairs its groups. Every rank gathers all vectors and computes the same tree, so all get identical
results. The number of ranks must be a power of 2; one process (no ``init()``) is a world of one, where AdaSum of one
vector is itself."""
from __future__ import annotations

from ... import ops
from ...communication import management
from ...communication.state import current
from ...core.tensor import Parameter
from ...ops import functional as F
from ..cell import Cell
from .optimizer import Optimizer


def adasum_pair(a, b):
    """The AdaSum of two tensors of one shape (a zero vector contributes nothing and leaves the other as is)."""
    dot = F.sum(F.mul(a, b))
    na, nb = F.sum(F.mul(a, a)), F.sum(F.mul(b, b))
    ca = F.sub(1.0, F.where(F.greater(na, 0), F.div(dot, F.mul(F.where(F.greater(na, 0), na, 1.0), 2.0)), 0.0))
    cb = F.sub(1.0, F.where(F.greater(nb, 0), F.div(dot, F.mul(F.where(F.greater(nb, 0), nb, 1.0), 2.0)), 0.0))
    return F.add(F.mul(F.cast(ca, a.dtype), a), F.mul(F.cast(cb, b.dtype), b))


def adasum_tree(vectors: list):
    """Recursive doubling over ``vectors`` (rank order, a power-of-2 count)."""
    level = list(vectors)
    while len(level) > 1:
        level = [adasum_pair(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def _world() -> int:
    """The data-parallel world: the initialised group's size, else 1 (a launcher's RANK_SIZE without ``init()``
    does not make collectives usable)."""
    return management.get_group_size() if current().inited else 1


def _check(cls_name: str, optimizer) -> int:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For '{cls_name}', the argument 'optimizer' must be an nn.Optimizer, but got "
                        f"{type(optimizer).__name__}.")
    world = _world()
    if world & (world - 1):
        raise RuntimeError(f"For '{cls_name}', AdaSum needs a power-of-2 number of data-parallel ranks, but the "
                           f"world has {world}.")
    return world


def adasum_over_ranks(tensors: tuple, world: int) -> tuple:
    """Each tensor's AdaSum over the ranks (gathered, then the same tree on every rank)."""
    if world == 1:
        return tuple(tensors)
    gather = ops.AllGather()
    out = []
    for t in tensors:
        rows = gather(F.reshape(t, (1, -1)))  # [world, size]: rank r's vector in row r
        combined = adasum_tree([rows[r] for r in range(world)])
        out.append(F.reshape(combined, t.shape))
    return tuple(out)


class AdaSumByGradWrapCell(Cell):
    """``AdaSumByGradWrapCell(optimizer)(grads)``: the optimizer applied to the AdaSum of every rank's gradients
    (pass each rank's own gradients, not all-reduced ones). Returns what the optimizer returns."""

    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        self.world = _check("AdaSumByGradWrapCell", optimizer)
        self.optimizer = optimizer
        self.parameters = optimizer.parameters

    def construct(self, grads):
        return self.optimizer(adasum_over_ranks(tuple(grads), self.world))


class AdaSumByDeltaWeightWrapCell(Cell):
    """``AdaSumByDeltaWeightWrapCell(optimizer)(grads)``: every rank takes its own optimizer step, then the
    parameters move by the AdaSum of the ranks' steps (new - old) from where they were. Returns the parameters."""

    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        self.world = _check("AdaSumByDeltaWeightWrapCell", optimizer)
        self.optimizer = optimizer
        self.parameters = optimizer.parameters

    def construct(self, grads):
        old = tuple(F.mul(p, 1.0) for p in self.parameters)  # copies of the values before the step
        self.optimizer(grads)
        steps = tuple(F.sub(p, o) for p, o in zip(self.parameters, old))
        for p, o, s in zip(self.parameters, old, adasum_over_ranks(steps, self.world)):
            F.assign(p, F.add(o, s))
        return tuple(p for p in self.parameters if isinstance(p, Parameter))
