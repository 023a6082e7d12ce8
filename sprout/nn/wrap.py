"""Training wrappers: WithLossCell, WithEvalCell, WithGradCell and TrainOneStepCell."""
from __future__ import annotations

from .. import ops
from ..autodiff.api import value_and_grad, vjp_immediate
from .. import dtype as mstype
from ._precision import cast_floats
from ..core import dispatch
from .cell import Cell


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``; parameter names are the backbone's own (no prefix)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        self._jit_config = getattr(backbone, "_jit_config", None)

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """Returns ``(loss, outputs, label)`` for evaluation."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # mixed precision: float results and labels compared in float32
            label = cast_floats(label, mstype.float32)
            outputs = ops.cast(outputs, mstype.float32)
        return self._loss_fn(outputs, label), outputs, label


class WithGradCell(Cell):
    """Returns the gradients of the (loss-wrapped) network with respect to its trainable parameters."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.sens = sens
        self.weights = tuple(network.trainable_params())
        self._grad = value_and_grad(self.network, None, self.weights)

    def construct(self, *inputs):
        _, grads = self._grad(*inputs)
        if self.sens is not None and self.sens != 1.0:
            grads = tuple(ops.mul(g, self.sens) for g in grads)
        return grads


def _identity(grads):
    """TrainOneStepCell's gradient reducer outside data parallel (MindSpore's nn.Identity)."""
    return grads


class TrainOneStepCell(Cell):
    """One training step: loss and gradients of ``network`` w.r.t. ``optimizer.parameters`` in one forward and
    one backward pass, then ``optimizer(grads)``. Returns the loss (and a name -> grad dict with return_grad)."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"TrainOneStepCell: network must be a Cell, got {type(network).__name__}")
        if not hasattr(optimizer, "parameters") or not callable(optimizer):
            raise TypeError(f"TrainOneStepCell: optimizer must be an nn.Optimizer (a callable with .parameters), "
                            f"got {type(optimizer).__name__}")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        if sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        self.weights_name = [p.name for p in self.weights]
        # data parallel (the parallel mode is read now, as MindSpore): gradients averaged over the ranks
        from ..parallel._utils import _get_device_num, _get_gradients_mean, data_parallel_reducer_needed
        self.reducer_flag = data_parallel_reducer_needed("TrainOneStepCell")
        self.grad_reducer = _identity
        if not self.reducer_flag:  # semi-auto / auto parallel: the network runs through the SPMD pass
            from ..parallel.spmd import semi_auto_network

            semi_auto_network(self.network)
        self._gather_params = False
        from ..parallel._utils import parallel_optimizer_enabled
        from ..parallel.spmd import network_scope

        with network_scope(self.network):  # an AutoParallel inside: its configuration (hsdp) decides
            shard_state = parallel_optimizer_enabled()
        if shard_state:  # optimizer state sharded over the ranks; semi-auto: the gradients are whole already
            from .parallel_optimizer import ParallelOptimizerReducer
            self.grad_reducer = ParallelOptimizerReducer(optimizer, _get_gradients_mean(), _get_device_num(),
                                                         reduced=not self.reducer_flag)
            self._gather_params = True
        elif self.reducer_flag:
            from .grad_reducer import DistributedGradReducer
            self.grad_reducer = DistributedGradReducer(self.weights, _get_gradients_mean(), _get_device_num())
        self._jit_config = getattr(network, "_jit_config", None)
        self._value_and_grad = value_and_grad(self.network, None, self.weights)
        from ..parallel._utils import parameter_broadcast_pending

        self._broadcast_pending = parameter_broadcast_pending()  # done before the first step (Model: before train)

    def __call__(self, *args, **kwargs):
        if self._broadcast_pending and dispatch.current_builder() is None:
            from ..parallel._utils import broadcast_parameters

            self._broadcast_pending = False
            broadcast_parameters(self.get_parameters())
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs):
        if self.sense_flag and self.sens != 1.0:  # the backward starts from sens (float16 loss scaling needs it)
            loss, backward = vjp_immediate(self.network, *inputs, weights=self.weights)
            _, grads = backward(ops.ones_like(loss) * self.sens)
        else:
            loss, grads = self._value_and_grad(*inputs)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self._gather_params:  # parallel optimizer: the updated slices back into the whole parameters
            self.grad_reducer.gather()
        if self.return_grad:
            return loss, dict(zip(self.weights_name, grads))
        return loss
