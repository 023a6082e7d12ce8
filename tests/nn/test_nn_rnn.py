"""Recurrent layers: a MindSpore 2.10 checkpoint of an Embedding + bidirectional 2-layer LSTM + GRU + LSTMCell +
Dense network (tests/nn/fixtures/rnn_net.ckpt, written by tools/nn_oracle_rnn_ckpt.py) loads into the same sprout
network by name and gives MindSpore's output, eagerly and in GRAPH_MODE; training with dropout between layers."""
from pathlib import Path

import numpy as np

import sprout as ms
from sprout import Tensor, nn, ops

FIX = Path(__file__).parent / "fixtures"


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 6)
        self.lstm = nn.LSTM(6, 5, num_layers=2, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(10, 4)
        self.cell = nn.LSTMCell(4, 3)
        self.fc = nn.Dense(3, 2)

    def construct(self, ids):
        x = self.embed(ids)
        y, _ = self.lstm(x)
        z, h = self.gru(ops.transpose(y, (1, 0, 2)))
        hc = (ops.zeros((z.shape[1], 3), ms.float32), ops.zeros((z.shape[1], 3), ms.float32))
        for t in range(z.shape[0]):
            hc = self.cell(z[t], hc)
        return self.fc(hc[0]) + h[0].sum()


def test_mindspore_checkpoint_loads_and_reproduces_the_output(tmp_path):
    ref = np.load(FIX / "rnn_net.npz")
    net = Net()
    assert [p.name for p in net.get_parameters()] == list(ref["names"])
    params = ms.load_checkpoint(str(FIX / "rnn_net.ckpt"))
    not_loaded, _ = ms.load_param_into_net(net, params)
    assert not not_loaded
    ids = Tensor(ref["ids"])
    np.testing.assert_allclose(net(ids).asnumpy(), ref["out"], rtol=1e-5, atol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(net(ids).asnumpy(), ref["out"], rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    path = tmp_path / "again.ckpt"  # and sprout's own checkpoint round-trips
    ms.save_checkpoint(net, str(path))
    fresh = Net()
    ms.load_param_into_net(fresh, ms.load_checkpoint(str(path)))
    np.testing.assert_allclose(fresh(ids).asnumpy(), ref["out"], rtol=1e-5, atol=1e-6)


def test_lstm_trains_with_dropout_between_layers():
    ms.set_seed(0)
    lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = Tensor(np.random.default_rng(0).standard_normal((5, 2, 3)).astype(np.float32))
    eval_out = lstm(x)[0].asnumpy()
    np.testing.assert_array_equal(lstm(x)[0].asnumpy(), eval_out)  # eval: no dropout, deterministic
    lstm.set_train(True)
    assert not np.allclose(lstm(x)[0].asnumpy(), eval_out)
    opt = nn.SGD(lstm.trainable_params(), 0.1)
    step = nn.TrainOneStepCell(nn.WithLossCell(LastStep(lstm), nn.MSELoss()), opt)
    before = lstm.weight_ih_l0.asnumpy().copy()
    loss = step(x, Tensor(np.zeros((2, 4), np.float32)))
    assert np.isfinite(loss.asnumpy()) and not np.allclose(lstm.weight_ih_l0.asnumpy(), before)


class LastStep(nn.Cell):
    """The last output step of an LSTM."""

    def __init__(self, lstm):
        super().__init__()
        self.lstm = lstm

    def construct(self, x):
        return self.lstm(x)[0][-1]
