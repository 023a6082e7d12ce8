"""sprout.ops: primitives (by family), composites, the functional API and primitive classes."""
from . import elementwise, reduce, shape, linalg  # noqa: F401  (registers the primitives; loads functional)
from . import array_ops, conv_ops, pool_ops, nn_ops, random_ops, state_ops  # noqa: F401
from .functional import *  # noqa: F401,F403
from .functional_shape import range, slice  # noqa: F401,A004  (builtin names: not in functional's namespace)
from .primitive_classes import *  # noqa: F401,F403
from .comm_classes import *  # noqa: F401,F403  (AllReduce, ReduceOp, ...: the collectives)
from .classes_amp import FloatStatus  # noqa: F401
from .spmd_ops import Reshard, reshard  # noqa: F401
from .comm_ops_more import all_gather_matmul, matmul_reduce_scatter  # noqa: F401
from .communication import (P2POp, all_gather, all_gather_into_tensor, all_gather_object, all_reduce,  # noqa: F401
                            all_gather_into_tensor_uneven, reduce_scatter_tensor_uneven,
                            all_to_all, all_to_all_single, barrier, batch_isend_irecv, broadcast,
                            broadcast_object_list, destroy_process_group, gather_object, get_backend,
                            get_global_rank, get_group_rank, get_process_group_ranks, get_rank, get_world_size,
                            init_process_group, irecv, is_available, is_initialized, isend, new_group, recv,
                            recv_object_list, reduce_scatter, reduce_scatter_tensor, scatter_object_list, send,
                            send_object_list)  # MindSpore 2.10 exports its communication functions from ops too
from .summary_ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary  # noqa: F401
from . import tensor_methods, tensor_methods_more, tensor_methods_inplace, tensor_hook_methods  # noqa: F401
from . import operations  # noqa: F401
from .hof import HyperMap, Map, MultitypeFuncGraph, Partial  # noqa: F401
from ..autodiff.api import GradOperation, grad, value_and_grad, vjp  # noqa: F401
from ..autodiff.api import derivative, get_grad, jacfwd, jacrev, jet, jvp, linearize, vmap  # noqa: F401
from . import primitive  # noqa: F401  (ops.primitive.constexpr ...)
from .primitive import PrimitiveWithCheck, PrimitiveWithInfer, constexpr, prim_attr_register  # noqa: F401
from . import functional as _functional

# MindSpore's ops.functional (`from mindspore.ops import functional as F; F.grad(...)`) also carries the
# function transforms; ops/functional.py sits below autodiff and cannot import them, so the package hands
# them over once both are loaded. (Not `range`/`slice`: they would shadow the builtins functional.py uses.)
for _name in ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "jet", "derivative", "get_grad",
              "linearize", "vmap"):
    setattr(_functional, _name, globals()[_name])
# MindSpore's old functional names ops.reduce_max / reduce_min / reduce_mean are primitive instances (keep_dims=False)
reduce_max, reduce_min, reduce_mean = ReduceMax(), ReduceMin(), ReduceMean()  # noqa: F405
for _name in ("reduce_max", "reduce_min", "reduce_mean"):
    setattr(_functional, _name, globals()[_name])
del _name
