"""Run in MindSpore's venv: writes into views and into their bases in MindSpore 2.10 PyNative ->
tests/core/data/ms210_view_writes.json.

    /work/msvenv/bin/python tools/ms_oracle_view_writes.py

Each case is a snippet run on ``x = arange(6).reshape(2, 3)`` (float32) with ``ms``/``ops``/``Tensor`` bound to
MindSpore; it stores the snippet, ``x`` and the snippet's result ``out`` afterwards, or the exception MindSpore
raised. tests/core/test_view_writes_oracle.py runs the same snippets with sprout and compares."""
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "core" / "data" / "ms210_view_writes.json"
ONES = "ops.ones({}, ms.float32)"
CASES = {
    # ops.assign / assign_add / assign_sub into a view: MindSpore refuses (RuntimeError)
    "assign_into_view": f"v = x.view(3, 2); ops.assign(v, {ONES.format((3, 2))} * 5); out = v",
    "assign_into_slice": f"v = x[0:1]; ops.assign(v, {ONES.format((1, 3))} * 5); out = v",
    "assign_into_reshape": f"v = x.reshape(3, 2); ops.assign(v, {ONES.format((3, 2))} * 5); out = v",
    "assign_into_transpose": f"v = x.T; ops.assign(v, {ONES.format((3, 2))} * 5); out = v",
    "assign_into_flatten": f"v = x.flatten(); ops.assign(v, {ONES.format((6,))} * 5); out = v",
    "assign_add_into_reshape": f"v = x.reshape(3, 2); ops.assign_add(v, {ONES.format((3, 2))}); out = v",
    "assign_sub_into_row": f"v = x[1]; ops.assign_sub(v, {ONES.format((3,))}); out = v",
    # x[i] = v through a view writes the base
    "setitem_reshape": "y = x.reshape(3, 2); y[0] = 5; out = y",
    "setitem_view": "y = x.view(3, 2); y[0] = 5; out = y",
    "setitem_slice": "y = x[1:]; y[0] = 5; out = y",
    "setitem_row": "y = x[1]; y[0] = 5; out = y",
    "setitem_transpose": "y = x.T; y[0] = 5; out = y",
    "setitem_flatten": "y = x.flatten(); y[0] = 5; out = y",
    "setitem_ravel": "y = x.ravel(); y[2] = 9; out = y",
    "setitem_expand_dims": "y = ops.expand_dims(x, 0); y[0, 1] = 5; out = y",
    "setitem_squeeze": "y = ops.squeeze(x.reshape(1, 2, 3), 0); y[1] = 5; out = y",
    "setitem_step_slice": "y = x[:, ::2]; y[0] = 9; out = y",
    "setitem_copy": "y = x.copy(); y[0] = 9; out = y",
    # x[i] = v on the base is seen through its views
    "base_setitem_seen_by_reshape": "y = x.reshape(3, 2); x[0] = 7; out = y",
    "base_setitem_seen_by_flatten": "y = x.flatten(); x[1] = 7; out = y",
    "base_setitem_seen_by_slice": "y = x[:, 1:]; x[1, 2] = 7; out = y",
    # views see ops.assign to the base; a reshape/flatten of a non-contiguous view is a copy; += rebinds
    "base_assign_seen_by_views": f"y = x.reshape(3, 2); z = x[1]; ops.assign(x, {ONES.format((2, 3))} * 4); "
                                 "out = ops.concat((y.reshape(6), z))",
    "flatten_of_transpose_is_a_copy": f"y = x.T.flatten(); ops.assign(x, {ONES.format((2, 3))}); out = y",
    "reshape_of_transpose_is_a_copy": f"y = x.T.reshape(6); ops.assign(x, {ONES.format((2, 3))}); out = y",
    "iadd_on_a_view_rebinds": "y = x.reshape(3, 2); y += 1; out = y",
    # more view ops: writes through them reach the base, ops.assign refuses them
    "setitem_permute": "y = x.permute(1, 0); y[0] = 5; out = y",
    "setitem_swapaxes": "y = ops.swapaxes(x, 0, 1); y[1, 1] = 5; out = y",
    "setitem_movedim": "y = ops.movedim(x, 0, 1); y[2] = 5; out = y",
    "setitem_split": "y = ops.split(x, 1, 0)[1]; y[0, 1] = 5; out = y",
    "setitem_chunk": "y = ops.chunk(x, 2, 0)[0]; y[0, 2] = 5; out = y",
    "setitem_unbind": "y = ops.unbind(x, 0)[1]; y[0] = 5; out = y",
    "setitem_narrow": "y = ops.narrow(x, 1, 1, 2); y[1] = 5; out = y",
    "setitem_unsqueeze": "y = x.unsqueeze(0); y[0, 0] = 5; out = y",
    "setitem_index_none": "y = x[None]; y[0, 1, 2] = 9; out = y",
    "setitem_view_of_view": "y = x.reshape(3, 2)[1:]; y[0] = 5; out = y",
    "assign_into_split": f"v = ops.split(x, 1, 0)[0]; ops.assign(v, {ONES.format((1, 3))}); out = v",
    "assign_into_squeeze": f"v = ops.squeeze(x[0:1]); ops.assign(v, {ONES.format((3,))}); out = v",
    "assign_into_unsqueeze": f"v = x.unsqueeze(0); ops.assign(v, {ONES.format((1, 2, 3))}); out = v",
    "assign_into_narrow": f"v = ops.narrow(x, 1, 0, 2); ops.assign(v, {ONES.format((2, 2))}); out = v",
    "assign_into_permute": f"v = x.permute(1, 0); ops.assign(v, {ONES.format((3, 2))}); out = v",
    # results of other ops have memory of their own; Tensor(ndarray) copies, asnumpy() shares
    "setitem_flip_is_a_copy": "y = ops.flip(x, (0,)); y[0] = 9; out = y",
    "setitem_abs_is_a_copy": "y = ops.abs(x); y[0] = 9; out = y",
    "setitem_tensor_index_is_a_copy": "y = x[Tensor([1, 0])]; y[0] = 9; out = y",
    "setitem_bool_index_is_a_copy": "y = x[x > 2]; y[0] = 9; out = y",
    "tensor_of_ndarray_copies": "a = np.zeros((2, 3), np.float32); y = Tensor(a); y[0] = 9; out = Tensor(a)",
    "asnumpy_shares_memory": "a = x.asnumpy(); a[0, 0] = 9; out = x",
    "asnumpy_sees_setitem": "a = x.asnumpy(); x[1] = 8; out = Tensor(a.copy())",
    # the value: cast to x's dtype, broadcast, read before the write where it overlaps x
    "setitem_int_tensor_value": "y = x[0]; y[1] = Tensor(7, ms.int32); out = y",
    "setitem_list_value": "x[0] = [7, 8, 9]; out = x",
    "setitem_overlapping_value": "x[:, 1:] = x[:, :2]; out = x",
    "setitem_row_broadcast": "y = x.T; y[:, 0] = Tensor([1.5, 2.5, 3.5]); out = y",
    "setitem_bad_shape_leaves_x": "y = x[0]\ntry:\n    y[0:2] = Tensor([1.0, 2.0, 3.0])\nexcept ValueError:\n"
                                  "    pass\nout = y",
}


def run_case(src: str, ms, ops, Tensor) -> dict:
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    env = {"x": x, "ms": ms, "ops": ops, "Tensor": Tensor, "np": np}
    try:
        exec(src, env)  # noqa: S102 - the recorded snippets above
    except Exception as exc:  # noqa: BLE001 - the exception is what is recorded
        return {"error": type(exc).__name__, "message": str(exc).splitlines()[0][:160]}
    return {"x": x.asnumpy().tolist(), "out": env["out"].asnumpy().tolist()}


def main():
    import mindspore as ms
    from mindspore import Tensor, ops

    ms.set_context(mode=ms.PYNATIVE_MODE)
    data = {"mindspore": ms.__version__, "cases": {}}
    for name, src in CASES.items():
        data["cases"][name] = {"src": src, **run_case(src, ms, ops, Tensor)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(CASES)} cases -> {OUT}")


if __name__ == "__main__":
    main()
