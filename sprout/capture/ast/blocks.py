"""A function's source block from its code object's line positions (no tokenizer, no parse of the whole file)."""
from __future__ import annotations

import types


def last_line(code: types.CodeType) -> int:
    """The last source line any instruction of ``code`` (nested functions and comprehensions included) spans."""
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, last_line(const))
    return last


def block(all_lines: list[str], code: types.CodeType) -> tuple[list[str], int]:
    """(lines, first line number) from ``code``'s first line (a decorated function's first decorator) through
    the last line its instructions span. Trailing lines without code (comments, a final ``pass``) may be left
    out, which changes nothing a conversion sees; a cut that does not parse makes the caller fall back to
    ``inspect.getblock`` (which tokenizes the block, compiling tokenize's large regex on first use)."""
    first = code.co_firstlineno
    return all_lines[first - 1:last_line(code)], first
