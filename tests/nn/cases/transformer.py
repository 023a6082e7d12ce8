"""MultiheadAttention and Transformer cases (see tests/nn/cases/conv.py for the format). Dropout is 0 where the
cells train, so the outputs are deterministic."""


def call_mha_masks(cell, q, k, v, kpm, mask):
    return cell(q, k, v, key_padding_mask=kpm, attn_mask=mask)


def call_mha_no_avg(cell, q, k, v):
    return cell(q, k, v, average_attn_weights=False)


def call_mha_self(cell, x):
    return cell(x, x, x, need_weights=False)


def call_enc_masks(cell, x, mask, kpm):
    return cell(x, src_mask=mask, src_key_padding_mask=kpm)


def call_dec(cell, tgt, mem, tgt_mask):
    return cell(tgt, mem, tgt_mask=tgt_mask)


KPM = {"value": "np.array([[False, False, True, False, True], [False, False, False, False, False]])"}
CAUSAL4 = {"value": "np.triu(np.ones((4, 4), bool), 1)"}
FLOAT_MASK = {"value": "(np.random.default_rng(3).standard_normal((4, 5)) * 0.5).astype(np.float32)"}
CASES = [
    dict(key="mha", ctor="nn.MultiheadAttention(8, 2)", inputs=[(4, 2, 8), (5, 2, 8), (5, 2, 8)], randomize=True),
    # bool masks together, and a float attn_mask with a float key_padding_mask: MindSpore 2.10 adds a *bool*
    # key_padding_mask to a float attn_mask as 0/1 instead of masking; sprout masks (-inf) in every combination
    dict(key="mha_masks", ctor="nn.MultiheadAttention(8, 2)",
         inputs=[(4, 2, 8), (5, 2, 8), (5, 2, 8), KPM, {"value": "np.eye(4, 5, 2, dtype=bool)"}],
         call=call_mha_masks, randomize=True),
    dict(key="mha_float_masks", ctor="nn.MultiheadAttention(8, 2)",
         inputs=[(4, 2, 8), (5, 2, 8), (5, 2, 8), {"value": "np.where(np.array([[0, 0, 1, 0, 1], [0, 0, 0, 0, 0]]), "
                                                        "-1e9, 0).astype(np.float32)"}, FLOAT_MASK],
         call=call_mha_masks, randomize=True),
    dict(key="mha_kdim_vdim_bias_kv_zero", ctor="nn.MultiheadAttention(8, 4, kdim=6, vdim=3, add_bias_kv=True, "
         "add_zero_attn=True, batch_first=True)", inputs=[(2, 4, 8), (2, 5, 6), (2, 5, 3)], call=call_mha_no_avg),
    dict(key="mha_self_unbatched_nobias", ctor="nn.MultiheadAttention(6, 3, has_bias=False)", inputs=[(5, 6)],
         call=call_mha_self),
    dict(key="encoder_layer", ctor="nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)", inputs=[(5, 2, 8)],
         randomize=True),
    dict(key="encoder_layer_norm_first_gelu_bf", ctor="nn.TransformerEncoderLayer(8, 4, 12, dropout=0.0, "
         "activation='gelu', norm_first=True, batch_first=True)", inputs=[(2, 5, 8)], train=True, randomize=True),
    dict(key="encoder_masks", ctor="nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, "
         "nn.LayerNorm((8,)))", inputs=[(5, 2, 8), {"value": "np.triu(np.ones((5, 5), bool), 1)"}, KPM],
         call=call_enc_masks, randomize=True),
    dict(key="decoder_layer", ctor="nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)",
         inputs=[(4, 2, 8), (5, 2, 8), CAUSAL4], call=call_dec, randomize=True),
    dict(key="decoder_norm_first", ctor="nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, "
         "norm_first=True), 2)", inputs=[(4, 2, 8), (5, 2, 8), CAUSAL4], call=call_dec, randomize=True),
    dict(key="transformer", ctor="nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)", inputs=[(5, 2, 8), (4, 2, 8)],
         tol=(1e-4, 2e-5)),
]

ERRORS = [
    ("mha_indivisible", "nn.MultiheadAttention(8, 3)"),
    ("mha_bad_kpm_dtype", "nn.MultiheadAttention(4, 2)(*[Tensor(np.ones((3, 1, 4), np.float32))] * 3, "
     "key_padding_mask=Tensor(np.ones((1, 3), np.int32)))"),
    ("mha_1d_query", "nn.MultiheadAttention(4, 2)(*[Tensor(np.ones(4, np.float32))] * 3)"),
    ("mha_bad_mask_shape", "nn.MultiheadAttention(4, 2)(*[Tensor(np.ones((3, 1, 4), np.float32))] * 3, "
     "attn_mask=Tensor(np.ones((2, 3), np.float32)))"),
    ("encoder_bad_activation", "nn.TransformerEncoderLayer(8, 2, activation='tanh')"),
    ("encoder_cell_activation", "nn.TransformerEncoderLayer(8, 2, activation=nn.Tanh())"),
    ("transformer_bad_d_model", "nn.Transformer(8, 2, 1, 1, 16)(Tensor(np.ones((3, 1, 4), np.float32)), "
     "Tensor(np.ones((3, 1, 4), np.float32)))"),
]
