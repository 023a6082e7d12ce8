"""Misuse (issue 10's strictness list): each case is a call MindSpore 2.10 rejects; sprout must raise the same
exception type, with a message naming the op and the bad argument (``match``), eagerly and, for the op calls,
inside jit (AST and bytecode capture). Misuses MindSpore accepts are in tests/ops/test_strictness.py."""
from . import OC, U, C

X = U(2, 3)
LOGP = C([[-0.5, -1.2, -2.0], [-0.1, -3.0, -1.0]], "float32")
BAD = C([0, 7], "int32")


def R(key, expr, inputs=None, match="", jit=True):
    return OC(key, expr, inputs if inputs is not None else {"x": X}, check="raises", match=match, jit=jit)


CASES = [
    R("cumsum_axis", "ops.cumsum(x, 5)", match="CumSum.*axis 5"),
    R("cumsum_axis_method", "x.cumsum(-3)", match="CumSum.*axis -3"),
    R("flip_axis", "ops.flip(x, (4,))", match="ReverseV2.*4"),
    R("flip_int_dims", "ops.flip(x, 0)", match="ReverseV2.*dims"),
    R("gather_axis", "ops.gather(x, i, 5)", {"x": X, "i": C([0], "int32")}, match="Gather.*axis 5"),
    R("narrow_axis", "ops.narrow(x, 5, 0, 1)", match="Narrow.*axis 5"),
    R("narrow_length", "ops.narrow(x, 1, 1, 5)", match="Narrow.*length 5"),
    R("reshape_float", "ops.reshape(x, (2.0, 3))", match="Reshape.*2.0"),
    R("reshape_neg", "ops.reshape(x, (-2, 3))", match="Reshape.*-2"),
    R("reshape_method_float", "x.reshape(3.0, 2)", match="Reshape.*3.0"),
    R("zeros_float", "ops.zeros((2.5, 3))", {}, match="2.5", jit=False),
    R("zeros_neg", "ops.zeros((-1, 3))", {}, match="-1", jit=False),
    R("ones_neg", "ops.ones((2, -4))", {}, match="-4", jit=False),
    R("argmax_float_axis", "ops.argmax(x, 1.0)", match="Argmax.*axis.*1.0"),
    R("argmax_axis", "ops.argmax(x, 5)", match="Argmax.*axis 5"),
    R("argmin_axis", "ops.argmin(x, -3)", match="Argmin.*axis -3"),
    R("cumprod_axis", "ops.cumprod(x, 5)", match="CumProd.*axis 5"),
    R("cummin_axis", "ops.cummin(x, 5)", match="Cummin.*axis 5"),
    R("split_axis", "ops.split(x, 1, 5)", match="Split.*axis 5"),
    R("repeat_interleave_axis", "ops.repeat_interleave(x, 2, 5)", match="repeat_interleave.*axis 5"),
    R("moveaxis_axis", "ops.moveaxis(x, 5, 0)", match="moveaxis.*axis 5"),
    R("swapaxes_axis", "ops.swapaxes(x, 5, 0)", match="swapaxes.*axis 5"),
    R("amax_float_axis", "ops.amax(x, 1.0)", match="ReduceMax.*axis.*1.0"),
    R("mean_float_axis", "ops.mean(x, 1.0)", match="axis.*1.0"),
    R("prod_float_axis", "ops.prod(x, 1.0)", match="axis.*1.0"),
    R("max_method_float_axis", "x.max(1.0)", match="axis.*1.0"),
    R("sum_float_axis", "ops.sum(x, 1.0)", match="ReduceSum.*axis.*1.0"),
    R("sum_method_float_axis", "x.sum(1.0)", match="ReduceSum.*axis.*1.0"),
    R("topk_neg", "ops.topk(x, -1)", match="TopK.*k=-1"),
    R("topk_zero", "ops.topk(x, 0)", match="TopK.*k=0"),
    R("topk_big", "ops.topk(x, 4)", match="TopK.*k=4"),
    R("one_hot_neg", "ops.one_hot(i, -1, Tensor(1.0), Tensor(0.0))", {"i": C([0, 1], "int32")},
      match="OneHot.*depth.*-1"),
    R("cross_entropy_label", "ops.cross_entropy(x, y)", {"x": X, "y": BAD}, match="label 7.*3"),
    R("nll_loss_label", "ops.nll_loss(x, y)", {"x": LOGP, "y": BAD}, match="nll_loss.*label 7"),
    R("cast_none", "ops.cast(x, None)", match="Cast.*None"),
    R("transpose_none", "ops.transpose(x, None)", match="Transpose.*None"),
    R("concat_empty", "ops.concat([])", {}, match="Concat.*empty", jit=False),
    R("tensor_str_in_op", "ops.add(Tensor([1, 'a']), 1)", {}, match="Tensor.*'a'", jit=False),
    R("dense_none", "nn.Dense(None, 2)", {}, match="Dense.*in_channels.*None", jit=False),
    R("dense_float", "nn.Dense(2.0, 2)", {}, match="Dense.*in_channels", jit=False),
    R("to_float_int", "nn.Dense(2, 2).to_float(ms.int32)", {}, match="to_float.*dst_type", jit=False),
    R("param_name_int", "ms.Parameter(x, name=3)", match="Parameter.*name.*3", jit=False),
    R("ptuple_duplicate", "ms.ParameterTuple([ms.Parameter(x, name='a'), ms.Parameter(x, name='a')])",
      match="ParameterTuple.*'a'", jit=False),
    R("max_call_depth_neg", "ms.set_context(max_call_depth=-1)", {}, match="max_call_depth.*-1", jit=False),
    R("max_call_depth_zero", "ms.set_context(max_call_depth=0)", {}, match="max_call_depth.*0", jit=False),
]
