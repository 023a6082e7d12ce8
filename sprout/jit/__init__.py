"""@jit: capture -> IR -> passes -> generated code, with a structured compile cache and counters."""
from .api import (BoundJit, Explanation, JitConfig, JitFunction, explain, jit, ms_function, mutable,  # noqa: F401
                  run_cell_graph_mode)
from .cache import reset_stats, stats  # noqa: F401
