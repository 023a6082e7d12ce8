"""mindspore.communication: state before and after init, a world of one, groups, launcher detection."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.communication import (GlobalComm, CommError, create_group, destroy_group, get_comm_name,
                                  get_group_rank_from_world_rank, get_group_size, get_local_rank, get_local_rank_size,
                                  get_process_group_ranks, get_rank, get_world_rank_from_group_rank, init, release,
                                  simulate)
from sprout.communication.mpi import detect_launch
from sprout.communication.state import CommState, set_thread_state


def test_before_init_as_mindspore(fresh_comm):
    assert (GlobalComm.BACKEND, GlobalComm.WORLD_COMM_GROUP, GlobalComm.INITED) == ("hccl", "hccl_world_group", False)
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    with pytest.raises(TypeError, match="'group' must be type of string"):
        get_rank(3)


def test_before_init_reads_the_launcher_variables():
    set_thread_state(CommState(env={"RANK_ID": "3", "RANK_SIZE": "4", "LOCAL_RANK": "1", "LOCAL_RANK_SIZE": "2"}))
    try:
        assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (3, 4, 1, 2)
    finally:
        set_thread_state(None)


def test_a_collective_before_init_is_a_clear_error(fresh_comm):
    x = ms.Tensor(np.ones(3, np.float32))
    with pytest.raises(CommError, match="not initialized; call sprout.communication.init"):
        ops.AllReduce()(x)
    with pytest.raises(CommError, match="not initialized"):
        ms.jit(lambda t: ops.AllGather()(t))(x)
    with pytest.raises(CommError, match="not initialized"):
        create_group("g", [0])


def test_init_without_launcher_is_a_world_of_one(fresh_comm):
    init()
    assert (GlobalComm.BACKEND, GlobalComm.WORLD_COMM_GROUP, GlobalComm.INITED) == ("mccl", "mccl_world_group", True)
    assert (get_rank(), get_group_size(), get_process_group_ranks()) == (0, 1, [0])
    assert get_comm_name() == "single:mccl_world_group"
    x = ms.Tensor(np.arange(4.0))
    for op in ("sum", "max", "min", "prod", "avg"):
        np.testing.assert_array_equal(ops.AllReduce(op)(x).asnumpy(), np.arange(4.0))
    release()
    assert not GlobalComm.INITED
    init()  # again after release
    assert GlobalComm.INITED


def test_init_arguments(fresh_comm):
    with pytest.raises(TypeError, match="'backend_name' must be a string"):
        init(3)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl'"):
        init("gloo")
    with pytest.raises(RuntimeError, match="should be 'mccl' to init 'CPU'"):
        init("hccl")
    init("mccl")
    assert GlobalComm.INITED


def test_world_aliases_and_groups_on_a_mesh():
    def body():
        init()
        r = get_rank()
        out = {"world": [get_rank(g) for g in ("hccl_world_group", "nccl_world_group", "mccl_world_group")]}
        if r in (1, 3):
            create_group("odd", [3, 1])  # group ranks follow the sorted world ranks
            out["odd"] = (get_rank("odd"), get_group_size("odd"), get_process_group_ranks("odd"),
                          get_world_rank_from_group_rank("odd", 1), get_group_rank_from_world_rank(3, "odd"))
            out["sum"] = ops.AllReduce(group="odd")(ms.Tensor(np.array([float(r)]))).asnumpy()
            destroy_group("odd")
            with pytest.raises(CommError, match="does not exist"):
                get_group_size("odd")
        else:
            with pytest.raises(CommError, match="does not exist"):
                get_rank("odd")
        out["local"] = (get_local_rank(), get_local_rank_size())
        out["name"] = get_comm_name()
        return out

    res = simulate(body, 4)
    assert [o["world"] for o in res] == [[r, r, r] for r in range(4)]
    assert res[1]["odd"] == (0, 2, [1, 3], 3, 1) and res[3]["odd"] == (1, 2, [1, 3], 3, 1)
    assert res[1]["sum"][0] == res[3]["sum"][0] == 4.0
    assert [o["local"] for o in res] == [(r, 4) for r in range(4)]
    assert res[0]["name"] == "sim:mccl_world_group"


def test_create_group_checks():
    def body():
        init()
        with pytest.raises(TypeError, match="'rank_ids' must be type of list"):
            create_group("g", (0, 1))
        with pytest.raises(ValueError, match="duplicate"):
            create_group("g", [0, 0])
        with pytest.raises(ValueError, match="not a rank of the world"):
            create_group("g", [0, 5])
        with pytest.raises(ValueError, match="not supported on CPU"):
            create_group("g", [0, 1], options=object())
        with pytest.raises(ValueError, match="world group's name"):
            create_group("hccl_world_group", [0, 1])
        with pytest.raises(ValueError, match="world_group does not support destruction"):
            destroy_group("hccl_world_group")
        create_group("g", [0, 1])
        create_group("g", [1, 0])  # the same group again: a warning, as MindSpore
        with pytest.raises(ValueError, match="has been created"):
            create_group("g", [0])
        with pytest.raises(ValueError, match="is not in group"):
            get_group_rank_from_world_rank(5, "g")
        return True

    assert simulate(body, 2) == [True, True]


@pytest.mark.parametrize("env,expected", [
    ({}, None),
    ({"RANK_SIZE": "1"}, None),
    ({"PMI_RANK": "1", "PMI_SIZE": "2"}, {"kind": "mpiexec", "rank": 1, "size": 2}),
    ({"PMI_RANK": "0", "PMI_SIZE": "2", "MS_WORKER_NUM": "2", "RANK_ID": "0"},
     {"kind": "sprout-msrun", "rank": 0, "size": 2}),
    ({"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"}, {"kind": "openmpi", "rank": 2, "size": 4}),
    ({"SLURM_PROCID": "0", "SLURM_NTASKS": "8"}, {"kind": "srun", "rank": 0, "size": 8}),
])
def test_launcher_detection(env, expected):
    assert detect_launch(env) == expected


def test_launchers_sprout_cannot_join():
    with pytest.raises(RuntimeError, match="MindSpore's msrun"):
        detect_launch({"MS_SCHED_HOST": "127.0.0.1", "MS_ROLE": "MS_WORKER", "RANK_SIZE": "2"})
    with pytest.raises(RuntimeError, match="no launcher started this process"):
        detect_launch({"RANK_SIZE": "2", "RANK_ID": "0"})
