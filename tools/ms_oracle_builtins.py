"""Regenerate tests/ops/data/oracle_builtins.json with real MindSpore:
    /work/msvenv/bin/python tools/ms_oracle_builtins.py
Each expression of tests/ops/builtin_cases.py (ops.scalar_*/tuple_*/bool_*/... on Python values) is evaluated by
MindSpore 2.10 inside ``jit`` (graph mode: several of these helpers have no PyNative implementation) and in
PyNative; the result's repr and Python type name (or the exception type) are stored for
tests/ops/test_functional_builtins.py."""
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ops"))

import mindspore as ms  # noqa: E402
from mindspore import Tensor, ops  # noqa: E402
from builtin_cases import CASES  # noqa: E402


def describe(thunk):
    try:
        value = thunk()
    except Exception as exc:  # noqa: BLE001 - the oracle records whatever MindSpore raises
        return {"raises": type(exc).__name__}
    if isinstance(value, Tensor):  # a graph returns Python scalars of a jit function as Tensors
        return {"tensor": repr(value.asnumpy().tolist()), "dtype": str(value.dtype)}
    return {"value": repr(value), "type": type(value).__name__}


def graph_functions():
    """One jit function per case, written to a real module so MindSpore's parser can read their source."""
    src = ["from mindspore import jit, ops", "import mindspore as ms", ""]
    for i, (_key, expr) in enumerate(CASES):
        src += ["@jit", f"def case_{i}():", f"    return {expr}", ""]
    path = Path(tempfile.mkdtemp()) / "ms_builtin_graph_cases.py"
    path.write_text("\n".join(src))
    spec = importlib.util.spec_from_file_location("ms_builtin_graph_cases", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    graph = graph_functions()
    out = {}
    for i, (key, expr) in enumerate(CASES):
        out[key] = {"expr": expr,
                    "pynative": describe(lambda e=expr: eval(e, {"ops": ops, "ms": ms})),  # noqa: S307
                    "graph": describe(getattr(graph, f"case_{i}"))}
    path = ROOT / "tests" / "ops" / "data" / "oracle_builtins.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path} ({len(out)} cases)")


if __name__ == "__main__":
    main()
