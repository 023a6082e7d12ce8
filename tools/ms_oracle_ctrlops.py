"""Run in MindSpore's venv: MindSpore 2.10 (CPU) on the loop, custom, dump and morph primitives ->
tests/ops/data/oracle_ctrlops.json.

    /work/msvenv/bin/python tools/ms_oracle_ctrlops.py

Records, for the programs of tests/ops/ctrlops_cases.py: PyNative and GRAPH_MODE (jit) outputs and gradients of
the loops, Custom(pyfunc) and Morph values and gradients, TensorDump / DumpGradient file names and contents, and
the exception type and first message line of each misuse in MISUSE."""
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "ops" / "data" / "oracle_ctrlops.json"
sys.path.insert(0, str(ROOT / "tests" / "ops"))

import ctrlops_cases as C  # noqa: E402


def _arrays(out) -> list:
    return [np.asarray(o.asnumpy()).tolist() for o in C.flat(out)]


def _error(fn) -> list:
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the oracle records whatever MindSpore raises
        return [type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""]
    return ["", ""]


def main():
    import mindspore as ms
    from mindspore import ops

    C.use(ms)
    ms.set_context(device_target="CPU")
    data: dict = {"loops": {}, "custom": {}, "morph": {}, "dump": {}, "misuse": {}}
    x, y = ms.Tensor(C.X), ms.Tensor(C.Y)
    for name, fn in C.LOOPS.items():
        jitted = ms.jit(fn)

        def loss(a, fn=fn):
            return C.first(fn(a)).sum()

        def jloss(a, jitted=jitted):
            return C.first(jitted(a)).sum()

        rec = data["loops"][name] = {}
        for key, run in (("eager", lambda fn=fn: _arrays(fn(x))), ("graph", lambda j=jitted: _arrays(j(x))),
                         ("grad_eager", lambda f=loss: ms.grad(f)(x).asnumpy().tolist()),
                         ("grad_graph", lambda f=jloss: ms.grad(f)(x).asnumpy().tolist())):
            try:
                rec[key] = run()
            except (RuntimeError, TypeError) as exc:  # MindSpore fails on some of these: recorded, not compared
                rec[key + "_error"] = [type(exc).__name__, str(exc).splitlines()[0]]
    cc = C.custom_callables()

    def custom_loss(a, b):
        return (cc(a, b) * a).sum()

    data["custom"]["affine"] = _arrays(cc(x, y))
    data["custom"]["affine_grad"] = _arrays(ms.grad(custom_loss, grad_position=(0, 1))(x, y))
    data["custom"]["multi"] = _arrays(C.custom_multi()(x))
    for name, fn in (("plain", C.morph_plain), ("custom", C.morph_custom)):
        jitted = ms.jit(fn)

        def mloss(a, b, jitted=jitted):
            return jitted(a, b).sum()

        data["morph"][name] = _arrays(jitted(x, y))
        data["morph"][name + "_grad"] = _arrays(ms.grad(mloss, grad_position=(0, 1))(x, y))
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            ops.TensorDump()("a", x)
            ops.TensorDump()("sub/b.npy", (x * 2).astype(ms.int32))
            ops.TensorDump("in")("c", x.astype(ms.bfloat16))

            def dumped(a, b):
                a = ops.DumpGradient()("g.npy", a, "out")
                return (a * b * a).sum()

            ms.grad(dumped, grad_position=(0, 1))(x, y)
            files = sorted(str(p.relative_to(tmp)) for p in Path(tmp).rglob("*.npy"))
            data["dump"] = {f: [str(np.load(f).dtype), np.load(f).tolist()] for f in files}
        finally:
            os.chdir(cwd)
    for name, fn in C.misuse_cases().items():
        data["misuse"][name] = _error(fn)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
