"""MindSpore's ``mindspore.communication.management``: init/release, ranks and sizes, groups, GlobalComm."""
from __future__ import annotations

import logging
import os

from . import collective
from .backend import SingleBackend
from .state import (BACKEND_NAMES, HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                    WORLD_NAMES, CommError, Group, current)

logger = logging.getLogger("sprout.communication")

__all__ = ["init", "release", "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "get_comm_name", "get_process_group_ranks", "GlobalComm", "HCCL_WORLD_COMM_GROUP",
           "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]


class _GlobalCommMeta(type):
    """``GlobalComm.BACKEND`` / ``WORLD_COMM_GROUP`` / ``INITED`` read the calling rank's state."""

    @property
    def BACKEND(cls) -> str:  # noqa: N802 - MindSpore's names
        return current().backend_name

    @property
    def WORLD_COMM_GROUP(cls) -> str:  # noqa: N802
        return current().world_name

    @property
    def INITED(cls) -> bool:  # noqa: N802
        return current().inited


class GlobalComm(metaclass=_GlobalCommMeta):
    """World communication information: ``BACKEND`` ("hccl" before init, "mccl" after, as MindSpore on CPU),
    ``WORLD_COMM_GROUP`` ("hccl_world_group" before init, "mccl_world_group" after) and ``INITED``."""

    CHECK_ENVS = True


def _check_group(api: str, group) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, "
                        f"but got 'group' type : {type(group)}.")
    return group


def init(backend_name=None) -> None:
    """Join the job this process was started in: by ``python -m sprout.msrun`` / ``sprout-msrun``, by
    ``mpiexec``/``mpirun`` (MPICH or Open MPI variables) or by ``srun``, the world is the MPI job; in a rank of
    ``sprout.communication.simulate`` it is the simulated mesh. Without a launcher the world is this one process
    (MindSpore raises there; a world of one runs single-device scripts that call ``init()`` unchanged).
    ``backend_name`` may be None or "mccl" (MindSpore's CPU backend); "hccl"/"nccl" need Ascend/GPU."""
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, "
                        f"but got the type : {type(backend_name)}")
    if backend_name is not None and backend_name not in BACKEND_NAMES:
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           f"but got 'backend_name' : {backend_name}")
    if backend_name in ("hccl", "nccl"):
        raise RuntimeError(f"For 'init', the argument 'backend_name' should be 'mccl' to init 'CPU', "
                           f"but got '{backend_name}'.")
    st = current()
    if st.inited:
        return
    sim = st.extra.get("sim")
    released = st.extra.pop("released_world", None)
    if released is not None:  # init() after release(): the engine is still up
        st.groups[MCCL_WORLD_COMM_GROUP] = released
    elif sim is not None:
        from .sim import SimBackend
        world = SimBackend(sim, MCCL_WORLD_COMM_GROUP, tuple(range(sim.size)), st.rank)
        st.groups[MCCL_WORLD_COMM_GROUP] = Group(MCCL_WORLD_COMM_GROUP, world.world_ranks, world)
        st.local_rank, st.local_size = st.rank, st.size
        st.kind = "sim"
    else:
        from .mpi import detect_launch, init_mpi
        launch = detect_launch(os.environ)
        if launch is None or launch["size"] == 1:
            st.groups[MCCL_WORLD_COMM_GROUP] = Group(MCCL_WORLD_COMM_GROUP, (0,), SingleBackend())
            st.rank, st.size, st.local_rank, st.local_size = 0, 1, 0, 1
            st.kind = "single"
            if launch is None:
                logger.info("sprout.communication.init: no launcher found: a world of one process")
        else:
            init_mpi(st, launch)
            os.environ.setdefault("RANK_ID", str(st.rank))
            os.environ.setdefault("RANK_SIZE", str(st.size))
    st.backend_name = "mccl"
    st.world_name = MCCL_WORLD_COMM_GROUP
    st.inited = True


def release() -> None:
    """Release the communication groups (MindSpore's finalize). ``init()`` may be called again; an MPI
    engine stays up until the process exits."""
    st = current()
    for g in list(st.groups.values()):
        if g.name != MCCL_WORLD_COMM_GROUP and hasattr(g.backend, "free"):
            g.backend.free()
    world = st.groups.get(MCCL_WORLD_COMM_GROUP)
    st.groups = {MCCL_WORLD_COMM_GROUP: world} if world is not None else {}
    st.inited = False
    st.backend_name, st.world_name = "hccl", HCCL_WORLD_COMM_GROUP
    if world is not None:
        st.extra["released_world"] = world


def _env_int(name: str, default: int) -> int:
    value = current().getenv(name)
    return int(value) if value not in (None, "") else default


def get_rank(group=HCCL_WORLD_COMM_GROUP) -> int:
    """This rank's id in ``group``. Before ``init()``: the launcher's RANK_ID, else 0 (as MindSpore)."""
    _check_group("get_rank", group)
    st = current()
    if not st.inited:
        return _env_int("RANK_ID", 0)
    return st.member(group, "get_rank").backend.rank


def get_group_size(group=HCCL_WORLD_COMM_GROUP) -> int:
    """The number of ranks in ``group``. Before ``init()``: the launcher's RANK_SIZE, else 1 (as MindSpore)."""
    _check_group("get_group_size", group)
    st = current()
    if not st.inited:
        return _env_int("RANK_SIZE", 1)
    return st.group(group, "get_group_size").size


