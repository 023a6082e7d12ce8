"""Located compile errors for jitted code: one error type, with file, line, a caret and a hint."""
from __future__ import annotations

import functools
import linecache
import os
import sys
import sysconfig
import types
from dataclasses import dataclass

_SPROUT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIB_DIRS = tuple({os.path.realpath(p) + os.sep for k in ("stdlib", "platstdlib", "purelib", "platlib")
                   if (p := sysconfig.get_paths().get(k))})


@dataclass(frozen=True)
class SourceLoc:
    """A place in the user's source: file, 1-based line, 0-based column and the line's text."""

    filename: str
    lineno: int
    col: int = 0
    source_line: str = ""
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno}"

    def render(self) -> str:
        """``File "f.py", line 3`` then the source line and a caret under the construct."""
        head = f'  File "{self.filename}", line {self.lineno}'
        text = self.source_line.rstrip("\n")
        if not text.strip():
            return head
        stripped = text.lstrip()
        indent = len(text) - len(stripped)
        col = max(self.col - indent, 0)
        width = 1
        if self.end_col is not None and self.end_col > self.col:
            width = min(self.end_col - self.col, max(len(stripped) - col, 1))
        return f"{head}\n    {stripped}\n    {' ' * col}{'^' * width}"


class JitSyntaxError(RuntimeError):
    """Code inside a jitted function that graph mode cannot compile. The message names the file and
    line, shows the source line with a caret under the construct, and ends with a one-line hint."""

    def __init__(self, message: str, loc: SourceLoc | None = None, hint: str = ""):
        self.message, self.loc, self.hint = message, loc, hint
        super().__init__(self._text())

    def _text(self) -> str:
        parts = [self.message]
        if self.loc is not None:
            parts.append(self.loc.render())
        if self.hint:
            parts.append(f"hint: {self.hint}")
        return "\n".join(parts)

    def __str__(self) -> str:
        return self._text()

    def __reduce__(self):
        return (type(self), (self.message, self.loc, self.hint))


class JitNameError(JitSyntaxError, NameError):
    """An undefined name in jitted code (MindSpore raises NameError)."""


class JitTypeError(JitSyntaxError, TypeError):
    """A value of a type graph mode cannot use there (MindSpore raises TypeError)."""


class JitValueError(JitSyntaxError, ValueError):
    """A value graph mode cannot use there, e.g. a multi-element tensor as a bool (ValueError)."""


class JitAttributeError(JitSyntaxError, AttributeError):
    """A tensor attribute graph mode does not have (``Tensor.asnumpy`` under STRICT: MindSpore's AttributeError).
    Raised at the jit boundary only: while tracing the refusal is a JitValueError (an AttributeError raised inside
    a property would send Python's attribute lookup to ``__getattr__`` and lose it)."""


def _source_line(filename: str, lineno: int) -> str:
    return linecache.getline(filename, lineno) if lineno else ""


_positions: dict = {}  # code object -> its co_positions() list (a node's location is taken per traced op)


def _frame_loc(frame: types.FrameType) -> SourceLoc:
    code = frame.f_code
    lineno, col, end_col = frame.f_lineno, 0, None
    positions = _positions.get(code)
    if positions is None:
        positions = _positions[code] = list(code.co_positions())
    i = frame.f_lasti // 2
    pos = positions[i] if 0 <= i < len(positions) else None
    if pos is not None and pos[0] is not None:
        lineno = pos[0]
        col = pos[2] or 0
        end_col = pos[3] if pos[1] == pos[0] else None
    return SourceLoc(code.co_filename, lineno or 0, col, _source_line(code.co_filename, lineno or 0), end_col)


def locate(obj, filename: str | None = None) -> SourceLoc | None:
    """The SourceLoc of a frame, a traceback, an AST node (give ``filename``) or a SourceLoc."""
    if obj is None or isinstance(obj, SourceLoc):
        return obj
    if isinstance(obj, types.TracebackType):
        while obj.tb_next is not None:
            obj = obj.tb_next
        return _frame_loc(obj.tb_frame)
    if isinstance(obj, types.FrameType):
        return _frame_loc(obj)
    lineno = getattr(obj, "lineno", None)
    if lineno is not None:
        fname = filename or "<unknown>"
        end = getattr(obj, "end_col_offset", None) if getattr(obj, "end_lineno", None) == lineno else None
        return SourceLoc(fname, lineno, getattr(obj, "col_offset", 0) or 0, _source_line(fname, lineno), end)
    return None


@functools.cache
def is_internal(filename: str) -> bool:
    """True for files of the sprout package itself (not user code)."""
    return os.path.abspath(filename).startswith(_SPROUT_DIR + os.sep)


@functools.cache
def is_library(filename: str) -> bool:
    """True for files of the standard library or site-packages (library code, not the user's)."""
    return os.path.realpath(filename).startswith(_LIB_DIRS)


def user_frame(start: types.FrameType | None = None) -> types.FrameType | None:
    """The innermost frame on the stack whose code is outside the sprout package (the user's line).
    Converted functions are compiled with the user's file name, so their frames count as the user's."""
    frame = start or sys._getframe(1)
    while frame is not None:
        fname = frame.f_code.co_filename
        if not is_internal(fname) and not fname.startswith("<frozen"):
            return frame
        frame = frame.f_back
    return None


def user_loc(depth: int = 1) -> SourceLoc | None:
    """SourceLoc of the innermost user frame (what a located error points at); the search starts
    ``depth`` frames above this call (callers deep in sprout skip their own frames)."""
    frame = user_frame(sys._getframe(depth))
    return _frame_loc(frame) if frame is not None else None


class JitWarning(UserWarning):
    """Jitted code does something graph mode drops or changes (a global write, a mutated argument)."""
