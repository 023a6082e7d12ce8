"""Seeing what the compiler did: IR pictures (DOT / Mermaid / SVG), one compile report, live logging."""
from . import events  # noqa: F401
from .events import install, uninstall  # noqa: F401
from .report import report, report_dict, reset  # noqa: F401
from .viz import fused_groups, graph_of, render_svg, to_dot, to_mermaid  # noqa: F401

install()

__all__ = ["to_dot", "to_mermaid", "render_svg", "graph_of", "fused_groups", "report", "report_dict", "reset",
           "install", "uninstall", "events"]
