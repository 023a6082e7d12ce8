"""Writes into views and into their bases, eagerly, against MindSpore 2.10 PyNative (fixtures recorded by
tools/ms_oracle_view_writes.py: each case's snippet, ``x`` afterwards and the result, or MindSpore's exception)."""
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

DATA = json.loads((Path(__file__).parent / "data" / "ms210_view_writes.json").read_text())["cases"]
# where sprout's eager differs from MindSpore on purpose (docs/jit.md section 2, "Differences from MindSpore"):
# MindSpore 2.10's PyNative writes the base through the result of an advanced (tensor or boolean) index, which
# its documentation and every graph make a copy; it reads an overlapping value while writing it (NumPy reads it
# first, as the out-of-place SetItem of a graph does: eager == jit)
OPEN = {
    "setitem_tensor_index_is_a_copy": "MindSpore 2.10 PyNative writes x through x[Tensor([1, 0])]; sprout copies",
    "setitem_bool_index_is_a_copy": "MindSpore 2.10 PyNative writes x through x[x > 2]; sprout copies",
    "setitem_overlapping_value": "MindSpore 2.10 PyNative smears x[:, 1:] = x[:, :2]; sprout reads the value first",
}


def _params():
    for name in DATA:
        marks = [pytest.mark.xfail(strict=True, reason=OPEN[name])] if name in OPEN else []
        yield pytest.param(name, id=name, marks=marks)


def _run(src: str) -> dict:
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    env = {"x": x, "ms": ms, "ops": ops, "Tensor": Tensor, "np": np}
    try:
        exec(src, env)  # noqa: S102 - the recorded snippets
    except Exception as exc:  # noqa: BLE001 - compared with MindSpore's exception
        return {"error": type(exc).__name__}
    return {"x": x.asnumpy().tolist(), "out": env["out"].asnumpy().tolist()}


@pytest.mark.parametrize("name", _params())
def test_eager_view_write_matches_mindspore(name):
    want, got = DATA[name], _run(DATA[name]["src"])
    if "error" in want:
        assert got.get("error") == want["error"], got
        return
    assert "error" not in got, got
    np.testing.assert_array_equal(np.array(got["x"]), np.array(want["x"]), err_msg="x afterwards")
    np.testing.assert_array_equal(np.array(got["out"]), np.array(want["out"]), err_msg="the result")
