"""Special-function, pooling-extra, bilinear, time-distributed, embedding-lookup and sampled-softmax cases (see
tests/nn/cases/conv.py for the format). MatDet/MatInverse have no MindSpore CPU kernel (DetTriangle,
CholeskyTrsm): they are checked against NumPy in tests/nn/test_nn_extra.py."""


def call_samples(cell, w, b, labels, x):
    return cell(w, b, labels, x)


A = (3, 5)
POS = {"shape": (3, 5), "uniform": (0.3, 3.0)}
FMP_SAMPLES = "Tensor(np.array([[[0.3, 0.7], [0.9, 0.05]], [[0.5, 0.5], [0.1, 0.8]]], np.float32))"
FMP3_SAMPLES = "Tensor(np.array([[[0.3, 0.7, 0.2]], [[0.9, 0.1, 0.6]]], np.float32))"
SAMPLED = ("(Tensor(np.array([1, 4, 6], np.int32)), Tensor(np.array([[0.4], [0.6]], np.float32)), "
           "Tensor(np.array([0.3, 0.5, 0.45], np.float32)))")
SAMPLED2 = ("(Tensor(np.array([0, 5], np.int32)), Tensor(np.array([[0.4, 0.7], [0.6, 0.2]], np.float32)), "
            "Tensor(np.array([0.3, 0.5], np.float32)))")
