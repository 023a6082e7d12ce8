"""Loss cell cases (see tests/nn/cases/conv.py for the format). ``grad_inputs`` lists the inputs whose gradient is
compared: MindSpore returns zero gradients for labels / class weights of KLDivLoss and MultiMarginLoss, sprout
their true gradients."""

P = (4, 3)
SIGN = {"value": "np.array([1, -1, 1, -1], np.float32)"}
PROB = {"shape": (4, 3), "uniform": (0.05, 0.95)}
IDX = {"value": "np.array([0, 2, 1, 2], np.int32)"}


def call_ctc(cell, lp, tg, il, tl):
    return cell(lp, tg, il, tl)


def call_ctc_fn(fn, lp, tg, il, tl):
    return fn(lp, tg, il, tl, 0, "none")


def call_mm_weight(cell, x, t, w):
    return cell(x, t, w)


def call_triplet_margin(cell, a, p, n):
    return cell(a, p, n, 0.5)


LOG_PROBS = {"value": "(lambda z: z - np.log(np.exp(z).sum(-1, keepdims=True)))(np.random.default_rng(5)"
                      ".standard_normal((6, 3, 5)).astype(np.float32))"}
CTC_TARGETS = {"value": "np.array([[1, 2, 2], [3, 1, 0], [4, 4, 0]], np.int32)"}
CTC_IN = {"value": "np.array([6, 5, 6], np.int32)"}
CTC_TL = {"value": "np.array([3, 2, 2], np.int32)"}

