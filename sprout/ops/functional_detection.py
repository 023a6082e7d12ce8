"""Detection functions: box IoU, box encoding/decoding (MindSpore's pixel convention: width = x2 - x1 + 1),
validity checks, ROIAlign (bilinear sampling through gathers, so it has gradients), NMS and greedy CTC."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import detection_ops as D
from . import functional as F
from .composite import _float_input
from .functional import _as_tensor
from .host_ops import is_symbolic

__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid", "roi_align", "nms_with_mask",
           "ctc_greedy_decoder"]


def _boxes(x, op):
    t = _float_input(x, op)
    if t.ndim != 2 or t.shape[1] < 4:
        raise ValueError(f"{op}: boxes must have shape (N, 4) (x1, y1, x2, y2), got {list(t.shape)}")
    return t


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """(M, N) overlaps of the M ``gt_boxes`` with the N ``anchor_boxes``: intersection over union ('iou') or over
    the ground-truth box's area ('iof')."""
    if mode not in ("iou", "iof"):
        raise ValueError(f"IOU: mode must be 'iou' or 'iof', got {mode!r}")
    a, g = _boxes(anchor_boxes, "IOU"), _boxes(gt_boxes, "IOU")
    ax1, ay1, ax2, ay2 = (F.reshape(a[:, i], (1, -1)) for i in range(4))
    gx1, gy1, gx2, gy2 = (F.reshape(g[:, i], (-1, 1)) for i in range(4))
    w = F.relu(F.add(F.sub(F.minimum(ax2, gx2), F.maximum(ax1, gx1)), 1.0))
    h = F.relu(F.add(F.sub(F.minimum(ay2, gy2), F.maximum(ay1, gy1)), 1.0))
    inter = F.mul(w, h)
    area_a = F.mul(F.add(F.sub(ax2, ax1), 1.0), F.add(F.sub(ay2, ay1), 1.0))
    area_g = F.mul(F.add(F.sub(gx2, gx1), 1.0), F.add(F.sub(gy2, gy1), 1.0))
    if mode == "iof":
        return F.div(inter, area_g)
    return F.div(inter, F.sub(F.add(area_a, area_g), inter))