# MindSpore returns the table gradient as rows (one per looked-up index); the oracle scatters them into the table
ROW = {"embedding_table": 0}
CASES = [
    dict(key="lgamma", ctor="nn.LGamma()", inputs=[{"shape": (3, 5), "uniform": (-3.7, 6.0)}]),
    dict(key="digamma", ctor="nn.DiGamma()", inputs=[{"shape": (3, 5), "uniform": (0.2, 6.0)}], tol=(1e-4, 1e-4)),
    dict(key="digamma_neg", ctor="nn.DiGamma()", inputs=[{"value": "np.array([-2.5, -0.3, 0.7, 1.0], np.float32)"}],
         grad=False, tol=(1e-4, 1e-4)),
    dict(key="igamma", ctor="nn.IGamma()", inputs=[POS, {"shape": (3, 5), "uniform": (0.0, 4.0)}],
         tol=(1e-4, 1e-5)),
    dict(key="lbeta", ctor="nn.LBeta()", inputs=[POS, {"shape": (3, 5), "uniform": (0.3, 20.0)}], tol=(1e-4, 1e-4)),
    dict(key="lppool1d", ctor="nn.LPPool1d(2, 3, 2)", inputs=[(2, 3, 7)]),
    dict(key="lppool1d_ceil", ctor="nn.LPPool1d(3.0, 2, ceil_mode=True)",
         inputs=[{"shape": (2, 3, 7), "uniform": (0.1, 2.0)}]),
    dict(key="lppool2d", ctor="nn.LPPool2d(2, (2, 3), 2)", inputs=[(2, 3, 7, 8)]),
    dict(key="lppool2d_ceil", ctor="nn.LPPool2d(1.5, 2, (1, 2), ceil_mode=True)",
         inputs=[{"shape": (1, 2, 5, 5), "uniform": (0.1, 2.0)}]),
    dict(key="maxunpool1d", ctor="nn.MaxUnpool1d(2)",
         inputs=[(1, 2, 3), {"value": "np.array([[[0, 3, 5], [1, 2, 4]]], np.int64)"}]),
    dict(key="maxunpool1d_stride", ctor="nn.MaxUnpool1d(3, 2, 1)",
         inputs=[(2, 3), {"value": "np.array([[0, 2, 4], [1, 3, 4]], np.int64)"}]),
    dict(key="maxunpool2d", ctor="nn.MaxUnpool2d(2)",
         inputs=[(1, 2, 2, 2), {"value": "np.array([[[[0, 3], [9, 14]], [[5, 2], [12, 15]]]], np.int64)"}]),
    dict(key="maxunpool3d", ctor="nn.MaxUnpool3d(2)",
         inputs=[(1, 1, 1, 2, 2), {"value": "np.array([[[[[0, 3], [13, 31]]]]], np.int64)"}]),
    dict(key="fmp2d", ctor=f"nn.FractionalMaxPool2d(2, output_size=(3, 4), return_indices=True, "
                           f"_random_samples={FMP_SAMPLES})", inputs=[(2, 2, 7, 8)],
         grad=False),  # MindSpore CPU: no FractionalMaxPoolGradWithFixedKsize kernel for float32; FD-checked

    dict(key="fmp2d_ratio", ctor=f"nn.FractionalMaxPool2d((2, 3), output_ratio=(0.5, 0.4), "
                                 f"_random_samples={FMP_SAMPLES})", inputs=[(2, 2, 9, 10)],
         grad=False),

    dict(key="fmp3d", ctor=f"nn.FractionalMaxPool3d(2, output_size=(2, 3, 2), return_indices=True, "
                           f"_random_samples={FMP3_SAMPLES})", inputs=[(2, 1, 5, 6, 5)]),
    dict(key="channel_shuffle", ctor="nn.ChannelShuffle(2)", inputs=[(2, 6, 2, 3)]),
    dict(key="bidense", ctor="nn.BiDense(3, 4, 2)", inputs=[(5, 3), (5, 4)]),
    dict(key="bidense_3d_nobias", ctor="nn.BiDense(3, 2, 4, has_bias=False)", inputs=[(2, 5, 3), (2, 5, 2)]),
    dict(key="timedistributed", ctor="nn.TimeDistributed(nn.Dense(3, 2), time_axis=1)", inputs=[(4, 5, 3)]),
    dict(key="timedistributed_reshape", ctor="nn.TimeDistributed(nn.Dense(3, 2), time_axis=1, reshape_with_axis=0)",
         inputs=[(4, 5, 3)]),
    dict(key="timedistributed_conv", ctor="nn.TimeDistributed(nn.Conv2d(2, 3, 3), time_axis=0, reshape_with_axis=1)",
         inputs=[(3, 2, 2, 4, 4)]),
    dict(key="embedding_lookup", ctor="nn.EmbeddingLookup(10, 3)",
         inputs=[{"value": "np.array([[1, 3], [4, 12], [3, -1]], np.int32)"}], row_grad=ROW),
    dict(key="embedding_lookup_maxnorm", ctor="nn.EmbeddingLookup(6, 4, param_init='uniform', max_norm=0.3)",
         inputs=[{"value": "np.array([0, 2, 5, 2], np.int32)"}], row_grad=ROW),
    dict(key="embedding_lookup_device", ctor="nn.EmbeddingLookup(6, 4, target='DEVICE', sparse=False)",
         inputs=[{"value": "np.array([[0, 2], [5, 2]], np.int64)"}]),
    dict(key="multifield_sum", ctor="nn.MultiFieldEmbeddingLookup(10, 3, 3)",
         inputs=[{"value": "np.array([[1, 3, 4, 7], [2, 2, 9, 0]], np.int32)"},
                 {"value": "np.array([[0.5, 1.0, 2.0, 0.0], [1.0, -1.5, 0.25, 1.0]], np.float32)"},
                 {"value": "np.array([[0, 1, 1, 2], [0, 0, 2, 2]], np.int32)"}], row_grad=ROW),
    dict(key="multifield_max", ctor="nn.MultiFieldEmbeddingLookup(10, 3, 3, operator='MAX')",
         inputs=[{"value": "np.array([[1, 3, 4, 7], [2, 5, 9, 0]], np.int32)"},
                 {"value": "np.array([[0.5, 1.0, 2.0, 0.0], [1.0, -1.5, 0.25, 1.0]], np.float32)"},
                 {"value": "np.array([[0, 1, 1, 2], [0, 0, 2, 2]], np.int32)"}], row_grad=ROW),
    dict(key="multifield_mean", ctor="nn.MultiFieldEmbeddingLookup(10, 3, 3, operator='MEAN')",
         inputs=[{"value": "np.array([[1, 3, 4, 7], [2, 5, 9, 0]], np.int32)"},
                 {"value": "np.array([[0.5, 1.0, 2.0, 0.0], [1.0, -1.5, 0.25, 1.0]], np.float32)"},
                 {"value": "np.array([[0, 1, 1, 2], [0, 0, 2, 2]], np.int32)"}], row_grad=ROW),
    dict(key="sampled_softmax", ctor=f"nn.SampledSoftmaxLoss(3, 7, sampled_values={SAMPLED})",
         inputs=[(7, 4), (7,), {"value": "np.array([[0], [2]], np.int32)"}, (2, 4)], call=call_samples),
    dict(key="sampled_softmax_true2", ctor=f"nn.SampledSoftmaxLoss(2, 6, num_true=2, sampled_values={SAMPLED2})",
         inputs=[(6, 3), (6,), {"value": "np.array([[1, 3], [2, 4]], np.int64)"}, (2, 3)], call=call_samples),
]

