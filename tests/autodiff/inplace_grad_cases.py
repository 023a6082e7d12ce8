"""Functions writing ``y[index] = value`` into a tensor being differentiated (runs under sprout and under
MindSpore: ``use(module)`` picks the framework). Shared by tests/autodiff/test_inplace_grads.py and
tools/ms_oracle_inplace_grads.py."""
import numpy as np

ms = None
Tensor = None


def use(module) -> None:
    global ms, Tensor
    ms, Tensor = module, module.Tensor


def int_index(x):
    y = x * 2
    y[0] = 5
    return (y * x).sum()


def slice_from_tensor(x):
    y = x * 2
    y[1:] = x[:2] * 3
    return (y * x).sum()


def through_a_view(x):
    y = x * 2
    v = y[0:2]
    v[0] = 9
    return (y * x).sum()


def bool_mask(x):
    y = x * x
    y[x > 1.5] = 0.5
    return (y * x).sum()


def tensor_index(x):
    y = x * 3
    y[Tensor(np.array([0, 2], np.int32))] = x[1] * x[1]
    return (y * x).sum()


def ellipsis_2d(x):
    z = x.reshape(1, 3) * x.reshape(3, 1)
    z[..., 1] = x * 4
    return (z * z).sum()


def broadcast_row(x):
    z = x.reshape(3, 1) * x.reshape(1, 3)
    z[0] = x[2]
    return (z * x).sum()


def written_twice(x):
    y = x + 1
    y[0] = x[1] * 2
    y[2] = y[0] * y[1]
    return (y * y).sum()


def view_of_a_row(x):
    z = x.reshape(3, 1) * x.reshape(1, 3)
    r = z[1]
    r[1:] = x[:2] * x[2]
    return (z * z).sum() + r.sum()


CASES = {f.__name__: f for f in (int_index, slice_from_tensor, through_a_view, bool_mask, tensor_index,
                                   ellipsis_2d, broadcast_row, written_twice, view_of_a_row)}
X = [1.0, 2.0, 3.0]
