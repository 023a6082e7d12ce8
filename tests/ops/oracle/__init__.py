"""Calls checked against real MindSpore 2.10: each case is a Python expression over named inputs, run by
``tools/ms_oracle_ops.py`` under MindSpore (results stored in ``tests/ops/data/oracle_<area>.npz``) and by
``tests/ops/test_oracle.py`` under sprout. Pure data and NumPy: importable from both interpreters."""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np


@dataclass
class OC:
    """``expr`` over ``inputs`` (name -> maker(rng) returning an ndarray; a tuple maker value (array,
    "param") makes a Parameter). ``check``: "close" (values, dtype and shape), "shape" (random
    results: dtype and shape only) or "raises" (MindSpore raises; sprout must raise the same type)."""

    key: str
    expr: str
    inputs: dict = field(default_factory=dict)
    check: str = "close"
    rtol: float = 1e-5
    atol: float = 1e-6
    note: str = ""
    jit: bool = True  # False: host-side results (Python bools, strides) or misuse outside any op call
    match: str = ""  # "raises" cases: a regex sprout's message must match (it names the op and the bad argument)

    def make(self) -> dict:
        rng = np.random.default_rng(zlib.crc32(self.key.encode()))
        return {k: np.asarray(m(rng)) for k, m in self.inputs.items()}


def U(*shape, lo=-2.0, hi=2.0, dtype="float32") -> Callable[[Any], np.ndarray]:
    return lambda rng: rng.uniform(lo, hi, shape).astype(dtype)


def I(*shape, lo=0, hi=5, dtype="int32") -> Callable[[Any], np.ndarray]:  # noqa: E743 - short on purpose
    return lambda rng: rng.integers(lo, hi, shape).astype(dtype)


def B(*shape) -> Callable[[Any], np.ndarray]:
    return lambda rng: rng.random(shape) < 0.5


def C(value, dtype=None) -> Callable[[Any], np.ndarray]:
    return lambda rng: np.asarray(value, dtype)


def flatten(out) -> list:
    """Nested tuples/lists of results -> list of ndarrays (Python scalars as 0-d arrays)."""
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flatten(o)]
    if hasattr(out, "asnumpy"):
        return [np.asarray(out.asnumpy())]
    return [np.asarray(out)]


def helpers(area: str) -> dict:
    """Named functions a case module offers its expressions (``HELPERS``)."""
    import importlib

    return dict(getattr(importlib.import_module(f"{__name__}.cases_{area}"), "HELPERS", {}))


def load_cases() -> dict:
    """area -> list of OC, from every ``cases_<area>.py`` in this package."""
    import importlib
    import pkgutil

    areas = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("cases_"):
            mod = importlib.import_module(f"{__name__}.{info.name}")
            areas[info.name[len("cases_"):]] = mod.CASES
    return areas
