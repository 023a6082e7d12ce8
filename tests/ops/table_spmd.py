"""Op-table entries for the SPMD pass's edge ops (sprout/ops/spmd_ops.py): Mirror (identity; gradient summed over
the group) and VirtualOutput (identity; gradient scaled), on the simulated mesh with 2 and 3 ranks in every mode,
gradients against their rule (they are not the mathematical derivative of one rank's output: that is their job)."""
import sprout as ms
from sprout.ops.spmd_ops import RESHARD, mirror, virtual_output
from table_comm import _GROUP_SIZES, _rank_inputs, mesh_check


def check_mirror():
    for n in _GROUP_SIZES:
        mesh_check(lambda r: (lambda x: mirror(x)), _rank_inputs(n, 2, 3), lambda xs: [p[0] for p in xs],
                   grad=lambda xs, w: [[sum(w)] for _ in xs])


def check_virtual_output():
    for n in _GROUP_SIZES:
        for scale in (1.0, 0.0, 0.5):
            mesh_check(lambda r, s=scale: (lambda x: virtual_output(x, s)), _rank_inputs(n, 3),
                       lambda xs: [p[0] for p in xs], grad=lambda xs, w, s=scale: [[wr * s] for wr in w])


def check_reshard():
    """Outside the SPMD pass Reshard is the identity (value and gradient); the pass's use is in test_shard."""
    for n in _GROUP_SIZES:
        lay = ms.Layout((n,), ("mp",))("None", "mp")
        mesh_check(lambda r, lay=lay: (lambda x: RESHARD(x, layout=lay)), _rank_inputs(n, 2, 3),
                   lambda xs: [p[0] for p in xs])


ENTRIES = {"Mirror": check_mirror, "VirtualOutput": check_virtual_output, "Reshard": check_reshard}
