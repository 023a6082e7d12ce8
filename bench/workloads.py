"""The benchmark workloads written once against the MindSpore API: ``import sprout as ms`` when imported
(by suite.py) or run plainly, ``import mindspore as ms`` when run as
``python bench/workloads.py --framework mindspore --json`` (MindSpore's venv), which prints this
framework's measurements as JSON for suite.py to merge."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)


def _framework_from_argv() -> str:
    if __name__ == "__main__" and "--framework" in sys.argv[:-1]:
        return sys.argv[sys.argv.index("--framework") + 1]
    return os.environ.get("BENCH_FRAMEWORK", "sprout")  # set by scripts importing this module (bench_amp.py)


FRAMEWORK = _framework_from_argv()
if FRAMEWORK == "mindspore":
    import mindspore as ms
    from mindspore import nn, ops
else:
    sys.path.insert(0, os.path.dirname(_HERE))
    import sprout as ms
    from sprout import nn, ops

import models  # noqa: E402
import numpy_ref as ref  # noqa: E402
from common import Options, Prepared, measure_group  # noqa: E402

JSON_MARKER = "=== bench json ==="


class NotAvailable(RuntimeError):
    """The framework lacks what a contestant needs (e.g. ``ms.jit`` not there yet)."""


# ---- variants: eager, and jit at each level the framework has -------------------------------------
def variants() -> list[tuple[str, str | None]]:
    """(contestant suffix, jit level or None for eager)."""
    if FRAMEWORK == "mindspore":
        return [("pynative", None), ("jit", "")]
    return [("eager", None), ("jit O0", "O0"), ("jit O1", "O1")]


def jit(fn, level: str):
    """``ms.jit(fn)`` at ``level`` ('' = the framework's default)."""
    if not hasattr(ms, "jit"):
        raise NotAvailable("ms.jit does not exist")
    if not level:
        return ms.jit(fn)
    try:
        return ms.jit(fn, jit_level=level)
    except TypeError:
        return ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))


def _ms_sync_fn():
    """MindSpore may queue PyNative ops and run them asynchronously: its executor's sync waits for them."""
    try:
        from mindspore.common.api import _pynative_executor
        return _pynative_executor.sync
    except (ImportError, AttributeError):
        return lambda: None


_SYNC = _ms_sync_fn() if FRAMEWORK == "mindspore" else None


def _sync(out):
    _SYNC()
    return out


def _np(out) -> list:
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res += _np(o)
        return res
    return [out.asnumpy()]


def _prepared(step, state=None, per=1) -> Prepared:
    return Prepared(step, to_numpy=_np, state=state, sync=_sync if FRAMEWORK == "mindspore" else None, per=per)


def _load(params, arrays) -> None:
    params = list(params)
    if len(params) != len(arrays):
        raise ValueError(f"{len(params)} parameters, expected {len(arrays)}")
    for p, a in zip(params, arrays):
        if tuple(p.shape) != a.shape:
            raise ValueError(f"parameter {p.name} has shape {tuple(p.shape)}, expected {a.shape}")
        p.set_data(ms.Tensor(a))


def _state(params):
    return lambda: [p.asnumpy() for p in params]


# ---- W1: the seed Test cell (Add -> jitted Mul -> Add) on ones(3, 3) -----------------------------
class Add(nn.Cell):
    def construct(self, x):
        x = x + x
        x = x + x
        return x


class Mul(nn.Cell):
    def construct(self, x):
        x = x * x
        x = x * x
        return x


class Test(nn.Cell):
    def __init__(self, mul=None):
        super().__init__()
        self.add = Add()
        self.mul = mul if mul is not None else Mul()

    def construct(self, x):
        x = self.add(x)
        x = self.mul(x)
        x = self.add(x)
        return x


def w1(level):
    """Eager: every cell eager. Jit: the whole Test cell compiled."""
    net = Test()
    x = ms.Tensor(ref.w1_data())
    if level is None:
        return _prepared(lambda: net(x))

    def seed(a):
        return net(a)

    f = jit(seed, level)
    return _prepared(lambda: f(x))


