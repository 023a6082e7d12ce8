"""Op-table cases for the matrix_diag family (``ops/functional_diag.py``: composites over Gather and Select) against
a NumPy loop reference of MindSpore's band layout; tests/ops/test_matrix_diag.py holds the MindSpore fixtures."""
import numpy as np

from sprout import ops
from optable import F64, Case


def _slots(rows, cols, k0, k1, width, align):
    """{(r, c): (band row, band column)} for the diagonals k1 .. k0, shorter ones placed by align."""
    out = {}
    for b, d in enumerate(range(k1, k0 - 1, -1)):
        cells = [(r, r + d) for r in range(rows) if 0 <= r + d < cols]
        right = align.split("_")[0 if d >= 0 else 1] == "RIGHT"
        for j, cell in enumerate(cells):
            out[cell] = (b, j + (width - len(cells) if right else 0))
    return out


def _part_ref(x, k0, k1, pad, align):
    rows, cols = x.shape[-2:]
    width = min(rows + min(0, k1), cols - max(0, k0))
    out = np.full(x.shape[:-2] + (k1 - k0 + 1, width), pad, x.dtype)
    for (r, c), (b, j) in _slots(rows, cols, k0, k1, width, align).items():
        out[..., b, j] = x[..., r, c]
    return out


def _set_ref(x, d, k0, k1, align, base=None):
    rows, cols = x.shape[-2:]
    out = x.copy() if base is None else np.full(x.shape, base, d.dtype)
    for (r, c), (b, j) in _slots(rows, cols, k0, k1, d.shape[-1], align).items():
        out[..., r, c] = d[..., b, j]
    return out


CASES = [
    Case("Gather", lambda x: ops.matrix_diag_part(x, (-1, 1), 0.5, "RIGHT_LEFT"), (F64(2, 3, 4),),
         lambda x: _part_ref(x, -1, 1, 0.5, "RIGHT_LEFT"), label="matrix_diag_part-band"),
    Case("Gather", lambda x: ops.matrix_diag_part(x, (-2, -1), -1.0, "LEFT_RIGHT"), (F64(4, 3),),
         lambda x: _part_ref(x, -2, -1, -1.0, "LEFT_RIGHT"), label="matrix_diag_part-sub"),
    Case("Gather", lambda x, d: ops.matrix_set_diag(x, d, (0, 2), "RIGHT_RIGHT"), (F64(2, 3, 4), F64(2, 3, 3)),
         lambda x, d: _set_ref(x, d, 0, 2, "RIGHT_RIGHT"), label="matrix_set_diag-super"),
    Case("Gather", lambda d: ops.matrix_diag(d, (-1, 1), 3, 4, 2.0, "LEFT_LEFT"), (F64(2, 3, 3),),
         lambda d: _set_ref(np.zeros((2, 3, 4)), d, -1, 1, "LEFT_LEFT", base=2.0), label="matrix_diag-band"),
]
