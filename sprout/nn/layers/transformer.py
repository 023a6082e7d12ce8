"""MultiheadAttention and the Transformer family (encoder/decoder layers, stacks and the full model), with
MindSpore's parameter names (``in_proj_weight``, ``in_proj_bias``, ``out_proj``, ``dense1``/``dense2``,
``norm1..3``), masks (bool: True = masked out, or float: added to the scores) and defaults."""
from __future__ import annotations

import copy
import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from ...core.tensor import Parameter, Tensor
from ..cell import Cell
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm


def _mask_to_float(mask, dtype):
    """A bool mask (True = masked) becomes -inf / 0; a float mask is used as is."""
    if mask.dtype is mstype.uint8:
        mask = ops.cast(mask, mstype.bool_)
    if mask.dtype is mstype.bool_:
        return ops.masked_fill(ops.zeros(tuple(mask.shape), dtype), mask, float("-inf"))
    if not mask.dtype.is_float:
        raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got {mask.dtype}.")
    return mask


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, but got `key` with "
                             f"{key.ndim}D and `value` with {value.ndim}D.")
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise ValueError(f"For batched `query`, the `key_padding_mask` must be 2D, but got "
                             f"{key_padding_mask.ndim}D.")
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with "
                             f"{key.ndim}D and `value` with {value.ndim}D.")
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise ValueError(f"For unbatched `query`, the `key_padding_mask` must be 1D, but got "
                             f"{key_padding_mask.ndim}D.")
        return False
    raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got {query.ndim}D.")


def multi_head_attention_forward(query, key, value, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v,
                                 add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, average_attn_weights=True, is_causal=False):
    """Attention of (L, N, E) queries over (S, N, E) keys/values (or unbatched (L, E)/(S, E)); returns the
    (L, N, E) output and the (N, L, S) attention weights (per head (N, heads, L, S) unless averaged)."""
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = ops.expand_dims(query, 1), ops.expand_dims(key, 1), ops.expand_dims(value, 1)
        if key_padding_mask is not None:
            key_padding_mask = ops.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    if key_padding_mask is not None and key_padding_mask.dtype is not mstype.bool_ \
            and not key_padding_mask.dtype.is_float:
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if q_proj_weight is None:
        if tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"The shape of `key` {tuple(key.shape)} does not match `value` {tuple(value.shape)}.")
        w_q, w_k, w_v = ops.split(in_proj_weight, embed_dim, 0)
    else:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: {tuple(key.shape[:2])} do not match "
                             f"`value`: {tuple(value.shape[:2])}.")
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    b_q = b_k = b_v = None
    if in_proj_bias is not None:
        b_q, b_k, b_v = ops.split(in_proj_bias, embed_dim, 0)
    q, k, v = ops.dense(query, w_q, b_q), ops.dense(key, w_k, b_k), ops.dense(value, w_v, b_v)
    if attn_mask is not None:
        attn_mask = _mask_to_float(attn_mask, q.dtype)
        if attn_mask.ndim == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise ValueError(f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, but got "
                                 f"{tuple(attn_mask.shape)}.")
            attn_mask = ops.expand_dims(attn_mask, 0)
        elif attn_mask.ndim == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise ValueError(f"The shape of the `attn_mask` should be {(bsz * num_heads, tgt_len, src_len)}, "
                                 f"but got {tuple(attn_mask.shape)}.")
        else:
            raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
    if key_padding_mask is not None:
        key_padding_mask = _mask_to_float(key_padding_mask, q.dtype)
    if bias_k is not None and bias_v is not None:
        k = ops.concat((k, ops.tile(bias_k, (1, bsz, 1))), 0)
        v = ops.concat((v, ops.tile(bias_v, (1, bsz, 1))), 0)
        if attn_mask is not None:
            attn_mask = ops.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = ops.pad(key_padding_mask, (0, 1))
    elif bias_k is not None or bias_v is not None:
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    q = ops.transpose(ops.reshape(q, (tgt_len, bsz * num_heads, head_dim)), (1, 0, 2))
    k = ops.transpose(ops.reshape(k, (k.shape[0], bsz * num_heads, head_dim)), (1, 0, 2))
    v = ops.transpose(ops.reshape(v, (v.shape[0], bsz * num_heads, head_dim)), (1, 0, 2))
    if add_zero_attn:
        zeros = ops.zeros((bsz * num_heads, 1, head_dim), k.dtype)
        k, v = ops.concat((k, zeros), 1), ops.concat((v, zeros), 1)
        if attn_mask is not None:
            attn_mask = ops.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = ops.pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but got "
                             f"{tuple(key_padding_mask.shape)}.")
        kpm = ops.reshape(ops.tile(ops.reshape(key_padding_mask, (bsz, 1, 1, src_len)), (1, num_heads, 1, 1)),
                          (bsz * num_heads, 1, src_len))
        attn_mask = kpm if attn_mask is None else ops.add(attn_mask, kpm)
    if attn_mask is not None:
        attn_mask = ops.expand_dims(attn_mask, 0) if attn_mask.shape[0] == 1 else \
            ops.reshape(attn_mask, (bsz, num_heads, -1, src_len))
    q = ops.reshape(q, (bsz, num_heads, tgt_len, head_dim))
    k = ops.reshape(k, (bsz, num_heads, src_len, head_dim))
    v = ops.reshape(v, (bsz, num_heads, src_len, head_dim))
    scale = math.sqrt(math.sqrt(head_dim))  # MindSpore divides q and k by head_dim ** 0.25 each
    scores = ops.matmul(ops.div(q, scale), ops.div(ops.transpose(k, (0, 1, 3, 2)), scale))
    if is_causal:
        causal = Tensor(np.triu(np.ones((tgt_len, src_len), bool), 1))
        scores = ops.add(scores, _mask_to_float(causal, scores.dtype))
    if attn_mask is not None:
        scores = ops.add(scores, attn_mask)
    weights = ops.softmax(scores, -1)
    if training and dropout_p > 0:
        weights = ops.dropout(weights, p=dropout_p)
    out = ops.matmul(weights, v)  # (N, heads, L, head_dim)
    out = ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (bsz * tgt_len, embed_dim))
    out = ops.reshape(ops.dense(out, out_proj_weight, out_proj_bias), (tgt_len, bsz, -1))
    if average_attn_weights:
        weights = ops.div(ops.sum(weights, 1), float(num_heads))
    if not batched:
        out, weights = ops.squeeze(out, 1), ops.squeeze(weights, 0)
    return out, weights