def w1_seed(level):
    """Exactly the seed: Add eager, Mul with a jitted construct, Add eager."""
    if level is None:
        raise NotAvailable("only jit variants")
    mul_jit = type("MulJit", (Mul,), {"construct": jit(Mul.construct, level)})
    net = Test(mul_jit())
    x = ms.Tensor(ref.w1_data())
    return _prepared(lambda: net(x))


# ---- W2: 1000 small eager ops --------------------------------------------------------------------
def w2(level):
    if level is not None:
        raise NotAvailable("eager only (see W7b for the jitted chain)")
    x, c, d = (ms.Tensor(a) for a in ref.w2_data())

    def ops1000():
        y = x
        for _ in range(ref.W2_PAIRS):
            y = y * c
            y = y + d
        return y

    return _prepared(ops1000, per=2 * ref.W2_PAIRS)


# ---- W3: 16-op elementwise chain on 4M float32 ---------------------------------------------------
def expr16(x, y):
    a = x * y                       # 1
    b = a + x                       # 2
    c = b - y                       # 3
    d = ops.abs(y)                  # 4
    e = d + 1.0                     # 5
    f = c / e                       # 6
    g = ops.tanh(f)                 # 7
    h = g * 0.5                     # 8
    i = ops.exp(h)                  # 9
    j = i - 1.0                     # 10
    k = ops.maximum(j, 0.0)         # 11
    m = ops.sqrt(ops.abs(f))        # 12, 13
    n = k * m                       # 14
    o = n + g                       # 15
    return o * y                    # 16


def w3(level):
    x, y = (ms.Tensor(a) for a in ref.w3_data())
    f = expr16 if level is None else jit(expr16, level)
    return _prepared(lambda: f(x, y))


# ---- W4: MLP training step; W5: LeNet-5 training step ---------------------------------------------
def _train_step(net, arrays, level):
    _load(net.trainable_params(), arrays)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), learning_rate=ref.LR)

    def forward(data, label):
        return loss_fn(net(data), label)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        opt(grads)
        return loss

    return train_step if level is None else jit(train_step, level)


def mlp_net():
    a, b, c, d = ref.MLP_SIZES
    return nn.SequentialCell([nn.Dense(a, b), nn.ReLU(), nn.Dense(b, c), nn.ReLU(), nn.Dense(c, d)])


def w4(level):
    x, y, params = ref.mlp_data()
    net = mlp_net()
    step = _train_step(net, params, level)
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    return _prepared(lambda: step(xt, yt), state=_state(net.trainable_params()))


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def w5(level):
    x, y, params = ref.lenet_data()
    net = LeNet5()
    step = _train_step(net, params, level)
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    return _prepared(lambda: step(xt, yt), state=_state(net.trainable_params()))


# ---- W6: tanh RNN cell looped 50 steps, forward + backward ---------------------------------------
class RNNLoop(nn.Cell):
    def __init__(self, wx, wh, b):
        super().__init__()
        self.wx = ms.Parameter(ms.Tensor(wx), name="wx")
        self.wh = ms.Parameter(ms.Tensor(wh), name="wh")
        self.b = ms.Parameter(ms.Tensor(b), name="b")

    def construct(self, xs, h):
        for t in range(50):
            h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
        return ops.mean(h * h)


def w6(level):
    xs, h0, params = ref.rnn_data()
    net = RNNLoop(*params)
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())

    def fwd_bwd(a, h):
        return grad_fn(a, h)

    f = fwd_bwd if level is None else jit(fwd_bwd, level)
    xt, ht = ms.Tensor(xs), ms.Tensor(h0)
    return _prepared(lambda: f(xt, ht))


# ---- W7b: a chain of 200 small ops (first call = capture + compile) -------------------------------
def chain200(x):
    for _ in range(100):
        x = x * 0.999
        x = x + 0.001
    return x


def w7b(level):
    x = ms.Tensor(ref.chain_data())
    f = chain200 if level is None else jit(chain200, level)
    return _prepared(lambda: f(x))


# ---- M1-M3: real models (ResNet-18-style CIFAR, Transformer encoder, LSTM), train steps ------------
_BUILD = models.define(ms, nn, ops)


