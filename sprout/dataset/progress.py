"""Progress lines on stderr for slow dataset work (folder scans, first passes), only once it has taken a while."""
from __future__ import annotations

import sys
import time


class Progress:
    """Reports ``what`` every ``every`` seconds once ``after`` seconds have passed; silent for quick work.
    ``tick(n)`` records n more units done; ``done()`` prints a closing line if anything was printed."""

    def __init__(self, what: str, total: int | None = None, unit: str = "rows", after: float = 2.0,
                 every: float = 10.0):
        from .. import context
        self.enabled = bool(context.get_context("dataset_progress"))
        self.what, self.total, self.unit = what, total, unit
        self.after, self.every = after, every
        self.start = self.last = time.monotonic()
        self.count = 0
        self.printed = False

    def tick(self, n: int = 1) -> None:
        self.count += n
        if not self.enabled:
            return
        if self.total and self.count >= self.total:  # e.g. the first pass of repeat-forever: stop at one pass
            self.done()
            self.enabled = False
            return
        now = time.monotonic()
        if now - self.start >= self.after and (not self.printed or now - self.last >= self.every):
            self._print(now)

    def _print(self, now: float, final: bool = False) -> None:
        elapsed = now - self.start
        rate = self.count / elapsed if elapsed > 0 else 0.0
        text = f"{self.what}: {self.count}"
        if self.total:
            text += f"/{self.total} {self.unit} ({100.0 * self.count / self.total:.0f}%)"
            if not final and rate > 0:
                text += f", about {max(self.total - self.count, 0) / rate:.0f} s left"
        else:
            text += f" {self.unit}"
        text += f", {rate:.0f} {self.unit}/s, {elapsed:.1f} s" + (" - done" if final else "")
        print(text, file=sys.stderr, flush=True)
        self.printed, self.last = True, now

    def done(self) -> None:
        if self.enabled and self.printed:
            self._print(time.monotonic(), final=True)
