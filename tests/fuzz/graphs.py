"""The graph-level fuzzer: random IR graphs (built with sprout's ``GraphBuilder`` from random op sequences)
go through every pass of the pipeline, fusion with each kernel strategy forced, and the code generator.
The IR verifier runs after every pass; every stage's graph is interpreted (``backend/interpret.py``) and
compared with the interpretation of the original graph, and the generated code with the same.

The graphs exercise what the passes rewrite: constant subtrees (folding), the simplify table's patterns
(``x*1``, ``x**2``, ``reshape(reshape(x))``, ``x[t] @ W``, sums of matmuls), repeated expressions (CSE),
dead values (DCE), unused inputs (prune), in-place ``assign`` on a Parameter read before and after
(effect order), ``Cond`` / ``WhileLoop`` nodes with bodies, and same-shape elementwise chains (fusion)."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

import sprout as ms
from sprout import ops
from sprout.backend.interpret import interpret
from sprout.core.types import TensorType
from sprout.ir.builder import GraphBuilder
from sprout.ir.verify import verify

from .harness import tolerance

STRATEGIES = ("numpy_blocked", "numpy_mt")  # "numba" too with run_graphs(numba=True): compiles are slow
SHAPES = ((2, 3), (4,), (3, 3), (2, 2, 3))


def _control():
    """``cond`` / ``while_loop`` (their module may move while the compiler is reorganised)."""
    import importlib

    for name in ("sprout.ops.control", "sprout.capture.control", "sprout.ir.control"):
        try:
            m = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(m, "cond") and hasattr(m, "while_loop"):
            return m.cond, m.while_loop
    raise ImportError("cond/while_loop not found")


class _Maker:
    """Random op applications on tracers; every value is a float32 tensor of a shape from ``SHAPES``."""

    def __init__(self, r: random.Random, shape: tuple, params: list):
        self.r = r
        self.S = shape
        self.params = params

    def pick(self, pool: list, shape, default):
        c = [v for v in pool if tuple(v.shape) == tuple(shape)]
        return self.r.choice(c) if c else default

    def const(self, shape) -> ms.Tensor:
        return ms.Tensor(np.round(np.asarray(self.r.uniform(-1, 1), np.float32) + np.zeros(shape, np.float32)
                                  + np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * 0.1, 2))

    def step(self, pool: list, depth: int = 0) -> list:
        """Append 1-3 new values to ``pool`` (returns the new values)."""
        r, S = self.r, self.S
        x = self.pick(pool, S, r.choice(pool)) if r.random() < 0.7 else r.choice(pool)
        sh = tuple(x.shape)
        kinds = ["unary", "binary", "binary", "const", "pattern", "dup", "reduce", "shape"]
        if len(sh) >= 2:
            kinds += ["matmul"]
        if self.params:
            kinds += ["assign"]
        if depth == 0:
            kinds += ["cond", "while", "call"]
        k = r.choice(kinds)
        if k == "unary":
            f = r.choice((ops.tanh, ops.sin, ops.cos, ops.sigmoid, ops.relu, ops.abs, ops.neg, ops.square,
                          lambda t: ops.exp(ops.tanh(t)), lambda t: ops.sqrt(ops.abs(t) + 1),
                          lambda t: ops.log(ops.abs(t) + 1)))
            return [f(x)]
        if k == "binary":
            y = self.pick(pool, sh, x)
            if r.random() < 0.3:
                y = y.sum() if r.random() < 0.5 else y.reshape(-1)[: sh[-1]] if len(sh) else y
            f = r.choice((ops.add, ops.sub, ops.mul, ops.maximum, ops.minimum, lambda a, b: a / (ops.abs(b) + 1)))
            return [f(x, y)]
        if k == "const":  # constant subtrees: folding
            c = self.const(sh)
            return [x * ops.exp(ops.tanh(c)) + ops.sin(c * 2)]
        if k == "pattern":  # the simplify table's left-hand sides
            forms = (lambda t: t * 1, lambda t: t + 0, lambda t: t - 0, lambda t: t / 1, lambda t: t ** 2,
                     lambda t: t.reshape(-1).reshape(sh), lambda t: ops.neg(ops.neg(t)), lambda t: t * 0 + t,
                     lambda t: ops.transpose(ops.transpose(t, tuple(reversed(range(len(sh))))),
                                             tuple(reversed(range(len(sh))))) if len(sh) >= 2 else t + 0)
            return [r.choice(forms)(x)]
        if k == "dup":  # the same expression twice: CSE
            y = self.pick(pool, sh, x)
            return [ops.tanh(x * y) + 1, ops.tanh(x * y) * 2]
        if k == "reduce":
            ax = r.randrange(len(sh)) if sh else None
            f = r.choice((lambda t: t.sum(ax, keepdims=True), lambda t: t.mean(ax, keepdims=True),
                          lambda t: ops.amax(t, ax, keepdims=True)))
            return [x * f(x)] if sh else [x + 1]
        if k == "shape":
            forms = [lambda t: ops.broadcast_to(t.sum(), sh), lambda t: ops.concat((t, t), 0)[: sh[0]] if sh else t,
                     lambda t: ops.stack((t, t * 2)).sum(0), lambda t: ops.expand_dims(t, 0).squeeze(0),
                     # distinct pieces made here: built in place (backend/concat_dest.py), a piece read after
                     lambda t: (ops.concat((t * 2, t + 1), 0)[: sh[0]] - (t + 1)) if sh else t]
            return [r.choice(forms)(x)]
        if k == "matmul":
            if len(sh) == 3:  # x[t] @ W for several t: the GEMM batching rewrite
                w = self.const((sh[-1], sh[-1]))
                return [ops.stack([ops.matmul(x[t], w) for t in range(sh[0])])]
            a, b = sh
            w1, w2 = self.const((b, b)), self.const((b, b))
            y = self.pick(pool, sh, x)
            p1, p2 = ops.matmul(x, w1), ops.matmul(y, w2)
            return [p1 + p2, ops.matmul(x.T, y), ops.concat((p1, p2 * 0.5), 0)[a:] + p1]
        if k == "assign":  # read a Parameter, write it, read it again
            p = r.choice(self.params)
            before = p * 2
            v = self.pick(pool, tuple(p.shape), None)
            if v is None:
                v = ops.broadcast_to(x.mean(), tuple(p.shape))
            (ops.assign if r.random() < 0.6 else ops.assign_add)(p, ops.tanh(v))
            return [before + 0, p + 1]
        if k == "call":  # a GraphCall node: the inline pass expands it
            from sprout.core.dispatch import bind
            from sprout.ir.builder import trace_subgraph
            from sprout.ir.callop import GRAPH_CALL

            sub = _Maker(r, sh, [])

            def callee(a):
                vals = [a]
                for _ in range(r.randint(1, 3)):
                    vals += sub.step(vals, depth=1)
                return [v for v in vals if tuple(v.shape) == sh][-1]

            g, _ = trace_subgraph(callee, [TensorType(sh, ms.float32)], "callee")
            out = bind(GRAPH_CALL, (x, *g.captured), {"graph": g})
            return [out[0] if isinstance(out, (tuple, list)) else out]
        cond, while_loop = _control()
        if k == "cond":
            y = self.pick(pool, sh, x)
            sub = _Maker(r, sh, [])

            def branch(a, b):
                vals = [a, b]
                for _ in range(r.randint(1, 3)):
                    vals += sub.step(vals, depth=1)
                return [v for v in vals if tuple(v.shape) == sh][-1]

            b1, b2 = (lambda a, b: branch(a, b)), (lambda a, b: branch(b, a))
            return [cond(x.sum() > 0, b1, b2, x, y)]
        y = self.pick(pool, sh, x)
        n = r.randint(1, 3)

        def body(i, a, b):
            return i + 1, ops.tanh(a * 0.9 + b), b

        _, out, _ = while_loop(lambda i, a, b: (i < n) & (a.sum() < 100), body, (ms.Tensor(np.int32(0)), x, y))
        return [out]


@dataclass
class Case:
    seed: int
    graph: object
    values: dict  # input Var uid -> array (Parameters' values included)

    def inputs(self, graph) -> list:
        return [self.values[v.uid] for v in graph.inputs]


def random_graph(seed: int) -> Case:
    r = random.Random(seed)
    S = r.choice(SHAPES)
    n_in = r.randint(1, 3)
    params = [ms.Parameter(ms.Tensor(np.round(np.random.default_rng(seed).standard_normal(S), 2)
                                     .astype(np.float32)), name=f"p{k}") for k in range(r.randint(0, 1))]
    builder = GraphBuilder(f"fuzz{seed}")
    arrays = []
    with builder:
        pool = []
        for k in range(n_in):
            sh = S if k == 0 or r.random() < 0.6 else r.choice(SHAPES)
            pool.append(builder.add_input(TensorType(sh, ms.float32)))
            arrays.append(np.round(np.random.default_rng(seed + 1000 * k).standard_normal(sh), 2).astype(np.float32))
        if r.random() < 0.2:  # an unused input: prune
            builder.add_input(TensorType(S, ms.float32))
            arrays.append(np.ones(S, np.float32))
        mk = _Maker(r, S, params)
        for _ in range(r.randint(3, 10)):
            pool += mk.step(pool)
        outs = [pool[-1]] + r.sample(pool, min(len(pool), r.randint(0, 2)))
        graph = builder.finish(outs)
    values = dict(zip([v.uid for v in graph.inputs], arrays))
    for v in graph.inputs[len(arrays):]:  # Parameters read by the graph (in first-use order)
        src = builder.sources.get(v.uid)
        values[v.uid] = np.array(src[1]._data, copy=True)
    return Case(seed, graph, values)


@dataclass
class GraphSummary:
    graphs: int = 0
    ok: int = 0
    failures: list = field(default_factory=list)  # (seed, message)
    stages: dict = field(default_factory=dict)    # stage -> graphs it changed
    invalid: int = 0
    seconds: float = 0.0

    def table(self) -> str:
        return (f"{self.graphs} graphs in {self.seconds:.1f} s: {self.ok} agree, {len(self.failures)} fail, "
                f"{self.invalid} not built\nstages that changed graphs: "
                + ", ".join(f"{k} {v}" for k, v in sorted(self.stages.items())))


def _run(graph, case) -> tuple:
    return interpret(graph, *[np.array(a, copy=True) for a in case.inputs(graph)])


def _same(ref, got, shadow, where: str) -> str | None:
    if len(ref) != len(got):
        return f"{where}: {len(ref)} results vs {len(got)}"
    for i, (a, b) in enumerate(zip(ref, got)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"{where}: result {i} is {b.dtype}{list(b.shape)}, expected {a.dtype}{list(a.shape)}"
        if a.dtype.kind in "biu":
            if not np.array_equal(a, b):
                return f"{where}: result {i} differs"
            continue
        if not np.array_equal(np.isfinite(a), np.isfinite(b)):
            return f"{where}: result {i}: non-finite values differ"
        fin = np.isfinite(a)
        err = float(np.max(np.abs(a[fin].astype(np.float64) - b[fin]), initial=0.0))
        s = None if shadow is None else np.asarray(shadow[i])
        if err > tolerance(a, None) and err > tolerance(a, s):
            return f"{where}: result {i} max |diff| {err:.3g} > {tolerance(a, s):.3g}"
    return None


def check_graph(case: Case, strategies=STRATEGIES) -> tuple[str | None, set]:
    """(first failure or None, names of the stages that changed the graph)."""
    from sprout.backend.pycodegen import generate
    from sprout.passes.fuse import fuse_elementwise
    from sprout.passes.pipeline import PIPELINE

    g0 = case.graph
    changed: set = set()
    try:
        verify(g0)
    except Exception as exc:  # noqa: BLE001 - the builder made an invalid graph
        return f"built graph fails the verifier: {exc}", changed
    ref = _run(g0, case)
    try:
        shadow = interpret(g0, *[np.asarray(a, np.float64) for a in case.inputs(g0)])
    except Exception:  # noqa: BLE001 - no float64 reference: the tight bound stands
        shadow = None

    def stage(name, g):
        try:
            verify(g)
        except Exception as exc:  # noqa: BLE001
            return f"after {name}: verifier: {type(exc).__name__}: {exc}"
        try:
            got = _run(g, case)
        except Exception as exc:  # noqa: BLE001
            return f"after {name}: interpreter: {type(exc).__name__}: {str(exc).splitlines()[0]}"
        return _same(ref, got, shadow, f"after {name}")

    def codegen(name, g):
        try:
            fn = generate(g).function("graph_fn")
            got = fn(*[np.array(a, copy=True) for a in case.inputs(g)])
        except Exception as exc:  # noqa: BLE001
            return f"codegen of {name}: {type(exc).__name__}: {str(exc).splitlines()[0]}"
        return _same(ref, got, shadow, f"codegen of {name}")

    msg = codegen("the traced graph", g0)
    if msg:
        return msg, changed
    g = g0
    for name, fn in PIPELINE:
        try:
            new = fn(g)
        except Exception as exc:  # noqa: BLE001
            return f"{name} raised {type(exc).__name__}: {exc}", changed
        if new is not g:
            changed.add(name)
            msg = stage(name, new)
            if msg:
                return msg, changed
            g = new
    msg = codegen("O0", g)
    if msg:
        return msg, changed
    for strategy in strategies:
        try:
            fused = fuse_elementwise(g, choose=lambda sub, n, s=strategy: s, min_elements=1)
        except Exception as exc:  # noqa: BLE001
            return f"fuse[{strategy}] raised {type(exc).__name__}: {exc}", changed
        if fused is not g:
            changed.add(f"fuse[{strategy}]")
            msg = stage(f"fuse[{strategy}]", fused) or codegen(f"fuse[{strategy}]", fused)
            if msg:
                return msg, changed
    return None, changed


def run_graphs(seeds, strategies=STRATEGIES) -> GraphSummary:
    s = GraphSummary()
    t0 = time.time()
    for seed in seeds:
        s.graphs += 1
        try:
            case = random_graph(seed)
        except Exception:  # noqa: BLE001 - a random op sequence the ops reject (counted, not a failure)
            s.invalid += 1
            continue
        msg, changed = check_graph(case, strategies)
        for c in changed:
            s.stages[c] = s.stages.get(c, 0) + 1
        if msg:
            s.failures.append((seed, msg))
        else:
            s.ok += 1
    s.seconds = time.time() - t0
    return s
