"""Scenarios of the extra wrappers (ForwardValueAndGrad, GradAccumulationCell, PipelineCell, MicroBatchInterleaved,
ParameterUpdate, Jvp, Vjp) written once against a framework module: tools/ms_wrap_oracle.py runs them in
MindSpore 2.10 and stores the arrays in tests/nn/fixtures/wrap_extra.npz; tests/nn/test_nn_extra.py runs them in
sprout (eagerly and, where the scenario allows, in GRAPH_MODE) and compares."""


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [y for o in out for y in _flat(o)]
    return [out.asnumpy()]


def run(nn, Tensor, Parameter, ParameterTuple, np):
    """name -> list of output arrays."""
    rng = np.random.default_rng(3)
    x = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    label = Tensor(rng.standard_normal((4, 2)).astype(np.float32))

    def dense():
        net = nn.Dense(3, 2)
        net.weight.set_data(Tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32)))
        net.bias.set_data(Tensor(np.array([0.1, -0.2], np.float32)))
        return net

    out = {}
    loss_net = nn.WithLossCell(dense(), nn.MSELoss())
    fvg = nn.ForwardValueAndGrad(loss_net, weights=ParameterTuple(loss_net.trainable_params()), get_all=True,
                                 get_by_list=True)
    out["fvg_all_list"] = _flat(fvg(x, label))
    loss_net = nn.WithLossCell(dense(), nn.MSELoss())
    out["fvg_inputs"] = _flat(nn.ForwardValueAndGrad(loss_net, get_all=True)(x, label))
    net = dense()
    fvg = nn.ForwardValueAndGrad(net, weights=ParameterTuple(net.trainable_params()), get_by_list=True,
                                 sens_param=True)
    out["fvg_sens"] = _flat(fvg(x, Tensor(np.full((4, 2), 0.5, np.float32))))
    out["grad_accumulation"] = _flat(nn.GradAccumulationCell(nn.WithLossCell(dense(), nn.MSELoss()), 2)(x, label))
    out["pipeline"] = _flat(nn.PipelineCell(nn.WithLossCell(dense(), nn.MSELoss()), 4)(x, label))
    out["interleaved"] = _flat(nn.MicroBatchInterleaved(nn.WithLossCell(dense(), nn.MSELoss()), 2)(x, label))
    p = Parameter(Tensor(np.zeros((2,), np.float32)), name="p")
    upd = nn.ParameterUpdate(p)
    r = upd(Tensor(np.array([1.5, -2.0], np.float32)))
    out["parameter_update"] = [r.asnumpy(), p.asnumpy()]
    return out
