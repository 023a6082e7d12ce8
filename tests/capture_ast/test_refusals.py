"""Refused syntax raises one located error type at the first call (never at decoration), with the
file, the line, a caret under the construct and a one-line hint."""
import re

import numpy as np
import pytest

import sprout as ms
from sprout import nn
from sprout.core.errors import JitNameError, JitSyntaxError, JitTypeError, JitValueError

from .helpers import T

HERE = __file__.replace(".pyc", ".py")


def line_of(fn, text):
    """The file line number of the first line of ``fn``'s source containing ``text``."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


def refused(fn, *args, kind=JitSyntaxError, what="", marker=None, **jit_kw):
    """Under STRICT (``fullgraph=True`` unless a JitConfig says otherwise) ``fn`` is refused with a located
    error; under LAX (the default) the same code runs as host segments and gives eager's result."""
    if "jit_config" not in jit_kw:
        jit_kw.setdefault("fullgraph", True)
        lax_same(fn, *args)
    jitted = ms.jit(fn, **jit_kw)  # decoration never fails
    with pytest.raises(kind) as info:
        jitted(*args)
    err = info.value
    msg = str(err)
    assert isinstance(err, JitSyntaxError) and isinstance(err, RuntimeError)
    assert what in msg, msg
    assert f'File "{HERE}", line' in msg, msg
    assert "hint:" in msg
    if marker is not None:
        assert f"line {line_of(fn, marker)}" in msg, msg
        src_line, caret_line = msg.split("\n")[2:4]
        assert marker in src_line
        col = caret_line.index("^")
        assert src_line[col:].startswith(marker), (src_line, caret_line)
    return msg


def lax_same(fn, *args):
    """LAX: eager's result (or eager's exception) through host segments."""
    try:
        expected = fn(*args)
    except Exception as exc:  # noqa: BLE001 - eager raises: the jit must raise the same kind
        with pytest.raises(type(exc)):
            ms.jit(fn)(*args)
        return
    if hasattr(expected, "__next__"):  # a generator function: refused in every level
        with pytest.raises(JitSyntaxError):
            ms.jit(fn)(*args)
        return
    got = ms.jit(fn)(*args)
    np.testing.assert_allclose(np.asarray(got[0] if isinstance(got, tuple) else got, np.float64),
                               np.asarray(expected[0] if isinstance(expected, tuple) else expected, np.float64))


def test_try_except():
    def f(x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x
    refused(f, T(1.0), what="try/except is not supported", marker="try:")


def test_with_del_class_import_yield_nonlocal_global_set():
    def f_with(x):
        with open("f") as fh:  # noqa: F841
            pass
        return x

    def f_del(x):
        y = x
        del y
        return x

    def f_class(x):
        class A:
            pass
        return x

    def f_import(x):
        import math  # noqa: F401
        return x

    def f_yield(x):
        yield x

    def f_set(x):
        s = {1, 2}
        return x, s

    v = 1

    def f_nonlocal(x):
        nonlocal v
        v = 2
        return x

    refused(f_with, T(1.0), what="a with statement", marker="with open")
    refused(f_del, T(1.0), what="del is not supported", marker="del y")
    refused(f_class, T(1.0), what="a class definition", marker="class A")
    refused(f_import, T(1.0), what="import", marker="import math")
    refused(f_yield, T(1.0), what="yield", marker="yield x")
    refused(f_set, T(1.0), what="a set literal", marker="{1, 2}")
    refused(f_nonlocal, T(1.0), what="nonlocal", marker="nonlocal v")


def test_walrus_only_under_strict():
    def f(x):
        if (n := 2) > 1:
            x = x * n
        return x
    refused(f, T(1.0), what="(:=) is not supported inside a jitted function with jit_syntax_level=STRICT",
            marker="n := 2", fullgraph=True)
    refused(f, T(1.0), what=":=", jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    assert float(ms.jit(f)(T(1.0)).asnumpy()) == 2.0


def test_undefined_name_is_a_name_error():
    def f(x):
        return x + undefined_thing  # noqa: F821
    msg = refused(f, T(1.0), kind=NameError, what="name 'undefined_thing' is not defined", marker="undefined_thing")
    assert issubclass(JitNameError, NameError)
    assert msg


def test_multi_element_tensor_as_bool():
    def f(x):
        return bool(x)
    refused(f, T(1.0, 2.0), kind=ValueError, what="using a tensor as a Python bool")

    def g(x):
        if x > 0:
            x = x + 1
        return x
    refused(g, T(1.0, 2.0), kind=JitValueError, what="shape [2] used as a condition must have exactly one element",
            marker="x > 0")


def test_range_over_a_tensor_is_a_type_error():
    def f(x, n):
        for i in range(n):
            x = x + i
        return x
    refused(f, T(1.0), ms.Tensor(np.array(3)), kind=JitTypeError, what="range() over a tensor", marker="range(n)")


def test_cell_with_hooks_inside_jitted_code():
    net = nn.ReLU()
    net.register_forward_hook(lambda cell, inputs, out: None)

    def f(x):
        return net(x)
    refused(f, T(1.0), what="has hooks registered", marker="net(x)", jit_config=ms.JitConfig())
    with pytest.raises(JitSyntaxError, match="has hooks registered"):  # not a host segment: refused in LAX too
        ms.jit(f, fullgraph=True)(T(1.0))


def test_error_is_raised_at_first_call_not_at_decoration():
    @ms.jit(fullgraph=True)
    def f(x):
        try:
            return x
        finally:
            pass
    with pytest.raises(JitSyntaxError):
        f(T(1.0))


def test_message_layout():
    def f(x):
        del x
    msg = refused(f, T(1.0), what="del")
    lines = msg.split("\n")
    assert re.match(r'  File ".*test_refusals.py", line \d+$', lines[1])
    assert lines[2].strip() == "del x"
    assert lines[3].strip() == "^^^^^"
    assert lines[4].startswith("hint: ")
