"""ops.LSTM (MindSpore's CPU LSTM primitive, flat weight) against MindSpore 2.10: biases, two directions, projection,
the documented example and argument errors. MindSpore's CPU kernel reads ONE bias of 4 * hidden per (layer,
direction) and ignores the rest of w (its docs' example output, 0.9640267, is what b_ih + b_hh would give; the CPU
kernel returns 0.9640251), and runs bidirectional and has_bias=True although the docs say CPU supports neither; it
cannot run num_layers > 1 (oneDNN refuses the primitive), which tests/ops/table_rnn.py checks against NumPy. Only the
first three outputs are compared: reserve is oneDNN's opaque workspace in MindSpore."""
import numpy as np

from . import OC, U, C


def _w(n):
    return U(n, 1, 1, lo=-0.6, hi=0.6)


def _lstm(args):
    return f"ops.LSTM({args})(x, h, c, w)[:3]"


CASES = [
    OC("lstm_plain", _lstm("3, 4, 1, False, False, 0.0"),
       {"x": U(5, 2, 3), "h": U(1, 2, 4), "c": U(1, 2, 4), "w": _w(4 * 4 * 7)}),
    OC("lstm_bias", _lstm("3, 4, 1, True, False, 0.0"),
       {"x": U(5, 2, 3), "h": U(1, 2, 4), "c": U(1, 2, 4), "w": _w(4 * 4 * 7 + 32)}),
    OC("lstm_bidirectional", _lstm("3, 4, 1, True, True, 0.0"),
       {"x": U(4, 3, 3), "h": U(2, 3, 4), "c": U(2, 3, 4), "w": _w(2 * 4 * 4 * 7 + 2 * 32)}),
    OC("lstm_proj", _lstm("3, 4, 1, True, False, 0.0, 2"),
       {"x": U(5, 2, 3), "h": U(1, 2, 2), "c": U(1, 2, 4), "w": _w(16 * 3 + 16 * 2 + 8 + 32)}),
    OC("lstm_proj_bidirectional", _lstm("3, 4, 1, False, True, 0.0, 3"),
       {"x": U(3, 2, 3), "h": U(2, 2, 3), "c": U(2, 2, 4), "w": _w(2 * (16 * 3 + 16 * 3 + 12))}),
    OC("lstm_doc_example", "ops.LSTM(10, 2, 1, True, False, 0.0)(x, h, h, w)[:3]",
       {"x": C(np.ones((5, 2, 10)), "float32"), "h": C(np.ones((1, 2, 2)), "float32"),
        "w": C(np.ones((112, 1, 1)), "float32")}),
    OC("lstm_bad_input_size", "ops.LSTM(3.0, 4, 1, False, False, 0.0)", check="raises", jit=False),
    OC("lstm_bad_hidden", "ops.LSTM(3, 0, 1, False, False, 0.0)", check="raises", jit=False),
    OC("lstm_bad_proj", "ops.LSTM(3, 4, 1, False, False, 0.0, 4)", check="raises", jit=False),
    OC("lstm_bad_bias_flag", "ops.LSTM(3, 4, 1, 1, False, 0.0)", check="raises", jit=False),
    OC("lstm_bad_dropout_type", "ops.LSTM(3, 4, 1, False, False, 0)", check="raises", jit=False),
    OC("lstm_bad_dropout", "ops.LSTM(3, 4, 1, False, False, 1.5)", check="raises", jit=False),
    # DynamicRNN / DynamicGRUV2 / BasicLSTMCell have no CPU kernel in MindSpore 2.10; their argument checks run first
    OC("dynamic_rnn_float32_x", "ops.DynamicRNN()(x, w, b, None, h, c)",
       {"x": U(3, 2, 3), "w": U(7, 16, dtype="float16"), "b": U(16, dtype="float16"), "h": U(1, 2, 4, dtype="float16"),
        "c": U(1, 2, 4, dtype="float16")}, check="raises", match="DynamicRNN.*'x'"),
    OC("dynamic_rnn_float32_c", "ops.DynamicRNN()(x, w, b, None, h, c)",
       {"x": U(3, 2, 3, dtype="float16"), "w": U(7, 16, dtype="float16"), "b": U(16, dtype="float16"),
        "h": U(1, 2, 4, dtype="float16"), "c": U(1, 2, 4)}, check="raises", match="DynamicRNN.*'init_c'"),
    OC("dynamic_rnn_batch_major", "ops.DynamicRNN(time_major=False)", check="raises", jit=False),
    OC("dynamic_rnn_bad_cell", "ops.DynamicRNN(cell_type='GRU')", check="raises", jit=False),
    OC("dynamic_rnn_bad_forget_bias", "ops.DynamicRNN(forget_bias=1)", check="raises", jit=False),
    OC("dynamic_gru_float32_w", "ops.DynamicGRUV2()(x, wi, wh, None, None, None, h)",
       {"x": U(3, 2, 3, dtype="float16"), "wi": U(3, 12), "wh": U(4, 12, dtype="float16"),
        "h": U(2, 4, dtype="float16")}, check="raises", match="DynamicGRUV2.*'weight_input'"),
    OC("dynamic_gru_bad_order", "ops.DynamicGRUV2(gate_order='hzr')", check="raises", jit=False),
    OC("dynamic_gru_bad_reset_after", "ops.DynamicGRUV2(reset_after=1)", check="raises", jit=False),
    OC("basic_lstm_cell_bad_w", "ops.BasicLSTMCell()(x, h, c, w, b)",
       {"x": U(2, 3), "h": U(2, 4), "c": U(2, 4), "w": U(6, 16), "b": U(16)}, check="raises",
       match="BasicLSTMCell.*'w'"),
    OC("basic_lstm_cell_bad_b_dtype", "ops.BasicLSTMCell()(x, h, c, w, b)",
       {"x": U(2, 3), "h": U(2, 4), "c": U(2, 4), "w": U(7, 16), "b": U(16, dtype="float16")}, check="raises",
       match="BasicLSTMCell.*'b'"),
    OC("basic_lstm_cell_bad_keep_prob", "ops.BasicLSTMCell(keep_prob=2.0)", check="raises", jit=False),
]
