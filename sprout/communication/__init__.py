"""MindSpore's ``mindspore.communication``: init/release, ranks, groups, and the simulated mesh for tests."""
from . import management  # noqa: F401
from .management import (GlobalComm, init, release, get_rank, get_group_size, get_local_rank,  # noqa: F401
                         get_local_rank_size, get_world_rank_from_group_rank, get_group_rank_from_world_rank,
                         create_group, destroy_group, get_comm_name, get_process_group_ranks,
                         HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
from .sim import simulate  # noqa: F401
from .state import CommError, CollectiveMismatchError, CollectiveTimeoutError  # noqa: F401

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "get_comm_name", "HCCL_WORLD_COMM_GROUP",
           "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "get_local_rank", "get_local_rank_size",
           "destroy_group", "get_process_group_ranks", "simulate", "CommError", "CollectiveMismatchError",
           "CollectiveTimeoutError"]
