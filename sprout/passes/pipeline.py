"""The optimisation pipeline: an ordered list of pure Graph -> Graph passes."""
from __future__ import annotations

from collections.abc import Callable

from ..ir.graph import Graph, Node
from ..ir.verify import verify
from .basic import cse, dce, fold_constants, inline, prune_inputs
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
    ("fold_constants", _into_subgraphs(fold_constants)),
    ("simplify", _into_subgraphs(simplify)),
    ("cse", _into_subgraphs(cse)),
    ("dce", _into_subgraphs(dce)),
    ("prune", prune_inputs),
]


def run_pipeline(graph: Graph, *, check: bool = False,
                 on_stage: Callable[[str, Graph], None] | None = None, passes=None) -> Graph:
    """Run every pass; ``check`` verifies after each; ``on_stage(name, graph)`` sees each change."""
    if check:
        verify(graph)
    for name, fn in (PIPELINE if passes is None else passes):
        new = fn(graph)
        if new is not graph:
            if check:
                verify(new)
            if on_stage is not None:
                on_stage(name, new)
            graph = new
    return graph
