"""Convolution cases (Conv1d/2d/3d and their transposes), run by MindSpore (tools/nn_oracle_cases.py) and sprout
(tests/nn/test_ms_cases.py). Each case: a key, a constructor string, input shapes (float32 normal) or specs."""

CASES = [
    dict(key="conv1d_same", ctor="nn.Conv1d(2, 4, 3, has_bias=True)", inputs=[(2, 2, 7)]),
    dict(key="conv1d_pad_s2_d2_g2", ctor="nn.Conv1d(4, 6, 3, stride=2, pad_mode='pad', padding=2, dilation=2, "
         "group=2)", inputs=[(2, 4, 9)]),
    dict(key="conv1d_valid", ctor="nn.Conv1d(3, 2, 4, pad_mode='valid', has_bias=True)", inputs=[(1, 3, 8)]),
    dict(key="conv2d_same_s2", ctor="nn.Conv2d(2, 3, 3, stride=2, has_bias=True)", inputs=[(2, 2, 6, 5)]),
    dict(key="conv2d_pad4_g2", ctor="nn.Conv2d(4, 4, (3, 2), pad_mode='pad', padding=(1, 0, 2, 1), group=2)",
         inputs=[(1, 4, 5, 5)]),
    dict(key="conv3d_same", ctor="nn.Conv3d(2, 3, 3, has_bias=True)", inputs=[(1, 2, 4, 5, 4)]),
    dict(key="conv3d_valid_s2", ctor="nn.Conv3d(2, 4, (2, 3, 3), stride=(2, 1, 2), pad_mode='valid')",
         inputs=[(2, 2, 5, 6, 6)]),
    dict(key="conv3d_pad_d2_g2", ctor="nn.Conv3d(4, 2, 3, pad_mode='pad', padding=(1, 2, 0, 1, 1, 0), "
         "dilation=(2, 1, 1), group=2, has_bias=True)", inputs=[(1, 4, 5, 4, 4)]),
    dict(key="conv3d_same_s2_big", ctor="nn.Conv3d(3, 2, (3, 1, 2), stride=2)", inputs=[(1, 3, 5, 5, 6)]),
    dict(key="conv2dT_same", ctor="nn.Conv2dTranspose(3, 2, 3, has_bias=True)", inputs=[(2, 3, 4, 5)]),
    dict(key="conv2dT_same_s2", ctor="nn.Conv2dTranspose(2, 4, 3, stride=2)", inputs=[(1, 2, 4, 3)]),
    dict(key="conv2dT_valid_s3_k2", ctor="nn.Conv2dTranspose(2, 2, 2, stride=3, pad_mode='valid')",
         inputs=[(1, 2, 3, 3)]),
    dict(key="conv2dT_valid_s2_k4", ctor="nn.Conv2dTranspose(2, 2, 4, stride=2, pad_mode='valid', has_bias=True)",
         inputs=[(1, 2, 3, 3)]),
    dict(key="conv2dT_pad_outpad", ctor="nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode='pad', padding=(1, 0, 2, 1), "
         "output_padding=1, has_bias=True)", inputs=[(1, 2, 5, 6)]),
    dict(key="conv2dT_pad_outpad_tuple_g2", ctor="nn.Conv2dTranspose(4, 2, 3, stride=(2, 3), pad_mode='pad', "
         "padding=1, output_padding=(1, 2), group=2, dilation=(1, 2))", inputs=[(2, 4, 3, 4)]),
    dict(key="conv1dT_same_s2", ctor="nn.Conv1dTranspose(2, 3, 3, stride=2, has_bias=True)", inputs=[(2, 2, 5)]),
    dict(key="conv1dT_pad", ctor="nn.Conv1dTranspose(4, 2, 4, stride=2, pad_mode='pad', padding=1, group=2)",
         inputs=[(1, 4, 6)]),
    dict(key="conv1dT_valid_d2", ctor="nn.Conv1dTranspose(2, 2, 3, stride=1, pad_mode='valid', dilation=2)",
         inputs=[(1, 2, 5)]),
    dict(key="conv3dT_same", ctor="nn.Conv3dTranspose(2, 3, 3, has_bias=True)", inputs=[(1, 2, 3, 4, 3)]),
    dict(key="conv3dT_same_s2", ctor="nn.Conv3dTranspose(2, 2, 3, stride=2)", inputs=[(1, 2, 3, 2, 3)]),
    dict(key="conv3dT_valid_s3_k2", ctor="nn.Conv3dTranspose(2, 2, 2, stride=3, pad_mode='valid')",
         inputs=[(1, 2, 2, 3, 2)]),
    dict(key="conv3dT_pad_outpad", ctor="nn.Conv3dTranspose(2, 4, 3, stride=2, pad_mode='pad', "
         "padding=(1, 0, 1, 1, 0, 1), output_padding=1, group=2, has_bias=True)", inputs=[(1, 2, 3, 3, 4)]),
    dict(key="conv3dT_dil", ctor="nn.Conv3dTranspose(2, 2, (2, 3, 2), stride=(1, 2, 1), pad_mode='valid', "
         "dilation=(1, 2, 2))", inputs=[(2, 2, 3, 2, 2)]),
]

