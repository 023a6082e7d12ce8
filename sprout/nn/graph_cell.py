"""nn.GraphCell: a Cell that runs a graph loaded from a MindIR file (``ms.load``)."""
from __future__ import annotations

from ..core.tensor import Parameter, Tensor
from .cell import Cell


class GraphCell(Cell):
    """Runs ``graph`` (from ``sprout.load``) with its stored weights; ``params_init`` ({name: Tensor}) replaces
    some of them. The weights are Parameters of this cell under their own names, so checkpoints load into it.
    Runs eagerly in PYNATIVE_MODE and as one compiled graph in GRAPH_MODE or under ``jit``."""

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=False)
        from ..deploy.mindir_read import MindIRGraph

        if not isinstance(graph, MindIRGraph):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a graph loaded by load(), but got "
                            f"{type(graph).__name__}.")
        if obf_random_seed is not None:
            raise NotImplementedError("GraphCell: obf_random_seed (model obfuscation) is not supported by sprout")
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but got "
                            f"{type(params_init).__name__}.")
        self.graph = graph
        self._by_full_name = {}
        for full, (own, value) in graph.params.items():
            init = params_init.get(own)
            if init is not None and not isinstance(init, Tensor):
                raise TypeError(f"For 'GraphCell', params_init['{own}'] must be a Tensor, but got "
                                f"{type(init).__name__}.")
            if init is not None and tuple(init.shape) != value.shape:
                raise ValueError(f"For 'GraphCell', params_init['{own}'] has shape {list(init.shape)}, but the graph "
                                 f"needs {list(value.shape)}.")
            param = Parameter(init if init is not None else value.copy(), name=own)
            self.insert_param_to_cell(own, param, check_name_contain_dot=False)
            self._by_full_name[full] = param
        unknown = set(params_init) - {own for own, _ in graph.params.values()}
        if unknown:
            raise ValueError(f"For 'GraphCell', params_init names parameters the graph does not have: "
                             f"{sorted(unknown)}")

    def construct(self, *inputs):
        self.graph.check_inputs(inputs)
        return self.graph.run(self._by_full_name, *inputs)
