"""Tensor layouts of the SPMD pass on one device mesh (which mesh axes split each tensor dim, which make it a
partial sum), MindSpore strategies and ``Layout`` objects converted to them, and redistribution between two
layouts emitted as sprout ops on a rank's local values (slices, AllGather, AllReduce, ReduceScatter, AlltoAll)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import context
from .. import dtype as mstype
from ..communication import management
from ..ops import functional as F
from ..ops.comm_ops import all_gather, all_reduce, all_to_all, reduce_scatter
from .layout import DeviceMesh, Layout


class ShardError(ValueError):
    """A strategy or layout the SPMD pass cannot place, or does not support, named with the op and strategy."""


@dataclass(frozen=True)
class TensorLayout:
    """``dims[d]``: the mesh axes (indices from the left, major first) splitting tensor dim ``d``; ``partial``:
    the mesh axes over which the local value is one term of a sum (a contracting split not reduced yet). The
    value is replicated over every other axis."""

    dims: tuple
    partial: tuple = ()

    @staticmethod
    def replicated(ndim: int) -> TensorLayout:
        return TensorLayout(((),) * ndim)

    def used(self) -> set:
        return {a for axes in self.dims for a in axes}

    def without_partial(self) -> TensorLayout:
        return TensorLayout(self.dims)

    def __str__(self) -> str:
        body = ", ".join("-" if not a else "".join(f"a{x}" for x in a) for a in self.dims)
        return f"[{body}]" + (f" partial{list(self.partial)}" if self.partial else "")


class Mesh:
    """The device mesh of one sharded function: prime factors of the device count (smallest first), row-major
    over world ranks 0..n-1. An op's device matrix is placed on it by giving each entry a run of axes."""

    def __init__(self, n: int, rank_list: list | None = None):
        self.n = n
        shape, m, p = [], n, 2
        while m > 1:
            while m % p == 0:
                shape.append(p)
                m //= p
            p += 1
        self.shape = tuple(shape)
        # rank_list[i]: the world rank at (row-major) device position i -- a Layout's rank_list, else the identity
        self.rank_list = list(rank_list) if rank_list is not None else list(range(n))
        self.device = DeviceMesh(self.shape, self.rank_list) if shape else DeviceMesh((1,))
        self.param_used: dict = {}  # id(Parameter) -> the layout its first consumer used (checkpoint slices)

    def coordinate(self, rank: int) -> tuple:
        return self.device.coordinate(rank) if self.shape else ()

    def size(self, axes) -> int:
        return math.prod(self.shape[a] for a in axes)

    def place(self, device_matrix: tuple, what: str) -> list:
        """Mesh axes for each entry of ``device_matrix`` (product == n, major entry first)."""
        out, a = [], 0
        for d in device_matrix:
            axes = []
            while d > 1:
                if a >= len(self.shape) or d % self.shape[a]:
                    raise ShardError(f"{what}: the device matrix {tuple(device_matrix)} cannot be placed on "
                                     f"{self.n} devices (mesh {self.shape})")
                d //= self.shape[a]
                axes.append(a)
                a += 1
            out.append(tuple(axes))
        if a != len(self.shape):
            raise ShardError(f"{what}: the device matrix {tuple(device_matrix)} does not use all {self.n} devices")
        return out

    def group(self, axes) -> str:
        """The communication group over ``axes`` that holds this rank (created on first use)."""
        axes = tuple(sorted(axes))
        return self.device.group(axes)

    def block(self, axes, rank: int) -> int:
        """This rank's block index along a dim split by ``axes`` (major first)."""
        coord, index = self.coordinate(rank), 0
        for a in axes:
            index = index * self.shape[a] + coord[a]
        return index


def layout_of_strategy(mesh: Mesh, strategy: tuple, shape: tuple, what: str) -> TensorLayout:
    """A tensor's layout from a tuple strategy of one tensor (its device matrix is the strategy, then the
    repeated calculation on the right, as MindSpore's default)."""
    return layouts_of_device_matrix(mesh, [strategy], [tuple(range(len(strategy)))], [shape], what)[0]


