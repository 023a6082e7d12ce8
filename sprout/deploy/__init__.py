"""Model export and deployment: ``export`` (MINDIR / ONNX), ``load`` and the MindIR graph ``nn.GraphCell`` runs."""
from .graph_export import ExportError  # noqa: F401
from .mindir_read import MindIRError, MindIRGraph  # noqa: F401
from .api import export, load  # noqa: F401
