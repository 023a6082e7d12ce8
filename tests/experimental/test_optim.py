"""mindspore.experimental.optim against MindSpore 2.10 (tests/experimental/data/optim.npz, written by
tools/ms_exp_optim_oracle.py): every parameter after each of STEPS steps, eagerly and with the step inside jit;
rejected constructions raise MindSpore's exception type."""
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor
from sprout.experimental import optim

from . import optim_cases as cases

DATA = np.load(Path(__file__).parent / "data" / "optim.npz")
ERRORS = {"TypeError": TypeError, "ValueError": ValueError}


def _run(ctor, jitted):
    params = cases.make_params(Parameter, Tensor, np)
    opt = eval(ctor, {"optim": optim, "params": params})  # noqa: S307 - our own case table
    step_fn = ms.jit(lambda *g: opt(g)) if jitted else (lambda *g: opt(g))
    for step in range(cases.STEPS):
        grads = cases.gradient_arrays(step, np)
        step_fn(*[Tensor(grads[p.name]) for p in opt.parameters])
        yield step, params


@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("key, ctor", cases.CASES, ids=[k for k, _ in cases.CASES])
def test_matches_mindspore(key, ctor, jitted):
    for step, params in _run(ctor, jitted):
        for p in params:
            np.testing.assert_allclose(p.asnumpy(), DATA[f"{key}|{step}|{p.name}"], rtol=2e-5, atol=2e-6,
                                       err_msg=f"{key} step {step} {p.name}")


@pytest.mark.parametrize("key, code", cases.ERRORS, ids=[k for k, _ in cases.ERRORS])
def test_rejects_like_mindspore(key, code):
    want = str(DATA[f"{key}|error"])
    with pytest.raises(ERRORS[want]):
        eval(code, {"optim": optim, "params": cases.make_params(Parameter, Tensor, np)})  # noqa: S307


def test_param_groups_and_lrs():
    params = cases.make_params(Parameter, Tensor, np)
    opt = optim.Adam(eval(cases.G2, {"params": params}), lr=0.01)  # noqa: S307
    assert len(opt.param_groups) == 2 and len(opt.lrs) == 2
    assert opt.param_groups[0]["weight_decay"] == 0.01 and opt.param_groups[1]["weight_decay"] == 0.0
    assert float(opt.lrs[0].asnumpy()) == pytest.approx(0.05) and float(opt.lrs[1].asnumpy()) == pytest.approx(0.01)
    extra = Parameter(Tensor(np.ones(2, np.float32)), name="extra")
    opt.add_param_group({"params": [extra], "lr": 0.5})
    assert len(opt.parameters) == 4 and len(opt.exp_avg) == 4
    opt(tuple(Tensor(np.ones(p.shape, np.float32)) for p in opt.parameters))
    assert not np.allclose(extra.asnumpy(), 1.0)


def _optimizer():
    params = cases.make_params(Parameter, Tensor, np)
    return optim.SGD(eval(cases.G2, {"params": params}), lr=0.1)  # noqa: S307 - our own case table


def _check_lrs(opt, sched, key, tag):
    last = [float(v.asnumpy()) for v in sched.get_last_lr()]
    group = [float(g["lr"].asnumpy()) for g in opt.param_groups]
    np.testing.assert_allclose(last, DATA[f"sched|{key}|{tag}|last"], rtol=1e-5, err_msg=f"{key} {tag} get_last_lr")
    np.testing.assert_allclose(group, DATA[f"sched|{key}|{tag}|group"], rtol=1e-5, err_msg=f"{key} {tag} lr")


@pytest.mark.parametrize("mode", ["eager", "ast", "bytecode"])
@pytest.mark.parametrize("key, ctor, calls", cases.SCHEDULERS, ids=[k for k, _, _ in cases.SCHEDULERS])
def test_scheduler_matches_mindspore(key, ctor, calls, mode):
    """Eagerly, and with step() inside jit (its epoch/metric arguments as run-time tensors: one graph for all
    calls with arguments, one for those without)."""
    opt = _optimizer()
    sched = eval(ctor, {"lr_scheduler": optim.lr_scheduler, "opt": opt})  # noqa: S307
    _check_lrs(opt, sched, key, "init")
    step = sched.step if mode == "eager" else ms.jit(lambda *a: sched.step(*a), capture_mode=mode)
    for i, args in enumerate(calls):
        step(*(args if mode == "eager" else [Tensor(np.float32(a)) for a in args]))
        _check_lrs(opt, sched, key, i)