def layouts_of_device_matrix(mesh: Mesh, strategies: list, dim_entries: list, shapes: list, what: str) -> list:
    """Layouts of several operands of one op: ``dim_entries[i][d]`` is the entry of the op's device matrix that
    tensor ``i``'s dim ``d`` uses (-1: none). The device matrix is built from the strategies; the repeated
    calculation (devices / product) is appended on the right."""
    n_entries = 1 + max((e for ents in dim_entries for e in ents), default=-1)
    matrix = [1] * n_entries
    for s, ents, shape in zip(strategies, dim_entries, shapes):
        if len(s) != len(shape):
            raise ShardError(f"{what}: the strategy {s} has {len(s)} entries for a tensor of rank {len(shape)} "
                             f"(shape {tuple(shape)})")
        for d, (k, e) in enumerate(zip(s, ents)):
            if not isinstance(k, int) or isinstance(k, bool) or k < 1:
                raise ShardError(f"{what}: strategy entries must be positive ints, got {s}")
            if e < 0:
                if k != 1:
                    raise ShardError(f"{what}: dimension {d} of the strategy {s} cannot be split")
                continue
            if matrix[e] not in (1, k) and k != 1:
                raise ShardError(f"{what}: the strategies {tuple(strategies)} disagree on a shared dimension "
                                 f"({matrix[e]} vs {k})")
            if k != 1:
                matrix[e] = k
            if shape[d] is not None and shape[d] % k:
                raise ShardError(f"{what}: dimension {d} of size {shape[d]} cannot be divided by the strategy {s}")
    for s, ents in zip(strategies, dim_entries):
        for k, e in zip(s, ents):
            if e >= 0 and k != matrix[e] and k != 1:
                raise ShardError(f"{what}: the strategies {tuple(strategies)} disagree on a shared dimension")
    total = math.prod(matrix)
    if mesh.n % total:
        raise ShardError(f"{what}: the strategy {tuple(strategies)} uses {total} devices, which does not divide the "
                         f"device count {mesh.n}")
    placed = mesh.place(tuple(matrix) + (mesh.n // total,), what)
    out = []
    for s, ents in zip(strategies, dim_entries):
        out.append(TensorLayout(tuple(placed[e] if e >= 0 and k != 1 else () for k, e in zip(s, ents))))
    return out


def layout_of_layout(mesh: Mesh, layout: Layout, shape: tuple, what: str) -> TensorLayout:
    """A tensor's layout from a MindSpore ``Layout`` (its device matrix placed on the mesh, tensor map from the
    right)."""
    if layout._tensor_map is None:
        raise ShardError(f"{what}: a Layout must be called with one alias per dimension before it is used")
    placed = mesh.place(tuple(layout._device_shape), what)
    if list(layout._rank_list) != mesh.rank_list:  # the pass built the mesh from the function's one rank_list
        raise ShardError(f"{what}: the Layout's rank_list {layout._rank_list} differs from the mesh's "
                         f"{mesh.rank_list}; one sharded function places every Layout on one rank order")
    if len(layout._tensor_map) != len(shape):
        raise ShardError(f"{what}: the layout {layout._tensor_map} does not match a tensor of rank {len(shape)}")
    dims = []
    for d in range(len(shape)):
        axes = tuple(a for e in layout.dim_axes(d) for a in placed[e])
        if shape[d] is not None and shape[d] % max(mesh.size(axes), 1):
            raise ShardError(f"{what}: dimension {d} of size {shape[d]} cannot be split into {mesh.size(axes)} parts")
        dims.append(axes)
    return TensorLayout(tuple(dims))


def to_layout(mesh: Mesh, spec, shape: tuple, what: str) -> TensorLayout:
    if isinstance(spec, Layout):
        return layout_of_layout(mesh, spec, shape, what)
    if isinstance(spec, tuple):
        return layout_of_strategy(mesh, spec, shape, what)
    raise ShardError(f"{what}: a strategy is a tuple of ints or a Layout, got {type(spec).__name__}")


def local_shape(mesh: Mesh, layout: TensorLayout, shape: tuple) -> tuple:
    return tuple(s // mesh.size(a) for s, a in zip(shape, layout.dims))


# ---- redistribution (emitted on this rank's local values) ---------------------------------------------------
def redistribute(mesh: Mesh, x, src: TensorLayout, dst: TensorLayout):
    """``x`` (this rank's local value in layout ``src``) converted to layout ``dst``: partial sums are all-reduced,
    dims whose current split is not a prefix of the target's are all-gathered, then the remaining splits are local
    slices (no communication)."""
    if src == dst:
        return x
    if dst.partial:
        raise ShardError(f"internal: cannot redistribute to a partial layout {dst}")
    if src.partial:
        x, src = _reduce_partial(mesh, x, src, dst)
    if context.get_auto_parallel_context("enable_alltoall"):
        x, src = _move_splits(mesh, x, src, dst)
    dims = list(src.dims)
    for d, (have, want) in enumerate(zip(src.dims, dst.dims)):
        if tuple(want[:len(have)]) != tuple(have):
            x = _gather_dim(mesh, x, d, have)
            dims[d] = ()
    rank = management.get_rank()
    index, sliced = [], False
    for d, (have, want) in enumerate(zip(dims, dst.dims)):
        rest = tuple(want[len(have):])
        if not rest:
            index.append(slice(None))
            continue
        parts = mesh.size(rest)
        size = x.shape[d] // parts
        b = mesh.block(rest, rank)
        index.append(slice(b * size, (b + 1) * size))
        sliced = True
    if sliced:
        x = x[tuple(index)]
    return x


def _fp32(comm, x, *args):
    """``comm(x, *args)``, in float32 for a float16 / bfloat16 ``x`` under ``force_fp32_communication`` (MindSpore's
    Float32Redistribution: a Cast before each reduce collective and back after; an AllGather too, whose gradient is
    a ReduceScatter). The casts are exact, so only the sums' rounding changes."""
    if x.dtype in (mstype.float16, mstype.bfloat16) and context.get_auto_parallel_context("force_fp32_communication"):
        return F.cast(comm(F.cast(x, mstype.float32), *args), x.dtype)
    return comm(x, *args)


def _move_splits(mesh: Mesh, x, src: TensorLayout, dst: TensorLayout):
    """``enable_alltoall``: a split that leaves one dim for another (dim ``i`` loses the trailing axes ``A`` of its
    split, dim ``j`` gains exactly ``A``) is one AlltoAll over ``A`` (MindSpore's PermuteByAxis), instead of an
    AllGather of dim ``i`` and a slice of dim ``j``. Only where the group's ranks hold the blocks in order (no
    ``rank_list`` permutation); the other moves are left to the gather-and-slice path."""
    dims = list(src.dims)
    for i, (have_i, want_i) in enumerate(zip(src.dims, dst.dims)):
        if len(want_i) >= len(have_i) or tuple(have_i[:len(want_i)]) != tuple(want_i):
            continue
        moved = tuple(have_i[len(want_i):])
        for j, (have_j, want_j) in enumerate(zip(dims, dst.dims)):
            k = mesh.size(moved)
            if j == i or tuple(want_j) != tuple(have_j) + moved or x.shape[j] % k:
                continue
            if _group_order(mesh, moved) != list(range(k)):
                break
            x = all_to_all(x, k, j, i, mesh.group(moved))
            dims[i], dims[j] = tuple(want_i), tuple(want_j)
            break
    return x, TensorLayout(tuple(dims))


def _reduce_partial(mesh: Mesh, x, src: TensorLayout, dst: TensorLayout):
    """Sum the partial terms: a ReduceScatter when the target splits a dim as it is split now, then over exactly the
    partial axes (each rank receives only its block of the sum), otherwise an AllReduce."""
    axes = tuple(sorted(src.partial))
    for d, (have, want) in enumerate(zip(src.dims, dst.dims)):
        if tuple(want[:len(have) + len(axes)]) == tuple(have) + axes and x.shape[d] % mesh.size(axes) == 0:
            perm = (d,) + tuple(i for i in range(x.ndim) if i != d)
            y = F.transpose(x, perm) if d else x
            order = _group_order(mesh, axes)
            if order != list(range(len(order))):  # group rank j must receive its own block: chunks in group order
                k = y.shape[0] // len(order)
                y = F.concat([y[b * k:(b + 1) * k] for b in order], 0)
            y = _fp32(reduce_scatter, y, "sum", mesh.group(axes))
            if d:
                y = F.transpose(y, tuple(sorted(range(x.ndim), key=lambda i: perm[i])))
            dims = list(src.dims)
            dims[d] = tuple(have) + axes
            return y, TensorLayout(tuple(dims))
    return _fp32(all_reduce, x, "sum", mesh.group(axes)), src.without_partial()


def _gather_dim(mesh: Mesh, x, d: int, axes: tuple):
    """Gather dim ``d`` split over ``axes`` (major first): AllGather over the group (it concatenates in group
    order, the mesh order of the axes), chunks put back in block order, dim moved to the front and back."""
    if d:
        perm = (d,) + tuple(i for i in range(x.ndim) if i != d)
        x = F.transpose(x, perm)
    local = x.shape[0]
    x = _fp32(all_gather, x, mesh.group(axes))
    order = _group_order(mesh, axes)  # AllGather concatenates in group order; blocks are put back in block order
    if order != list(range(len(order))):
        position = {b: j for j, b in enumerate(order)}
        x = F.concat([x[position[b] * local:(position[b] + 1) * local] for b in range(len(order))], 0)
    if d:
        inv = tuple(sorted(range(x.ndim), key=lambda i: perm[i]))
        x = F.transpose(x, inv)
    return x


def _group_order(mesh: Mesh, axes: tuple) -> list:
    """The block index (along ``axes``, major first as listed) of each group rank of the group over ``axes``: group
    ranks follow the sorted world ranks (MindSpore's rule), blocks the mesh coordinates, and the two differ when the
    axes are not listed ascending or a rank_list permutes the ranks."""
    members = list(mesh.device.axis_ranks(tuple(axes), management.get_rank()))  # members[b] holds block b
    return [members.index(r) for r in sorted(members)]
