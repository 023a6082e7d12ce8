"""What of a fuzz run did not compile into whole graphs: AST capture's refusals that jit_syntax_level=LAX ran as
host segments (JIT Fallback records) and PIJit's graph breaks, with their reasons normalized for counting."""
from __future__ import annotations

import contextlib
import re


@contextlib.contextmanager
def compile_watch(seen: dict):
    """Collects what of the block did not compile into whole graphs: ``seen["host"]``, the reasons of AST capture's
    refusals that jit_syntax_level=LAX turned into host segments (``sprout.jit.host`` records, JIT Fallback), and
    ``seen["breaks"]``, PIJit's graph-break reasons (``break_listeners``), each normalized by ``reason_kind``."""
    from sprout.capture.bytecode import break_listeners
    from sprout.jit.host import records

    def counts() -> dict:
        return {(r.function, r.where, r.filename, r.lineno, r.reason): r.count for r in records()}

    seen["host"], seen["breaks"] = [], []
    before = counts()

    def on_break(rec) -> None:
        seen["breaks"].append(reason_kind(rec.reason))

    break_listeners.append(on_break)
    try:
        yield seen
    finally:
        break_listeners.remove(on_break)
        seen["host"] = [reason_kind(k[-1]) for k, n in counts().items() if n > before.get(k, 0)]


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_WHERE = re.compile(r" at \S+\.py:\d+")
_CALLEE = re.compile(r"the call to \S+\(\)")


def reason_kind(reason: str) -> str:
    """A refusal or break reason without what varies between programs: quoted names, locations, numbers."""
    text = _CALLEE.sub("the call to f()", _WHERE.sub("", reason))
    text = _QUOTED.sub("'_'", text)
    return re.sub(r"\b\d+\b", "N", text).strip()
