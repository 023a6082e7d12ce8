"""No option accepted and ignored: tools/unused_params.py finds no unread parameter of the MindSpore-facing API
that tools/unused_params_allow.txt does not list with a reason (and no stale entry)."""
import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("unused_params", ROOT / "tools" / "unused_params.py")
checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checker)


def test_no_unlisted_unread_parameter():
    unlisted, stale = checker.check()
    assert not unlisted, "parameters accepted and ignored (implement, refuse, or list with a reason in " \
        "tools/unused_params_allow.txt):\n" + "\n".join(f"{f}:{n} {q} {p}" for f, n, q, p in unlisted)
    assert not stale, f"allowlist entries that are no longer hits (remove them): {stale}"


def test_every_entry_has_a_reason():
    allow = checker.load_allowlist()
    assert allow and all(len(reason) > 10 for reason in allow.values())


def _hits(src: str):
    fn = ast.parse(src).body[0]
    return [p for _, _, p in checker._function_hits(fn, fn.name, method=False)]


def test_the_checker_sees_unread_parameters():
    assert _hits("def f(a, b, *args, c=1, **kw):\n    return a + kw['x']\n") == ["b", "c", "*args", "**kw(other-keys)"]
    assert _hits("def f(**kw):\n    x = kw.pop('x', 1)\n    if kw:\n        raise TypeError\n    return x\n") == []
    assert _hits("def f(**kw):\n    return g(**kw)\n") == []                # forwarded
    assert _hits("def f(a, b):\n    del b\n    return a\n") == ["b"]          # deleting is not reading
    assert _hits("def f(a, b):\n    return lambda: a + b\n") == []            # nested scopes read too
    assert _hits("def f(a, b):\n    '''doc'''\n    raise NotImplementedError\n") == []  # an interface
    assert _hits("def f(a, b):\n    return locals()\n") == []
    assert _hits("def f(a, b):\n    '''doc'''\n    return 1\n") == ["a", "b"]
