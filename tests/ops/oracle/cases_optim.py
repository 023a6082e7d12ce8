"""The optimizer update primitives (ops.ApplyMomentum, ops.Adam, ops.ApplyRMSProp, ...): one in-place update, then
every updated Parameter read back. Only the Parameters are compared: MindSpore 2.10's CPU kernels return zero
tensors from Adam, AdamWeightDecay and the RMSProp pair (documented as the updated values; sprout returns those, the
op table checks them against NumPy)."""
import numpy as np

from . import OC, U, C


def after(_update, *params):
    """The Parameters as they are once the update ran."""
    return params


HELPERS = {"after": after}

V, G = U(2, 3), U(2, 3, lo=-1.0, hi=1.0)
POS = U(2, 3, lo=0.1, hi=1.0)  # second moments, accumulators: positive
ONES, ZEROS = C(np.ones((2, 3)), "float32"), C(np.zeros((2, 3)), "float32")  # SGD's stat: first step or not
S = "Tensor(np.float32({}))".format

CASES = [
    OC("apply_momentum", "after(ops.ApplyMomentum()(p_v, p_a, 0.1, g, 0.9), p_v, p_a)", {"p_v": V, "p_a": POS, "g": G}),
    # no ApplyMomentum(use_nesterov=True) case: MindSpore 2.10's CPU kernel ignores the flag (it returns the plain
    # momentum update); sprout follows the documented Nesterov formula, checked by the op table against NumPy
    OC("apply_momentum_tensor_lr", f"after(ops.ApplyMomentum()(p_v, p_a, {S(0.05)}, g, {S(0.8)}), p_v, p_a)",
       {"p_v": V, "p_a": POS, "g": G}),
    OC("apply_gradient_descent", "after(ops.ApplyGradientDescent()(p_v, 0.2, g), p_v)", {"p_v": V, "g": G}),
    OC("sgd", f"after(ops.SGD(0.1, 0.01, False)(p_v, g, {S(0.1)}, p_a, {S(0.9)}, p_st), p_v, p_a, p_st)",
       {"p_v": V, "g": G, "p_a": POS, "p_st": ONES}),
    OC("sgd_nesterov_second_step", f"after(ops.SGD(0.0, 0.0, True)(p_v, g, {S(0.1)}, p_a, {S(0.9)}, p_st), "
       "p_v, p_a, p_st)", {"p_v": V, "g": G, "p_a": POS, "p_st": ZEROS}),
    OC("adam", "after(ops.Adam()(p_v, p_m, p_s, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, g), p_v, p_m, p_s)",
       {"p_v": V, "p_m": G, "p_s": POS, "g": G}),
    OC("adam_nesterov", "after(ops.Adam(use_nesterov=True)(p_v, p_m, p_s, 0.81, 0.998, 0.01, 0.9, 0.999, 1e-8, g), "
       "p_v, p_m, p_s)", {"p_v": V, "p_m": G, "p_s": POS, "g": G}),
    OC("adam_weight_decay", "after(ops.AdamWeightDecay()(p_v, p_m, p_s, 0.01, 0.9, 0.999, 1e-8, 0.01, g), "
       "p_v, p_m, p_s)", {"p_v": V, "p_m": G, "p_s": POS, "g": G}),
    OC("apply_rms_prop", "after(ops.ApplyRMSProp()(p_v, p_ms, p_mom, 0.01, g, 0.9, 0.5, 1e-6), p_v, p_ms, p_mom)",
       {"p_v": V, "p_ms": POS, "p_mom": G, "g": G}),
    OC("apply_centered_rms_prop", "after(ops.ApplyCenteredRMSProp()(p_v, p_mg, p_ms, p_mom, g, 0.01, 0.9, 0.5, "
       "1e-6), p_v, p_mg, p_ms, p_mom)",
       {"p_v": V, "p_mg": U(2, 3, lo=-0.1, hi=0.1), "p_ms": POS, "p_mom": G, "g": G}),
    OC("apply_adagrad", "after(ops.ApplyAdagrad()(p_v, p_a, 0.1, g), p_v, p_a)", {"p_v": V, "p_a": POS, "g": G}),
    # no update_slots=False case: MindSpore 2.10's CPU kernel updates accum anyway (sprout follows the docs)
    OC("apply_adadelta", "after(ops.ApplyAdadelta()(p_v, p_a, p_u, 0.5, 0.9, 1e-6, g), p_v, p_a, p_u)",
       {"p_v": V, "p_a": POS, "p_u": POS, "g": G}),
    OC("apply_ada_max", "after(ops.ApplyAdaMax()(p_v, p_m, p_s, 0.81, 0.01, 0.9, 0.99, 1e-8, g), p_v, p_m, p_s)",
       {"p_v": V, "p_m": G, "p_s": POS, "g": G}),
    # ApplyFtrl: MindSpore 2.10's CPU kernel gives (l1 - linear) / quadratic where linear < -l1 (its docs, and sprout:
    # (sign(linear) l1 - linear) / quadratic); accum and linear agree. Checked with linear > l1 only:
    OC("apply_ftrl", "after(ops.ApplyFtrl()(p_v, p_a, p_l, g, 0.1, 0.01, 0.02, -0.5), p_v, p_a, p_l)",
       {"p_v": U(2, 3, lo=-1.0, hi=-0.5), "p_a": POS, "p_l": U(2, 3, lo=1.0, hi=2.0), "g": U(2, 3, lo=0.0, hi=0.3)}),
    OC("apply_proximal_adagrad", "after(ops.ApplyProximalAdagrad()(p_v, p_a, 0.1, 0.01, 0.02, g), p_v, p_a)",
       {"p_v": V, "p_a": POS, "g": G}),
    OC("apply_adagrad_v2", "after(ops.ApplyAdagradV2(1e-6)(p_v, p_a, 0.1, g), p_v, p_a)",
       {"p_v": V, "p_a": POS, "g": G}),
    OC("apply_adagrad_v2_no_slots", "after(ops.ApplyAdagradV2(0.1, update_slots=False)(p_v, p_a, 0.1, g), p_v, p_a)",
       {"p_v": V, "p_a": POS, "g": G}),
    OC("apply_add_sign", "after(ops.ApplyAddSign()(p_v, p_m, 0.1, 1.0, 0.5, 0.9, g), p_v, p_m)",
       {"p_v": V, "p_m": G, "g": G}),
    OC("apply_power_sign", "after(ops.ApplyPowerSign()(p_v, p_m, 0.1, 2.7, 0.5, 0.9, g), p_v, p_m)",
       {"p_v": V, "p_m": G, "g": G}),
    OC("apply_proximal_gradient_descent", "after(ops.ApplyProximalGradientDescent()(p_v, 0.1, 0.3, 0.2, g), p_v)",
       {"p_v": V, "g": G}),
    OC("apply_adam_with_amsgrad", f"after(ops.ApplyAdamWithAmsgrad(0.9, 0.999, 1e-8)(p_v, p_m, p_s, p_h, {S(0.81)}, "
       f"{S(0.998)}, {S(0.01)}, g), p_v, p_m, p_s, p_h)", {"p_v": V, "p_m": G, "p_s": POS, "p_h": POS, "g": G}),
    # MindSpore 2.10 takes beta1_power/beta2_power/lr of ApplyAdamWithAmsgrad only as Tensors (its docs allow floats)
    OC("apply_adam_with_amsgrad_float_power", "ops.ApplyAdamWithAmsgrad()(p_v, p_m, p_s, p_h, 0.81, 0.998, 0.01, g)",
       {"p_v": V, "p_m": G, "p_s": POS, "p_h": POS, "g": G}, check="raises"),
    OC("apply_adam_with_amsgrad_v2", f"after(ops.ApplyAdamWithAmsgradV2()(p_v, p_m, p_s, p_h, {S(0.81)}, "
       f"{S(0.998)}, {S(0.01)}, {S(0.9)}, {S(0.999)}, {S(1e-8)}, g), p_v, p_m, p_s, p_h)",
       {"p_v": V, "p_m": G, "p_s": POS, "p_h": POS, "g": G}),
    # ApplyAdagradDA with l1 > 0: MindSpore 2.10's CPU kernel uses grad_accum - l1 * global_step where grad_accum < 0
    # (its docs, and sprout: the soft threshold sign(a) max(|a| - l1 step, 0)); checked where grad_accum > l1 step:
    OC("apply_adagrad_da", "after(ops.ApplyAdagradDA()(p_v, p_a, p_s, g, 0.1, 0.05, 0.02, Tensor(np.int32(3))), "
       "p_v, p_a, p_s)", {"p_v": V, "p_a": U(2, 3, lo=1.0, hi=2.0), "p_s": POS, "g": U(2, 3, lo=-0.5, hi=0.5)}),
    OC("apply_adagrad_da_no_l1", "after(ops.ApplyAdagradDA()(p_v, p_a, p_s, g, 0.1, 0.0, 0.02, Tensor(np.int32(2))), "
       "p_v, p_a, p_s)", {"p_v": V, "p_a": G, "p_s": POS, "g": G}),
    # ApplyKerasMomentum has no CPU kernel in MindSpore 2.10 (Ascend only): its values are checked by the op table
    OC("apply_keras_momentum_float_lr", "ops.ApplyKerasMomentum()(p_v, p_a, 0.1, g, 0.9)",
       {"p_v": V, "p_a": G, "g": G}, check="raises"),
    OC("apply_adagrad_v2_bad_shape", "ops.ApplyAdagradV2(1e-6)(p_v, p_a, 0.1, g)",
       {"p_v": V, "p_a": U(3, 2), "g": G}, check="raises"),
    OC("apply_add_sign_bad_grad", "ops.ApplyAddSign()(p_v, p_m, 0.1, 1.0, 0.5, 0.9, [1.0, 2.0])",
       {"p_v": V, "p_m": G}, check="raises"),
    OC("sparse_apply_adagrad", "after(ops.SparseApplyAdagrad(0.1)(p_v, p_a, g, idx), p_v, p_a)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "g": G, "idx": C([3, 0], "int32")}),
    # SparseApplyAdagradV2: MindSpore 2.10's CPU kernel divides by sqrt(accum + epsilon), its docs (and sprout, as
    # ApplyAdagradV2's kernel) by sqrt(accum) + epsilon; compared with an epsilon too small to tell them apart
    OC("sparse_apply_adagrad_v2", "after(ops.SparseApplyAdagradV2(0.1, 1e-9)(p_v, p_a, g, idx), p_v, p_a)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "g": G, "idx": C([1, 4], "int32")}),
    # SparseApplyProximalAdagrad has no CPU kernel in MindSpore 2.10: the op table checks it against NumPy
    # SparseApplyFtrl checked with linear > l1 (MindSpore's kernel departs from its docs below -l1, as ApplyFtrl)
    OC("sparse_apply_ftrl", "after(ops.SparseApplyFtrl(0.1, 0.01, 0.02, -0.5)(p_v, p_a, p_l, g, idx), p_v, p_a, p_l)",
       {"p_v": U(5, 3, lo=-1.0, hi=-0.5), "p_a": U(5, 3, lo=0.1, hi=1.0), "p_l": U(5, 3, lo=1.0, hi=2.0),
        "g": U(2, 3, lo=0.0, hi=0.3), "idx": C([4, 1], "int32")}),
    OC("sparse_apply_rms_prop", "after(ops.SparseApplyRMSProp(0.9, 0.5, 1e-6)(p_v, p_ms, p_mom, 0.01, g, idx), "
       "p_v, p_ms, p_mom)", {"p_v": U(5, 3), "p_ms": U(5, 3, lo=0.1, hi=1.0), "p_mom": U(5, 3), "g": U(5, 3),
                             "idx": C([0, 3, 1, 4, 2], "int32")}),
    # SparseApplyAdadelta has no CPU kernel in MindSpore 2.10 either (values: op table; its shape rule is checked)
    OC("sparse_apply_adadelta_partial_grad", "ops.SparseApplyAdadelta(1e-6)(p_v, p_a, p_u, 0.5, 0.9, g, idx)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "p_u": U(5, 3, lo=0.1, hi=1.0), "g": G,
        "idx": C([2, 4], "int32")}, check="raises"),
    OC("sparse_apply_adagrad_returns", "ops.SparseApplyAdagrad(0.1)(p_v, p_a, g, idx)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "g": G, "idx": C([3, 0], "int32")}),
    OC("sparse_apply_adagrad_int_lr", "ops.SparseApplyAdagrad(1)", {}, check="raises"),
    OC("sparse_apply_adagrad_bad_rows", "ops.SparseApplyAdagrad(0.1)(p_v, p_a, g, idx)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "g": U(2, 4), "idx": C([3, 0], "int32")}, check="raises"),
    OC("sparse_apply_adagrad_float_indices", "ops.SparseApplyAdagrad(0.1)(p_v, p_a, g, idx)",
       {"p_v": U(5, 3), "p_a": U(5, 3, lo=0.1, hi=1.0), "g": G, "idx": C([3, 0], "float32")}, check="raises"),
]
