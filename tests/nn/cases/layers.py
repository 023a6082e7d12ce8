"""Activation, normalisation, shape, image and math layer cases (see tests/nn/cases/conv.py for the format).
``ms_graph``: MindSpore 2.10 runs the cell only in GRAPH_MODE (its PyNative PSNR/SSIM hit a ScalarCast bug)."""


def call_k1(cell, x):
    return cell(x, 1)


def call_km1(cell, x):
    return cell(x, -1)


def call_clip_tensor(cell, x, c):
    return cell(x, c)


A = (3, 5)
CASES = [
    dict(key="celu", ctor="nn.CELU(0.7)", inputs=[A]),
    # MindSpore 2.10's SeLU gradient for x < 0 is scale * (y + 1), not d/dx; sprout differentiates correctly
    dict(key="selu", ctor="nn.SeLU()", inputs=[A], grad=False),
    dict(key="softmin", ctor="nn.Softmin(0)", inputs=[A]),
    dict(key="softmax2d", ctor="nn.Softmax2d()", inputs=[(2, 3, 2, 2)]),
    dict(key="hardtanh", ctor="nn.Hardtanh(-0.5, 0.8)", inputs=[A]),
    dict(key="tanhshrink", ctor="nn.Tanhshrink()", inputs=[A]),
    dict(key="hshrink", ctor="nn.HShrink(0.6)", inputs=[A]),
    dict(key="softshrink", ctor="nn.SoftShrink(0.3)", inputs=[A]),
    dict(key="threshold", ctor="nn.Threshold(0.1, 20.0)", inputs=[A]),
    dict(key="glu", ctor="nn.GLU(0)", inputs=[(4, 3)]),
    dict(key="prelu", ctor="nn.PReLU()", inputs=[A]),
    dict(key="prelu_channels", ctor="nn.PReLU(3, [0.1, 0.2, 0.3])", inputs=[(2, 3, 2, 2)]),
    dict(key="lrn", ctor="nn.LRN(2, 1.0, 0.5, 0.75)", inputs=[(1, 5, 2, 3)]),
    dict(key="elu", ctor="nn.ELU()", inputs=[A]),
    dict(key="leakyrelu", ctor="nn.LeakyReLU(0.3)", inputs=[A]),
    dict(key="logsigmoid", ctor="nn.LogSigmoid()", inputs=[A]),
    dict(key="softsign", ctor="nn.Softsign()", inputs=[A]),
    dict(key="batchnorm3d_train", ctor="nn.BatchNorm3d(3, momentum=0.8)", inputs=[(2, 3, 2, 3, 2)], train=True,
         randomize=True),
    dict(key="batchnorm3d_eval", ctor="nn.BatchNorm3d(3)", inputs=[(2, 3, 2, 3, 2)], randomize=True),
    dict(key="syncbn_train", ctor="nn.SyncBatchNorm(3)", inputs=[(4, 3)], train=True, randomize=True),
    dict(key="syncbn_eval_4d", ctor="nn.SyncBatchNorm(3)", inputs=[(2, 3, 2, 2)], randomize=True),
    dict(key="linear", ctor="nn.Linear(4, 3)", inputs=[(2, 5, 4)]),
    dict(key="linear_nobias", ctor="nn.Linear(4, 3, bias=False)", inputs=[(2, 4)]),
    dict(key="clipbynorm", ctor="nn.ClipByNorm()", inputs=[A, {"value": "np.float32(0.5)"}], call=call_clip_tensor),
    dict(key="norm", ctor="nn.Norm()", inputs=[A]),
    dict(key="norm_axis_keep", ctor="nn.Norm(axis=1, keep_dims=True)", inputs=[(2, 3, 4)]),
    dict(key="norm_axis", ctor="nn.Norm(axis=(0, 2))", inputs=[(2, 3, 4)]),
    dict(key="onehot", ctor="nn.OneHot(depth=4)", inputs=[{"value": "np.array([0, 3, 1, 2], np.int32)"}]),
    dict(key="onehot_axis0", ctor="nn.OneHot(axis=0, depth=3, on_value=2.0, off_value=-1.0)",
         inputs=[{"value": "np.array([[0, 2], [1, 1]], np.int32)"}]),
    dict(key="tril", ctor="nn.Tril()", inputs=[(4, 5)]),
    dict(key="tril_k", ctor="nn.Tril()", inputs=[(2, 4, 4)], call=call_k1),
    dict(key="triu_k", ctor="nn.Triu()", inputs=[(4, 3)], call=call_km1),
    dict(key="unflatten", ctor="nn.Unflatten(1, (2, 3))", inputs=[(2, 6, 2)]),
    dict(key="l1reg", ctor="nn.L1Regularizer(0.5)", inputs=[A]),
    dict(key="pixel_shuffle", ctor="nn.PixelShuffle(2)", inputs=[(2, 8, 2, 3)]),
    dict(key="pixel_unshuffle", ctor="nn.PixelUnshuffle(2)", inputs=[(2, 4, 6)]),
    dict(key="image_gradients", ctor="nn.ImageGradients()", inputs=[(2, 2, 3, 4)]),
    dict(key="psnr", ctor="nn.PSNR()", ms_graph=True, inputs=[{"shape": (2, 3, 8, 8), "uniform": (0, 1)},
                                               {"shape": (2, 3, 8, 8), "uniform": (0, 1)}]),
    dict(key="psnr_uint8", ctor="nn.PSNR(255)", ms_graph=True,
         inputs=[{"shape": (1, 1, 4, 4), "high": 256, "dtype": "uint8"},
                 {"shape": (1, 1, 4, 4), "high": 256, "dtype": "uint8"}]),
    dict(key="ssim", ctor="nn.SSIM(filter_size=5)", ms_graph=True, inputs=[{"shape": (2, 2, 9, 8), "uniform": (0, 1)},
                                                             {"shape": (2, 2, 9, 8), "uniform": (0, 1)}]),
    dict(key="msssim", ctor="nn.MSSSIM(power_factors=(0.3, 0.7), filter_size=3)", ms_graph=True,
         inputs=[{"shape": (1, 2, 12, 12), "uniform": (0, 1)}, {"near": 0, "noise": 0.1}],
         tol=(1e-3, 1e-4)),
    dict(key="central_crop", ctor="nn.CentralCrop(0.5)", inputs=[(2, 3, 7, 6)]),
    dict(key="reduce_logsumexp", ctor="nn.ReduceLogSumExp(1, True)", inputs=[(2, 4)]),
    dict(key="range", ctor="nn.Range(1, 8, 3)", inputs=[], grad=False),
    dict(key="range_float", ctor="nn.Range(0.5, 2.0, 0.5)", inputs=[], grad=False),
    dict(key="matmul_vec", ctor="nn.MatMul()", inputs=[(3,), (3,)]),
    dict(key="matmul_bcast_t", ctor="nn.MatMul(transpose_x2=True)", inputs=[(2, 1, 3, 4), (5, 4)]),
    dict(key="matmul_vec_mat", ctor="nn.MatMul()", inputs=[(3,), (2, 3, 4)]),
    dict(key="moments", ctor="nn.Moments(axis=1, keep_dims=True)", inputs=[(2, 4, 3)]),
    dict(key="moments_all", ctor="nn.Moments()", inputs=[(2, 3)]),
    dict(key="conv2dbnact", ctor="nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation='relu')", inputs=[(2, 2, 4, 4)],
         train=True),
    dict(key="densebnact", ctor="nn.DenseBnAct(3, 4, has_bn=True, activation='leakyrelu', alpha=0.1)",
         inputs=[(5, 3)], train=True, gtol=(1e-4, 1e-4)),  # the bias gradient is 0 up to rounding
    dict(key="densebnact_eval", ctor="nn.DenseBnAct(3, 4, activation='tanh')", inputs=[(5, 3)]),
]

