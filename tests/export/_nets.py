"""The export fixtures' networks (tools/export_nets.py), built with sprout."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from export_nets import NAMES, build, load_io  # noqa: E402,F401

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def fixture(name: str) -> str:
    return os.path.join(FIXTURES, name)


def as_tuple(out) -> tuple:
    return out if isinstance(out, tuple) else (out,)
