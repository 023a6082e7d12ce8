"""Op records carry their backend knowledge (FuseSpec, emit): registration rejects a record that could not
generate code, and every registered elementwise op's FuseSpec computes what its own kernel computes."""
import numpy as np
import pytest

import sprout  # noqa: F401  (registers the ops)
from sprout import dtype as mstype
from sprout.backend import kernels
from sprout.core.op import REGISTRY, FuseSpec, Op, check_record
from sprout.core.types import TensorType
from sprout.ir.graph import Graph, Node, Var


def _ident(x):
    return x


@pytest.mark.parametrize("fuse, message", [
    ("relu", "must be a FuseSpec"),                                       # a bare name, as records used to say
    (None, "say how it fuses"),                                           # an elementwise op must decide
    (FuseSpec(), "exactly one of"),
    (FuseSpec(ufunc=np.add, lines=("_np.add({0}, {1}, out={out})",), nin=2), "exactly one of"),
    (FuseSpec(ufunc=abs), "NumPy ufunc"),
    (FuseSpec(lines=("_np.negative({0}, out={out})",)), "nin="),
    (FuseSpec(lines=("_np.negative({0})",), nin=1), "never write"),
    (FuseSpec(lines=("_np.add({0}, {1}, out={out})",), nin=1), "bad FuseSpec template"),
    (FuseSpec(lines=("_np.add({0}, out={out}",), nin=1), "bad FuseSpec template"),
    (FuseSpec(ufunc=np.negative, scalar="(-{0} +)"), "bad FuseSpec template"),
    (FuseSpec(ufunc=np.negative, scalar="{0} + {1}"), "bad FuseSpec template"),
])
def test_registration_rejects_a_record_the_fuser_cannot_use(fuse, message):
    with pytest.raises(ValueError, match=message):
        check_record(Op("Probe", _ident, _ident, kind="elementwise", fuse=fuse))


def test_registration_rejects_fuse_on_other_kinds_and_bad_emit():
    with pytest.raises(ValueError, match="only elementwise"):
        check_record(Op("Probe", _ident, _ident, kind="reduce", fuse=FuseSpec(ufunc=np.negative)))
    with pytest.raises(ValueError, match="emit must be callable"):
        check_record(Op("Probe", _ident, _ident, kind="opaque", emit="fast"))
    check_record(Op("Probe", _ident, _ident, kind="elementwise", fuse=False))  # explicitly never fused: fine


def _sample(dtype, shape, rng, positive=False):
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 6, shape).astype(dtype)
    lo = 0.2 if positive else -2.0
    return rng.uniform(lo, 2.0, shape).astype(dtype)


def _cases():
    """(op name, input dtypes, attrs) for every fusible elementwise record."""
    out = []
    for name, op in sorted(REGISTRY.items()):
        spec = op.fuse
        if op.kind != "elementwise" or not isinstance(spec, FuseSpec):
            continue
        n = spec.arity
        if name == "Select":
            out.append((name, (np.bool_, np.float32, np.float32), {}))
        elif name == "Cast":
            out.append((name, (np.float32,), {"dtype": mstype.int32}))
        elif name.startswith("Logical"):
            out.append((name, (np.bool_,) * n, {}))
        else:  # the first dtype the op's infer rule accepts
            for dt in (np.float32, np.int32, np.bool_):
                try:
                    op.infer(*[TensorType((2,), mstype.from_numpy(dt))] * n)
                except TypeError:
                    continue
                out.append((name, (dt,) * n, {}))
                break
    return out


def _single_node_graph(op, dtypes, attrs, arrays):
    ins = [Var(TensorType(a.shape, mstype.from_numpy(a.dtype))) for a in arrays]
    out_t = op.infer(*[v.type for v in ins], **attrs)
    out = Var(out_t)
    return Graph("probe", ins, [Node(op, ins, attrs, [out])], [out])


CASES = _cases()


def test_the_table_covers_the_fusible_records():
    names = {c[0] for c in CASES}
    assert {"Add", "ReLU", "Sigmoid", "Select", "Cast", "Erf", "Rsqrt"} <= names


@pytest.mark.parametrize("name, dtypes, attrs", CASES, ids=[c[0] for c in CASES])
def test_fuse_spec_matches_the_kernel(name, dtypes, attrs):
    """The blocked NumPy kernel (and the numba loop, where the spec has a scalar form) built from the
    record's FuseSpec gives what the op's own impl gives."""
    op = REGISTRY[name]
    rng = np.random.default_rng(len(name))
    positive = name in ("Log", "Sqrt", "Rsqrt", "Log1p", "Pow", "Reciprocal", "Lgamma", "Digamma", "Igamma", "Igammac",
                        "Zeta") or name.startswith(("BesselY", "BesselK"))
    if name in ("Asin", "ACos", "Atanh", "Erfinv"):
        arrays = [(_sample(dt, (3, 5), rng) / 2.5).astype(dt) for dt in dtypes]
    elif name == "Acosh":
        arrays = [(_sample(dt, (3, 5), rng, True) + 1).astype(dt) for dt in dtypes]
    else:
        arrays = [_sample(dt, (3, 5), rng, positive) for dt in dtypes]
    want = op.impl(*arrays, **attrs)
    sub = _single_node_graph(op, dtypes, attrs, arrays)
    assert kernels.fusible(sub.nodes[0]), f"{name}: has a FuseSpec but the fuser refuses it"
    (got,) = kernels.BlockedKernel(sub)(*arrays)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, err_msg=f"{name} blocked kernel")
    assert got.dtype == want.dtype
    if op.fuse.scalar is not None and kernels.numba_available() and kernels.numba_eligible(sub, poly=False):
        src = kernels.numba_source(sub, poly=False)   # (float32 polynomial forms: tests/fusion/test_fastmath.py)
        ns: dict = {}
        exec(compile(src.replace("@numba.njit", "# "), "<k>", "exec"), ns)
        o = np.empty(want.shape, want.dtype)
        ns["kern"](*[a.reshape(-1) for a in arrays], o.reshape(-1))
        np.testing.assert_allclose(o, want, rtol=2e-6, atol=1e-6, err_msg=f"{name} numba scalar form")


def test_emit_fast_paths_come_from_the_records():
    """The code generator has no per-op-name branches: each fast path is an ``emit`` on a record."""
    import inspect

    from sprout.backend import pycodegen

    src = inspect.getsource(pycodegen)
    for name in ("MatMul", "ReLU", "Reshape", "Transpose", "GetItem", "Concat", "SumTo", "FusedElementwise"):
        assert REGISTRY[name].emit is not None
        assert f'"{name}"' not in src, f"pycodegen still special-cases {name} by name"
