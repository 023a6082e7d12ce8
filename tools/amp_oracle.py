"""Run in MindSpore's venv: mixed-precision outputs of a small conv net and loss-scale sequences -> fixtures.

    /work/msvenv/bin/python tools/amp_oracle.py tests/amp/fixtures/amp_mindspore.npz
"""
import sys

import numpy as np

try:
    import mindspore as ms
    from mindspore import Tensor, amp, nn, ops
except ImportError:  # sprout's own run of the same script: tools/amp_oracle.py --sprout
    import sprout as ms
    from sprout import Tensor, amp, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 5)
        self.matmul = ops.MatMul()
        self.w = ms.Parameter(Tensor(np.linspace(-1, 1, 25, dtype=np.float32).reshape(5, 5)), name="w")

    def construct(self, x):
        h = self.flat(self.relu(self.bn(self.conv(x))))
        y = self.fc(h)
        return self.matmul(y, self.w) + 0.5


def make_net():
    net = Net()
    rng = np.random.default_rng(7)
    for p in net.trainable_params():
        p.set_data(Tensor(rng.standard_normal(p.shape).astype(np.float32) * 0.3))
    return net


def main(out):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x = Tensor(np.random.default_rng(3).standard_normal((2, 3, 6, 6)).astype(np.float32) * 2)
    res = {"x": x.asnumpy()}
    for level in ("O0", "O1", "O2", "O3"):
        for train in (False, True):
            net = amp.auto_mixed_precision(make_net(), level)
            net.set_train(train)
            y = net(x)
            res[f"{level}_{'train' if train else 'eval'}"] = y.asnumpy()
            res[f"{level}_dtype"] = np.array(str(y.dtype))
    # training: O2 with a fixed loss scale that the optimizer divides out, 3 Momentum steps
    for level, kwargs in (("O2", {"loss_scale_manager": amp.FixedLossScaleManager(1024.0, False)}),
                          ("O3", {}), ("O0", {})):
        net = make_net()
        opt = nn.Momentum(net.trainable_params(), 0.05, 0.9, loss_scale=1024.0 if level == "O2" else 1.0)
        step = amp.build_train_network(net, opt, nn.MSELoss(), level=level, **kwargs)
        target = Tensor(np.linspace(0, 1, 10, dtype=np.float32).reshape(2, 5))
        losses = [float(step(x, target).asnumpy()) for _ in range(3)]
        res[f"train_{level}_losses"] = np.array(losses, np.float32)
        res[f"train_{level}_fc_weight"] = net.fc.weight.asnumpy()
    # loss-scale adjustment sequences
    pattern = [False, False, True, False, False, False, True, True, False, False, False, False, False]
    res["pattern"] = np.array(pattern)
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 4, scale_factor=2, scale_window=3)
    scale = ms.Parameter(Tensor(16.0, ms.float32), name="s")
    seq = []
    for ov in pattern:
        upd(scale, Tensor(ov))
        seq.append(float(scale.asnumpy()))
    res["update_cell_scales"] = np.array(seq, np.float32)
    scaler = amp.DynamicLossScaler(scale_value=16, scale_factor=2, scale_window=3)
    seq = []
    for ov in pattern:
        scaler.adjust(Tensor(not ov))
        seq.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    res["scaler_states"] = np.array(seq, np.float32)
    manager = amp.DynamicLossScaleManager(16, 2, 3)
    seq = []
    for ov in pattern:
        manager.update_loss_scale(ov)
        seq.append(manager.get_loss_scale())
    res["manager_scales"] = np.array(seq, np.float32)
    np.savez(out, **res)
    for k, v in res.items():
        print(k, v if v.size < 16 else v.ravel()[:6])


if __name__ == "__main__":
    main(sys.argv[1])
