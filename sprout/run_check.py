"""``mindspore.run_check()``: check the installation by computing a small product eagerly and in a graph."""
from __future__ import annotations

import numpy as np


def run_check() -> None:
    """Print sprout's version and whether a small multiplication gives the right result eagerly and under jit;
    a wrong result raises RuntimeError."""
    from . import ops
    from .version import __version__, sprout_version
    from .core.tensor import Tensor
    from .jit.api import jit

    print("sprout version: ", sprout_version, f"(MindSpore {__version__} API)")
    a = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
    b = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2)
    want = a @ b
    eager = ops.matmul(Tensor(a), Tensor(b)).asnumpy()
    graph = jit(lambda x, y: ops.matmul(x, y) * 1.0)(Tensor(a), Tensor(b)).asnumpy()
    for name, got in (("eager", eager), ("jit", graph)):
        if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            raise RuntimeError(f"run_check: the {name} multiplication gave {got.tolist()}, expected {want.tolist()}: "
                               "the installation is broken")
    print("The result of multiplication calculation is correct, sprout has been installed on platform [CPU] "
          "successfully!")
