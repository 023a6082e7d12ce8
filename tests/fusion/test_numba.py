"""The numba strategy (optional dependency): correctness against the interpreter, and the on-disk kernel cache."""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from sprout.backend import kernels
from sprout.backend.interpret import interpret
from sprout.passes.fuse import fuse_elementwise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_fusion import _data, _graph, arith  # noqa: E402

pytest.importorskip("numba")  # noqa: E402


def test_numba_kernel_matches_interpreter():
    arrays = _data(np.random.default_rng(9), (5000,), (5000,))
    g = _graph(arith, *arrays)
    fused = fuse_elementwise(g, choose=lambda sub, n: "numba", min_elements=1)
    sub = fused.nodes[-1].attrs["graph"]
    assert kernels.numba_eligible(sub)
    from sprout.backend.pycodegen import generate

    got = generate(fused).function("graph_fn")(*arrays)[0]   # runs the numba kernel
    np.testing.assert_allclose(got, interpret(g, *arrays)[0], rtol=1e-6, atol=1e-6)
    assert "nogil=True" in kernels.build(sub, "numba").source


@pytest.mark.parametrize("n", [kernels.MT_MIN + 77, 3 * kernels.MT_MIN])
def test_two_thread_numba_kernel_equals_serial(n):
    """numba_mt runs the halves of the flat range on two threads: same values bit for bit as the one loop,
    also for a length that is no multiple of the split's alignment."""
    arrays = _data(np.random.default_rng(3), (n,), (n,))
    fused = fuse_elementwise(_graph(arith, *arrays), choose=lambda s, m: "numba", min_elements=1)
    sub = fused.nodes[-1].attrs["graph"]
    (one,) = kernels.build(sub, "numba")(*arrays)
    (two,) = kernels.build(sub, "numba_mt")(*arrays)
    assert kernels.build(sub, "numba_mt").threads == 2
    np.testing.assert_array_equal(one, two)
    np.testing.assert_allclose(two, interpret(_graph(arith, *arrays), *arrays)[0], rtol=1e-6, atol=1e-6)


_CHILD = textwrap.dedent("""
    import sys, numpy as np
    from sprout import context
    context.set_context(kernel_cache_dir=sys.argv[1])
    from sprout.backend import kernels
    from sprout.passes.fuse import fuse_elementwise
    sys.path.insert(0, "tests/fusion")
    from test_fusion import _data, _graph, arith
    arrays = _data(np.random.default_rng(0), (4096,), (4096,))
    fused = fuse_elementwise(_graph(arith, *arrays), choose=lambda s, n: "numba", min_elements=1)
    k = kernels.build(fused.nodes[-1].attrs["graph"], "numba")
    k(*arrays)
    st = k.kern.stats
    print(sum(st.cache_hits.values()), sum(st.cache_misses.values()))
""")


@pytest.mark.slow
def test_second_process_reuses_compiled_kernel(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runs = []
    for _ in range(2):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / "kc")], cwd=root,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out = proc.stdout.split()
        runs.append((int(out[-2]), int(out[-1]), time.perf_counter() - t))
    assert runs[0][1] >= 1            # first process compiled
    assert runs[1][0] >= 1 and runs[1][1] == 0   # second process loaded it from disk