ERRORS = [
    ("celu_zero", "nn.CELU(0.0)(Tensor(np.ones(2, np.float32)))"),
    ("celu_int", "nn.CELU(1)(Tensor(np.ones(2, np.float32)))"),
    ("elu_alpha", "nn.ELU(0.5)(Tensor(np.ones(2, np.float32)))"),
    ("elu_int", "nn.ELU(1)(Tensor(np.ones(2, np.float32)))"),
    ("hardtanh_order", "nn.Hardtanh(1, 0)"),
    ("softshrink_negative", "nn.SoftShrink(-0.5)(Tensor(np.ones(2, np.float32)))"),
    ("threshold_str", "nn.Threshold('a', 1.0)(Tensor(np.ones(2, np.float32)))"),
    ("rrelu_order", "nn.RReLU(0.5, 0.1)"),
    ("rrelu_str", "nn.RReLU('a')"),
    ("prelu_channel_zero", "nn.PReLU(0)"),
    ("prelu_list_len", "nn.PReLU(2, [0.1])"),
    ("prelu_int_w", "nn.PReLU(2, 1)"),
    ("softmin_float_axis", "nn.Softmin(1.0)(Tensor(np.ones((2, 2), np.float32)))"),
    ("softmax_float_axis", "nn.Softmax(1.0)"),
    ("leakyrelu_str", "nn.LeakyReLU('a')(Tensor(np.ones(2, np.float32)))"),
    ("lrn_float_radius", "nn.LRN(2.5)"),
    ("gelu_int", "nn.GELU(1)"),
    ("get_activation_bad", "nn.get_activation('nope')"),
    ("bn_float_features", "nn.BatchNorm2d(3.0)"),
    ("bn_zero_features", "nn.BatchNorm2d(0)"),
    ("bn_momentum", "nn.BatchNorm2d(3, momentum=1.5)"),
    ("bn3d_rank", "nn.BatchNorm3d(3)(Tensor(np.ones((2, 3, 2, 2), np.float32)))"),
    ("instancenorm_int_eps", "nn.InstanceNorm2d(3, eps=1)"),
    ("instancenorm_momentum", "nn.InstanceNorm2d(3, momentum=2.0)"),
    ("instancenorm_features", "nn.InstanceNorm2d(0)"),
    ("syncbn_groups_type", "nn.SyncBatchNorm(3, process_groups=(0,))"),
    ("linear_zero", "nn.Linear(0, 3)"),
    ("linear_bias_int", "nn.Linear(2, 3, bias=1)"),
    ("clipbynorm_float", "nn.ClipByNorm()(Tensor(np.ones(2, np.float32)), 0.5)"),
    ("norm_keep_int", "nn.Norm(keep_dims=1)"),
    ("unfold_bad_ksizes", "nn.Unfold([2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])"),
    ("unfold_tuple_ok", "nn.Unfold((1, 2, 2, 1), (1, 1, 1, 1), (1, 1, 1, 1))"),
    ("roll_len", "nn.Roll((1, 2), 0)"),
    ("roll_float", "nn.Roll(1.0, 0)"),
    ("unflatten_axis_float", "nn.Unflatten(1.0, (2, 3))"),
    ("l1reg_negative", "nn.L1Regularizer(-1.0)"),
    ("l1reg_str", "nn.L1Regularizer('1')"),
    ("dropout2d_int_p", "nn.Dropout2d(1)"),
    ("dropout2d_big_p", "nn.Dropout2d(1.5)"),
    ("psnr_zero", "nn.PSNR(0)"),
    ("psnr_3d", "nn.PSNR()(Tensor(np.ones((2, 4, 4), np.float32)), Tensor(np.ones((2, 4, 4), np.float32)))"),
    ("ssim_int_sigma", "nn.SSIM(filter_sigma=1)"),
    ("ssim_small_image", "nn.SSIM()(Tensor(np.ones((1, 1, 5, 5), np.float32)), "
     "Tensor(np.ones((1, 1, 5, 5), np.float32)))"),
    ("central_crop_big", "nn.CentralCrop(1.5)"),
    ("central_crop_int", "nn.CentralCrop(1)"),
    ("matmul_bool", "nn.MatMul(transpose_x1=1)"),
    ("matmul_mismatch", "nn.MatMul()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)))"),
    ("range_zero_delta", "nn.Range(0, 5, 0)"),
    ("moments_float_axis", "nn.Moments(axis=1.0)"),
    ("conv2dbnact_bad_act", "nn.Conv2dBnAct(2, 3, 3, activation=3)"),
    ("densebnact_has_bn_int", "nn.DenseBnAct(2, 3, has_bn=1)"),
]

# sprout checks SoftShrink's lambd when the cell is built (ValueError); MindSpore's kernel rejects it at the first
# call (RuntimeError).
DIFFERS = {"softshrink_negative": "ValueError"}
