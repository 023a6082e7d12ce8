"""The parity catalogue's machinery: ``Entry``, the registering decorators and the shared ``CATALOGUE``."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import sprout as ms


def T(*values, dtype=np.float32):
    return ms.Tensor(np.array(values if len(values) != 1 else values[0], dtype=dtype))


@dataclass
class Entry:
    name: str
    make: Callable          # () -> (fn, [args tuple per sample], observe or None)
    grad: bool = False      # compare ms.grad w.r.t. every float Tensor argument too
    ast: str = "same"       # "same" | "refused" | "differs"
    note: str = ""
    prints: bool = False    # compare what the calls print
    origin: str = ""        # the test this form comes from
    extra: dict = field(default_factory=dict)


CATALOGUE: list[Entry] = []


def entry(*samples, grad=False, ast="same", note="", prints=False, origin=""):
    """Register a module-level function with sample argument factories."""
    def deco(fn):
        def make():
            return fn, [s() for s in samples], None
        CATALOGUE.append(Entry(fn.__name__, make, grad, ast, note, prints, origin))
        return fn
    return deco


def factory(ast="same", note="", grad=False, prints=False, origin=""):
    """Register a factory ``make() -> (fn, samples, observe)`` (fresh state for every mode)."""
    def deco(make):
        CATALOGUE.append(Entry(make.__name__, make, grad, ast, note, prints, origin))
        return make
    return deco
