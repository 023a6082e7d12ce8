"""@jit: capture -> IR -> passes -> generated code, with a structured compile cache and counters."""
from .api import (BoundJit, Explanation, JitConfig, JitFunction, explain, graph_mode_entry, jit,  # noqa: F401
                  ms_function, mutable, run_cell_graph_mode)
from .cache import reset_stats, stats  # noqa: F401
