"""PIJit: bytecode capture with graph breaks, guards and Python fallback (``jit(mode="PIJit")``)."""
from .runtime import (BreakRecord, BytecodeFunction, GraphBreakError, GuardFailure, Report,  # noqa: F401
                      break_listeners, compile_bytecode, report, reset_report)
from . import runtime as _runtime  # noqa: F401

__all__ = ["compile_bytecode", "BytecodeFunction", "GraphBreakError", "report", "reset_report", "Report",
           "BreakRecord", "GuardFailure", "break_listeners"]
