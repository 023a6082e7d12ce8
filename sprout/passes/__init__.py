"""Graph -> Graph optimisation passes and the pipeline that runs them (verified after each in tests)."""
from .pipeline import PIPELINE, run_pipeline  # noqa: F401
