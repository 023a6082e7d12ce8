"""A function's source block is found from its code object's line positions (no tokenizer): the block ends at
the last line with code, and a cut that does not parse falls back to inspect.getblock."""
import inspect
import linecache

import numpy as np
import pytest

import sprout as ms
from sprout.capture.ast import blocks, source


def ends_in_else_pass(x):
    y = x * 3
    if x.sum() > 0:
        y = x * 2
    else:
        pass
    # a trailing comment
    return y


def multi_line_last(x):
    return ms.ops.add(
        x,
        x * 3,
    )


def nested_def_last(x):
    def inner(v):
        return (v
                - 1)
    return inner(x)


def decorated(fn):
    return fn


@decorated
def after_decorator(x):
    return x + 1


def one_line(x): return x * 5  # noqa: E704


def ends_in_bare_if(x):
    y = x + 2
    if False:
        pass
    return y


def lines_of(fn):
    code = fn.__code__
    got, start = blocks.block(linecache.getlines(code.co_filename), code)
    return start, len(got), inspect.getsourcelines(fn)


@pytest.mark.parametrize("fn", [ends_in_else_pass, multi_line_last, nested_def_last, after_decorator, one_line,
                                ends_in_bare_if])
def test_block_from_code_positions(fn, monkeypatch):
    start, n, (want, want_start) = lines_of(fn)
    assert start == want_start
    # the block may only lose trailing lines without code (comments, blank lines)
    assert n <= len(want) and all(not ln.strip() or ln.strip().startswith(("#", "else", "pass"))
                                  for ln in want[n:])
    calls = []
    getblock = inspect.getblock
    monkeypatch.setattr(inspect, "getblock", lambda lines: calls.append(1) or getblock(lines))
    source._CACHE.pop(fn.__code__, None)
    jitted = ms.jit(fn, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    for value in (1.0, -1.0):
        x = ms.Tensor(np.full((2,), value, np.float32))
        np.testing.assert_allclose(jitted(x).asnumpy(), fn(x).asnumpy())
    assert not calls  # the tokenizer was not needed


def test_a_cut_that_does_not_parse_falls_back_to_the_tokenizer(monkeypatch):
    def f(x):
        y = x * 2
        return y

    code = f.__code__
    lines, start = blocks.block(linecache.getlines(code.co_filename), code)
    monkeypatch.setattr(blocks, "block", lambda all_lines, c: (lines[:1], start))  # "def f(x):" alone
    calls = []
    getblock = inspect.getblock
    monkeypatch.setattr(inspect, "getblock", lambda ls: calls.append(1) or getblock(ls))
    node, _ = source._parse(f)
    assert node.name == "f" and len(node.body) == 2 and node.lineno == start
    assert calls == [1]
