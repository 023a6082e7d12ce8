"""Options that used to be accepted and ignored (found by tools/unused_params.py): each is honoured or refused."""
import numpy as np
import pytest

import sprout as ms
from sprout import mint, nn, ops
from sprout.communication import simulate

A = np.array([[2.0, 1.0, 0.0], [5.0, 3.0, 1.0], [0.0, 7.0, 4.0]], np.float32)


def test_pinv_hermitian_reads_the_lower_triangle():
    # MindSpore 2.10: ops.pinv(A, hermitian=True) and its gradient of sum()
    want = [[0.21264365, 0.11494251, -0.20114939], [0.11494251, -0.04597702, 0.08045978],
            [-0.2011494, 0.08045977, 0.1091954]]
    want_grad = [[-0.01598626, 0.0, 0.0], [-0.0377857, -0.02232791, 0.0], [0.00290658, 0.00343505, -0.00013212]]
    np.testing.assert_allclose(ops.pinv(ms.Tensor(A), hermitian=True).asnumpy(), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.pinv(ms.Tensor(A)).asnumpy(), np.linalg.pinv(A), rtol=1e-5, atol=1e-6)
    grad = ops.grad(lambda t: ops.pinv(t, hermitian=True).sum())(ms.Tensor(A))
    np.testing.assert_allclose(grad.asnumpy(), want_grad, rtol=1e-4, atol=1e-6)


def test_astype_copy():
    x = ms.Tensor(np.ones(3, np.float32))
    assert x.astype(ms.float32, copy=False) is x  # MindSpore 2.10: True
    y = x.astype(ms.float32)
    y[0] = 5.0
    # the documented meaning of copy=True (a tensor of its own); MindSpore 2.10 returns a new object that
    # shares x's memory (x becomes [5, 1, 1]), which its docs do not promise
    assert y is not x and x.asnumpy().tolist() == [1.0, 1.0, 1.0]
    assert x.astype(ms.float16, copy=False).dtype == ms.float16


def test_batchnorm_primitive_refuses_nhwc():
    with pytest.raises(ValueError, match="BatchNorm: only data_format='NCHW'"):
        ops.BatchNorm(data_format="NHWC")


def test_model_predict_refuses_lite_config():
    model = ms.Model(nn.Dense(2, 2))
    x = ms.Tensor(np.ones((1, 2), np.float32))
    assert model.predict(x).shape == (1, 2)
    with pytest.raises(NotImplementedError, match="Model.predict: config"):
        model.predict(x, config={"ascend_context": {"precision_mode": "allow_fp32_to_fp16"}})


def test_init_process_group_checks_world_size_against_group_name():
    def body():
        mint.distributed.init_process_group(group_name="hccl_world_group", world_size=2)
        with pytest.raises(ValueError, match="world_size=3 but the group has 2 ranks"):
            mint.distributed.init_process_group(world_size=3)
        with pytest.raises(TypeError, match="group_name must be a str"):
            mint.distributed.init_process_group(group_name=1)
        return True

    assert simulate(body, 2) == [True, True]


def test_unknown_keyword_arguments_are_refused(tmp_path):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x.select(0, 1).asnumpy().tolist() == [3.0, 4.0, 5.0]
    with pytest.raises(TypeError, match=r"Tensor.select got unexpected keyword arguments \['axis'\]"):
        x.select(0, 1, axis=1)
    with pytest.raises(TypeError, match=r"CellDict got unexpected keyword arguments \['prefix'\]"):
        nn.CellDict({"a": nn.ReLU()}, prefix="x")
    assert nn.CellDict({"a": nn.ReLU()}, auto_prefix=False)["a"] is not None
    params = nn.Dense(2, 2).trainable_params()
    with pytest.raises(KeyError, match="For 'Adam', invalid keys are passed as kwargs"):  # MindSpore 2.10's error
        nn.Adam(params, use_lazzy=True)
    nn.Adam(params, use_offload=True)  # host memory: the update sprout does anyway
    with pytest.raises(TypeError, match=r"CheckpointConfig got unexpected keyword arguments \['incremantal'\]"):
        ms.train.CheckpointConfig(incremantal=True)
    net = nn.Dense(2, 2)
    with pytest.raises(TypeError, match=r"save_checkpoint got unexpected keyword arguments \['crc'\]"):
        ms.save_checkpoint(net, str(tmp_path / "a.ckpt"), crc=True)
    with pytest.raises(NotImplementedError, match="global_step_num"):
        ms.save_checkpoint(net, str(tmp_path / "a.ckpt"), global_step_num=3)
    ms.save_checkpoint(net, str(tmp_path / "a.ckpt"), incremental=False)
    assert sorted(ms.load_checkpoint(str(tmp_path / "a.ckpt"))) == ["bias", "weight"]