CASES = [
    dict(key="l1_none", ctor="nn.L1Loss('none')", inputs=[P, P]),
    dict(key="mae_sum", ctor="nn.MAELoss('sum')", inputs=[P, P]),
    dict(key="rmse", ctor="nn.RMSELoss()", inputs=[P, P]),
    dict(key="smoothl1_mean", ctor="nn.SmoothL1Loss(beta=0.5, reduction='mean')", inputs=[P, P]),
    dict(key="margin_ranking", ctor="nn.MarginRankingLoss(0.3)", inputs=[(4,), (4,), SIGN]),
    dict(key="margin_ranking_none", ctor="nn.MarginRankingLoss(reduction='none')", inputs=[(4,), (4,), SIGN]),
    dict(key="dice", ctor="nn.DiceLoss()", inputs=[PROB, {"shape": (4, 3), "high": 2, "dtype": "float32"}]),
    dict(key="multiclass_dice", ctor="nn.MultiClassDiceLoss(activation='sigmoid')",
         inputs=[P, {"value": "np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]"}]),
    dict(key="multiclass_dice_weights", ctor="nn.MultiClassDiceLoss(weights=Tensor(np.array([[0.5], [1.0], [2.0]], "
         "np.float32)), ignore_indiex=1)", inputs=[P, {"value": "np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]"}]),
    dict(key="triplet_distance", ctor="nn.TripletMarginWithDistanceLoss(margin=0.5)", inputs=[P, P, P]),
    dict(key="triplet_distance_swap", ctor="nn.TripletMarginWithDistanceLoss(swap=True, reduction='none')",
         inputs=[P, P, P]),
    dict(key="poisson_log", ctor="nn.PoissonNLLLoss()", inputs=[P, {"shape": (4, 3), "high": 5, "dtype": "float32"}]),
    dict(key="poisson_full", ctor="nn.PoissonNLLLoss(log_input=False, full=True, reduction='sum')",
         inputs=[{"shape": (4, 3), "uniform": (0.2, 3.0)}, {"shape": (4, 3), "high": 5, "dtype": "float32"}]),
    dict(key="multilabel_soft_margin", ctor="nn.MultiLabelSoftMarginLoss()",
         inputs=[P, {"shape": (4, 3), "high": 2, "dtype": "float32"}]),
    dict(key="multilabel_soft_margin_w", ctor="nn.MultiLabelSoftMarginLoss(weight=Tensor(np.array([1.0, 0.5, 2.0], "
         "np.float32)), reduction='none')", inputs=[P, {"shape": (4, 3), "high": 2, "dtype": "float32"}]),
    dict(key="multi_margin", ctor="nn.MultiMarginLoss()", inputs=[P, {"value": "np.array([0, 2, 1, 2], np.int64)"}]),
    dict(key="multi_margin_p2_w", ctor="nn.MultiMarginLoss(p=2, margin=0.5, reduction='none')",
         inputs=[P, {"value": "np.array([0, 2, 1, 2], np.int64)"}, {"uniform": (0.5, 2.0), "shape": (3,)}],
         call=call_mm_weight, grad_inputs=(0,)),
    dict(key="cosine_embedding", ctor="nn.CosineEmbeddingLoss(0.2)", inputs=[P, P, SIGN]),
    dict(key="focal_index", ctor="nn.FocalLoss(gamma=2.0)",
         inputs=[(3, 4, 2), {"value": "np.array([[[0, 3]], [[1, 1]], [[2, 0]]], np.int32)"}]),
    dict(key="focal_onehot_weight", ctor="nn.FocalLoss(weight=Tensor(np.array([1.0, 2.0, 0.5], np.float32)), "
         "gamma=1.5, reduction='sum')", inputs=[P, {"value": "np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]"}]),
    dict(key="huber", ctor="nn.HuberLoss(delta=0.7)", inputs=[P, P]),
    dict(key="kldiv_mean", ctor="nn.KLDivLoss()", inputs=[P, PROB], grad_inputs=(0,)),
    dict(key="kldiv_batchmean", ctor="nn.KLDivLoss('batchmean')", inputs=[P, PROB], grad_inputs=(0,)),
    dict(key="ctc_mean", ctor="nn.CTCLoss()", inputs=[LOG_PROBS, CTC_TARGETS, CTC_IN, CTC_TL], call=call_ctc),
    dict(key="ctc_none_blank", ctor="nn.CTCLoss(blank=4, reduction='none')",
         inputs=[LOG_PROBS, {"value": "np.array([[1, 2, 2], [3, 1, 0], [0, 0, 3]], np.int32)"}, CTC_IN, CTC_TL],
         call=call_ctc),
    dict(key="ctc_sum", ctor="nn.CTCLoss(reduction='sum')", inputs=[LOG_PROBS, CTC_TARGETS, CTC_IN, CTC_TL],
         call=call_ctc),
    dict(key="ctc_fn_log_alpha", ctor="ops.ctc_loss", inputs=[LOG_PROBS, CTC_TARGETS, CTC_IN, CTC_TL],
         call=call_ctc_fn, grad=False),
    dict(key="gaussian_nll", ctor="nn.GaussianNLLLoss()", inputs=[P, P, {"shape": (4, 3), "uniform": (0.1, 2.0)}]),
    dict(key="gaussian_nll_full", ctor="nn.GaussianNLLLoss(full=True, reduction='none')",
         inputs=[P, P, {"shape": (4,), "uniform": (0.1, 2.0)}]),
    dict(key="hinge_embedding", ctor="nn.HingeEmbeddingLoss(0.5)", ms_graph=True,
         inputs=[P, {"value": "np.sign(np.arange(12.0).reshape(4, 3) % 3 - 0.5).astype(np.float32)"}]),
    dict(key="sce_sparse_mean", ctor="nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')",
         inputs=[P, IDX]),
    dict(key="nll_none", ctor="nn.NLLLoss(reduction='none')", inputs=[P, IDX]),
    # a full-shape weight: MindSpore 2.10's CPU BCELoss reads a broadcastable (C,) weight as if it were full-size
    dict(key="bce_weight_sum", ctor="nn.BCELoss(weight=Tensor(np.tile(np.array([1.0, 2.0, 0.5], np.float32), "
         "(4, 1))), reduction='sum')", inputs=[PROB, {"shape": (4, 3), "high": 2, "dtype": "float32"}]),
]