class MultiheadAttention(Cell):
    """Multi-head scaled dot-product attention: ``construct(query, key, value, key_padding_mask=None,
    need_weights=True, attn_mask=None, average_attn_weights=True)`` -> (output, weights) or (output,)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = mstype.float32 if dtype is None else dtype
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype),
                                           "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype),
                                           "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype),
                                           "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        self.in_proj_bias = Parameter(initializer("zeros", 3 * embed_dim, dtype), "in_proj_bias") if has_bias \
            else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.dtype = dtype

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        batched = query.ndim == 3
        if self.batch_first and batched:
            query, key, value = (ops.transpose(t, (1, 0, 2)) for t in (query, key, value))
        out, weights = multi_head_attention_forward(
            query, key, value, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k, self.bias_v,
            self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, attn_mask=attn_mask, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights)
        if self.batch_first and batched:
            out = ops.transpose(out, (1, 0, 2))
        return (out, weights) if need_weights else (out,)


def _activation(activation):
    if isinstance(activation, str):
        if activation == "relu":
            return ops.relu
        if activation == "gelu":
            return ops.gelu
        raise ValueError(f"The activation must be relu/gelu, but get {activation}")
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but get {activation}.")
        return activation
    if callable(activation):
        if activation is not ops.relu and activation is not ops.gelu:
            raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, but get "
                             f"{activation}.")
        return activation
    raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, but get {activation}.")


def _ff_dense(n_in, n_out, dtype):
    return Dense(n_in, n_out, weight_init=HeUniform(math.sqrt(5)), bias_init=Uniform(1 / math.sqrt(n_in)),
                 dtype=dtype)


class TransformerEncoderLayer(Cell):
    """Self-attention and a feed-forward block, each with a residual and LayerNorm (post-norm, or pre-norm with
    ``norm_first``)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.dense1 = _ff_dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _ff_dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps, self.batch_first, self.dtype = dropout, layer_norm_eps, batch_first, dtype

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None and src_key_padding_mask.dtype is not mstype.bool_ \
                and not src_key_padding_mask.dtype.is_float:
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
        x = src
        if self.norm_first:
            x = ops.add(x, self._sa_block(self.norm1(x), src_mask, src_key_padding_mask))
            return ops.add(x, self._ff_block(self.norm2(x)))
        x = self.norm1(ops.add(x, self._sa_block(x, src_mask, src_key_padding_mask)))
        return self.norm2(ops.add(x, self._ff_block(x)))

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerDecoderLayer(Cell):
    """Self-attention, attention over the encoder memory and a feed-forward block, each with a residual and
    LayerNorm."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self.dense1 = _ff_dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _ff_dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps, self.batch_first, self.dtype = dropout, layer_norm_eps, batch_first, dtype

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = ops.add(x, self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask))
            x = ops.add(x, self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask))
            return ops.add(x, self._ff_block(self.norm3(x)))
        x = self.norm1(ops.add(x, self._sa_block(x, tgt_mask, tgt_key_padding_mask)))
        x = self.norm2(ops.add(x, self._mha_block(x, memory, memory_mask, memory_key_padding_mask)))
        return self.norm3(ops.add(x, self._ff_block(x)))

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.dense2(self.dropout(self.activation(self.dense1(x)))))


def _fresh_like(layer, cls):
    """A new layer with ``layer``'s configuration (MindSpore rebuilds it, so the stack does not share its weights)."""
    return cls(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num, layer.activation1,
               layer.layernorm_eps, layer.batch_first, layer.norm_first, dtype=layer.dtype)


class TransformerEncoder(Cell):
    """``num_layers`` copies of a freshly built layer with ``encoder_layer``'s configuration, then ``norm``."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        layer = _fresh_like(encoder_layer, TransformerEncoderLayer)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None and src_key_padding_mask.dtype is not mstype.bool_ \
                and not src_key_padding_mask.dtype.is_float:
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoder(Cell):
    """``num_layers`` copies of a freshly built layer with ``decoder_layer``'s configuration, then ``norm``."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        layer = _fresh_like(decoder_layer, TransformerDecoderLayer)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class Transformer(Cell):
    """Encoder-decoder Transformer; every parameter with more than one dimension is re-drawn Xavier-uniform."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        batched = src.ndim == 3
        src_batch = src.shape[0] if self.batch_first else src.shape[1]
        tgt_batch = tgt.shape[0] if self.batch_first else tgt.shape[1]
        if batched and src_batch != tgt_batch:
            raise ValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to `d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
