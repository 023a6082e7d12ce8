"""Module paths and signatures as MindSpore 2.10 has them: ``mindspore.nn.sparse`` is importable, and Tensor's
in-place methods show their real arguments to ``inspect.signature`` (MindSpore's, e.g. ``generator=``)."""
import importlib
import inspect

import numpy as np
import pytest

import sprout as ms
from sprout import nn

# inspect.signature(mindspore.Tensor.<name>) in MindSpore 2.10
MS_SIGNATURES = {
    "uniform_": "(self, from_=0, to=1, *, generator=None)",
    "normal_": "(self, mean=0, std=1, *, generator=None)",
    "random_": "(self, from_=0, to=None, *, generator=None)",
    "bernoulli_": "(self, p=0.5, *, generator=None)",
    "exponential_": "(self, lambd=1, *, generator=None)",
    "uniform": "(self, from_=0.0, to=1.0, generator=None)",
}


@pytest.mark.parametrize("name", sorted(MS_SIGNATURES))
def test_tensor_method_signatures_as_mindspore(name):
    assert str(inspect.signature(getattr(ms.Tensor, name))) == MS_SIGNATURES[name]


def test_in_place_random_methods_take_their_keywords():
    t = ms.Tensor(np.zeros(4, np.float32))
    g1, g2 = ms.Generator(), ms.Generator()
    g1.manual_seed(5)
    g2.manual_seed(5)
    a = t.uniform_(from_=2, to=3, generator=g1).asnumpy().copy()
    assert t.uniform_(2, 3, generator=g2).asnumpy().tolist() == a.tolist() and (a >= 2).all() and (a < 3).all()
    with pytest.raises(TypeError):
        t.normal_(0, 1, None)  # generator is keyword-only, as in MindSpore


def test_nn_sparse_is_a_module():
    mod = importlib.import_module("sprout.nn.sparse")
    assert mod is nn.sparse and mod.SparseToDense is nn.SparseToDense
    assert mod.SparseTensorDenseMatmul is nn.SparseTensorDenseMatmul
    assert importlib.import_module("sprout.nn.sparse.sparse").SparseToDense is nn.SparseToDense
    out = mod.SparseTensorDenseMatmul()(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4),
                                        ms.Tensor([[1.0, 1], [2, 2], [3, 3], [4, 4]]))
    assert out.asnumpy().tolist() == [[2.0, 2.0], [6.0, 6.0], [0.0, 0.0]]  # MindSpore's documented example