ERRORS = [
    ("l1_bad_reduction", "nn.L1Loss(reduction='bad')"),
    ("mse_float_labels", "nn.MSELoss()(Tensor(np.ones((2, 3), np.float32)), 1.0)"),
    ("smoothl1_int_beta", "nn.SmoothL1Loss(beta=1)(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))"),
    ("smoothl1_zero_beta", "nn.SmoothL1Loss(beta=0.0)(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, "
     "np.float32)))"),
    ("sce_sparse_int", "nn.SoftmaxCrossEntropyWithLogits(sparse=1)"),
    ("ce_ignore_float", "nn.CrossEntropyLoss(ignore_index=1.0)"),
    ("ce_smoothing_int", "nn.CrossEntropyLoss(label_smoothing=1)"),
    ("ce_smoothing_big", "nn.CrossEntropyLoss(label_smoothing=1.5)"),
    ("ce_int64_labels", "nn.CrossEntropyLoss()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(2, np.int64)))"),
    ("ce_rank", "nn.CrossEntropyLoss()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3, 4), np.float32)))"),
    ("nll_weight_list", "nn.NLLLoss(weight=[1.0])"),
    ("bce_bad_reduction", "nn.BCELoss(reduction='bad')"),
    ("margin_ranking_int", "nn.MarginRankingLoss(1)(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)), "
     "Tensor(np.ones(2, np.float32)))"),
    ("dice_int_smooth", "nn.DiceLoss(1)"),
    ("dice_shape", "nn.DiceLoss()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)))"),
    ("multiclass_dice_bad_act", "nn.MultiClassDiceLoss(activation='gelu')"),
    ("multiclass_dice_weights_1d", "nn.MultiClassDiceLoss(weights=Tensor(np.ones(3, np.float32)))"),
    ("triplet_distance_int_margin", "nn.TripletMarginWithDistanceLoss(margin=1)"),
    ("cosine_margin_big", "nn.CosineEmbeddingLoss(2.0)"),
    ("cosine_margin_int", "nn.CosineEmbeddingLoss(0)"),
    ("focal_int_gamma", "nn.FocalLoss(gamma=2)"),
    ("focal_weight_2d", "nn.FocalLoss(weight=Tensor(np.ones((2, 2), np.float32)))"),
    ("focal_one_class", "nn.FocalLoss()(Tensor(np.ones((2, 1), np.float32)), Tensor(np.ones((2, 1), np.int32)))"),
    ("huber_zero_delta", "nn.HuberLoss(delta=0.0)(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)))"),
    ("kldiv_bad_reduction", "nn.KLDivLoss('avg')(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)))"),
    ("ctc_blank_float", "nn.CTCLoss(blank=0.5)(Tensor(np.zeros((2, 1, 3), np.float32)), Tensor(np.ones((1, 1), "
     "np.int32)), Tensor(np.array([2], np.int32)), Tensor(np.array([1], np.int32)))"),
    ("ctc_target_too_long", "nn.CTCLoss()(Tensor(np.zeros((2, 1, 3), np.float32)), Tensor(np.ones((1, 3), "
     "np.int32)), Tensor(np.array([2], np.int32)), Tensor(np.array([3], np.int32)))"),
    ("gaussian_negative_eps", "nn.GaussianNLLLoss(eps=-1.0)"),
    ("gaussian_full_int", "nn.GaussianNLLLoss(full=1)"),
    ("hinge_str_margin", "nn.HingeEmbeddingLoss('1')"),
    ("multi_margin_p3", "nn.MultiMarginLoss(p=3)"),
]

# sprout checks SmoothL1Loss's beta when the cell is built (ValueError); MindSpore's kernel rejects it at the first
# call (RuntimeError).
DIFFERS = {"smoothl1_zero_beta": "ValueError"}
