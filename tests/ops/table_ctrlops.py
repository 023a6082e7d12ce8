"""Op-table entries of the host-function and dump primitives (sprout/ops/custom_ops.py, sprout/ops/dump_ops.py):
Custom (func_type="pyfunc") and PyFunc against NumPy, Custom's user bprop against finite differences, TensorDump's
files in every mode. (The loop primitives WhileLoop/ForiLoop/Scan and Morph lower onto existing records: their
mode and MindSpore-fixture checks are in test_ctrlops.py.)"""
import tempfile
from pathlib import Path

import numpy as np

import sprout as ms
from sprout import ops
from modes import MODES, run_in_mode
from optable import F64, Case


def _affine(a, b):
    return a * b + 1


def _affine_bprop(a, b, out, dout):
    return dout * b, dout * a


_CUSTOM = ops.Custom(_affine, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc",
                     bprop=_affine_bprop)


def _cumsum_pyfunc(stateful):
    t = ms.float64
    return ops.PyFunc(np.cumsum, [t], [(4,)], [t], [(4,)], stateful=stateful)


_PYFUNC_STATEFUL, _PYFUNC_PURE = _cumsum_pyfunc(True), _cumsum_pyfunc(False)


def check_tensor_dump():
    """Every mode writes <file>_<dtype>_<id>.npy with the tensor's value when the program runs, ids increasing in
    program order (in a graph: when it runs, each call again)."""
    def program(x):
        ops.TensorDump()(str(where / "first"), x)
        y = x * 2
        ops.TensorDump()(str(where / "second.npy"), y)
        return y

    for mode in MODES:
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(tmp)
            x = ms.Tensor(np.array([1.5, -2.0], np.float32))
            for _ in range(2):
                run_in_mode(program, [x], mode)
            files = sorted(where.glob("*.npy"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
            assert [p.stem.rsplit("_", 1)[0] for p in files] == ["first_float32", "second_float32"] * 2, (mode, files)
            for p, want in zip(files, [x.asnumpy(), x.asnumpy() * 2] * 2):
                np.testing.assert_array_equal(np.load(p), want, err_msg=mode)


CASES = [
    Case("Custom", lambda a, b: _CUSTOM(a, b), (F64(3, 2), F64(3, 2)), lambda a, b: a * b + 1),
    Case("PyFunc", lambda x: _PYFUNC_STATEFUL((x,))[0] * 2, (F64(4),), lambda x: np.cumsum(x) * 2, grad=()),
    Case("Custom", lambda x: _PYFUNC_PURE((x,))[0] + x, (F64(4),), lambda x: np.cumsum(x) + x, grad=(),
         label="pyfunc-stateless"),
]
ENTRIES = {"TensorDump": check_tensor_dump}
