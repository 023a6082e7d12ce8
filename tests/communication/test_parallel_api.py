"""set_auto_parallel_context / set_algo_parameters / Layout / DeviceMesh checked as MindSpore checks them
(messages from MindSpore 2.10), and the device-mesh arithmetic a sharding pass uses."""
import numpy as np
import pytest

import sprout as ms
from sprout import context
from sprout.communication import get_rank, init, simulate
from sprout.parallel import DeviceMesh, Layout, ParallelMode
from sprout.parallel._utils import _get_device_num


def test_defaults_as_mindspore():
    get = ms.get_auto_parallel_context
    assert (get("device_num"), get("global_rank"), get("gradients_mean"), get("parallel_mode")) == \
        (1, 0, False, "stand_alone")
    assert (get("gradient_fp32_sync"), get("loss_repeated_mean"), get("dataset_strategy"), get("pipeline_stages")) == \
        (True, True, "data_parallel", 1)
    assert get("all_reduce_fusion_config") == [] and get("comm_fusion")["allreduce"] == {"mode": "auto", "config": None}
    assert ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel",
                                      "auto_parallel"]


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"device_num": 0}, ValueError, "'device_num' must be a positive integer"),
    ({"device_num": 2.0}, TypeError, "The parameter 'device_num' must be <class 'int'>, but got <class 'float'>"),
    ({"parallel_mode": "DATA_PARALLEL"}, ValueError, "only support 'stand_alone'"),
    ({"gradients_mean": 1}, TypeError, "'gradients_mean' must be <class 'bool'>"),
    ({"foo": 1}, ValueError, "Set context keyword foo is not recognized!"),
    ({"global_rank": 5000}, ValueError, r"must be in \[0, 4095\]"),
    ({"search_mode": "greedy"}, ValueError, "only support"),
    ({"all_reduce_fusion_config": [2, 2]}, ValueError, "duplicate"),
    ({"comm_fusion": {"allreduce": {"mode": "fast", "config": None}}}, KeyError, "fusion method mode"),
    ({"grad_accumulation_step": 4}, ValueError, "deprecated"),
])
def test_bad_settings(kwargs, exc, text):
    with pytest.raises(exc, match=text):
        ms.set_auto_parallel_context(**kwargs)


def test_unknown_key_reset_and_device_num():
    with pytest.raises(ValueError, match="Get context keyword nope is not recognized!"):
        ms.get_auto_parallel_context("nope")
    assert _get_device_num() == 1
    ms.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL)
    assert _get_device_num() == 1  # not set: the group size
    ms.set_auto_parallel_context(device_num=8)
    assert _get_device_num() == 8
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone" and _get_device_num() == 1
    assert simulate(lambda: (init(), context.set_auto_parallel_context(parallel_mode="data_parallel"),
                             _get_device_num())[2], 3) == [3, 3, 3]


def test_algo_parameters():
    assert ms.get_algo_parameters("tensor_slice_align_size") == 16
    ms.set_algo_parameters(fully_use_devices=True, tensor_slice_align_size=64)
    assert ms.get_algo_parameters("fully_use_devices") is True
    with pytest.raises(ValueError, match=r"Align_size must be in \[1, 1024\]"):
        ms.set_algo_parameters(tensor_slice_align_size=2048)
    with pytest.raises(TypeError):
        ms.set_algo_parameters(enable_algo_approxi=1)
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_algo_parameters(bogus=True)
    ms.reset_algo_parameters()
    assert ms.get_algo_parameters("fully_use_devices") is False


def test_layout_tensor_maps_and_checks():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    d = layout("dp", "mp").to_dict()
    assert d["tensor_map"] == (2, 0) and d["rank_list"] == list(range(8)) and d["interleaved_parallel"] is False
    assert layout(("dp", "sp"), "None").to_dict()["tensor_map"] == ((2, 1), -1)
    for args, exc, text in [(((2, 2), ("a",)), ValueError, "length should be equal"),
                            (([2], ("a",)), TypeError, "device_matrix must be tuple"),
                            (((2,), ("None",)), ValueError, "can not set 'None'"),
                            (((2, 2), ("a", "a")), ValueError, "should be different"),
                            (((2, 2), ("interleaved_parallel", "a")), ValueError, "last dim"),
                            (((2, 2), ("a", "b"), [0, 1]), ValueError, "length of rank_list")]:
        with pytest.raises(exc, match=text):
            Layout(*args)
    with pytest.raises(ValueError, match="is not found"):
        layout("dp", "xx")
    with pytest.raises(ValueError, match="has been set more than one"):
        layout("dp", "dp")
    with pytest.raises(ValueError, match="tensor_map of layout is None"):
        layout.to_dict()


def test_mesh_arithmetic():
    mesh = DeviceMesh((2, 4))
    assert mesh.coordinate(6) == (1, 2) and mesh.rank_at((1, 2)) == 6
    assert mesh.axis_ranks(1, 6) == (4, 5, 6, 7) and mesh.axis_ranks(0, 6) == (2, 6)
    assert mesh.axis_ranks((0, 1), 3) == tuple(range(8))
    lay = Layout((2, 4), ("dp", "mp"))("dp", "mp")
    assert lay.local_shape((8, 12)) == (4, 3)
    full = np.arange(96).reshape(8, 12)
    blocks = [full[lay.slices((8, 12), r)] for r in range(8)]
    assert blocks[6].tolist() == full[4:8, 6:9].tolist()
    assert sorted(int(b.sum()) for b in blocks) == sorted(int(full[i:i + 4, j:j + 3].sum())
                                                          for i in (0, 4) for j in (0, 3, 6, 9))
    with pytest.raises(ValueError, match="cannot be split"):
        Layout((4,), ("a",))("a").local_shape((6,))


def test_mesh_groups_on_the_simulated_mesh():
    def body():
        init()
        mesh = DeviceMesh((2, 2))
        row, col, all_ = mesh.group(1), mesh.group(0), mesh.group((0, 1))
        x = ms.Tensor(np.array([float(get_rank())]))
        return (ms.ops.AllReduce(group=row)(x).asnumpy()[0], ms.ops.AllReduce(group=col)(x).asnumpy()[0], all_)

    res = simulate(body, 4)
    assert [r[:2] for r in res] == [(1.0, 2.0), (1.0, 4.0), (5.0, 2.0), (5.0, 4.0)]
    assert {r[2] for r in res} == {"hccl_world_group"}
