"""Kernels for fused elementwise groups: blocked NumPy with ``out=`` buffers (1 or 2 threads) and numba loops."""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.graph import Const, Graph, Var, last_uses
from . import pool
from .buffers import SLOW_IN_PLACE

BLOCK = 1 << 16          # elements per block: a block's intermediates stay in L2
MT_MIN = 1 << 18         # below this, one thread (pool hand-off costs more than it gains)
MEASURE_MIN = 1 << 18    # below this the cost model decides without timing
SMALL_MAX = 1 << 14      # below this, a group is fused only as one serial numba kernel (``small.py``)
SAMPLE = 1 << 20         # elements timed for a larger group (a 4 MB float32 input: far past L2)


def fusible(node) -> bool:
    """Can this node join a fused group: an elementwise op whose record carries a FuseSpec (``core/op.py``)."""
    op = node.op
    spec = op.fuse
    if op.kind != "elementwise" or len(node.outputs) != 1 or not spec:
        return False
    if node.attrs and not spec.attrs:
        return False
    if spec.float_only:
        return node.outputs[0].type.dtype.np.kind == "f"
    return True


def graph_key(sub: Graph) -> str:
    """A structural hash of a fused sub-graph (types, ops, wiring, constants)."""
    ids = {v.uid: f"i{k}" for k, v in enumerate(sub.inputs)}
    parts = [";".join(str(v.type) for v in sub.inputs)]
    for k, node in enumerate(sub.nodes):
        ids[node.outputs[0].uid] = f"n{k}"
        args = [ids[x.uid] if isinstance(x, Var) else _const_text(x.value) for x in node.inputs]
        parts.append(f"{node.op.name}({','.join(args)}){sorted((a, str(b)) for a, b in node.attrs.items())}"
                     f":{node.outputs[0].type}")
    parts.append(",".join(ids[o.uid] if isinstance(o, Var) else repr(o) for o in sub.outputs))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:20]


