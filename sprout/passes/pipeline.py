"""The optimisation pipeline: an ordered list of pure Graph -> Graph passes."""
from __future__ import annotations

import time
from collections.abc import Callable

from ..ir.graph import Graph, Node
from ..ir.verify import IRError, verify
from .basic import cse, dce, fold_constants, inline, prune_inputs
from .fuse import fuse_elementwise
from .simplify import simplify


def _into_subgraphs(fn: Callable[[Graph], Graph]) -> Callable[[Graph], Graph]:
    """Apply ``fn`` to a graph and to every control-flow body inside it (bodies keep their inputs)."""

    def run(graph: Graph) -> Graph:
        nodes = []
        changed = False
        for node in graph.nodes:
            subs = node.subgraphs()
            if subs:
                attrs = dict(node.attrs)
                for k, sub in subs:
                    new = run(sub)
                    if new is not sub:
                        attrs[k] = new
                        changed = True
                node = Node(node.op, node.inputs, attrs, node.outputs, node.loc) if attrs != node.attrs else node
            nodes.append(node)
        if changed:
            graph = graph.replace(nodes=nodes)
        return fn(graph)

    run.__name__ = fn.__name__
    return run


# (name, pass): run in order; DCE after simplification removes what the rewrites orphaned.
PIPELINE: list[tuple[str, Callable[[Graph], Graph]]] = [
    ("inline", inline),
    # first drop what nothing reads: a traced graph can be mostly dead (values a program computes and never uses,
    # unrolled loops whose results are overwritten: fuzz seed 2475 traces 108k nodes, 2.4k live), and every later
    # pass (and the verifier after it) would walk all of it
    ("dce_traced", _into_subgraphs(dce)),
    ("fold_constants", _into_subgraphs(fold_constants)),
    ("simplify", _into_subgraphs(simplify)),
    ("cse", _into_subgraphs(cse)),
    ("dce", _into_subgraphs(dce)),
    ("prune", prune_inputs),
]


# O1 adds elementwise fusion (kernel strategy per group; see docs/fusion.md). Memory planning (out= reuse of
# dead buffers) is done by the code generator for every level.
FUSION: list[tuple[str, Callable[[Graph], Graph]]] = [("fuse", fuse_elementwise)]
LEVELS: dict[str, Callable[[], list]] = {
    "O0": lambda: PIPELINE,
    "O1": lambda: PIPELINE + FUSION,
    "O2": lambda: PIPELINE + FUSION,
}

# seconds per stage: of the last run_pipeline call, and summed over the process
LAST_TIMINGS: dict[str, float] = {}
STAGE_SECONDS: dict[str, float] = {}


def default_level() -> str:
    """The level used when the caller gives none: ``set_context(jit_level=...)``, else jit_config's, else O1."""
    from .. import context

    cfg = context.get_context("jit_config") or {}
    level = context.get_context("jit_level") or (cfg.get("jit_level") if isinstance(cfg, dict) else "") or "O1"
    return level


def passes_for(level: str | None = None) -> list:
    level = level or default_level()
    if level not in LEVELS:
        raise ValueError(f"jit_level must be one of {sorted(LEVELS)}, got {level!r}")
    return LEVELS[level]()


def run_pipeline(graph: Graph, *, check: bool | None = None,
                 on_stage: Callable[[str, Graph], None] | None = None, passes=None,
                 level: str | None = None) -> Graph:
    """Run every pass of ``level`` (default: ``default_level()``) or the explicit ``passes`` list;
    ``check`` (default: ``get_context("verify_ir")``) verifies the input and the result of each pass;
    ``on_stage(name, graph)`` sees each change. Stage times go to ``LAST_TIMINGS`` / ``STAGE_SECONDS``."""
    if check is None:
        from .. import context

        check = context.get_context("verify_ir")
    if check:
        _verified(graph, "before the passes (as traced)")
    LAST_TIMINGS.clear()
    for name, fn in (passes_for(level) if passes is None else passes):
        t0 = time.perf_counter()
        new = fn(graph)
        dt = time.perf_counter() - t0
        LAST_TIMINGS[name] = LAST_TIMINGS.get(name, 0.0) + dt
        STAGE_SECONDS[name] = STAGE_SECONDS.get(name, 0.0) + dt
        if new is not graph:
            if check:
                _verified(new, f"after pass {name!r}")
            if on_stage is not None:
                on_stage(name, new)
            graph = new
    return graph


def _verified(graph: Graph, when: str) -> None:
    try:
        verify(graph)
    except IRError as exc:
        raise IRError(f"{when}: {exc}") from None
