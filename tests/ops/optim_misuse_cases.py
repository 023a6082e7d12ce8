"""Misuses of the in-place optimizer updates, as expressions over ``ops``, ``Tensor``, ``np`` and ``P(array, name)``
(a Parameter); shared by tools/ms_optim_misuse_oracle.py (MindSpore's verdicts) and test_optim_primitives.py."""
V = "P(np.ones(3, np.float32), 'v')"
A = "P(np.ones(3, np.float32), 'a')"
G = "Tensor(np.ones(3, np.float32))"
G1 = "Tensor(np.ones(1, np.float32))"
A16 = "P(np.ones(3, np.float16), 'a')"
A2 = "P(np.ones(2, np.float32), 'a')"
CASES = {
    "momentum_ok": f"ops.ApplyMomentum()({V}, {A}, 0.1, {G}, 0.9)",
    "momentum_grad_1": f"ops.ApplyMomentum()({V}, {A}, 0.1, {G1}, 0.9)",
    "momentum_accum_f16": f"ops.ApplyMomentum()({V}, {A16}, 0.1, {G}, 0.9)",
    "momentum_accum_2": f"ops.ApplyMomentum()({V}, {A2}, 0.1, {G}, 0.9)",
    "momentum_grad_f64": f"ops.ApplyMomentum()({V}, {A}, 0.1, Tensor(np.ones(3)), 0.9)",
    "momentum_lr_var_shaped": f"ops.ApplyMomentum()({V}, {A}, {G}, {G}, 0.9)",
    "momentum_lr_str": f"ops.ApplyMomentum()({V}, {A}, 'a', {G}, 0.9)",
    "gd_ok": f"ops.ApplyGradientDescent()({V}, 0.1, {G})",
    "gd_delta_1": f"ops.ApplyGradientDescent()({V}, 0.1, {G1})",
    "gd_delta_2": f"ops.ApplyGradientDescent()({V}, 0.1, Tensor(np.ones(2, np.float32)))",
    "gd_delta_f16": f"ops.ApplyGradientDescent()({V}, 0.1, Tensor(np.ones(3, np.float16)))",
    "gd_alpha_3": f"ops.ApplyGradientDescent()({V}, {G}, {G})",
    "adagrad_accum_2": f"ops.ApplyAdagrad()({V}, {A2}, 0.1, {G})",
    "adagrad_accum_f16": f"ops.ApplyAdagrad()({V}, {A16}, 0.1, {G})",
    "adagrad_grad_1": f"ops.ApplyAdagrad()({V}, {A}, 0.1, {G1})",
    "adagrad_lr_3": f"ops.ApplyAdagrad()({V}, {A}, {G}, {G})",
    "rmsprop_ms_f16": f"ops.ApplyRMSProp()({V}, {A16}, {A}, 0.1, {G}, 0.9, 0.0, 1e-7)",
    "rmsprop_grad_1": f"ops.ApplyRMSProp()({V}, {A}, {A}, 0.1, {G1}, 0.9, 0.0, 1e-7)",
    "adam_ok": f"ops.Adam()({V}, {A}, {A}, 0.9, 0.99, 0.1, 0.9, 0.99, 1e-8, {G})",
    "adam_grad_1": f"ops.Adam()({V}, {A}, {A}, 0.9, 0.99, 0.1, 0.9, 0.99, 1e-8, {G1})",
    "adam_m_f16": f"ops.Adam()({V}, {A16}, {A}, 0.9, 0.99, 0.1, 0.9, 0.99, 1e-8, {G})",
    "adam_m_2": f"ops.Adam()({V}, {A2}, {A}, 0.9, 0.99, 0.1, 0.9, 0.99, 1e-8, {G})",
}