def _const_text(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return f"arr{v.dtype}{v.shape}{hashlib.sha1(np.ascontiguousarray(v).tobytes()).hexdigest()[:12]}"
    return repr(v)


# ---- blocked NumPy --------------------------------------------------------------------------------------
def _bind(ns: dict, prefix: str, value: Any) -> str:
    for k, v in ns.items():
        if v is value and k.startswith(prefix):
            return k
    key = f"{prefix}{sum(1 for k in ns if k.startswith(prefix))}"
    ns[key] = value
    return key


def _emit_block(sub: Graph, ns: dict) -> tuple[str, list]:
    """Source of ``blk(i..., o..., b...)`` computing one block; returns (source, buffer dtypes)."""
    names: dict[int, str] = {v.uid: f"i{k}" for k, v in enumerate(sub.inputs)}
    out_pos = {}
    for k, o in enumerate(sub.outputs):
        out_pos.setdefault(o.uid, k)
    last = last_uses(sub)  # outputs live to the end (they are o-buffers, never freed anyway)
    free: dict[Any, list] = {}
    buf_dtypes: list = []
    lines = []

    def ref(x):
        if isinstance(x, Var):
            return names[x.uid]
        v = x.value
        if isinstance(v, (bool, int, float)) and (not isinstance(v, float) or np.isfinite(v)):
            return repr(v)
        key = f"c{len(ns)}"
        ns[key] = v
        return key

    for i, node in enumerate(sub.nodes):
        out = node.outputs[0]
        dt = out.type.dtype.np
        spec = node.op.fuse
        dead = [x for x in dict.fromkeys(node.inputs) if isinstance(x, Var) and last.get(x.uid) == i
                and names[x.uid].startswith("b") and x.type.dtype.np == dt]
        if out.uid in out_pos:
            dest = f"o{out_pos[out.uid]}"
        elif dead and spec.inplace and spec.ufunc not in SLOW_IN_PLACE:
            dest = names[dead[0].uid]
            dead = dead[1:]
        elif free.get(dt):
            dest = free[dt].pop()
        else:
            dest = f"b{len(buf_dtypes)}"
            buf_dtypes.append(dt)
        a = [ref(x) for x in node.inputs]
        if spec.ufunc is not None:
            u = spec.ufunc
            fn = f"_np.{u.__name__}" if getattr(np, u.__name__, None) is u else _bind(ns, "_u", u)
            lines.append(f"{fn}({', '.join(a)}, out={dest})")
        else:
            impl = _bind(ns, "_impl", node.op.impl) if any("{impl}" in t for t in spec.lines) else ""
            lines += [t.format(*a, out=dest, impl=impl) for t in spec.lines]
        names[out.uid] = dest
        for x in dead:
            free.setdefault(x.type.dtype.np, []).append(names[x.uid])
    for k, o in enumerate(sub.outputs):  # an output that is an input or a repeated value: copy it
        src = names.get(o.uid) if isinstance(o, Var) else ref(o)
        if src != f"o{k}":
            lines.append(f"_np.copyto(o{k}, {src})")
    params = ([f"i{k}" for k in range(len(sub.inputs))] + [f"o{k}" for k in range(len(sub.outputs))]
              + [f"b{k}" for k in range(len(buf_dtypes))])
    src = f"def blk({', '.join(params)}):\n" + "".join(f"    {ln}\n" for ln in lines)
    return src, buf_dtypes


class BlockedKernel:
    """Run a fused group block by block with preallocated ``out=`` buffers; ``threads`` in {1, 2}."""

    def __init__(self, sub: Graph, threads: int = 1):
        self.sub = sub
        self.threads = threads
        ns: dict = {"_np": np}
        src, self.buf_dtypes = _emit_block(sub, ns)
        self.source = src
        exec(compile(src, f"<sprout-fused {graph_key(sub)}>", "exec"), ns)  # noqa: S102 - generated here
        self.blk = ns["blk"]
        self.out_types = [o.type for o in sub.outputs]
        self.shape = tuple(self.out_types[0].shape) if self.out_types else ()
        self.fallback: Callable | None = None

    def _plain(self) -> Callable:
        if self.fallback is None:
            from .pycodegen import generate

            self.fallback = generate(self.sub).function("graph_fn")
        return self.fallback

    def __call__(self, *args):
        if self.fallback is not None:
            return self.fallback(*args)
        try:
            return self._run(args)
        except (TypeError, ValueError):  # a dtype rule NumPy's out= rejects: run this group unfused from now on
            return self._plain()(*args)

    def _run(self, args):
        shape = np.broadcast_shapes(*[np.shape(a) for a in args]) if args else self.shape
        outs = [np.empty(shape, t.dtype.np) for t in self.out_types]
        n = int(np.prod(shape)) if shape else 1
        flat = all(np.shape(a) == shape or np.size(a) == 1 for a in args)
        if flat or not shape:
            ins = [a.reshape(-1) if np.shape(a) == shape else _squeeze(a) for a in args]
            views = [o.reshape(-1) for o in outs]
            length, row = n, 1
            sliced = [np.shape(a) == shape for a in args]
        else:  # broadcasting inputs: block over rows of axis 0
            nd = len(shape)
            ins = list(args)
            sliced = [np.ndim(a) == nd and np.shape(a)[0] == shape[0] and shape[0] != 1 for a in args]
            views = outs
            length = shape[0]
            row = max(1, n // max(1, shape[0]))
        step = max(1, BLOCK // row)
        ranges = [(s, min(length, s + step)) for s in range(0, length, step)]
        if self.threads > 1 and len(ranges) > 1 and n >= MT_MIN:
            half = (len(ranges) + 1) // 2
            t = pool.submit(self._blocks, ins, views, sliced, ranges[half:], step * row, row)
            try:
                self._blocks(ins, views, sliced, ranges[:half], step * row, row)
            finally:
                pool.join(t)
        else:
            self._blocks(ins, views, sliced, ranges, step * row, row)
        return tuple(outs)

    def _blocks(self, ins, views, sliced, ranges, size, row):
        shape_tail = views[0].shape[1:] if views else ()
        bufs = [np.empty((size // row,) + tuple(shape_tail) if row > 1 else (size,), dt)
                for dt in self.buf_dtypes]
        with np.errstate(divide="ignore", invalid="ignore"):
            for s, e in ranges:
                m = e - s
                self.blk(*[a[s:e] if sl else a for a, sl in zip(ins, sliced)], *[v[s:e] for v in views],
                         *[b[:m] for b in bufs])


def _squeeze(a):
    return a.reshape(()) if isinstance(a, np.ndarray) else a


# ---- numba loops ----------------------------------------------------------------------------------------
@functools.cache
def numba_available() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def _form(node, poly: bool) -> str | None:
    """The node's scalar expression template for a numba loop: its float32 polynomial form when ``poly``
    allows and it has one (``backend/fastmath.py``), else its exact scalar form, else None."""
    spec = node.op.fuse
    if poly and spec.poly is not None and node.outputs[0].type.dtype.np == np.float32:
        return spec.poly
    return spec.scalar


def numba_eligible(sub: Graph, poly: bool = True) -> bool:
    """Every array input has the output shape, float dtypes only, every op has a scalar (or float32 polynomial)
    form."""
    if not sub.outputs or any(not isinstance(o, Var) for o in sub.outputs):
        return False
    shape = tuple(sub.outputs[0].type.shape)
    for v in list(sub.inputs) + [n.outputs[0] for n in sub.nodes]:
        if v.type.dtype.np not in (np.float32, np.float64):
            return False
    if any(tuple(v.type.shape) != shape for v in sub.inputs):
        return False
    for node in sub.nodes:
        if not node.op.fuse or _form(node, poly) is None:
            return False
        for x in node.inputs:
            if isinstance(x, Const) and not isinstance(x.value, (int, float)):
                return False
    return True


def scalar_lines(sub: Graph, pad: str, out_index: str, poly: bool = False) -> tuple[list, dict]:
    """Loop-body lines computing the group on scalars ``a<k>`` (the inputs' elements, read by the caller) and
    storing ``o<k>[out_index]``; returns (lines, {(dtype name, value): constant name}). A constant is typed
    like NumPy's weak scalars: the node's output dtype. ``poly``: use float32 polynomial forms (``_form``)."""
    names = {v.uid: f"a{k}" for k, v in enumerate(sub.inputs)}
    consts: dict = {}
    body = []
    for k, node in enumerate(sub.nodes):
        dt = node.outputs[0].type.dtype.np.name
        args = []
        for x in node.inputs:
            if isinstance(x, Var):
                args.append(names[x.uid])
            else:
                args.append(consts.setdefault((dt, float(x.value)), f"_c{len(consts)}"))
        body.append(f"{pad}t{k} = {_form(node, poly).format(*args)}")
        names[node.outputs[0].uid] = f"t{k}"
    body += [f"{pad}o{k}[{out_index}] = {names[o.uid]}" for k, o in enumerate(sub.outputs)]
    return body, consts


def numba_source(sub: Graph, poly: bool = True) -> str:
    """A serial loop over the flat group that releases the GIL (``NumbaKernel`` splits it across threads itself);
    with ``poly``, float32 exp/tanh/sigmoid use ``fastmath``'s forms."""
    body, consts = scalar_lines(sub, "        ", "j", poly)
    body = [f"        a{k} = i{k}[j]" for k in range(len(sub.inputs))] + body
    dt0 = sub.outputs[0].type.dtype.np.name
    head = ["import numpy as np", "import numba", "", f"_z = np.{dt0}(0)"]
    if any(_form(n, poly) != n.op.fuse.scalar for n in sub.nodes):
        from .fastmath import helpers_source

        head.append(helpers_source())
    head += [f"{name} = np.{dt}({val!r})" for (dt, val), name in consts.items()]
    params = [f"i{k}" for k in range(len(sub.inputs))] + [f"o{k}" for k in range(len(sub.outputs))]
    return "\n".join(head + ["", "",
                             "@numba.njit(nogil=True, fastmath=False, cache=True, error_model='numpy')",
                             f"def kern({', '.join(params)}):",
                             "    for j in range(o0.shape[0]):"] + body) + "\n"


class NumbaKernel:
    """A loop compiled from a source file under the kernel cache dir (numba caches beside it); ``threads`` = 2
    runs the two halves of the flat range at once, one on the persistent pool thread (the loop holds no GIL).
    Not numba's ``parallel=True``: its OpenMP workers spin after each call (W3 under load: the prange loop
    took 14.6 ms CPU where the serial loop took 9.6), CPU that the next node's BLAS then lacks."""

    def __init__(self, sub: Graph, threads: int = 1):
        self.sub = sub
        self.threads = threads
        self.out_types = [o.type for o in sub.outputs]
        self.source = numba_source(sub)
        self.path, self.kern = load_kernel("k", self.source)

    def __call__(self, *args):
        shape = np.shape(args[0])
        outs = [np.empty(shape, t.dtype.np) for t in self.out_types]
        ins = [np.ascontiguousarray(a).reshape(-1) for a in args]
        views = [o.reshape(-1) for o in outs]
        n = views[0].shape[0]
        if self.threads > 1 and n >= MT_MIN:
            h = (n // 2 + 63) & ~63  # a cache-line multiple for float32 and float64
            t = pool.submit(self.kern, *[a[h:] for a in ins], *[v[h:] for v in views])
            try:
                self.kern(*[a[:h] for a in ins], *[v[:h] for v in views])
            finally:
                pool.join(t)
        else:
            self.kern(*ins, *views)
        return tuple(outs)


def load_kernel(prefix: str, source: str) -> tuple[str, Callable]:
    """Import ``kern`` from ``source`` written under the kernel cache dir (numba keeps its compiled cache beside
    the file, so a later process loads instead of compiling); returns (path, kern)."""
    key = hashlib.sha1(source.encode()).hexdigest()[:20]
    path = _kernel_path(f"{prefix}_{key}.py", source)
    spec = importlib.util.spec_from_file_location(f"sprout_kernel_{prefix}_{key}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # numba's cache loader resolves the kernel's module by name
    spec.loader.exec_module(mod)
    return path, mod.kern


def _cache_dir() -> str:
    from .. import context

    d = context.get_context("kernel_cache_dir")
    if not d:
        import tempfile

        d = os.path.join(tempfile.gettempdir(), f"sprout-kernels-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    return d


def _kernel_path(name: str, source: str) -> str:
    d = os.path.join(_cache_dir(), "kernels")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    if not os.path.exists(path):  # keep the file (and its mtime) stable: numba's cache is keyed on it
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    return path


# ---- choosing a strategy ----------------------------------------------------------------------------------
STRATEGIES = ("numpy_blocked", "numpy_mt", "numba", "numba_mt", "numba_small")
_built: dict = {}
_decisions: dict | None = None
_decisions_path: str | None = None
_busy_decisions: dict = {}  # decisions measured while the machine was busy: this process only (see ``choose``)
COUNTERS: dict = {"measured": 0, "decisions_from_disk": 0, "numba_compiles": 0, "numba_seconds": 0.0,
                  "measure_seconds": 0.0}


def build(sub: Graph, strategy: str) -> Callable:
    """The kernel for ``sub`` under ``strategy`` (built once per process per sub-graph)."""
    key = (graph_key(sub), strategy)
    k = _built.get(key)
    if k is None:
        if strategy in ("numba", "numba_mt"):
            t = time.perf_counter()
            k = NumbaKernel(sub, threads=2 if strategy == "numba_mt" else 1)
            COUNTERS["numba_compiles"] += 1
            COUNTERS["numba_seconds"] += time.perf_counter() - t
        elif strategy == "numba_small":
            from .small import SmallKernel

            k = SmallKernel(sub)
        elif strategy == "unfused":
            from .pycodegen import generate

            k = generate(sub).function("graph_fn")
        else:
            k = BlockedKernel(sub, threads=2 if strategy == "numpy_mt" else 1)
        _built[key] = k
    return k


def _decision_file() -> str:
    return os.path.join(_cache_dir(), "fusion_decisions.json")


def _load_decisions() -> dict:
    global _decisions, _decisions_path
    path = _decision_file()
    if _decisions is None or _decisions_path != path:
        try:
            with open(path) as f:
                _decisions = json.load(f)
        except (OSError, ValueError):
            _decisions = {}
        _decisions_path = path
    return _decisions


def _save_decision(key: str, value: str) -> None:
    d = _load_decisions()
    d[key] = value
    try:
        path = _decision_file()
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump(d, f, indent=0, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass


def candidates(sub: Graph, n: int, allow_numba: bool = True) -> list[str]:
    """The cost model: which strategies are worth timing for this group at ``n`` elements."""
    libm = any(node.op.fuse and node.op.fuse.transcendental and _form(node, True) == node.op.fuse.scalar
               for node in sub.nodes)
    two = n >= MT_MIN and (os.cpu_count() or 1) >= 2
    cands = ["numpy_blocked"] + (["numpy_mt"] if two else [])
    # a libm call per element keeps numba from vectorising (measured 3.5x slower than NumPy's SIMD loops on W3);
    # arithmetic and fastmath's polynomial forms vectorise (W3, AVX-512: 8.4 ms CPU against blocked NumPy's 14)
    if allow_numba and not libm and n >= MEASURE_MIN and numba_available() and numba_eligible(sub):
        cands += ["numba"] + (["numba_mt"] if two else [])
    return cands


def _random_inputs(sub: Graph, rng, sample: int | None = None) -> list:
    """Inputs for timing; with ``sample``, 1-D arrays of that many elements when every input has
    the group's shape (memory-bound kernels scale linearly past the caches)."""
    shape0 = tuple(sub.outputs[0].type.shape)
    flat = sample is not None and all(tuple(v.type.shape) == shape0 for v in sub.inputs)
    out = []
    for v in sub.inputs:
        dt = v.type.dtype.np
        shape = (sample,) if flat else tuple(v.type.shape)
        if dt.kind == "f":
            out.append(rng.standard_normal(shape).astype(dt))
        elif dt.kind == "b":
            out.append(rng.random(shape) < 0.5)
        else:
            out.append(rng.integers(1, 5, shape).astype(dt))
    return out


TWO_THREADS = {"numpy_mt": "numpy_blocked", "numba_mt": "numba"}  # each 2-thread strategy and its serial form


def busy() -> bool:
    """No free core for a second thread: the 1-minute load average (this process included) is within half a
    core of the core count (the threshold ``bench/suite.py`` warns at)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return load >= (os.cpu_count() or 1) - 0.5


def _timings(fns: dict, args, rounds: int = 3) -> dict:
    """{name: (best wall seconds, best process CPU seconds)} of ``fns`` called on ``args``, one warm call each,
    then ``rounds`` rounds taking every candidate in turn (a load change hits them alike). A candidate that
    fails to build or run is left out."""
    live = {}
    for name, make in fns.items():
        try:
            fn = make()
            fn(*args)
        except Exception:  # noqa: BLE001 - a strategy that fails to build or run is simply not chosen
            continue
        live[name] = fn
    best = {name: (float("inf"), float("inf")) for name in live}
    for _ in range(rounds):
        for name, fn in live.items():
            w, c = time.perf_counter(), time.process_time()
            fn(*args)
            c, w = time.process_time() - c, time.perf_counter() - w
            best[name] = (min(best[name][0], w), min(best[name][1], c))
    return best


def choose(sub: Graph, n: int, allow_numba: bool = True) -> str:
    """Pick a strategy: the cost model proposes, a one-time measurement decides (cached on disk when taken on a
    quiet machine, for this process when taken under load). Returns "unfused" when no fused kernel beats the
    plain per-op code."""
    if n < SMALL_MAX:  # tiny arrays: one compiled call instead of a NumPy dispatch per op, when it can be
        from .small import eligible

        return "numba_small" if allow_numba and numba_available() and eligible(sub) else "unfused"
    cands = candidates(sub, n, allow_numba)
    if n < MEASURE_MIN:  # cache-resident sizes: blocking gains nothing, the kernel driver's overhead loses
        return "unfused"
    key = f"{graph_key(sub)}|{n.bit_length()}|{os.cpu_count()}|{'+'.join(cands)}|quiet"
    d = _load_decisions()
    mine = (_decision_file(), key)  # in-process decisions are per cache dir too, as the stored ones
    if mine in _busy_decisions:
        return _busy_decisions[mine]
    loaded = d.get(key)
    if loaded is not None and not (loaded in TWO_THREADS and busy()):  # busy: a 2-thread choice is measured again
        COUNTERS["decisions_from_disk"] += 1
        return loaded
    t0 = time.perf_counter()
    args = _random_inputs(sub, np.random.default_rng(0), SAMPLE if n > SAMPLE else None)
    before = busy()
    times = _timings({s: functools.partial(build, sub, s) for s in ["unfused"] + cands}, args)
    after = busy()
    # Quiet machine: the fastest by wall time, kept on disk for later processes. Busy (no free core, before or
    # after timing): wall times are inflated at random and a second thread only adds CPU, so the cheapest by
    # process CPU time (a 2-thread kernel is charged both threads), kept for this process only: a later process
    # on a quiet machine measures again (a decision measured under load once stuck, W3's serial loop on disk).
    quiet = not (before or after)
    best = min(times, key=lambda s: times[s][0 if quiet else 1])
    COUNTERS["measured"] += 1
    COUNTERS["measure_seconds"] += time.perf_counter() - t0
    if quiet:
        _save_decision(key, best)
    else:
        _busy_decisions[mine] = best
    return best
