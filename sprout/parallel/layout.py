"""MindSpore's ``Layout`` (device matrix + alias names -> tensor maps) and the device-mesh arithmetic a sharding
pass needs: a rank's coordinate, the ranks along one device axis (a communication group), a tensor's slice."""
from __future__ import annotations

import copy
import math

from ..communication import management

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """``Layout(device_matrix, alias_name, rank_list=None)``; calling it with one alias (or a tuple of aliases,
    or "None") per tensor dimension gives a layout with that tensor map. Tensor maps count device-matrix axes
    from the right, as MindSpore: ``Layout((2, 2, 2), ("dp", "sp", "mp"))("dp", "mp")`` has map ``(2, 0)``."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for d in device_matrix:
            if not isinstance(d, int) or isinstance(d, bool):
                raise TypeError(f"The element of device_matrix must be int type, but got:{type(d)}")
        for a in alias_name:
            if not isinstance(a, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(a)}")
            if not a:
                raise ValueError("The element of alias_name can not be empty.")
            if a == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel', it should be at "
                             "the last dim of alias_name, which means the virtual sharding.")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map = None
        count = math.prod(device_matrix)
        self._rank_list = list(range(count))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
            for r in rank_list:
                if not isinstance(r, int) or isinstance(r, bool):
                    raise TypeError(f"The element of rank_list should be int, but got {type(r).__name__}.")
            if len(rank_list) != count:
                raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                                 f"but got {len(rank_list)} and {count}.")
            self._rank_list = list(rank_list)

    def _axis(self, name: str, written: list) -> int:
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in written:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        written.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        written: list = []
        result = []
        for item in tensor_map:
            if isinstance(item, tuple):
                result.append(tuple(-1 if a == "None" else self._axis(a, written) for a in item))
            elif item == "None":
                result.append(-1)
            else:
                result.append(self._axis(item, written))
        out = copy.deepcopy(self)
        out._tensor_map = tuple(result)
        return out

    def to_dict(self) -> dict:
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}

    def __repr__(self) -> str:
        return (f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name}, "
                f"tensor_map={self._tensor_map})")

    @property
    def mesh(self) -> DeviceMesh:
        return DeviceMesh(self._device_shape, self._rank_list)

    def dim_axes(self, dim: int) -> tuple:
        """Device-matrix axes (indices from the left) that split tensor dimension ``dim``."""
        entry = self._tensor_map[dim]
        entries = entry if isinstance(entry, tuple) else (entry,)
        n = len(self._device_shape)
        return tuple(n - 1 - e for e in entries if e != -1)

    def local_shape(self, shape: tuple) -> tuple:
        """The shape of one rank's slice of a tensor of ``shape`` (each dim divided by its axes' sizes)."""
        if self._tensor_map is None or len(shape) != len(self._tensor_map):
            raise ValueError(f"Layout: tensor map {self._tensor_map} does not match a tensor of rank {len(shape)}")
        out = []
        for d, size in enumerate(shape):
            parts = math.prod(self._device_shape[a] for a in self.dim_axes(d))
            if size % parts:
                raise ValueError(f"Layout: dimension {d} of size {size} cannot be split into {parts} parts")
            out.append(size // parts)
        return tuple(out)

    def slices(self, shape: tuple, rank: int) -> tuple:
        """The index (a tuple of slices) of ``rank``'s block of a tensor of ``shape``."""
        local = self.local_shape(shape)
        coord = self.mesh.coordinate(rank)
        out = []
        for d, n in enumerate(local):
            index = 0
            for a in self.dim_axes(d):  # the first listed axis is the major one
                index = index * self._device_shape[a] + coord[a]
            out.append(slice(index * n, (index + 1) * n))
        return tuple(out)


class DeviceMesh:
    """Ranks arranged as an N-d device matrix in row-major order (the last axis varies fastest)."""

    def __init__(self, device_matrix: tuple, rank_list: list | None = None):
        self.shape = tuple(device_matrix)
        self.ranks = list(rank_list) if rank_list is not None else list(range(math.prod(self.shape)))
        if len(self.ranks) != math.prod(self.shape):
            raise ValueError(f"DeviceMesh: {len(self.ranks)} ranks for a device matrix {self.shape}")

    @property
    def size(self) -> int:
        return len(self.ranks)

    def coordinate(self, rank: int) -> tuple:
        if rank not in self.ranks:
            raise ValueError(f"DeviceMesh: rank {rank} is not in the mesh {self.ranks}")
        pos, coord = self.ranks.index(rank), []
        for n in reversed(self.shape):
            coord.append(pos % n)
            pos //= n
        return tuple(reversed(coord))

    def rank_at(self, coord: tuple) -> int:
        pos = 0
        for c, n in zip(coord, self.shape):
            pos = pos * n + c
        return self.ranks[pos]

    def axis_ranks(self, axes, rank: int) -> tuple:
        """The ranks that share ``rank``'s coordinate on every axis except ``axes`` (an int or a tuple): the
        group a collective over those device axes runs in, in group-rank order."""
        axes = (axes,) if isinstance(axes, int) else tuple(axes)
        base = list(self.coordinate(rank))
        out = []
        for flat in range(math.prod(self.shape[a] for a in axes)):
            coord = list(base)
            for a in reversed(axes):
                coord[a] = flat % self.shape[a]
                flat //= self.shape[a]
            out.append(self.rank_at(tuple(coord)))
        return tuple(out)

    def group(self, axes, rank: int | None = None) -> str:
        """The name of the communication group over ``axes`` containing ``rank`` (default: this rank), created
        on first use. Every rank of the mesh must call it for the same axes at the same point (each creates
        its own group; the members of a group create it together). Group ranks follow the sorted world ranks
        (MindSpore's rule), which is the mesh order along the axes unless ``rank_list`` permutes the ranks."""
        rank = management.get_rank() if rank is None else rank
        members = self.axis_ranks(axes, rank)
        if len(members) == management.get_group_size() and tuple(sorted(members)) == tuple(
                range(management.get_group_size())):
            return management.HCCL_WORLD_COMM_GROUP
        name = "mesh_" + "-".join(str(r) for r in sorted(members))
        if not _exists(name):
            management.create_group(name, sorted(members))
        return name


def _exists(name: str) -> bool:
    from ..communication.state import current

    return name in current().groups
