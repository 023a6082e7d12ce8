"""RNN / LSTM / GRU layer and cell cases (see tests/nn/cases/conv.py for the format). Inputs are (T, B, I) unless
batch_first; ``seq_length`` cases pass per-sequence lengths (Int32)."""


def call_with_h(cell, x, h):
    return cell(x, h)


def call_lstm_hc(cell, x, h, c):
    return cell(x, (h, c))


def call_seq(cell, x, lengths):
    return cell(x, None, lengths)


def call_lstm_seq(cell, x, h, c, lengths):
    return cell(x, (h, c), lengths)


LENGTHS = {"value": "np.array([4, 2, 3], np.int32)"}
CASES = [
    dict(key="rnncell_tanh", ctor="nn.RNNCell(3, 4)", inputs=[(2, 3), (2, 4)]),
    dict(key="rnncell_relu_nobias", ctor="nn.RNNCell(3, 4, has_bias=False, nonlinearity='relu')",
         inputs=[(2, 3), (2, 4)]),
    dict(key="lstmcell", ctor="nn.LSTMCell(3, 4)", inputs=[(2, 3), (2, 4), (2, 4)],
         call=call_lstm_hc),
    dict(key="grucell", ctor="nn.GRUCell(3, 4)", inputs=[(2, 3), (2, 4)]),
    dict(key="grucell_nobias", ctor="nn.GRUCell(3, 2, has_bias=False)", inputs=[(5, 3), (5, 2)]),
    dict(key="lstm", ctor="nn.LSTM(3, 4)", inputs=[(5, 2, 3)]),
    dict(key="lstm_2layer_bi_h", ctor="nn.LSTM(3, 4, num_layers=2, bidirectional=True)",
         inputs=[(4, 3, 3), (4, 3, 4), (4, 3, 4)], call=call_lstm_hc),
    dict(key="lstm_batch_first_nobias", ctor="nn.LSTM(2, 3, has_bias=False, batch_first=True)",
         inputs=[(2, 5, 2)]),
    dict(key="lstm_seq_bi", ctor="nn.LSTM(3, 2, bidirectional=True)",
         inputs=[(4, 3, 3), (2, 3, 2), (2, 3, 2), LENGTHS], call=call_lstm_seq),
    dict(key="gru", ctor="nn.GRU(3, 4, num_layers=2)", inputs=[(5, 2, 3)]),
    dict(key="gru_bi_batch_first_h", ctor="nn.GRU(3, 2, batch_first=True, bidirectional=True)",
         inputs=[(2, 4, 3), (2, 2, 2)], call=call_with_h),
    dict(key="gru_seq", ctor="nn.GRU(3, 2)", inputs=[(4, 3, 3), LENGTHS], call=call_seq),
    dict(key="rnn_tanh", ctor="nn.RNN(3, 4, num_layers=2)", inputs=[(5, 2, 3)]),
    dict(key="rnn_relu_bi", ctor="nn.RNN(3, 2, nonlinearity='relu', bidirectional=True)", inputs=[(4, 2, 3)]),
    dict(key="rnn_seq_bi", ctor="nn.RNN(2, 3, bidirectional=True, batch_first=True)",
         inputs=[(3, 4, 2), LENGTHS], call=call_seq),
]

ERRORS = [
    ("lstm_hidden_zero", "nn.LSTM(3, 0)"),
    ("lstm_input_float", "nn.LSTM(3.0, 4)"),
    ("lstm_dropout_int", "nn.LSTM(3, 4, dropout=1)"),
    ("lstm_dropout_big", "nn.LSTM(3, 4, dropout=1.0)"),
    ("lstm_batch_first_int", "nn.LSTM(3, 4, batch_first=1)"),
    ("lstm_hx_tensor", "nn.LSTM(3, 4)(Tensor(np.ones((2, 1, 3), np.float32)), Tensor(np.ones((1, 1, 4), np.float32)))"),
    ("lstm_hx_len3", "h = Tensor(np.ones((1, 1, 4), np.float32)); nn.LSTM(3, 4)(Tensor(np.ones((2, 1, 3), "
     "np.float32)), (h, h, h))"),
    ("lstm_int_input", "nn.LSTM(3, 4)(Tensor(np.ones((2, 1, 3), np.int32)))"),
    ("lstm_seq_dtype", "nn.LSTM(3, 4)(Tensor(np.ones((2, 1, 3), np.float32)), None, Tensor(np.ones(1, np.float32)))"),
    ("lstm_seq_batch", "nn.LSTM(3, 4)(Tensor(np.ones((2, 2, 3), np.float32)), None, Tensor(np.ones(3, np.int32)))"),
    ("rnn_bad_nonlinearity", "nn.RNN(3, 4, nonlinearity='sigmoid')"),
    ("rnncell_bad_nonlinearity", "nn.RNNCell(3, 4, nonlinearity='sigmoid')"),
    ("rnncell_has_bias_int", "nn.RNNCell(3, 4, has_bias=1)"),
    ("lstmcell_old_args", "nn.LSTMCell(3, 4, True, 2, 0.5)"),
    ("lstmcell_hx_tensor", "nn.LSTMCell(3, 4)(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 4), "
     "np.float32)))"),
    ("grucell_int_x", "nn.GRUCell(3, 4)(Tensor(np.ones((2, 3), np.int32)), Tensor(np.ones((2, 4), np.float32)))"),
]
