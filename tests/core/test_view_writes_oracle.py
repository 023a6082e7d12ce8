"""Writes into views and into their bases, eagerly, against MindSpore 2.10 PyNative (fixtures recorded by
tools/ms_oracle_view_writes.py: each case's snippet, ``x`` afterwards and the result, or MindSpore's exception)."""
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

DATA = json.loads((Path(__file__).parent / "data" / "ms210_view_writes.json").read_text())["cases"]
# where sprout's eager differs from MindSpore (docs/jit.md section 2, "Differences from MindSpore"): sprout writes
# ops.assign/assign_add/assign_sub through a view to its base where MindSpore raises RuntimeError; sprout's
# x[i] = v rebinds the tensor written to a new array, so neither the base of a view nor the views of a base see it
OPEN = {
    **{k: "ops.assign* into a view: MindSpore raises RuntimeError, sprout writes the base" for k in DATA
       if k.startswith("assign_")},
    **{k: "x[i] = v through a view: MindSpore writes the base, sprout rebinds the view" for k in DATA
       if k.startswith("setitem_") and k != "setitem_copy"},
    **{k: "x[i] = v on a base: MindSpore's views see it, sprout rebinds the base" for k in DATA
       if k.startswith("base_setitem_")},
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
