"""The graph-level fuzzer (150 random IR graphs in the default suite, 3,000 in the slow run): every pass (verified
after each), forced fusion with each kernel strategy and the code generator, against the reference interpreter."""
import pytest

from .graphs import run_graphs

# Graph seeds that fail today, by finding (notes/fuzz-findings.md).
KNOWN_GRAPHS: dict = {}  # fuzz-3 (seed 84, fusion grouping cycle) fixed in f903824


@pytest.mark.parametrize("seeds", [pytest.param(range(150), id="150"),
                                   pytest.param(range(150, 3150), id="3000", marks=pytest.mark.slow)])
def test_graph_fuzz(seeds):
    s = run_graphs(seeds)
    print(s.table())
    assert s.invalid == 0
    # the graphs exercise every pass (a fuzzer that stopped reaching one would pass vacuously)
    stages = dict(s.stages)
    stages["dce"] = stages.get("dce", 0) + stages.get("dce_traced", 0)  # DCE runs first and after the rewrites
    for stage in ("inline", "fold_constants", "simplify", "cse", "dce", "prune", "fuse[numpy_blocked]"):
        assert stages.get(stage, 0) >= len(seeds) // 15, f"only {stages.get(stage, 0)} graphs changed by {stage}"
    new = [(seed, msg) for seed, msg in s.failures if seed not in KNOWN_GRAPHS]
    fixed = sorted(set(KNOWN_GRAPHS).intersection(seeds) - {seed for seed, _ in s.failures})
    if fixed:
        print(f"known-failing graph seeds now pass (update KNOWN_GRAPHS): {fixed}")
    assert not new, f"new graph fuzz failures: {new[:5]}"

