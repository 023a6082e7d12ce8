"""Whether this process is only the msrun launcher (``python -m sprout.msrun`` or ``sprout-msrun``)."""
from __future__ import annotations

import os


def launcher_process(argv: list, orig_argv) -> bool:
    """True while Python locates ``-m sprout.msrun`` (argv[0] is then "-m") or runs the ``sprout-msrun`` console
    script: the launcher starts the ranks and imports nothing of sprout, so ``import sprout`` is skipped there."""
    orig = list(orig_argv)
    if argv[:1] == ["-m"] and "-m" in orig:
        return orig[orig.index("-m") + 1:][:1] == ["sprout.msrun"]
    return bool(argv) and os.path.basename(argv[0]) in ("sprout-msrun", "sprout-msrun.exe")
