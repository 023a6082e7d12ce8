"""IR pictures: DOT / Mermaid text with source lines, control-flow bodies and fused kernels as clusters."""
import shutil

import numpy as np
import pytest

import sprout as ms
import sprout.debug as dbg
from sprout import ops
from sprout.core.op import REGISTRY, Op
from sprout.core.types import TensorType
from sprout.ir.graph import Graph, Node, Var


@ms.jit
def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    return ops.exp(y) + 1


def _x():
    return ms.Tensor(np.ones((2, 3), np.float32))


def test_graph_of_returns_optimized_graph():
    g = dbg.graph_of(branchy, _x())
    assert isinstance(g, Graph)
    # float32 exp joins the add in one small kernel (fastmath's polynomial, backend/small.py)
    assert [n.op.name for n in g.nodes] == ["ReduceSum", "Greater", "Cond", "FusedElementwise"]
    assert dbg.graph_of(g) is g
    trace = dbg.graph_of(branchy, _x(), stage="trace")
    assert isinstance(trace, Graph)
    with pytest.raises(ValueError, match="stages"):
        dbg.graph_of(branchy, _x(), stage="nope")


def test_graph_of_plain_function_and_cell():
    def f(a):
        return ops.exp(a) + 1   # (float32: exp and the add are one small kernel at O1)
    assert [n.op.name for n in dbg.graph_of(f, _x()).nodes] == ["FusedElementwise"]

    class Net(ms.nn.Cell):
        def construct(self, a):
            return ops.relu(a)
    assert [n.op.name for n in dbg.graph_of(Net(), _x()).nodes] == ["ReLU"]


def test_dot_has_source_lines_and_body_clusters():
    text = dbg.to_dot(branchy, _x())
    assert text.startswith('digraph "branchy"')
    assert "test_viz.py:" in text and "y = x * 2" in text
    assert text.count("subgraph cluster_g") == 2
    assert 'label="Cond.then: cond_then"' in text and "Cond.else" in text
    assert "-> " in text and text.rstrip().endswith("}")
    assert "%0: f32[2,3]" in text


def test_mermaid_structure_and_escaping():
    text = dbg.to_mermaid(branchy, _x())
    assert text.startswith("flowchart TD")
    # the Cond's two branches and the fused exp+add kernel
    assert text.count("subgraph ") == 3 and text.count("\n  end") + text.count("\n    end") >= 3
    assert "if x.sum() &gt; 0:" in text
    assert "%0: f32&#91;2,3&#93;" in text
    assert "-.->|then|" in text


def _fused_graph():
    a, b = Var(TensorType((3,), ms.float32)), Var(TensorType((3,), ms.float32))
    t, u = Var(TensorType((3,), ms.float32)), Var(TensorType((3,), ms.float32))
    nodes = [Node(REGISTRY["Mul"], [a, b], {}, [t]), Node(REGISTRY["Add"], [t, b], {}, [u])]
    body = Graph("fused_body", [a, b], nodes, [u])
    fused = Op("FusedMulAdd", lambda x, y, **k: x * y + y, lambda x, y, **k: x, kind="elementwise")
    x, y, z = (Var(TensorType((3,), ms.float32)) for _ in range(3))
    return Graph("g", [x, y], [Node(fused, [x, y], {"body": body}, [z])], [z])


def test_fused_kernels_are_groups():
    g = _fused_graph()
    groups = dbg.fused_groups(g)
    assert groups == [{"kernel": "FusedMulAdd", "ops": ["Mul", "Add"], "where": ""}]
    dot = dbg.to_dot(g)
    assert "subgraph cluster_f" in dot and "fused kernel FusedMulAdd" in dot and "fillcolor" in dot
    mm = dbg.to_mermaid(g)
    assert "fused kernel FusedMulAdd" in mm and "classDef fused" in mm


def test_render_svg(tmp_path, monkeypatch):
    path = str(tmp_path / "g.svg")
    if shutil.which("dot"):
        assert dbg.render_svg(branchy, path, _x()) == path
        assert open(path).read().lstrip().startswith(("<?xml", "<svg"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="install graphviz"):
        dbg.render_svg(dbg.graph_of(branchy, _x()), path)


def test_real_fusion_pass_groups():
    fuse = pytest.importorskip("sprout.passes.fuse")

    def f(x, y):
        return ops.exp(x * y + 1) - y

    a = ms.Tensor(np.ones((8, 8), np.float32))
    g = dbg.graph_of(ms.jit(f, jit_level="O0"), a, a)
    try:
        fused = fuse.fuse_elementwise(g, choose=lambda sub, n: "numpy_blocked", min_elements=1)
    except TypeError:
        pytest.skip("fuse_elementwise signature changed")
    groups = dbg.fused_groups(fused)
    assert groups and groups[0]["kernel"].startswith("Fused")
    assert set(groups[0]["ops"]) >= {"Mul", "Exp"}
    assert "fused kernel" in dbg.to_dot(fused) and "fused kernel" in dbg.to_mermaid(fused)