ERRORS = [
    ("conv2d_bad_group", "nn.Conv2d(3, 4, 3, group=2)"),
    ("conv2d_bad_in_channels", "nn.Conv2d(0, 4, 3)"),
    ("conv2d_float_in_channels", "nn.Conv2d(2.0, 4, 3)"),
    ("conv2d_bad_pad_mode", "nn.Conv2d(2, 4, 3, pad_mode='full')"),
    ("conv2d_upper_pad_mode", "nn.Conv2d(2, 4, 3, pad_mode='SAME')"),
    ("conv2d_padding_not_pad", "nn.Conv2d(2, 4, 3, padding=1)"),
    ("conv2d_neg_padding", "nn.Conv2d(2, 4, 3, pad_mode='pad', padding=-1)"),
    ("conv2d_padding_list", "nn.Conv2d(2, 4, 3, pad_mode='pad', padding=[1, 1, 1, 1])"),
    ("conv2d_kernel_zero", "nn.Conv2d(2, 4, 0)"),
    ("conv2d_has_bias_int", "nn.Conv2d(2, 4, 3, has_bias=1)"),
    ("conv2d_nhwc", "nn.Conv2d(2, 4, 3, data_format='NHWC')"),
    ("conv2d_bad_weight_shape", "nn.Conv2d(2, 4, 3, weight_init=Tensor(np.zeros((4, 2, 2, 2), np.float32)))"),
    ("conv2d_bad_input_channels", "nn.Conv2d(2, 4, 3)(Tensor(np.zeros((1, 3, 5, 5), np.float32)))"),
    ("conv1d_tuple_kernel", "nn.Conv1d(2, 4, (3,))"),
    ("conv1d_padding_tuple", "nn.Conv1d(2, 4, 3, pad_mode='pad', padding=(1, 1))"),
    ("conv3d_padding_4", "nn.Conv3d(2, 4, 3, pad_mode='pad', padding=(1, 1, 1, 1))"),
    ("conv3d_kernel_pair", "nn.Conv3d(2, 4, (3, 3))"),
    ("conv2dT_outpad_same", "nn.Conv2dTranspose(2, 4, 3, stride=2, output_padding=1)(Tensor(np.zeros((1, 2, 3, 3), "
     "np.float32)))"),
    ("conv2dT_outpad_big", "nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode='pad', output_padding=2)(Tensor(np.zeros("
     "(1, 2, 3, 3), np.float32)))"),
    ("conv2dT_outpad_len3", "nn.Conv2dTranspose(2, 4, 3, output_padding=(1, 1, 1))"),
    ("conv3dT_outpad_same", "nn.Conv3dTranspose(2, 4, 3, stride=2, output_padding=1)"),
    ("conv3dT_depth_dilation", "nn.Conv3dTranspose(2, 4, 3, dilation=(2, 1, 1))"),
    ("conv1dT_input_4d", "nn.Conv1dTranspose(2, 4, 3)(Tensor(np.zeros((1, 2, 3, 3), np.float32)))"),
]

# Conv2D's channel check lives in the primitive's shape rule, which raises ValueError (OpError) for every shape
# mismatch; MindSpore's C++ kernel reports this one as RuntimeError.
DIFFERS = {"conv2d_bad_input_channels": "ValueError"}
