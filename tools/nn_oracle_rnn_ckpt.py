"""Write tests/nn/fixtures/rnn_net.ckpt (a MindSpore 2.10 checkpoint of a small Embedding + LSTM + GRU + Dense
network) and rnn_net.npz (an input and MindSpore's output), so sprout's test loads the checkpoint into the same
network and must reproduce the output: /work/msvenv/bin/python tools/nn_oracle_rnn_ckpt.py"""
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

OUT = Path(__file__).resolve().parents[1] / "tests" / "nn" / "fixtures"


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 6)
        self.lstm = nn.LSTM(6, 5, num_layers=2, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(10, 4)
        self.cell = nn.LSTMCell(4, 3)
        self.fc = nn.Dense(3, 2)

    def construct(self, ids):
        x = self.embed(ids)                       # (B, T, 6)
        y, _ = self.lstm(x)                        # (B, T, 10)
        z, h = self.gru(ops.transpose(y, (1, 0, 2)))  # (T, B, 4), (1, B, 4)
        hc = (ops.zeros((z.shape[1], 3), ms.float32), ops.zeros((z.shape[1], 3), ms.float32))
        for t in range(z.shape[0]):
            hc = self.cell(z[t], hc)
        return self.fc(hc[0]) + h[0].sum()


if __name__ == "__main__":
    ms.set_seed(3)
    np.random.seed(3)
    net = Net()
    ids = np.random.default_rng(0).integers(0, 20, (3, 5)).astype(np.int32)
    out = net(Tensor(ids)).asnumpy()
    ms.save_checkpoint(net, str(OUT / "rnn_net.ckpt"))
    np.savez_compressed(OUT / "rnn_net.npz", ids=ids, out=out,
                        names=np.array([p.name for p in net.get_parameters()]))
    print([p.name for p in net.get_parameters()])
