"""Expression cases checked against real MindSpore 2.10 (mindspore.numpy, mint, experimental.optim ...): each case
is a Python expression over named inputs; ``tools/ms_oracle_api.py`` evaluates it under MindSpore and stores the
inputs, outputs (or the exception type) and, for ``grad`` cases, the gradients of ``sum(out * cot)`` w.r.t. the
float inputs in ``tests/api/data/<area>.npz``; ``tests/api/test_api_oracle.py`` runs the same expression under
sprout (eagerly, under jit AST and bytecode, and its gradients). Pure data and NumPy: importable from both."""
from __future__ import annotations

import importlib.util
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np


def _ops_oracle():
    """tests/ops/oracle (the op tables' MindSpore case format), loaded by path: importable from both
    interpreters whatever is on sys.path."""
    path = Path(__file__).resolve().parents[2] / "ops" / "oracle" / "__init__.py"
    name = "_ops_oracle_cases"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)  # dataclasses look their module up here
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


_oracle = _ops_oracle()
U, I, B, C, flatten = _oracle.U, _oracle.I, _oracle.B, _oracle.C, _oracle.flatten  # noqa: E741


@dataclass
class Case(_oracle.OC):
    """The op tables' case (``key``, ``expr``, ``inputs``, ``check`` "close"/"shape"/"raises", ``rtol``, ``atol``,
    ``note``) plus: ``grad``: also compare gradients w.r.t. the float inputs (MindSpore's, or finite differences
    where MindSpore fails); ``jit``: also run under jit (AST and bytecode); ``numpy`` / ``raises``: sprout
    deliberately differs from MindSpore here (``note`` says why) and must give this NumPy expression's result,
    or raise this exception type; ``alt``: the MindSpore expression the oracle evaluates instead when MindSpore
    2.10's CPU build has no kernel for ``expr`` (mint's Ascend-only ops); ``fd``: gradients against finite
    differences even where MindSpore computes them (``note`` says why MindSpore's are wrong)."""

    grad: bool = False
    jit: bool = True
    numpy: str = ""
    raises: str = ""
    alt: str = ""
    fd: bool = False

    def cotangent(self, out: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(zlib.crc32(self.key.encode()) + 1)
        return rng.uniform(0.5, 1.5, np.shape(out)).astype(out.dtype)


def load_cases(names=None) -> dict:
    """area -> list of Case, from every ``<area>.py`` module of this package with a CASES list."""
    import importlib
    import pkgutil

    areas = {}
    for info in pkgutil.iter_modules(__path__):
        if names and info.name not in names:
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "CASES") and mod.CASES and isinstance(mod.CASES[0], Case):
            areas[info.name] = mod.CASES
    return areas
