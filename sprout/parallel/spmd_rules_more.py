"""More SPMD rules: ``Reshard`` (a tensor's layout fixed by ``reshard(tensor, layout)``), ``Concat``, ``SplitV`` and
``Tile`` (the concatenated / split / tiled dimension whole, every other split kept), ``Gather`` with a strategy
(a vocabulary split: each rank looks up its rows, zeros the ids it does not hold, partial sums), registered into
``spmd_rules.RULES``."""
from __future__ import annotations

from ..communication import management
from .spmd_layout import Mesh, ShardError, TensorLayout, layouts_of_device_matrix, to_layout
from .spmd_rules import RULES, F, _emit, _to, _what, gather_rule, replicated_rule


def reshard_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """``reshard(x, layout)``: ``x`` redistributed to ``layout`` (the op itself is the identity)."""
    x = ins[0]
    want = to_layout(mesh, node.attrs["layout"], x.type.shape, "shard: reshard")
    return [(_to(mesh, x, want), want)]


def _given(mesh: Mesh, node, strategy, tensors: list, whole: set) -> list | None:
    """Layouts from a Primitive strategy, one per tensor input, whose dims in ``whole`` must not be split."""
    if strategy is None:
        return None
    if len(strategy) != len(tensors):
        raise ShardError(f"shard: {_what(node, strategy)}: {len(strategy)} strategies for {len(tensors)} inputs")
    for s in strategy:
        if any(k != 1 for d, k in enumerate(s) if d in whole):
            raise ShardError(f"shard: {_what(node, strategy)}: dimension(s) {sorted(whole)} cannot be split")
    nd = len(tensors[0].type.shape)
    return layouts_of_device_matrix(mesh, list(strategy), [list(range(nd))] * len(tensors),
                                    [v.type.shape for v in tensors], f"shard: {node.op.name}")


def concat_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Concat along ``axis``: that dim whole in every input; a dim split the same way in every input stays split."""
    tensors = [v for v in ins if v.is_tensor]
    nd = len(node.outputs[0].type.shape)
    axis = node.attrs.get("axis", 0) % nd
    given = _given(mesh, node, strategy, tensors, {axis})
    if given is not None:
        dims = given[0].dims
    else:
        first = tensors[0].layout.without_partial().dims
        dims = tuple(a if d != axis and all(v.layout.without_partial().dims[d] == a for v in tensors) else ()
                     for d, a in enumerate(first))
    lay = TensorLayout(dims)
    (o,) = _emit(node, [_to(mesh, v, lay) if v.is_tensor else v.local for v in ins])
    return [(o, lay)]


def split_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """SplitV along ``axis``: that dim whole; every other split kept by every output."""
    x = ins[0]
    nd = len(x.type.shape)
    axis = node.attrs.get("axis", 0) % nd
    given = _given(mesh, node, strategy, [x], {axis})
    if given is not None:
        lay = given[0]
    else:
        lay = TensorLayout(tuple(() if d == axis else a for d, a in enumerate(x.layout.without_partial().dims)))
    outs = _emit(node, [_to(mesh, x, lay)] + [v.local for v in ins[1:]])
    return [(o, lay) for o in outs]


def tile_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Tile by ``multiples``: a dim repeated more than once is whole (local tiles of a block are not a block of
    the tiled tensor), a dim tiled once keeps its split; new leading dims are whole."""
    x = ins[0]
    nd = len(x.type.shape)
    multiples = tuple(node.attrs["multiples"])
    lead = len(multiples) - nd
    if lead < 0:
        return replicated_rule(mesh, node, ins, strategy)
    repeated = {d for d in range(nd) if multiples[lead + d] != 1}
    given = _given(mesh, node, strategy, [x], repeated)
    lay = given[0] if given is not None else TensorLayout(tuple(() if d in repeated else a for d, a in
                                                                enumerate(x.layout.without_partial().dims)))
    (o,) = _emit(node, [_to(mesh, x, lay)] + [v.local for v in ins[1:]])
    return [(o, TensorLayout(((),) * lead + lay.dims))]


def gather_strategy_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Gather(params, indices, axis) with ``Primitive.shard(((table dims), (ids dims)))``: every dim keeps its split;
    a split of the gathered dim (a vocabulary split, Megatron's parallel embedding) makes each rank look up the ids in
    its block of rows (others read row 0 and are zeroed), a partial sum over the vocabulary's devices."""
    params, indices = ins[0], ins[1]
    if strategy is None or node.attrs.get("batch_dims", 0) or not (params.is_tensor and indices.is_tensor):
        return gather_rule(mesh, node, ins, strategy)
    if len(strategy) != 2:
        raise ShardError(f"shard: {_what(node, strategy)}: Gather takes one strategy for the table and one for the "
                         "indices")
    pnd, ind = len(params.type.shape), len(indices.type.shape)
    axis = node.attrs.get("axis", 0) % pnd
    lp, li = layouts_of_device_matrix(mesh, list(strategy), [list(range(pnd)), list(range(pnd, pnd + ind))],
                                      [params.type.shape, indices.type.shape], f"shard: {node.op.name}")
    table, ids = _to(mesh, params, lp), _to(mesh, indices, li)
    vocab = lp.dims[axis]
    out_dims = lp.dims[:axis] + li.dims + lp.dims[axis + 1:]
    rest = [v.local for v in ins[2:]]
    if not vocab:
        (o,) = _emit(node, [table, ids] + rest)
        return [(o, TensorLayout(out_dims))]
    rows = params.type.shape[axis] // mesh.size(vocab)
    start = mesh.block(vocab, management.get_rank()) * rows
    local = F.sub(ids, start)
    held = F.logical_and(F.ge(local, 0), F.lt(local, rows))
    (o,) = _emit(node, [table, F.select(held, local, F.zeros_like(local))] + rest)
    mask = F.reshape(F.cast(held, o.dtype), (1,) * axis + tuple(held.shape) + (1,) * (pnd - axis - 1))
    return [(F.mul(o, mask), TensorLayout(out_dims, tuple(sorted(vocab))))]


RULES.update({"Gather": gather_strategy_rule, "Reshard": reshard_rule, "Concat": concat_rule, "SplitV": split_rule,
              "Tile": tile_rule})