def model_step(w: str):
    """A real train step: the cell in training mode (as Model.train sets it), so BatchNorm normalises with the
    batch statistics and updates its moving mean/variance (checked with the parameters after the first step;
    Dropout is p=0 in M2, an identity in either mode)."""
    def prepare(level):
        net = _BUILD(w)
        net.set_train(True)
        params = net.trainable_params()
        step = _train_step(net, models.initial_values(w, [(p.name, tuple(p.shape)) for p in params]), level)
        xt, yt = (ms.Tensor(a) for a in models.inputs(w))
        return _prepared(lambda: step(xt, yt), state=_state(params + net.untrainable_params()))
    return prepare


WORKLOADS = {"W1": w1, "W1s": w1_seed, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": w6, "W7b": w7b,
             "M1": model_step("M1"), "M2": model_step("M2"), "M3": model_step("M3")}


def contestants(names: list[str]) -> list[tuple[str, str, object]]:
    """(workload, contestant name, prepare) for this framework."""
    out = []
    for w in names:
        for suffix, level in variants():
            if w == "W2" and level is not None or w == "W1s" and level is None:
                continue
            out.append((w, f"{FRAMEWORK} {suffix}", lambda w=w, level=level: WORKLOADS[w](level)))
    return out


def _warm(x):
    return x + x


def warm_up(level: str) -> None:
    """Compile and run a trivial function once, so later first calls exclude one-time imports."""
    jit(_warm, level)(ms.Tensor(np.ones(2, np.float32)))


def run(names: list[str], opts: Options, arrays_dir: str, log=None) -> dict:
    """Measure every contestant of this framework; arrays for the check go to ``arrays_dir``."""
    results: dict = {}
    os.makedirs(arrays_dir, exist_ok=True)
    for _, level in variants():
        if level is not None:
            try:
                warm_up(level)
            except Exception:  # noqa: BLE001 - the contestants report it
                pass
    for w in names:
        group = [(name, prepare, True) for _, name, prepare in contestants([w])]
        measured = measure_group(group, opts, log=(lambda name, w=w: log(f"{w} {name}")) if log else None)
        for name, m in measured.items():
            path = None
            if m.arrays is not None:
                path = os.path.join(arrays_dir, f"{w}_{name.replace(' ', '_')}.npz")
                np.savez(path, *m.arrays)
            results.setdefault(w, {})[name] = {"median": m.median, "first": m.first, "peak": m.peak,
                                               "arrays": path, "error": m.error}
    return results


def first_call(workload: str, level: str | None) -> dict:
    """In a fresh process: run the workload once eagerly (one-time imports and kernel set-up, as the
    in-process contestants have had) and compile a trivial function, then time the first jitted step
    on a fresh network: the capture + compile cost."""
    import time
    WORKLOADS[workload](None).step()
    if level:
        warm_up(level)
    prep = WORKLOADS[workload](level)
    start = time.perf_counter()
    out = prep.step()
    if prep.sync is not None:
        prep.sync(out)
    return {"first": time.perf_counter() - start}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--framework", default="sprout", choices=["sprout", "mindspore"])
    p.add_argument("--json", action="store_true", help="print results as JSON (after a marker line)")
    p.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--arrays", default=None, help="directory for the outputs used by the check")
    p.add_argument("--first-call", default=None, metavar="W",
                   help="only time the first step of workload W (with --level) and print it as JSON")
    p.add_argument("--level", default=None, help="jit level for --first-call ('' = default; none = eager)")
    args = p.parse_args()
    if args.first_call:
        try:
            res = first_call(args.first_call, args.level)
        except Exception as exc:  # noqa: BLE001 - reported to the suite
            from common import short_error
            res = {"error": short_error(exc)}
        print(JSON_MARKER)
        print(json.dumps(res))
        return
    opts = Options(repeat=3, min_time=0.01, budget=0.5) if args.quick else Options()
    arrays_dir = args.arrays or tempfile.mkdtemp(prefix="bench_arrays_")
    names = [w for w in args.only.split(",") if w in WORKLOADS]
    results = run(names, opts, arrays_dir, log=lambda s: print(s, file=sys.stderr, flush=True))
    if args.json:
        print(JSON_MARKER)
        print(json.dumps({"framework": FRAMEWORK, "version": getattr(ms, "__version__", "?"), "results": results}))
    else:
        for w, row in results.items():
            for name, r in row.items():
                print(w, name, r)


if __name__ == "__main__":
    main()
