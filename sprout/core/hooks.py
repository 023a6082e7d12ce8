"""Calls from sprout's own code into user callables (the ``fn`` of ``grad``/``GradOperation``/``HyperMap``,
a Cell's ``construct``). While the AST front-end traces a jitted function it installs ``callee``, so those
callees are converted exactly as the caller is; with nothing installed a call is a plain call."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

# obj -> the callable to run for ``obj`` (a converted function), or None for "call it as it is"
callee: Callable[[Any], Any] | None = None


def call_user(fn: Callable, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)``, with ``fn`` converted first while an AST capture traces."""
    hook = callee
    if hook is not None:
        fn = hook(fn) or fn
    return fn(*args, **kwargs)


class installed:
    """``with installed(hook):`` -- ``callee`` is ``hook`` inside the block (nests; restores on exit)."""

    def __init__(self, hook: Callable[[Any], Any] | None):
        self.hook = hook

    def __enter__(self) -> None:
        global callee
        self.saved, callee = callee, self.hook

    def __exit__(self, *exc) -> None:
        global callee
        callee = self.saved


# The capture layer's loop tracer (``capture.control.while_loop(cond_fn, body_fn, init)``), installed when it is
# imported: ops that take loop functions (``ops.WhileLoop``, ``ForiLoop``, ``Scan``) lower onto it while a graph
# is built, so their loops become WhileLoop nodes as a tensor ``while`` does.
while_loop: Callable | None = None
