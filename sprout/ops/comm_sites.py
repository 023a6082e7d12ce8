"""Compile-time sites of a graph's collectives (``communication.collective.Site``): which in-place AllReduces of
a compiled graph may skip the per-call cross-rank signature check."""
from __future__ import annotations

import weakref
import zlib

from ..communication.collective import Site
from ..communication.state import HCCL_WORLD_COMM_GROUP

_SITED = frozenset({"AllReduce"})  # ops whose generated in-place call passes its site (one collective per call)
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _has_collective(graph) -> bool:
    return any(n.op.kind == "collective" or any(_has_collective(g) for _, g in n.subgraphs()) for n in graph.nodes)


def _key(node) -> str:
    types = [(str(v.type.dtype), tuple(v.type.shape)) if hasattr(v, "type") else repr(v) for v in node.inputs]
    return repr((node.op.name, types, sorted((k, repr(v)) for k, v in node.attrs.items())))


def graph_sites(emitter) -> dict:
    """id(node) -> Site for the AllReduce nodes of the emitter's graph (one set of sites per generated function, so
    that ``prev`` is the very object its predecessor's call passes) when every collective of the graph is a
    top-level node (none inside control flow or a called sub-graph, so all of them run on every call, in this
    order) with static shapes; otherwise no sites (every call is checked)."""
    got = _CACHE.get(emitter)
    if got is not None:
        return got
    graph = emitter.graph
    sites: dict = {}
    colls = [n for n in graph.nodes if n.op.kind == "collective"]
    nested = any(_has_collective(g) for n in graph.nodes for _, g in n.subgraphs())
    static = all(None not in tuple(getattr(getattr(v, "type", None), "shape", ()) or ()) for n in colls
                 for v in n.inputs)
    if colls and not nested and static:
        on_group: dict = {}  # group -> its collectives in order (the ranks of a group agree on these only:
        for n in colls:      # SPMD ranks run different graphs with different collectives on other groups)
            on_group.setdefault(n.attrs.get("group", HCCL_WORLD_COMM_GROUP), []).append(n)
        for nodes in on_group.values():
            digest = zlib.crc32("\n".join(_key(n) for n in nodes).encode()) & 0x7FFFFFFF
            prev = None
            for pos, n in enumerate(nodes):
                # a collective without a site leaves the next site on the group with no predecessor: it checks
                prev = Site(digest, pos, prev) if n.op.name in _SITED else None
                if prev is not None:
                    sites[id(n)] = prev
    _CACHE[emitter] = sites
    return sites
