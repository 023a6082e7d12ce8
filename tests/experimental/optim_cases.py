"""mindspore.experimental.optim cases (pure data: importable by sprout's tests and by tools/ms_exp_optim_oracle.py
under MindSpore): each is a constructor expression over ``params`` (w, bias, norm.gamma) and ``optim``; the
optimizer then takes STEPS steps with fixed gradients, and every parameter after every step is compared."""
STEPS = 8
G2 = "[{'params': params[:2], 'lr': 0.05, 'weight_decay': 0.01}, {'params': params[2:]}]"
CASES = [
    ("sgd", "optim.SGD(params, lr=0.1)"),
    ("sgd_momentum", "optim.SGD(params, lr=0.05, momentum=0.9)"),
    ("sgd_nesterov_wd", "optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)"),
    ("sgd_dampening_max", "optim.SGD(params, lr=0.05, momentum=0.5, dampening=0.3, maximize=True)"),
    ("sgd_groups", f"optim.SGD({G2}, lr=0.1, momentum=0.9)"),
    ("adam", "optim.Adam(params)"),
    ("adam_wd_amsgrad", "optim.Adam(params, lr=0.01, weight_decay=0.1, amsgrad=True)"),
    ("adam_max", "optim.Adam(params, lr=0.01, betas=(0.8, 0.9), maximize=True)"),
    ("adam_groups", f"optim.Adam({G2}, lr=0.01)"),
    ("adamw", "optim.AdamW(params, lr=0.01)"),
    ("adamw_amsgrad", "optim.AdamW(params, lr=0.01, weight_decay=0.1, amsgrad=True)"),
    ("adamw_groups", f"optim.AdamW({G2}, lr=0.01, eps=1e-6)"),
    ("adamax", "optim.Adamax(params, lr=0.01)"),
    ("adamax_wd", "optim.Adamax(params, lr=0.01, weight_decay=0.1, betas=(0.8, 0.99))"),
    ("nadam", "optim.NAdam(params, lr=0.01)"),
    ("nadam_wd", "optim.NAdam(params, lr=0.01, weight_decay=0.1, momentum_decay=0.01)"),
    ("radam", "optim.RAdam(params, lr=0.01)"),
    ("radam_wd", "optim.RAdam(params, lr=0.01, weight_decay=0.1, betas=(0.8, 0.9))"),
    ("asgd", "optim.ASGD(params, lr=0.05)"),
    ("asgd_t0", "optim.ASGD(params, lr=0.05, lambd=0.01, alpha=0.5, t0=3.0, weight_decay=0.1)"),
    ("rprop", "optim.Rprop(params, lr=0.01)"),
    ("rprop_etas", "optim.Rprop(params, lr=0.02, etas=(0.3, 1.5), step_sizes=(1e-3, 0.05))"),
    ("adadelta", "optim.Adadelta(params)"),
    ("adadelta_wd", "optim.Adadelta(params, lr=0.5, rho=0.8, weight_decay=0.1)"),
    ("adagrad", "optim.Adagrad(params, lr=0.05)"),
    ("adagrad_decay", "optim.Adagrad(params, lr=0.05, lr_decay=0.1, initial_accumulator_value=0.5, weight_decay=0.1)"),
    ("rmsprop", "optim.RMSprop(params, lr=0.01)"),
    ("rmsprop_momentum", "optim.RMSprop(params, lr=0.01, momentum=0.9, weight_decay=0.1)"),
    ("rmsprop_centered", "optim.RMSprop(params, lr=0.01, alpha=0.9, centered=True, momentum=0.5)"),
    ("rmsprop_groups", f"optim.RMSprop({G2}, lr=0.01, centered=True)"),
]
# constructions MindSpore rejects: the exception type is stored and sprout must raise the same
ERRORS = [
    ("sgd_no_lr", "optim.SGD(params)"),
    ("sgd_negative_lr", "optim.SGD(params, lr=-0.1)"),
    ("sgd_nesterov_no_momentum", "optim.SGD(params, lr=0.1, nesterov=True)"),
    ("adam_bad_beta", "optim.Adam(params, betas=(1.0, 0.9))"),
    ("adam_negative_eps", "optim.Adam(params, eps=-1.0)"),
    ("adamw_negative_wd", "optim.AdamW(params, weight_decay=-0.1)"),
    ("rprop_bad_etas", "optim.Rprop(params, etas=(1.5, 1.2))"),
    ("adadelta_bad_rho", "optim.Adadelta(params, rho=1.5)"),
    ("rmsprop_negative_alpha", "optim.RMSprop(params, alpha=-0.1)"),
    ("empty_params", "optim.Adam([])"),
    ("not_parameters", "optim.Adam([1, 2])"),
    ("duplicate_groups", "optim.SGD([{'params': params[:2]}, {'params': params[1:]}], lr=0.1)"),
]