ERRORS = [
    ("lgamma_int", "nn.LGamma()(Tensor(np.array([1, 2], np.int32)))"),
    ("igamma_f16", "nn.IGamma()(Tensor(np.ones(2, np.float16)), Tensor(np.ones(2, np.float16)))"),
    ("lbeta_mixed", "nn.LBeta()(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float16)))"),
    ("channel_shuffle_zero", "nn.ChannelShuffle(0)"),
    ("channel_shuffle_float", "nn.ChannelShuffle(1.5)"),
    ("bidense_zero", "nn.BiDense(0, 2, 3)"),
    ("bidense_bad_input", "nn.BiDense(3, 4, 2)(Tensor(np.ones((2, 3), np.float32)), "
                          "Tensor(np.ones((2, 3), np.float32)))"),
    ("bidense_weight_shape", "nn.BiDense(3, 4, 2, weight_init=Tensor(np.ones((2, 4, 3), np.float32)))"),
    ("timedistributed_layer", "nn.TimeDistributed(3, 1)"),
    ("timedistributed_2d", "nn.TimeDistributed(nn.ReLU(), 1)(Tensor(np.ones((2, 3), np.float32)))"),
    ("embedding_lookup_dense_cpu", "nn.EmbeddingLookup(10, 3, sparse=False)"),
    ("embedding_lookup_target", "nn.EmbeddingLookup(10, 3, target='GPU')"),
    ("embedding_lookup_vocab", "nn.EmbeddingLookup(0, 3)"),
    ("embedding_lookup_maxnorm", "nn.EmbeddingLookup(10, 3, max_norm=-1.0)"),
    ("multifield_1d", "nn.MultiFieldEmbeddingLookup(10, 3, 2)(Tensor(np.array([1], np.int32)), "
                      "Tensor(np.ones(1, np.float32)), Tensor(np.zeros(1, np.int32)))"),
    ("multifield_field_dtype", "nn.MultiFieldEmbeddingLookup(10, 3, 2)(Tensor(np.array([[1]], np.int32)), "
                               "Tensor(np.ones((1, 1), np.float32)), Tensor(np.zeros((1, 1), np.int64)))"),
    ("sampled_too_many", "nn.SampledSoftmaxLoss(8, 5)"),
    ("sampled_num_true", "nn.SampledSoftmaxLoss(2, 5, num_true=0)"),
    ("sampled_values_len", "nn.SampledSoftmaxLoss(2, 5, sampled_values=(1, 2))"),
    ("sampled_values_type", "nn.SampledSoftmaxLoss(2, 5, sampled_values=3)"),
    ("sampled_label_float", "nn.SampledSoftmaxLoss(2, 5)(Tensor(np.ones((5, 3), np.float32)), "
                            "Tensor(np.ones(5, np.float32)), Tensor(np.ones((2, 1), np.float32)), "
                            "Tensor(np.ones((2, 3), np.float32)))"),
    ("fmp_no_size", "nn.FractionalMaxPool2d(2)(Tensor(np.ones((1, 1, 5, 5), np.float32)))"),
    ("fmp_too_big", "nn.FractionalMaxPool2d(3, output_size=(4, 4))(Tensor(np.ones((1, 1, 5, 5), np.float32)))"),
    ("fmp_ratio", "nn.FractionalMaxPool2d(2, output_ratio=(1.5, 0.5))(Tensor(np.ones((1, 1, 5, 5), np.float32)))"),
    ("maxunpool_output_size", "nn.MaxUnpool2d(2)(Tensor(np.ones((1, 1, 2, 2), np.float32)), "
                              "Tensor(np.zeros((1, 1, 2, 2), np.int64)), [4, 4])"),
]
