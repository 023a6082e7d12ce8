"""Detection ops: IoU, box encode/decode, validity, NMS, ROIAlign, greedy CTC decoding."""
from . import OC, U, C

A = C([[0, 0, 4, 4], [1, 1, 3, 5], [2, 0, 6, 3]], "float32")
G = C([[0, 0, 2, 2], [1, 1, 4, 4]], "float32")
BOXES = C([[0, 0, 4, 4, 0.9], [0.5, 0.5, 4, 4, 0.8], [5, 5, 8, 8, 0.7], [0, 0, 1, 1, 0.95], [4.5, 5, 8, 8.5, 0.6]],
          "float32")
FEAT = C([[[[float(5 * i + j) for j in range(5)] for i in range(5)]], [[[float(25 + 5 * i + j) for j in range(5)]
                                                                         for i in range(5)]]], "float32")
ROIS = C([[0, 0.5, 0.5, 3.5, 3.5], [1, 0, 0, 4, 2], [0, -0.5, 1.0, 5.0, 4.5]], "float32")

CASES = [
    OC("iou", "ops.iou(a, g)", {"a": A, "g": G}),
    OC("iof", "ops.iou(a, g, 'iof')", {"a": A, "g": G}),
    OC("IOU", "ops.IOU()(a, g)", {"a": A, "g": G}),
    OC("encode", "ops.bounding_box_encode(a, g, (0., 0., 0., 0.), (0.1, 0.1, 0.2, 0.2))",
       {"a": C([[0, 0, 4, 4], [1, 2, 3, 4]], "float32"), "g": C([[0, 0, 3, 5], [1, 2, 3, 4]], "float32")}),
    OC("encode_means", "ops.BoundingBoxEncode((0.1, -0.1, 0.0, 0.2), (1.0, 2.0, 1.0, 0.5))(a, g)",
       {"a": C([[0, 0, 4, 4], [1, 2, 3, 4]], "float32"), "g": C([[0, 0, 3, 5], [2, 2, 6, 9]], "float32")}),
    OC("decode", "ops.bounding_box_decode(a, d, (6, 7))",
       {"a": C([[0, 0, 4, 4], [1, 1, 3, 5]], "float32"), "d": C([[0.1, 0.2, 0.1, -0.3], [1, -2, 3, 4]], "float32")}),
    OC("decode_stds", "ops.BoundingBoxDecode((20, 20), (0., 0., 0., 0.), (0.1, 0.1, 0.2, 0.2), 0.1)(a, d)",
       {"a": C([[0, 0, 4, 4], [1, 1, 3, 5]], "float32"), "d": C([[0.1, 0.2, 0.1, -0.3], [1, -2, 3, 4]], "float32")}),
    OC("check_valid", "ops.check_valid(b, m)", {"b": C([[0, 0, 4, 4], [1, 1, 30, 5], [-1, 0, 2, 2], [0, 0, 19, 9],
                                                        [0, 0, 20, 9]], "float32"),
                                                 "m": C([10, 20, 1], "float32")}),
    OC("check_valid_ratio", "ops.CheckValid()(b, m)", {"b": C([[0, 0, 4, 4], [1, 1, 30, 5], [0, 0, 39, 19]],
                                                              "float32"), "m": C([10, 20, 2], "float32")}),
    OC("nms", "ops.NMSWithMask(0.5)(b)", {"b": BOXES}),
    OC("nms_low", "ops.NMSWithMask(0.1)(b)", {"b": BOXES}),
    OC("roi_align", "ops.ROIAlign(2, 2, 1.0, 2, 1)(x, r)", {"x": FEAT, "r": ROIS}),
    OC("roi_align_mode0", "ops.ROIAlign(3, 2, 0.5, 1, 0)(x, r)", {"x": FEAT, "r": ROIS}),
    OC("roi_align_rand", "ops.ROIAlign(2, 3, 0.25, 2, 1)(x, r)", {"x": U(2, 3, 6, 7),
                                                                 "r": C([[1, 2.0, 3.0, 17.0, 21.0],
                                                                         [0, 0.0, 0.0, 27.0, 23.0]], "float32")}),
    OC("ctc_greedy", "ops.ctc_greedy_decoder(x, l)", {"x": U(4, 2, 3), "l": C([4, 3], "int32")}),
    OC("ctc_greedy_nomerge", "ops.ctc_greedy_decoder(x, l, False)",
       {"x": C([[[0.1, 0.9, 0.0]], [[0.0, 0.8, 0.1]], [[0.9, 0.1, 0.0]]], "float32"), "l": C([3], "int32")}),
    OC("ctc_greedy_merge", "ops.ctc_greedy_decoder(x, l)",
       {"x": C([[[0.1, 0.9, 0.0]], [[0.0, 0.8, 0.1]], [[0.0, 0.1, 0.9]], [[0.9, 0.1, 0.0]]], "float32"),
        "l": C([4], "int32")}),
]