def make_params(Parameter, Tensor, np):  # noqa: N803 - the framework's classes
    rng = np.random.default_rng(0)
    return [Parameter(Tensor(rng.standard_normal((4, 6)).astype(np.float32)), name="w"),
            Parameter(Tensor(rng.standard_normal(3).astype(np.float32)), name="bias"),
            Parameter(Tensor(rng.uniform(0.5, 1.5, 3).astype(np.float32)), name="norm.gamma")]


def gradient_arrays(step, np):
    """Step ``step``'s gradients by parameter name (sign changes between steps exercise Rprop)."""
    rng = np.random.default_rng(100 + step)
    return {name: (rng.standard_normal(s) * (1.0 + 0.2 * step)).astype(np.float32)
            for name, s in (("w", (4, 6)), ("bias", (3,)), ("norm.gamma", (3,)))}

# lr_scheduler cases over ``opt`` = SGD(G2, lr=0.1) (two groups: 0.05 and 0.1): the scheduler expression and the
# argument tuples of its successive step() calls; get_last_lr() and each group's "lr" are compared after each.
N = [()]
SCHEDULERS = [
    ("step", "lr_scheduler.StepLR(opt, 3, 0.5)", N * 10),
    ("step_epoch", "lr_scheduler.StepLR(opt, 3, 0.5)", N * 2 + [(7,)] + N * 2),
    ("multistep", "lr_scheduler.MultiStepLR(opt, [2, 5, 5], 0.5)", N * 8),
    ("constant", "lr_scheduler.ConstantLR(opt, 0.5, 3)", N * 6 + [(2,)]),
    ("linear", "lr_scheduler.LinearLR(opt, 0.25, 1.0, 4)", N * 7 + [(2,)]),
    ("exponential", "lr_scheduler.ExponentialLR(opt, 0.9)", N * 5 + [(3,)]),
    ("polynomial", "lr_scheduler.PolynomialLR(opt, 4, 2.0)", N * 6 + [(1,)]),
    ("lambda", "lr_scheduler.LambdaLR(opt, [lambda e: 0.9 ** e, lambda e: 1 / (e + 1)])", N * 5),
    ("multiplicative", "lr_scheduler.MultiplicativeLR(opt, lambda e: 0.8)", N * 5),
    ("cosine", "lr_scheduler.CosineAnnealingLR(opt, 4, 0.01)", N * 12 + [(3,)]),
    ("warm_restarts", "lr_scheduler.CosineAnnealingWarmRestarts(opt, 3, 2, 0.001)", N * 12),
    ("warm_restarts_epoch", "lr_scheduler.CosineAnnealingWarmRestarts(opt, 3, 1, 0.001)", N + [(1.5,), (4,), (7,)]),
    ("cyclic", "lr_scheduler.CyclicLR(opt, 0.01, 0.1, 3)", N * 10),
    ("cyclic_tri2", "lr_scheduler.CyclicLR(opt, [0.01, 0.02], 0.1, 2, 3, 'triangular2')", N * 12),
    ("cyclic_exp", "lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2, mode='exp_range', gamma=0.9)", N * 8),
    ("sequential", "lr_scheduler.SequentialLR(opt, [lr_scheduler.ConstantLR(opt, 0.5, 2), "
                   "lr_scheduler.ExponentialLR(opt, 0.9)], [3])", N * 8),
    ("plateau", "lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)",
     [(v,) for v in (1.0, 0.9, 0.95, 0.97, 0.96, 0.5, 0.6, 0.7, 0.8)]),
    ("plateau_max_abs", "lr_scheduler.ReduceLROnPlateau(opt, 'max', 0.5, 0, threshold=0.1, threshold_mode='abs', "
                        "cooldown=1, min_lr=0.03)", [(v,) for v in (1.0, 1.05, 1.2, 1.1, 1.0, 1.0, 1.0, 1.0, 1.0)]),
]
SCHEDULER_ERRORS = [
    ("steplr_float_step", "lr_scheduler.StepLR(opt, 2.0)"),
    ("steplr_int_gamma", "lr_scheduler.StepLR(opt, 2, 1)"),
    ("linear_bad_start", "lr_scheduler.LinearLR(opt, 0.0)"),
    ("lambda_count", "lr_scheduler.LambdaLR(opt, [lambda e: 1.0])"),
    ("plateau_factor", "lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)"),
    ("plateau_mode", "lr_scheduler.ReduceLROnPlateau(opt, mode='avg')"),
    ("warm_t0", "lr_scheduler.CosineAnnealingWarmRestarts(opt, 0)"),
    ("not_optimizer", "lr_scheduler.StepLR(None, 2)"),
]
