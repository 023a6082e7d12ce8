"""jit_level picks the pass list: O0 never fuses, O1 fuses large elementwise chains; both match eager."""
import numpy as np

import sprout as ms
from sprout import Tensor, jit, ops


def chain(x):
    return ops.sqrt(ops.abs(ops.tanh(x * 2.0 + 1.0) - x / 3.0)) * 0.5


def _fused(fn, x) -> bool:
    return "FusedElementwise" in str(fn.explain(x).ir)


def test_levels_choose_fusion_and_agree_with_eager(monkeypatch):
    from sprout.backend import kernels

    # the strategy is normally measured once per machine; pin it so the test does not depend on load
    monkeypatch.setattr(kernels, "choose", lambda sub, n, allow_numba=True: "numpy_blocked")
    x = Tensor(np.random.default_rng(0).standard_normal((512, 1024)).astype(np.float32))
    eager = chain(x).asnumpy()
    f0 = jit(chain, jit_level="O0")
    f1 = jit(chain, jit_level="O1")
    np.testing.assert_allclose(f0(x).asnumpy(), eager, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(f1(x).asnumpy(), eager, rtol=1e-5, atol=1e-6)
    assert not _fused(f0, x)
    assert _fused(f1, x)


def test_default_level_follows_context(monkeypatch):
    x = Tensor(np.random.default_rng(1).standard_normal((512, 1024)).astype(np.float32))
    monkeypatch.setitem(ms.context._flags, "jit_level", "O0")
    assert not _fused(jit(chain), x)


def test_invalid_level_is_refused_at_decoration():
    import pytest

    with pytest.raises(ValueError, match="jit_level"):
        jit(chain, jit_level="O3")
