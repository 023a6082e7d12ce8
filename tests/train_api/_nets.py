"""Helpers for the Model tests: a small deterministic MLP and synthetic regression data."""
import numpy as np

import sprout as ms
from sprout import nn
import sprout.dataset as ds

X = np.random.RandomState(0).randn(24, 4).astype(np.float32)
Y = np.stack([X.sum(1), X[:, 0] - X[:, 3]], 1).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self, seed=1):
        super().__init__()
        rng = np.random.RandomState(seed)
        def init(*shape):
            return ms.Tensor((rng.randn(*shape) * 0.4).astype(np.float32))

        self.fc1 = nn.Dense(4, 8, weight_init=init(8, 4), bias_init=init(8))
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 2, weight_init=init(2, 8), bias_init=init(2))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def make_data(batch=6, n=24, shuffle=False):
    return ds.NumpySlicesDataset({"x": X[:n], "y": Y[:n]}, shuffle=shuffle).batch(batch)


def make_model(seed=1, lr=0.05, metrics=None, **kwargs):
    net = MLP(seed)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    from sprout.train import Model
    return Model(net, nn.MSELoss(), opt, metrics=metrics, **kwargs), net, opt
