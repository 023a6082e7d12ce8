"""ops.scalar_*/tuple_*/bool_*/string_*/dict_* helpers, typeof/hastype, is_/is_not against MindSpore 2.10
(tests/ops/data/oracle_builtins.json, from tools/ms_oracle_builtins.py over builtin_cases.py). The reference is
MindSpore's PyNative result where PyNative implements the helper, else its graph-mode (jit) result (several have
no PyNative implementation: scalar_ne, bool_and/or/eq, string_*, make_dict, dict_setitem, tail, zip_operation;
bool_not returns a Tensor there). The same calls inside jit (AST and bytecode capture) give the eager result."""
import json
import linecache
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from builtin_cases import CASES

ORACLE = json.loads((Path(__file__).parent / "data" / "oracle_builtins.json").read_text())
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError, "RuntimeError": RuntimeError,
          "KeyError": KeyError}
# MindSpore type objects print as mindspore.<name>; sprout's as its own names for the same types
TYPE_REPRS = {"mindspore.int64": ms.int64, "mindspore.float32": ms.float32, "mindspore.bool": ms.bool_,
              "mindspore.tuple_": ms.tuple_, "mindspore.list_": ms.list_, "mindspore.string_": ms.string,
              "mindspore.type_none": ms.type_none}


def _reference(key):
    entry = ORACLE[key]
    native = entry["pynative"]
    unimplemented = (native.get("raises") == "RuntimeError" and entry["graph"].get("raises") != "RuntimeError"
                     or native.get("type") == "NoneType" or "tensor" in native)
    return entry["graph"] if unimplemented else native


@pytest.mark.parametrize("key, expr", CASES, ids=[k for k, _ in CASES])
def test_matches_mindspore(key, expr):
    want = _reference(key)
    ns = {"ops": ops, "ms": ms}
    if "raises" in want:
        with pytest.raises(ERRORS[want["raises"]], match=expr.split("(")[0].split(".")[1]):
            eval(expr, ns)  # noqa: S307 - our own case table
        return
    got = eval(expr, ns)  # noqa: S307
    if want["value"] in TYPE_REPRS:
        assert got == TYPE_REPRS[want["value"]]
        return
    assert type(got).__name__ == want["type"], (type(got).__name__, want)
    assert repr(got) == want["value"]


def _function(key, expr):
    src = f"def builtin_case(x):\n    return x + 1, {expr}\n"
    filename = f"<builtin {key}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"ops": ops, "ms": ms}
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - the case table's own expression
    return ns["builtin_case"]


VALUE_CASES = [(k, e) for k, e in CASES if "raises" not in _reference(k)]


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
@pytest.mark.parametrize("key, expr", VALUE_CASES, ids=[k for k, _ in VALUE_CASES])
def test_same_under_jit(key, expr, mode):
    fn = _function(key, expr)
    x = ms.Tensor(np.float32(2.0))
    jitted = ms.jit(fn, capture_mode="bytecode") if mode == "bytecode" else ms.jit(fn)
    got = jitted(x)
    want = fn(x)
    assert float(got[0].asnumpy()) == 3.0
    assert got[1] == want[1] and type(got[1]) is type(want[1]), (got[1], want[1])


def test_helpers_on_traced_values_inside_jit():
    """Shapes, tuples and flags computed by the helpers steer a jit function as they do eagerly."""
    def f(x):
        n = ops.scalar_add(ops.tuple_getitem(x.shape, 0), 1)
        keep = ops.reduced_shape(x.shape, 1)
        scale = ops.scalar_div(ops.shape_mul(keep), n)
        if ops.bool_and(ops.hastype(x, ms.tensor_type), ops.is_not(x, None)):
            return ops.reshape(ops.sum(x, 1) * scale, keep), ops.tuple_len(ops.tuple_setitem(x.shape, 0, n))
        return x, 0

    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    want = f(x)
    np.testing.assert_allclose(want[0].asnumpy(), np.array([[3.0], [12.0]]) * (2 / 3), rtol=1e-6)
    for jitted in (ms.jit(f), ms.jit(f, capture_mode="bytecode")):
        got = jitted(x)
        np.testing.assert_allclose(got[0].asnumpy(), want[0].asnumpy(), rtol=1e-6)
        assert int(got[1]) == 2


def test_bad_operand_types_raise_type_error():
    with pytest.raises(TypeError, match="bool_and"):
        ops.bool_and(1, True)
    with pytest.raises(TypeError, match="string_concat"):
        ops.string_concat("a", 1)
    with pytest.raises(TypeError, match="tuple_getitem"):
        ops.tuple_getitem([1, 2], 0)
    with pytest.raises(TypeError, match="typeof"):
        ops.typeof({"a": 1})
    assert ops.typeof(ms.Tensor(np.ones(2, np.float32))) == ms.TensorType(ms.float32)
    assert ops.hastype(ms.Tensor(np.ones(2, np.float32)), ms.tensor_type)
    assert not ops.hastype(ms.Tensor(np.ones(2, np.float32)), ms.float32)