def get_local_rank(group=HCCL_WORLD_COMM_GROUP) -> int:
    """This rank's id among the group's ranks on this host. Before ``init()``: LOCAL_RANK, else 0."""
    _check_group("get_local_rank", group)
    st = current()
    if not st.inited:
        return _env_int("LOCAL_RANK", 0)
    return st.member(group, "get_local_rank").backend.local_rank_size()[0]


def get_local_rank_size(group=HCCL_WORLD_COMM_GROUP) -> int:
    """The number of the group's ranks on this host. Before ``init()``: LOCAL_RANK_SIZE, else 1."""
    _check_group("get_local_rank_size", group)
    st = current()
    if not st.inited:
        return _env_int("LOCAL_RANK_SIZE", 1)
    return st.member(group, "get_local_rank_size").backend.local_rank_size()[1]


def _int_arg(api: str, name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument '{name}' must be type of int, "
                        f"but got '{name}' type : {type(value)}.")
    return value


def get_world_rank_from_group_rank(group, group_rank_id) -> int:
    """The world rank of rank ``group_rank_id`` of ``group``."""
    _check_group("get_world_rank_from_group_rank", group)
    _int_arg("get_world_rank_from_group_rank", "group_rank_id", group_rank_id)
    g = current().group(group, "get_world_rank_from_group_rank")
    if not 0 <= group_rank_id < g.size:
        raise ValueError(f"For 'get_world_rank_from_group_rank', 'group_rank_id' {group_rank_id} is out of range "
                         f"for group {g.name!r} of size {g.size}.")
    return g.ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``."""
    _check_group("get_group_rank_from_world_rank", group)
    _int_arg("get_group_rank_from_world_rank", "world_rank_id", world_rank_id)
    g = current().group(group, "get_group_rank_from_world_rank")
    if world_rank_id not in g.ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', world rank {world_rank_id} is not in group "
                         f"{g.name!r} (ranks {list(g.ranks)}).")
    return g.ranks.index(world_rank_id)


def create_group(group, rank_ids, options=None) -> None:
    """Create the group ``group`` of world ranks ``rank_ids`` (group ranks follow the sorted world ranks, as
    MindSpore). Collective over the members: every member calls it; a non-member's call only records the
    group. ``options`` (MindSpore's GroupOptions: HCCL settings) has no meaning on CPU and must be None."""
    _check_group("create_group", group)
    st = current()
    if not st.inited:
        raise CommError("create_group: distributed communication is not initialized; call init() first")
    if not isinstance(rank_ids, list):
        raise TypeError("For 'create_group', the argument 'rank_ids' must be type of list, "
                        f"but got 'rank_ids' type : {type(rank_ids)}.")
    if options is not None:
        raise ValueError("create_group: 'options' (GroupOptions with HCCL settings) is not supported on CPU; pass None")
    if len(rank_ids) < 1:
        raise ValueError("For 'create_group', the argument 'rank_ids' size should be greater than 1, "
                         f"but got 'rank_ids' size : {len(rank_ids)}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"List rank_ids in Group {group} has duplicate data!")
    for r in rank_ids:
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < st.size:
            raise ValueError(f"create_group: rank id {r!r} is not a rank of the world (0..{st.size - 1})")
    if group in WORLD_NAMES:
        raise ValueError(f"create_group: {group!r} is the world group's name")
    existing = st.groups.get(group)
    if existing is not None:
        if tuple(sorted(rank_ids)) != existing.ranks:
            raise ValueError(f"The group {group} has been created, the rank_list is {list(existing.ranks)}, "
                             f"but current rank_list for the group is {rank_ids}")
        logger.warning("%r group has existed.", group)
        return
    ranks = tuple(sorted(rank_ids))
    world = st.groups[MCCL_WORLD_COMM_GROUP].backend
    backend = world.subgroup(group, ranks) if st.rank in ranks else None
    st.groups[group] = Group(group, ranks, backend)


def destroy_group(group) -> None:
    """Destroy a group made by ``create_group`` (the world group cannot be destroyed)."""
    _check_group("destroy_group", group)
    st = current()
    g = st.group(group, "destroy_group")
    if g.name == MCCL_WORLD_COMM_GROUP:
        raise ValueError("The world_group does not support destruction.")
    if hasattr(g.backend, "free"):
        g.backend.free()
    del st.groups[g.name]


def get_comm_name(group=HCCL_WORLD_COMM_GROUP) -> str:
    """The engine's name of the group's communicator (``mpi:<name>``, ``sim:<name>`` or ``single:<name>``)."""
    _check_group("get_comm_name", group)
    g = current().member(group, "get_comm_name")
    return g.backend.comm_name(g.name)


def get_process_group_ranks(group=HCCL_WORLD_COMM_GROUP) -> list:
    """The world ranks of ``group``, in group-rank order."""
    _check_group("get_process_group_ranks", group)
    return list(current().group(group, "get_process_group_ranks").ranks)


def group_size_for(group: str, what: str) -> int:
    """Size of ``group`` for a collective's shape rule (raises the not-initialized error)."""
    return collective.group_size(group, what)
