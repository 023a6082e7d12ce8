"""Run in MindSpore's venv: MindSpore 2.10's matrix_diag / matrix_diag_part / matrix_set_diag on k ranges, every
align, padding values, non-square and batched inputs -> tests/ops/data/oracle_matrix_diag.json.

    /work/msvenv/bin/python tools/ms_oracle_matrix_diag.py

Each case stores its arguments and MindSpore's output, or the exception type and first message line for bad input;
tests/ops/test_matrix_diag.py replays the cases on sprout."""
import itertools
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "ops" / "data" / "oracle_matrix_diag.json"
ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")
KS = (0, 1, -2, (-1, 1), (-2, -1), (1, 2), (0, 0), (-2, 3))


def _values(shape, seed):
    """Distinct small values, exact in float32."""
    n = int(np.prod(shape))
    return (np.random.default_rng(seed).permutation(n) + 1.0).reshape(shape).astype(np.float32)


def _band_shape(rows, cols, k):
    k0, k1 = (k, k) if isinstance(k, int) else k
    width = min(rows + min(0, k1), cols - max(0, k0))
    return (width,) if k0 == k1 else (k1 - k0 + 1, width)


def _cases():
    """(op, args) pairs; args are JSON-ready."""
    seed = itertools.count()
    for shape, k, align, pad in itertools.product([(3, 4), (4, 3), (2, 3, 3)], KS, ALIGNS, (0.0, 9.5)):
        if not isinstance(k, int) and align != ALIGNS[0] and k[0] == k[1]:
            continue
        k0, k1 = (k, k) if isinstance(k, int) else k
        if isinstance(k, int) and align != ALIGNS[0] or k1 >= shape[-1] or -k0 >= shape[-2]:
            continue
        x = _values(shape, next(seed))
        yield "matrix_diag_part", {"x": x, "k": k, "padding_value": pad, "align": align}
        if pad == 0.0:
            d = -_values(shape[:-2] + _band_shape(shape[-2], shape[-1], k), next(seed))
            yield "matrix_set_diag", {"x": x, "diagonal": d, "k": k, "align": align}
    for dshape, k, rows, cols, align, pad in [
        ((3,), 0, -1, -1, "RIGHT_LEFT", 0.0), ((3,), 1, -1, -1, "RIGHT_LEFT", 0.0),
        ((3,), -1, -1, -1, "RIGHT_LEFT", 2.5), ((3,), 1, 5, -1, "RIGHT_LEFT", 0.0),
        ((3,), -2, -1, 6, "RIGHT_LEFT", 0.0), ((2, 3), 0, 3, 5, "RIGHT_LEFT", -1.0),
        *[((2, 3), (-1, 0), -1, -1, a, -1.0) for a in ALIGNS],
        *[((3, 3), (-1, 1), -1, -1, a, 7.0) for a in ALIGNS],
        *[((2, 3), (1, 2), -1, -1, a, 0.0) for a in ALIGNS],
        *[((2, 3), (-2, -1), -1, -1, a, 0.0) for a in ALIGNS],
        ((2, 3, 3), (-1, 1), -1, -1, "LEFT_RIGHT", 0.0),
        ((2, 3, 2), (-1, 1), -1, -1, "RIGHT_RIGHT", 1.0), ((2, 3, 2), (-1, 1), 3, 2, "RIGHT_LEFT", 0.0),
        ((2, 3, 2), (-1, 1), 3, 4, "RIGHT_LEFT", 0.0),
        ((2, 3), (-1, 0), 4, 3, "LEFT_LEFT", 0.0), ((2, 3), (-1, 0), 2, 2, "RIGHT_LEFT", 0.0),
        ((2, 3), (-1, 0), 5, 5, "RIGHT_LEFT", 0.0), ((2, 3), (-1, 1), -1, -1, "RIGHT_LEFT", 0.0),
        ((2, 3), (1, 0), -1, -1, "RIGHT_LEFT", 0.0), ((3,), 0, -1, -1, "UP", 0.0),
    ]:
        yield "matrix_diag", {"x": _values(dshape, next(seed)), "k": k, "num_rows": rows, "num_cols": cols,
                              "padding_value": pad, "align": align}
    x = _values((3, 4), 99)
    for k in ((1, -1), (-3, 0), (0, 4), (-1, 0, 1)):
        yield "matrix_diag_part", {"x": x, "k": k, "padding_value": 0.0, "align": "RIGHT_LEFT"}
    yield "matrix_diag_part", {"x": x, "k": 0, "padding_value": 0.0, "align": "UP"}
    yield "matrix_diag_part", {"x": _values((3,), 1), "k": 0, "padding_value": 0.0, "align": "RIGHT_LEFT"}
    for d, k, align in [((4,), 0, "RIGHT_LEFT"), ((2, 3), (-1, 1), "RIGHT_LEFT"), ((2, 3, 3), (-1, 1), "RIGHT_LEFT"),
                        ((3, 3), (-1, 1), "X"), ((3,), (1, -1), "RIGHT_LEFT")]:
        yield "matrix_set_diag", {"x": x, "diagonal": _values(d, 2), "k": k, "align": align}


def _run(ms, ops, op, a):
    k = ms.Tensor(np.array(a["k"], np.int32))
    if op == "matrix_diag_part":
        return ops.matrix_diag_part(ms.Tensor(a["x"]), k, ms.Tensor(np.float32(a["padding_value"])), a["align"])
    if op == "matrix_set_diag":
        return ops.matrix_set_diag(ms.Tensor(a["x"]), ms.Tensor(a["diagonal"]), k, a["align"])
    return ops.matrix_diag(ms.Tensor(a["x"]), k, ms.Tensor(a["num_rows"], ms.int32), ms.Tensor(a["num_cols"], ms.int32),
                           ms.Tensor(np.float32(a["padding_value"])), a["align"])


def main():
    import mindspore as ms
    from mindspore import ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    records = []
    for op, args in _cases():
        rec = {"op": op, **{n: (v.tolist() if isinstance(v, np.ndarray) else v) for n, v in args.items()}}
        rec["x_shape"] = list(args["x"].shape)
        if "diagonal" in args:
            rec["diagonal_shape"] = list(args["diagonal"].shape)
        try:
            out = _run(ms, ops, op, args).asnumpy()
            rec["out"], rec["out_shape"] = out.tolist(), list(out.shape)
        except (ValueError, TypeError, RuntimeError, IndexError) as e:
            rec["error"], rec["message"] = type(e).__name__, str(e).split("\n")[0]
        records.append(rec)
    OUT.write_text(json.dumps({"mindspore": ms.__version__, "cases": records}) + "\n")
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
