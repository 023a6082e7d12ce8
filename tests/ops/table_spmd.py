"""Op-table entries for the SPMD pass's edge ops (sprout/ops/spmd_ops.py): Mirror (identity; gradient summed over
the group) and VirtualOutput (identity; gradient scaled), on the simulated mesh with 2 and 3 ranks in every mode,
gradients against their rule (they are not the mathematical derivative of one rank's output: that is their job)."""
from sprout.ops.spmd_ops import mirror, virtual_output
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


ENTRIES = {"Mirror": check_mirror, "VirtualOutput": check_virtual_output}