@pytest.mark.parametrize("key, code", cases.SCHEDULER_ERRORS, ids=[k for k, _ in cases.SCHEDULER_ERRORS])
def test_scheduler_rejects_like_mindspore(key, code):
    with pytest.raises(ERRORS[str(DATA[f"sched|{key}|error"])]):
        eval(code, {"lr_scheduler": optim.lr_scheduler, "opt": _optimizer()})  # noqa: S307


def test_scheduled_rate_reaches_the_jitted_update():
    """The scheduler writes the optimizer's lr Parameters, which a jitted step reads at run time."""
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    opt = optim.SGD([p], lr=1.0)
    sched = optim.lr_scheduler.StepLR(opt, 1, 0.5)
    step = ms.jit(lambda g: opt((g,)))
    seen = []
    for _ in range(3):
        before = p.asnumpy().copy()
        step(Tensor(np.ones(2, np.float32)))
        seen.append(float(before[0] - p.asnumpy()[0]))
        sched.step()
    assert seen == [1.0, 0.5, 0.25]


@pytest.mark.parametrize("name, key, kwargs", [("SGD", "sgd_momentum", {"lr": 0.05, "momentum": 0.9}),
                                               ("Adam", "adam", {}), ("AdamW", "adamw", {"lr": 0.01}),
                                               ("FusedAdamW", "adamw", {"lr": 0.01})])
def test_mint_optim_follows_the_same_rules(name, key, kwargs):
    """mint.optim's classes are these (MindSpore 2.10's own mint.optim does not update on CPU: its in-place kernels
    are Ascend's), checked against the experimental fixtures."""
    from sprout import mint

    params = cases.make_params(Parameter, Tensor, np)
    opt = getattr(mint.optim, name)(params, **kwargs)
    for step in range(cases.STEPS):
        grads = cases.gradient_arrays(step, np)
        opt(tuple(Tensor(grads[p.name]) for p in opt.parameters))
        for p in params:
            np.testing.assert_allclose(p.asnumpy(), DATA[f"{key}|{step}|{p.name}"], rtol=2e-5, atol=2e-6)


def test_parameter_clone_init():
    """Optimizer state comes from Parameter.clone(init): "same", "zeros", "ones", a number or an initializer."""
    from sprout.common.initializer import Constant

    p = Parameter(Tensor(np.arange(3, dtype=np.float32)), name="p")
    assert np.array_equal(p.clone().asnumpy(), [0, 1, 2])
    assert np.array_equal(p.clone("zeros").asnumpy(), [0, 0, 0]) and np.array_equal(p.clone("ones").asnumpy(), [1] * 3)
    assert np.array_equal(p.clone(0.5).asnumpy(), [0.5] * 3)
    assert np.array_equal(p.clone(Constant(2.0)).asnumpy(), [2] * 3)
    assert p.clone("zeros").name == "p" and p.clone("zeros").dtype == p.dtype
    with pytest.raises(ValueError, match="init"):
        p.clone("normal-ish")


def test_namespaces_reachable_as_attributes():
    """``ms.mint``, ``ms.numpy`` and ``ms.experimental`` work without importing them first, as in MindSpore."""
    import sprout as ms_

    assert ms_.experimental.optim.SGD is optim.SGD and ms_.experimental.optim.lr_scheduler.StepLR
    assert ms_.mint.optim.AdamW is optim.AdamW
    assert float(ms_.numpy.ones(2).sum().asnumpy()) == 2.0
    with pytest.raises(AttributeError):
        ms_.not_a_submodule  # noqa: B018


@pytest.mark.parametrize("where", ["jit", "graph_mode"])
def test_scheduler_steps_inside_the_training_step(where):
    """optimizer and scheduler.step() in one compiled step (a jitted function, or a Cell's construct in
    GRAPH_MODE): each update uses the rate the previous steps scheduled (StepLR halving every 2 steps)."""
    from sprout import nn

    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    opt = optim.SGD([p], lr=1.0)
    sched = optim.lr_scheduler.StepLR(opt, 2, 0.5)

    class Step(nn.Cell):
        def construct(self, g):
            opt((g,))
            sched.step()
            return p

    cell = Step()
    step = ms.jit(lambda g: cell(g)) if where == "jit" else cell
    if where == "graph_mode":
        ms.set_context(mode=ms.GRAPH_MODE)
    try:
        seen = []
        for _ in range(5):
            before = p.asnumpy().copy()
            step(Tensor(np.ones(2, np.float32)))
            seen.append(float(before[0] - p.asnumpy()[0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert seen == [1.0, 1.0, 0.5, 0.5, 0.25]
    assert float(sched.last_epoch.asnumpy()) == 5.0
