"""Optimizer cases run by MindSpore (tools/optim_oracle.py -> fixtures/optim.npz) and sprout (test_optim_oracle.py):
three update steps with fixed gradients on three Parameters ('w' (4, 16), 'bias' (2,), 'norm.gamma' (2,)); the
final parameters and every optimizer state Parameter are compared by name."""

CASES = [
    ("rmsprop", "nn.RMSProp(params, learning_rate=0.05)"),
    ("rmsprop_momentum_wd", "nn.RMSProp(params, learning_rate=0.05, decay=0.8, momentum=0.9, epsilon=1e-6, "
     "weight_decay=0.01)"),
    ("rmsprop_centered_loss_scale", "nn.RMSProp(params, learning_rate=0.02, momentum=0.5, centered=True, "
     "loss_scale=4.0)"),
    ("adagrad", "nn.Adagrad(params, accum=0.2, learning_rate=0.1)"),
    ("adagrad_wd", "nn.Adagrad(params, learning_rate=0.1, weight_decay=0.05)"),
    ("adadelta", "nn.Adadelta(params, learning_rate=0.5, rho=0.8, epsilon=1e-4)"),
    ("adamax", "nn.AdaMax(params, learning_rate=0.02, beta1=0.8, beta2=0.95)"),
    # l1 = 0 for FTRL: MindSpore 2.10's CPU kernel uses l1 - linear instead of sign(linear) l1 - linear (a sign bug
    # for negative linear terms); sprout follows the documented formula (tested against NumPy)
    ("ftrl", "nn.FTRL(params, learning_rate=0.05, l2=0.02)"),
    ("ftrl_lr_power", "nn.FTRL(params, initial_accum=0.5, learning_rate=0.1, lr_power=-0.25, weight_decay=0.01)"),
    ("proximal_adagrad", "nn.ProximalAdagrad(params, learning_rate=0.1, l1=0.01, l2=0.05)"),
    ("lazyadam", "nn.LazyAdam(params, learning_rate=0.01)"),
    ("lazyadam_nesterov_wd", "nn.LazyAdam(params, learning_rate=0.01, use_nesterov=True, weight_decay=0.1)"),
    ("lamb", "nn.Lamb(params, learning_rate=0.05)"),
    ("lamb_wd", "nn.Lamb(params, learning_rate=0.05, weight_decay=0.1, eps=1e-4)"),
    ("asgd", "nn.ASGD(params, learning_rate=0.05, lambd=0.01, alpha=0.5, t0=1.0)"),
    ("asgd_wd", "nn.ASGD(params, learning_rate=0.05, weight_decay=0.1)"),
    ("rprop", "nn.Rprop(params, learning_rate=0.05)"),
    ("rprop_etas", "nn.Rprop(params, learning_rate=0.02, etas=(0.3, 1.5), step_sizes=(1e-3, 0.04))"),
    ("lars_momentum", "nn.LARS(nn.Momentum(params, 0.1, 0.9, weight_decay=0.01), coefficient=0.5)"),
    ("lars_sgd_clip", "nn.LARS(nn.SGD(params, 0.1), epsilon=1e-3, coefficient=0.3, use_clip=True)"),
    ("adafactor", "nn.AdaFactor(params, learning_rate=0.01, scale_parameter=False, relative_step=False, "
     "warmup_init=False)"),
    ("adafactor_relative", "nn.AdaFactor(params)"),
    ("groups_rmsprop", "nn.RMSProp([{'params': [params[0]], 'lr': 0.01, 'weight_decay': 0.1}, "
     "{'params': params[1:], 'lr': 0.05}], learning_rate=0.1)"),
    ("groups_adagrad_gc_order", "nn.Adagrad([{'params': [params[0]], 'grad_centralization': True}, "
     "{'params': params[1:], 'weight_decay': 0.01}, {'order_params': [params[2], params[0], params[1]]}], "
     "learning_rate=0.1)"),
    ("adamax_dynamic_lr", "nn.AdaMax(params, learning_rate=nn.ExponentialDecayLR(0.05, 0.5, 1))"),
    ("rmsprop_lr_list", "nn.RMSProp(params, learning_rate=[0.1, 0.05, 0.01])"),
    ("momentum_gc_group", "nn.Momentum([{'params': [params[0]], 'grad_centralization': True}, "
     "{'params': params[1:]}], 0.1, 0.9)"),
    ("adam_gc_group", "nn.Adam([{'params': [params[0]], 'grad_centralization': True, 'weight_decay': 0.01}, "
     "{'params': params[1:]}], 0.01)"),
    ("adam_offload", "nn.AdamOffload(params, learning_rate=0.01, weight_decay=0.05)"),
    ("adam_offload_nesterov", "nn.AdamOffload(params, learning_rate=0.02, beta1=0.8, use_nesterov=True, "
     "loss_scale=2.0)"),
    ("adam_use_offload", "nn.Adam(params, learning_rate=0.01, use_offload=True)"),
]

ERRORS = [
    ("rmsprop_int_decay", "nn.RMSProp(params, decay=1)"),
    ("rmsprop_negative_momentum", "nn.RMSProp(params, momentum=-0.1)"),
    ("rmsprop_zero_eps", "nn.RMSProp(params, epsilon=0.0)"),
    ("rmsprop_centered_int", "nn.RMSProp(params, centered=1)"),
    ("adagrad_int_accum", "nn.Adagrad(params, accum=1)"),
    ("adagrad_slots_int", "nn.Adagrad(params, update_slots=1)"),
    ("adadelta_rho_big", "nn.Adadelta(params, rho=1.5)"),
    ("adamax_beta1_one", "nn.AdaMax(params, beta1=1.0)"),
    ("ftrl_positive_lr_power", "nn.FTRL(params, lr_power=0.5)"),
    ("ftrl_int_lr", "nn.FTRL(params, learning_rate=1)"),
    ("ftrl_group_lr", "nn.FTRL([{'params': params, 'lr': 0.1}])"),
    ("proximal_negative_l1", "nn.ProximalAdagrad(params, l1=-0.1)"),
    ("lazyadam_beta2", "nn.LazyAdam(params, beta2=1.5)"),
    ("lamb_int_eps", "nn.Lamb(params, 0.1, eps=1)"),
    ("asgd_int_lambd", "nn.ASGD(params, lambd=1)"),
    ("rprop_list_etas", "nn.Rprop(params, etas=[0.5, 1.2])"),
    ("rprop_etaplus_small", "nn.Rprop(params, etas=(0.5, 0.9))"),
    ("rprop_steps_order", "nn.Rprop(params, step_sizes=(1.0, 0.1))"),
    ("lars_not_optimizer", "nn.LARS(params)"),
    ("lars_int_epsilon", "nn.LARS(nn.SGD(params, 0.1), epsilon=1)"),
    ("group_bad_key", "nn.RMSProp([{'params': params, 'momentum': 0.1}])"),
    ("group_gc_int", "nn.Adagrad([{'params': params, 'grad_centralization': 1}])"),
    ("optimizer_empty", "nn.RMSProp([])"),
    ("optimizer_negative_lr", "nn.RMSProp(params, learning_rate=-0.1)"),
    ("optimizer_loss_scale_zero", "nn.RMSProp(params, loss_scale=0.0)"),
    ("adam_offload_locking_int", "nn.AdamOffload(params, use_locking=1)"),
    ("adam_offload_beta2", "nn.AdamOffload(params, beta2=1.0)"),
]
