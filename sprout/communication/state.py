"""Per-process (or per simulated rank) communication state: the world, the named groups, sequence numbers."""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from ..core.op import KernelError

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
BACKEND_NAMES = ("hccl", "nccl", "mccl")


class CommError(RuntimeError, KernelError):
    """A communication failure: used before ``init()``, an unknown group, a rank outside a group ..."""


class CollectiveMismatchError(CommError):
    """The ranks of a group called different collectives, or the same one with different shapes/dtypes."""


class CollectiveTimeoutError(CommError):
    """A rank did not reach a collective (deadlock, hang, early exit) within the collective timeout."""


@dataclass
class Group:
    """A named communication group: its members (world ranks, sorted: MindSpore's group-rank order) and this
    rank's backend for it (None when this rank is not a member)."""

    name: str
    ranks: tuple
    backend: Any = None
    seq: int = 0  # collectives issued on this group by this rank (the same on every member when SPMD)
    last_site: Any = None  # the compiled-graph site (collective.Site) of the last collective, None if eager
    plan_ok: bool = False  # the last check found every member at the same place of the same compiled collectives

    @property
    def size(self) -> int:
        return len(self.ranks)


@dataclass
class CommState:
    """What ``init()`` sets up. One per process; under the simulated mesh, one per simulated rank."""

    inited: bool = False
    backend_name: str = "hccl"             # MindSpore's GlobalComm.BACKEND before init
    world_name: str = HCCL_WORLD_COMM_GROUP  # MindSpore's GlobalComm.WORLD_COMM_GROUP before init
    kind: str = ""                          # "single" | "mpi" | "sim" once inited
    groups: dict = field(default_factory=dict)
    rank: int = 0                           # world rank
    size: int = 1
    local_rank: int = 0
    local_size: int = 1
    env: dict | None = None                 # launcher variables seen by a simulated rank (None: os.environ)
    extra: dict = field(default_factory=dict)  # backend-private (mpi: watchdog, comm; sim: world)

    def getenv(self, name: str, default: str | None = None) -> str | None:
        source = self.env if self.env is not None else os.environ
        return source.get(name, default)

    def resolve(self, group: str) -> str:
        """The registry name of ``group``: every world alias means the world."""
        if not isinstance(group, str):
            raise TypeError(f"The communication group must be a str, but got {type(group).__name__}.")
        return MCCL_WORLD_COMM_GROUP if group in WORLD_NAMES else group

    def group(self, group: str, what: str) -> Group:
        """The Group named ``group``, checked for use by ``what`` (a collective or API name)."""
        if not self.inited:
            raise CommError(f"{what}: distributed communication is not initialized; call "
                            "sprout.communication.init() first (a world of one without a launcher)")
        g = self.groups.get(self.resolve(group))
        if g is None:
            raise CommError(f"{what}: the communication group {group!r} does not exist (create it with create_group; "
                            f"known groups: {sorted(self.groups)})")
        return g

    def member(self, group: str, what: str) -> Group:
        g = self.group(group, what)
        if g.backend is None:
            raise CommError(f"{what}: rank {self.rank} is not a member of group {g.name!r} (ranks {list(g.ranks)})")
        return g


_process = CommState()
_local = threading.local()


def current() -> CommState:
    """The calling rank's state: a simulated rank's (set on its thread) or the process's."""
    return getattr(_local, "state", None) or _process


def set_thread_state(state: CommState | None) -> None:
    """Bind ``state`` to the calling thread (the simulated mesh runs one rank per thread)."""
    _local.state = state


def reset_process_state() -> None:
    """Forget the process's communication state (``release()`` and tests)."""
    global _process
    _process = CommState()


def replace_process_state(state: CommState) -> None:
    global _process
    _process = state
