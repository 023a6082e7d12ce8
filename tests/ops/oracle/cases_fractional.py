"""ops.FractionalMaxPool / ops.FractionalAvgPool against MindSpore 2.10's CPU kernels. With integral ratios the pooling
sequences are fixed (every step equals the ratio), so values are compared; with fractional ratios the sequences are
random in both (different generators): dtype and shape only, and tests/ops/table_image2.py checks that the pooled
values are those of the returned sequences. Integer inputs: the average truncates toward zero."""
from . import OC, U, I


def _frac(kind, ratio, **kw):
    args = "".join(f", {k}={v!r}" for k, v in kw.items())
    return f"ops.Fractional{kind}Pool({ratio!r}{args})(x)"


R2 = [1.0, 2.0, 2.0, 1.0]
X = U(2, 8, 6, 3)

CASES = [
    *[OC(f"{kind.lower()}_{tag}", _frac(kind, R2, **kw), {"x": X})
      for kind in ("Max", "Avg")
      for tag, kw in (("plain", {}), ("pseudo", {"pseudo_random": True}), ("overlap", {"overlapping": True}),
                      ("pseudo_overlap", {"pseudo_random": True, "overlapping": True}))],
    OC("max_ratio3_float64", _frac("Max", [1.0, 3.0, 2.0, 1.0], overlapping=True),
       {"x": U(1, 9, 6, 2, dtype="float64")}),
    OC("avg_int32", _frac("Avg", R2, overlapping=True), {"x": I(1, 6, 8, 2, lo=-20, hi=20)}),
    OC("max_int64", _frac("Max", R2), {"x": I(1, 6, 8, 2, lo=-20, hi=20, dtype="int64")}),
    OC("max_fractional_shapes", _frac("Max", [1.0, 1.5, 1.7, 1.0], pseudo_random=True), {"x": U(2, 7, 9, 3)},
       check="shape"),
    OC("avg_fractional_shapes", _frac("Avg", [1.0, 1.4, 1.3, 1.0]), {"x": U(2, 7, 9, 3)}, check="shape"),
    OC("max_tuple_ratio", "ops.FractionalMaxPool((1.0, 2.0, 2.0, 1.0))(x)", {"x": X}, check="raises",
       match="pooling_ratio"),
    OC("max_batch_ratio", _frac("Max", [2.0, 2.0, 2.0, 1.0]), {"x": X}, check="raises", match="pooling_ratio"),
    OC("avg_small_ratio", _frac("Avg", [1.0, 0.5, 2.0, 1.0]), {"x": X}, check="raises", match="ratio"),
    OC("max_three_ratios", _frac("Max", [1.0, 2.0, 2.0]), {"x": X}, check="raises", match="pooling_ratio"),
    OC("max_3d_input", _frac("Max", R2), {"x": U(8, 6, 3)}, check="raises", match="FractionalMaxPool"),
    OC("max_float16", _frac("Max", R2), {"x": U(1, 8, 6, 3, dtype="float16")}, check="raises",
       match="FractionalMaxPool"),
]
