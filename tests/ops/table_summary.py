"""Op-table entry for the summary op (ops.ScalarSummary / ImageSummary / TensorSummary / HistogramSummary):
in every mode (eager, jit, PIJit) the value the op sees at run time is kept for SummaryRecord, the op does not
change the function's result or its gradient, and a value of the wrong rank is a ValueError."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.ops.summary_ops import take_cached
from modes import MODES, grad_in_mode, run_in_mode


def _f(x):
    y = (x * x).sum()
    ops.ScalarSummary()("y", y)
    ops.HistogramSummary()("x", x)
    ops.TensorSummary()("twice", x * 2)
    return y * 3


def check_summary():
    x = np.array([1.0, -2.0, 0.5], np.float32)
    for mode in MODES:
        take_cached()
        out = run_in_mode(_f, [ms.Tensor(x)], mode)
        assert float(out.asnumpy()) == pytest.approx(3 * float((x * x).sum())), mode
        kept = take_cached()
        assert set(kept) == {("scalar", "y"), ("histogram", "x"), ("tensor", "twice")}, mode
        assert float(kept[("scalar", "y")]) == pytest.approx(float((x * x).sum()))
        np.testing.assert_array_equal(kept[("histogram", "x")], x)
        np.testing.assert_array_equal(kept[("tensor", "twice")], x * 2)
        g = grad_in_mode(_f, [ms.Tensor(x)], mode, 0)
        np.testing.assert_allclose(np.asarray(g.asnumpy()), 6 * x, rtol=1e-6)
        assert ("scalar", "y") in take_cached()  # the differentiated run records too
    for mode in MODES:
        with pytest.raises(ValueError, match="ScalarSummary"):
            run_in_mode(lambda v: ops.ScalarSummary()("bad", v), [ms.Tensor(np.ones((2, 2), np.float32))], mode)
        with pytest.raises(ValueError, match="ImageSummary"):
            run_in_mode(lambda v: ops.ImageSummary()("bad", v), [ms.Tensor(x)], mode)
    with pytest.raises(TypeError, match="name"):
        ops.ScalarSummary()(3, ms.Tensor(x[:1]))
    with pytest.raises(ValueError, match="name"):
        ops.ScalarSummary()("", ms.Tensor(x[:1]))
    take_cached()


ENTRIES = {"Summary": check_summary}