def _center_size(b):
    w = F.add(F.sub(b[:, 2], b[:, 0]), 1.0)
    h = F.add(F.sub(b[:, 3], b[:, 1]), 1.0)
    return F.add(b[:, 0], F.mul(F.sub(w, 1.0), 0.5)), F.add(b[:, 1], F.mul(F.sub(h, 1.0), 0.5)), w, h


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """Deltas (dx, dy, dw, dh) of each ground-truth box relative to its anchor, normalised by means/stds."""
    a, g = _boxes(anchor_box, "BoundingBoxEncode"), _boxes(groundtruth_box, "BoundingBoxEncode")
    if len(means) != 4 or len(stds) != 4:
        raise ValueError("BoundingBoxEncode: means and stds must hold 4 numbers")
    px, py, pw, ph = _center_size(a)
    gx, gy, gw, gh = _center_size(g)
    deltas = [F.div(F.sub(gx, px), pw), F.div(F.sub(gy, py), ph), F.log(F.div(gw, pw)), F.log(F.div(gh, ph))]
    out = [F.div(F.sub(d, float(m)), float(s)) for d, m, s in zip(deltas, means, stds)]
    return F.stack(out, 1)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes from anchors and deltas (de-normalised by means/stds; width/height log-ratios clipped to
    |log(wh_ratio_clip)|), clipped to x in [0, max_shape[1]] and y in [0, max_shape[0]]."""
    a, d = _boxes(anchor_box, "BoundingBoxDecode"), _boxes(deltas, "BoundingBoxDecode")
    if len(max_shape) != 2:
        raise ValueError(f"BoundingBoxDecode: max_shape must be (height, width), got {max_shape}")
    px, py, pw, ph = _center_size(a)
    dx, dy, dw, dh = (F.add(F.mul(d[:, i], float(s)), float(m)) for i, (m, s) in enumerate(zip(means, stds)))
    bound = abs(math.log(wh_ratio_clip))
    dw, dh = F.clamp(dw, -bound, bound), F.clamp(dh, -bound, bound)
    gx, gy = F.add(px, F.mul(pw, dx)), F.add(py, F.mul(ph, dy))
    gw, gh = F.mul(pw, F.exp(dw)), F.mul(ph, F.exp(dh))
    h, w = float(max_shape[0]), float(max_shape[1])
    x1 = F.clamp(F.sub(gx, F.mul(F.sub(gw, 1.0), 0.5)), 0.0, w)
    y1 = F.clamp(F.sub(gy, F.mul(F.sub(gh, 1.0), 0.5)), 0.0, h)
    x2 = F.clamp(F.add(gx, F.mul(F.sub(gw, 1.0), 0.5)), 0.0, w)
    y2 = F.clamp(F.add(gy, F.mul(F.sub(gh, 1.0), 0.5)), 0.0, h)
    return F.stack([x1, y1, x2, y2], 1)


def check_valid(bboxes, img_metas):
    """Whether each box lies in the image: x1, y1 >= 0, x2 <= width * ratio - 1, y2 <= height * ratio - 1
    (img_metas = (height, width, ratio))."""
    b = _boxes(bboxes, "CheckValid")
    m = _as_tensor(img_metas, "CheckValid")
    h = F.sub(F.mul(m[0], m[2]), 1.0)
    w = F.sub(F.mul(m[1], m[2]), 1.0)
    ok = F.logical_and(F.greater_equal(b[:, 0], 0.0), F.greater_equal(b[:, 1], 0.0))
    ok = F.logical_and(ok, F.less_equal(b[:, 2], F.cast(w, b.dtype)))
    return F.logical_and(ok, F.less_equal(b[:, 3], F.cast(h, b.dtype)))


def _bilinear_points(flat, h, w, ys, xs):
    """Values of ``flat`` (R, C, H*W) at points (R, P) with MindSpore/Detectron's border rules: points beyond
    [-1, size] are 0, coordinates are clamped into the image otherwise."""
    valid = F.logical_and(F.logical_and(F.greater_equal(ys, -1.0), F.less_equal(ys, float(h))),
                          F.logical_and(F.greater_equal(xs, -1.0), F.less_equal(xs, float(w))))
    y = F.clamp(ys, 0.0, float(h - 1))
    x = F.clamp(xs, 0.0, float(w - 1))
    y0, x0 = F.floor(y), F.floor(x)
    y1, x1 = F.minimum(F.add(y0, 1.0), float(h - 1)), F.minimum(F.add(x0, 1.0), float(w - 1))
    ly, lx = F.sub(y, y0), F.sub(x, x0)
    r, c = flat.shape[0], flat.shape[1]

    def tap(yy, xx):
        idx = F.cast(F.add(F.mul(yy, float(w)), xx), mstype.int64)
        idx = F.broadcast_to(F.expand_dims(idx, 1), (r, c, idx.shape[1]))
        return F.gather_elements(flat, 2, idx)

    def wt(v):
        return F.expand_dims(v, 1)

    out = F.add(F.mul(tap(y0, x0), wt(F.mul(F.sub(1.0, ly), F.sub(1.0, lx)))),
                F.mul(tap(y0, x1), wt(F.mul(F.sub(1.0, ly), lx))))
    out = F.add(out, F.add(F.mul(tap(y1, x0), wt(F.mul(ly, F.sub(1.0, lx)))), F.mul(tap(y1, x1), wt(F.mul(ly, lx)))))
    return F.mul(out, wt(F.cast(valid, flat.dtype)))


def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
    """ROIAlign: for each roi (batch, x1, y1, x2, y2) the average of sample_num^2 bilinear samples per output bin
    (``sample_num`` 0: ceil(roi size / pooled size) samples per bin, which needs concrete rois). roi_end_mode 1
    counts the end pixel (x2 + 1)."""
    x = _float_input(features, "ROIAlign")
    r = _float_input(rois, "ROIAlign")
    if x.ndim != 4 or r.ndim != 2 or r.shape[1] != 5:
        raise ValueError(f"ROIAlign: features must be (N, C, H, W) and rois (R, 5), got {list(x.shape)} and "
                         f"{list(r.shape)}")
    if roi_end_mode not in (0, 1):
        raise ValueError(f"ROIAlign: roi_end_mode must be 0 or 1, got {roi_end_mode}")
    n, c, h, w = x.shape
    ph, pw = int(pooled_height), int(pooled_width)
    scale = float(spatial_scale)
    off = float(roi_end_mode)
    x1, y1 = F.mul(r[:, 1], scale), F.mul(r[:, 2], scale)
    x2, y2 = F.mul(F.add(r[:, 3], off), scale), F.mul(F.add(r[:, 4], off), scale)
    rw, rh = F.maximum(F.sub(x2, x1), 1.0 if roi_end_mode else 0.0), F.maximum(F.sub(y2, y1), 1.0 if roi_end_mode
                                                                               else 0.0)
    if sample_num > 0:
        sy = sx = int(sample_num)
    else:
        if is_symbolic(r):
            raise TypeError("ROIAlign: sample_num=0 (adaptive sampling) needs rois known while the graph is compiled")
        sy = max(1, int(np.ceil((rh.asnumpy() / ph).max())))
        sx = max(1, int(np.ceil((rw.asnumpy() / pw).max())))
    bin_h, bin_w = F.div(rh, float(ph)), F.div(rw, float(pw))
    fy = (np.arange(ph)[:, None] + (np.arange(sy)[None, :] + 0.5) / sy).reshape(-1)    # (ph * sy,) in bin units
    fx = (np.arange(pw)[:, None] + (np.arange(sx)[None, :] + 0.5) / sx).reshape(-1)
    ys = F.add(F.expand_dims(y1, 1), F.mul(F.expand_dims(bin_h, 1), Tensor(fy.astype(x.dtype.np))))  # (R, ph*sy)
    xs = F.add(F.expand_dims(x1, 1), F.mul(F.expand_dims(bin_w, 1), Tensor(fx.astype(x.dtype.np))))  # (R, pw*sx)
    nr = r.shape[0]
    yy = F.reshape(F.broadcast_to(F.expand_dims(ys, 2), (nr, ph * sy, pw * sx)), (nr, -1))
    xx = F.reshape(F.broadcast_to(F.expand_dims(xs, 1), (nr, ph * sy, pw * sx)), (nr, -1))
    batch = F.cast(r[:, 0], mstype.int32)
    flat = F.gather(F.reshape(x, (n, c, h * w)), batch, 0)                   # (R, C, H*W)
    vals = _bilinear_points(flat, h, w, yy, xx)                              # (R, C, ph*sy*pw*sx)
    vals = F.reshape(vals, (nr, c, ph, sy, pw, sx))
    return F.mean(vals, (3, 5))


def nms_with_mask(bboxes, iou_threshold=0.5):
    """(boxes sorted by score, Int32 positions, Bool keep mask)."""
    return bind(D.NMS_WITH_MASK, (_float_input(bboxes, "NMSWithMask"),), {"iou_threshold": float(iou_threshold)})


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """(decoded_indices (N, 2), decoded_values (N,), decoded_shape (2,), log_probability (batch, 1))."""
    return bind(D.CTC_GREEDY_DECODER, (_float_input(inputs, "CTCGreedyDecoder"),
                                       _as_tensor(sequence_length, "CTCGreedyDecoder")),
                {"merge_repeated": bool(merge_repeated)})
