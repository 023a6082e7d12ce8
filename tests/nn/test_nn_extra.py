"""Cells of tests/nn/cases/extra.py beyond the MindSpore fixtures: MatDet/MatInverse (no MindSpore CPU kernel)
against NumPy, gradients MindSpore's CPU build cannot give (FractionalMaxPool) or that the fixtures do not cover
against finite differences along random directions, the sampler path of SampledSoftmaxLoss, and the nn.*Ext names."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn

RNG = np.random.default_rng(11)


def _directional_check(fn, xs, rounds=3, eps=1e-3, rtol=2e-3, atol=2e-4):
    """ms.grad of the scalar ``fn`` (float32 inputs) against central differences along random directions, in
    float64 arithmetic on the NumPy side."""
    grads = ms.grad(fn, grad_position=tuple(range(len(xs))))(*[Tensor(x) for x in xs])
    grads = grads if isinstance(grads, tuple) else (grads,)
    for _ in range(rounds):
        dirs = [RNG.standard_normal(x.shape) for x in xs]
        hi = fn(*[Tensor((x + eps * d).astype(x.dtype)) for x, d in zip(xs, dirs)]).asnumpy()
        lo = fn(*[Tensor((x - eps * d).astype(x.dtype)) for x, d in zip(xs, dirs)]).asnumpy()
        numeric = (float(hi) - float(lo)) / (2 * eps)
        analytic = sum(float((g.asnumpy().astype(np.float64) * d).sum()) for g, d in zip(grads, dirs))
        assert abs(numeric - analytic) <= atol + rtol * abs(numeric), (numeric, analytic)


def _spd(batch, m):
    a = RNG.standard_normal((batch, m, m))
    return (a @ a.transpose(0, 2, 1) + m * np.eye(m)).astype(np.float32)


@pytest.mark.parametrize("cell, ref", [(nn.MatDet(), np.linalg.det), (nn.MatInverse(), np.linalg.inv)])
def test_spd_cells_against_numpy(cell, ref):
    a = _spd(2, 3)
    np.testing.assert_allclose(cell(Tensor(a)).asnumpy(), ref(a.astype(np.float64)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ms.jit(lambda x: cell(x))(Tensor(a)).asnumpy(), cell(Tensor(a)).asnumpy(),
                               rtol=1e-6, atol=1e-6)
    cot = RNG.standard_normal(ref(a).shape).astype(np.float32)

    def objective(x):  # symmetrised input: the gradient is taken on the SPD manifold's ambient space
        return (cell((x + ms.ops.swapaxes(x, -1, -2)) * 0.5) * Tensor(cot)).sum()

    _directional_check(objective, [a], eps=1e-2)


def test_spd_cells_refuse_bad_input():
    with pytest.raises(TypeError, match="MatDet"):
        nn.MatDet()(Tensor(np.eye(2, dtype=np.int32)))
    with pytest.raises(ValueError, match="MatInverse"):
        nn.MatInverse()(Tensor(np.ones((2, 3), np.float32)))


@pytest.mark.parametrize("nd", [2, 3])
def test_fractional_max_pool_gradient(nd):
    shape = (2, 2, 7, 8) if nd == 2 else (1, 2, 5, 6, 5)
    x = RNG.permutation(np.prod(shape)).reshape(shape).astype(np.float32) * 0.1  # distinct: no ties
    samples = Tensor(RNG.uniform(0, 1, (shape[0], shape[1], nd)).astype(np.float32))
    cls = nn.FractionalMaxPool2d if nd == 2 else nn.FractionalMaxPool3d
    cell = cls(2, output_size=(3,) * nd, return_indices=True, _random_samples=samples)
    out, idx = cell(Tensor(x))
    flat = x.reshape(shape[0], shape[1], -1)
    got = np.take_along_axis(flat, idx.asnumpy().reshape(shape[0], shape[1], -1), 2)
    np.testing.assert_array_equal(got.reshape(out.shape), out.asnumpy())  # values are the input at the indices
    cot = Tensor(RNG.standard_normal(out.shape).astype(np.float32))
    _directional_check(lambda t: (cell(t)[0] * cot).sum(), [x], eps=1e-2)  # piecewise linear, spacing 0.1
    jout = ms.jit(lambda t: cell(t))(Tensor(x))
    np.testing.assert_array_equal(jout[0].asnumpy(), out.asnumpy())
    np.testing.assert_array_equal(jout[1].asnumpy(), idx.asnumpy())


def test_fractional_max_pool_draws_samples_from_the_seed():
    x = Tensor(RNG.standard_normal((2, 3, 9, 9)).astype(np.float32))
    cell = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
    ms.set_seed(5)
    a = cell(x)
    ms.set_seed(5)
    b = cell(x)
    assert a.shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_sampled_softmax_with_its_sampler():
    w = RNG.standard_normal((20, 4)).astype(np.float32)
    b = RNG.standard_normal(20).astype(np.float32)
    labels = Tensor(np.array([[3], [7], [11]], np.int32))
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    ms.set_seed(3)
    per_example = nn.SampledSoftmaxLoss(5, 20, seed=2)(Tensor(w), Tensor(b), labels, Tensor(x))
    ms.set_seed(3)
    mean = nn.SampledSoftmaxLoss(5, 20, seed=2, reduction="mean")(Tensor(w), Tensor(b), labels, Tensor(x))
    assert per_example.shape == (3,) and mean.shape == ()
    assert np.all(per_example.asnumpy() > 0)
    np.testing.assert_allclose(mean.asnumpy(), per_example.asnumpy().mean(), rtol=1e-6)


def test_sampled_softmax_gradient():
    sampled = (Tensor(np.array([1, 4, 6], np.int32)), Tensor(np.array([[0.4], [0.6]], np.float32)),
               Tensor(np.array([0.3, 0.5, 0.45], np.float32)))
    loss = nn.SampledSoftmaxLoss(3, 7, sampled_values=sampled, reduction="sum")
    labels = Tensor(np.array([[0], [2]], np.int32))
    xs = [RNG.standard_normal(s).astype(np.float32) for s in ((7, 4), (7,), (2, 4))]
    _directional_check(lambda w, b, x: loss(w, b, labels, x), xs)


def test_bidense_and_lppool_gradients():
    cell = nn.BiDense(3, 2, 4)
    xs = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 5, 3), (2, 5, 2))]
    cot = Tensor(RNG.standard_normal((2, 5, 4)).astype(np.float32))
    _directional_check(lambda a, c: (cell(a, c) * cot).sum(), xs)
    pool = nn.LPPool2d(2, 2)
    x = RNG.uniform(0.5, 2.0, (1, 2, 4, 4)).astype(np.float32)
    _directional_check(lambda t: pool(t).sum(), [x])


def test_timedistributed_refuses_merging_the_time_axis_with_itself():
    with pytest.raises(ValueError, match="reshape_with_axis"):
        nn.TimeDistributed(nn.Dense(3, 2), time_axis=1, reshape_with_axis=1)(Tensor(np.ones((2, 3, 3), np.float32)))


def test_ext_cells_are_the_mint_layers():
    from sprout.mint import nn as mint_nn

    assert nn.AvgPool2dExt is mint_nn.AvgPool2d and nn.LayerNormExt is mint_nn.LayerNorm
    assert nn.PReLUExt is mint_nn.PReLU and nn.EmbeddingExt is mint_nn.Embedding
    assert "DropoutExt" in dir(nn)
    x = Tensor(RNG.standard_normal((1, 2, 4, 4)).astype(np.float32))
    assert nn.MaxPool2dExt(2)(x).shape == (1, 2, 2, 2)


def _wrap_fixture():
    from pathlib import Path

    import wrap_cases

    with np.load(Path(__file__).parent / "fixtures" / "wrap_extra.npz") as data:
        want = {k: data[k] for k in data.files}
    return wrap_cases, want


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_wrappers_match_mindspore(mode):
    """tests/nn/wrap_cases.py run here (eagerly and in GRAPH_MODE) against MindSpore 2.10's outputs."""
    from sprout import Parameter, ParameterTuple

    cases, want = _wrap_fixture()
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        got = cases.run(nn, Tensor, Parameter, ParameterTuple, np)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert {f"{k}|{i}" for k, vs in got.items() for i in range(len(vs))} == set(want)
    for key, values in got.items():
        for i, v in enumerate(values):
            np.testing.assert_allclose(v, want[f"{key}|{i}"], rtol=1e-5, atol=1e-6, err_msg=f"{key} output {i}")


