"""Model export and deployment: ``export`` (MINDIR / ONNX), ``load`` and the MindIR graph ``nn.GraphCell`` runs."""
# train first: protowire reads train._ckpt_proto, and train's summary writer reads protowire; entering the cycle
# from here (``ms.load`` before anything imported train) found protowire half-initialised
from .. import train as _train  # noqa: F401
from .graph_export import ExportError  # noqa: F401
from .mindir_read import MindIRError, MindIRGraph  # noqa: F401
from .api import export, load  # noqa: F401