def test_jvp_vjp_cells():
    """Values MindSpore 2.10 gives for f(x, y) = x^3 + y and g(x) = (x^3, 2x) at x = [1, 2], y = [3, 4]."""
    class F(nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y

    class G(nn.Cell):
        def construct(self, x):
            return x ** 3, x * 2

    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    v = Tensor(np.array([1.0, 0.5], np.float32))
    out, jv = nn.Jvp(F())(x, y, (v, v))
    np.testing.assert_allclose(out.asnumpy(), [4, 12])
    np.testing.assert_allclose(jv.asnumpy(), [4, 6.5])
    out, vj = nn.Vjp(F())(x, y, v)
    np.testing.assert_allclose(vj[0].asnumpy(), [3, 6])
    np.testing.assert_allclose(vj[1].asnumpy(), [1, 0.5])
    out, jv = nn.Jvp(G())(x, v)
    np.testing.assert_allclose(jv[0].asnumpy(), [3, 6])
    np.testing.assert_allclose(jv[1].asnumpy(), [2, 1])
    out, vj = nn.Vjp(G())(x, (v, v))
    assert isinstance(vj, Tensor)
    np.testing.assert_allclose(vj.asnumpy(), [5, 7])


def test_wrapper_argument_checks():
    with pytest.raises(TypeError, match="micro_size"):
        nn.GradAccumulationCell(nn.ReLU(), 2.0)
    with pytest.raises(ValueError, match="interleave_num"):
        nn.MicroBatchInterleaved(nn.ReLU(), 0)
    with pytest.raises(TypeError, match="weights"):
        nn.ForwardValueAndGrad(nn.ReLU(), get_by_list=True)
    with pytest.raises(TypeError, match="Parameter"):
        nn.ParameterUpdate(Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="divisible by 3"):
        nn.GradAccumulationCell(nn.ReLU(), 3)(Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(KeyError, match="nope"):
        nn.PipelineCell(nn.SequentialCell([nn.ReLU()]), 2, stage_config={"nope": 0})
    cell = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    nn.PipelineCell(cell, 2, stage_config={"0": 0, "1": 1})
    assert cell[1].pipeline_stage == 1


def test_virtual_dataset_cell_triple_passes_the_three_inputs():
    class Sum3(nn.Cell):
        def construct(self, a, b, c):
            return a + 2 * b + 3 * c

    x = [Tensor(np.full(2, v, np.float32)) for v in (1.0, 2.0, 3.0)]
    wrapped = nn.VirtualDatasetCellTriple(Sum3())
    np.testing.assert_array_equal(wrapped(*x).asnumpy(), [14.0, 14.0])
    np.testing.assert_array_equal(ms.jit(lambda *a: wrapped(*a))(*x).asnumpy(), [14.0, 14.0])


def _extra_cases():
    from ms_cases import Fixture

    fx = Fixture("extra")
    return fx, fx.cases()


_FX, _CASES = _extra_cases()


@pytest.mark.parametrize("case", _CASES, ids=lambda c: c["key"])
def test_extra_cases_under_bytecode_capture(case):
    """The MindSpore fixtures of tests/nn/cases/extra.py again, forward and gradients through jit's bytecode
    capture (test_ms_cases runs them eagerly and through AST capture)."""
    from ms_cases import check_forward, check_grads

    check_forward(_FX, case, run=lambda fn, xs: ms.jit(fn, capture_mode="bytecode")(*xs))
    check_grads(_FX, case, wrap=lambda f: ms.jit(f, capture_mode="bytecode"))
