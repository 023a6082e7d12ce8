"""Model: MindSpore's high-level train / eval / fit / predict loop with callbacks and metrics."""
from __future__ import annotations

import copy
import logging
import os
from collections.abc import Iterable

from .. import context
from .callback import ModelCheckpoint, _CallbackManager, _InternalCallbackParam, RunContext, TimeMonitor
from .callback._callback import LEGACY_HOOKS
from .metrics import Loss, get_metrics

logger = logging.getLogger("sprout.train")

_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")


def _nn():
    from .. import nn
    return nn


def _check_int(api: str, name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        kind = "positive" if low == 1 else "non-negative"
        raise ValueError(f"For '{api}', '{name}' must be a {kind} int, but got {value!r}.")
    return value


def _check_bool(api: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be a bool, but got {type(value).__name__}.")
    return value


def _dataset_size(api: str, dataset) -> int:
    if not hasattr(dataset, "create_tuple_iterator") or not hasattr(dataset, "get_dataset_size"):
        raise TypeError(f"For '{api}', the dataset must be a sprout.dataset Dataset (with create_tuple_iterator "
                        f"and get_dataset_size), but got {type(dataset).__name__}.")
    return dataset.get_dataset_size()


def _as_tuple(element) -> tuple:
    if isinstance(element, (list, tuple)):
        return tuple(element)
    return (element,)


def _is_internal(cb) -> bool:
    return type(cb).__module__.startswith("sprout.train.callback")


class Model:
    """High-level training and evaluation of ``network``.

    With ``loss_fn`` and ``optimizer`` the train network is ``TrainOneStepCell(WithLossCell(network,
    loss_fn), optimizer)``; with only ``optimizer`` the network must return its loss; with only ``loss_fn``
    the train network computes the loss without updating. ``metrics`` (a set of names or a dict of
    Metric objects) enables ``eval``: the eval network is ``eval_network`` if given (``eval_indexes``
    picks ``[loss, logits, label]`` in its outputs) or ``WithEvalCell(network, loss_fn)``.
    In GRAPH_MODE each step runs as one compiled graph; in PYNATIVE_MODE it runs eagerly.
    ``amp_level`` ("O0"-"O3") and the kwargs ``loss_scale_manager`` / ``keep_batchnorm_fp32`` build the train
    network with ``sprout.amp.build_train_network`` (mixed precision, loss scaling); boost is not supported.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        for key in kwargs:
            if key not in _KWARGS:
                raise ValueError(f"The argument in 'kwargs' should be one of {list(_KWARGS)}, but got '{key}'.")
        if amp_level not in ("O0", "O1", "O2", "O3", "auto"):
            raise ValueError(f"For 'Model', the 'amp_level' must be in ['O0', 'O1', 'O2', 'O3', 'auto'], but got "
                             f"'{amp_level}'.")
        boost_level = kwargs.get("acc_level", boost_level)
        if boost_level != "O0":
            raise NotImplementedError(f"Model: boost_level={boost_level!r} is not supported; use boost_level='O0'.")
        if kwargs.get("boost_config_dict"):
            raise NotImplementedError("Model: boost_config_dict is not supported (boost is not implemented).")
        if optimizer is None and amp_level != "O0":
            logger.warning("Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
                           "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed "
                           "precision.")
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        if self._loss_scale_manager is not None and optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        nn = _nn()
        if not isinstance(network, nn.Cell):
            raise TypeError(f"For 'Model', 'network' must be a Cell, but got {type(network).__name__}.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        from ..parallel._utils import _get_device_num
        self._parallel_mode = context.get_auto_parallel_context("parallel_mode")
        self._device_number = _get_device_num()
        self._parameter_broadcast = context.get_auto_parallel_context("parameter_broadcast")
        self._metrics = metrics
        self._train_network = self._build_train_network()
        self._eval_network = eval_network
        self._eval_indexes = None
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.batch_num = -1

    # ---- networks ---------------------------------------------------------------------------
    def _build_train_network(self):
        nn = _nn()
        network = self._network
        if self._optimizer is not None:
            from ..amp.training import build_train_network

            config = {}
            if self._loss_scale_manager_set:
                config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            network = build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                          boost_level=self._boost_level, **config)
        elif self._loss_fn is not None:
            network = nn.WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you "
                             "don't want an evaluation.\nIf evaluation is required, you need to specify "
                             "`eval_network`, which will be used in the framework to evaluate the model.\nFor the "
                             "simple scenarios with one data, one label and one logits, `eval_network` is optional, "
                             "and then you can set `eval_network` or `loss_fn`. For the latter case, framework will "
                             "automatically build an evaluation network with `network` and `loss_fn`.")
        self._eval_network = _nn().WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def eval_network(self):
        return self._eval_network

    @property
    def predict_network(self):
        return self._predict_network

    @staticmethod
    def _step_fn(cell):
        """What one step calls: the cell itself. ``Cell.__call__`` runs it eagerly in PYNATIVE_MODE and, in
        GRAPH_MODE, as one graph compiled by ``sprout.jit`` (cached per cell and input types), so the
        whole train step (forward, backward, optimizer update) is one compiled graph."""
        return cell

    @staticmethod
    def _set_mode(cell, is_train: bool):
        if hasattr(cell, "set_train"):
            cell.set_train(is_train)
        if not is_train and hasattr(cell, "set_grad"):
            cell.set_grad(False)

    # ---- metrics ----------------------------------------------------------------------------
    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        if hasattr(outputs, "asnumpy"):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self) -> dict:
        return {name: metric.eval() for name, metric in self._metric_fns.items()}

    # ---- callbacks --------------------------------------------------------------------------
    @staticmethod
    def _callback_list(callbacks) -> list:
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable) and not isinstance(callbacks, dict):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _check_custom_callbacks(callbacks, api: str):
        """Custom callbacks that define the legacy hook names: a warning in train/eval, an error in fit."""
        for cb in Model._callback_list(callbacks):
            if _is_internal(cb):
                continue
            legacy = sorted(set(type(cb).__dict__) & LEGACY_HOOKS)
            if not legacy:
                continue
            msg = (f"For {type(cb).__name__} callback, {set(legacy)} methods may not be supported in later version, "
                   "Use methods prefixed with 'on_train' or 'on_eval' instead when using customized callbacks.")
            if api == "fit":
                raise ValueError(msg)
            logger.warning(msg)

    # ---- training ---------------------------------------------------------------------------
    def _check_train_args(self, api, epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch):
        _check_bool(api, "dataset_sink_mode", dataset_sink_mode)
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For '{api}', 'sink_size' must be an int, but got {type(sink_size).__name__}.")
        _check_int(api, "epoch", epoch, 1)
        _check_int(api, "initial_epoch", initial_epoch, 0)
        if initial_epoch >= epoch:
            raise ValueError(f"For '{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', but got "
                             f"the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        if _dataset_size(api, train_dataset) == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{api}', The argument 'sink_size' must be -1 or positive, but got {sink_size}.")

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train for epochs ``initial_epoch + 1 .. epoch``. ``dataset_sink_mode=True`` falls back to feeding
        steps from Python, as MindSpore does on CPU (``sink_size`` then only sets ``cb_params.batch_num``).
        To resume, load the checkpoint into the network and optimizer and pass ``initial_epoch``."""
        self._check_train_args("Model.train", epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch)
        if callbacks:
            self._check_custom_callbacks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train, evaluating on ``valid_dataset`` after every ``valid_frequency``-th epoch (an int, or a list
        of epoch numbers). The results are in ``cb_params.metrics`` and ``cb_params.eval_results`` (which adds
        ``eval_loss``) during ``on_train_epoch_end``; LossMonitor prints them."""
        api = "Model.fit"
        self._check_train_args(api, epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch)
        _check_bool(api, "valid_dataset_sink_mode", valid_dataset_sink_mode)
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be "
                             "None or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._check_custom_callbacks(callbacks, "fit")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    valid=(valid_dataset, valid_frequency))

    def _train(self, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch, valid=None):
        from ..parallel._utils import _device_number_check
        _device_number_check(self._parallel_mode, self._device_number)
        if self._parameter_broadcast:
            self._broadcast_parameters()
        cb_params = _InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        if dataset_sink_mode and sink_size > 0:
            cb_params.batch_num = sink_size
        else:
            cb_params.batch_num = train_dataset.get_dataset_size()
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = self._parallel_mode
        cb_params.device_number = self._device_number
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._callback_list(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager  # sic: MindSpore's spelling of the key
        cb_params.initial_step = None
        if dataset_sink_mode:
            logger.info("The CPU cannot support dataset sink mode currently. So the training process will be "
                        "performed with dataset not sink.")
        try:
            with _CallbackManager(cb_params.list_callback) as list_callback:
                self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid)
        except BaseException:
            self._save_breakpoint(cb_params.list_callback)
            raise

    def _broadcast_parameters(self):
        """``parameter_broadcast=True`` (any parallel mode over several ranks): every rank starts from rank 0's
        parameters (sprout.parallel._utils.broadcast_parameters); a TrainOneStepCell inside then does not repeat it."""
        from ..communication import management
        from ..parallel._utils import broadcast_parameters
        if self._parallel_mode == context.ParallelMode.STAND_ALONE or management.get_group_size() == 1:
            return
        broadcast_parameters(self._train_network.get_parameters())
        if "_broadcast_pending" in self._train_network.__dict__:
            self._train_network._broadcast_pending = False

    def _save_breakpoint(self, callbacks):
        """``CheckpointConfig(exception_save=True)``: when training raises, save the train network to
        ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` before re-raising (as MindSpore does)."""
        ckpt = next((cb for cb in reversed(callbacks) if isinstance(cb, ModelCheckpoint)), None)
        if ckpt is None or not ckpt._config.exception_save or ckpt._directory is None:
            return
        from .serialization import save_checkpoint
        prefix = ckpt._exception_prefix if isinstance(ckpt._exception_prefix, str) else "CKP"
        name = f"{prefix}-{self._current_epoch_num}_{self._current_step_num}_breakpoint.ckpt"
        save_checkpoint(self._train_network, os.path.join(ckpt._directory, name))

    def _train_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, valid):
        iterator = train_dataset.create_tuple_iterator(num_epochs=-1)
        net = self._train_network
        self._set_mode(net, True)
        step = self._step_fn(net)
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for element in iterator:
                element = _as_tuple(element)
                if self._loss_fn is not None and len(element) != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return two elements, but "
                                     f"got {len(element)}, please check the number of elements returned by "
                                     "'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
                cb_params.train_dataset_element = element
                list_callback.on_train_step_begin(run_context)
                outputs = cb_params.net_outputs = step(*element)
                manager = self._loss_scale_manager
                if manager is not None and manager.get_drop_overflow_update():
                    manager.update_loss_scale(bool(outputs[1].asnumpy().all()))
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if valid is not None:
                self._eval_during_train(valid, cb_params, list_callback)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    def _eval_during_train(self, valid, cb_params, list_callback):
        valid_dataset, frequency = valid
        epoch = cb_params.cur_epoch_num
        due = epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency
        if valid_dataset is None or not due:
            return
        saved = {key: cb_params.get(key) for key in ("cur_step_num", "batch_num", "dataset_sink_mode",
                                                     "net_outputs")}
        # every custom callback sees the evaluation; of sprout's own only TimeMonitor does (as in MindSpore)
        eval_callbacks = [cb for cb in list_callback._callbacks if not _is_internal(cb) or isinstance(cb, TimeMonitor)]
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        with _CallbackManager(eval_callbacks) as eval_list:
            self._eval_process(valid_dataset, eval_list, cb_params, add_eval_loss=True)
        self._set_mode(self._train_network, True)
        cb_params.mode = "train"
        cb_params.update(saved)

    # ---- evaluation -------------------------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Run the eval network over ``valid_dataset`` and return ``{metric name: value}``."""
        _check_bool("Model.eval", "dataset_sink_mode", dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        _dataset_size("Model.eval", valid_dataset)
        if callbacks:
            self._check_custom_callbacks(callbacks, "eval")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._callback_list(callbacks)
        cb_params.network = self._network
        cb_params.loss_fn = self._loss_fn
        self._clear_metrics()
        with _CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    def _eval_process(self, valid_dataset, list_callback, cb_params, add_eval_loss=False):
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = False
        list_callback.on_eval_begin(run_context)
        net = self._eval_network
        self._set_mode(net, False)
        step = self._step_fn(net)
        list_callback.on_eval_epoch_begin(run_context)
        eval_loss = None
        for element in valid_dataset.create_tuple_iterator(num_epochs=1):
            cb_params.cur_step_num += 1
            element = _as_tuple(element)
            cb_params.eval_dataset_element = element
            list_callback.on_eval_step_begin(run_context)
            outputs = step(*element)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if add_eval_loss:
                # As in MindSpore, ``eval_loss`` is the loss of the last evaluation batch (MindSpore makes a
                # fresh Loss metric for every batch); kept so EarlyStopping decisions match MindSpore's.
                eval_loss = Loss()
                eval_loss.update(outputs[self._eval_indexes[0] if self._eval_indexes else 0])
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if add_eval_loss and eval_loss is not None:
            cb_params.eval_results = copy.deepcopy(metrics)
            cb_params.eval_results["eval_loss"] = eval_loss.eval()
        list_callback.on_eval_end(run_context)
        return metrics

    # ---- prediction -------------------------------------------------------------------------
    def predict(self, *predict_data, backend=None, config=None):
        """Run the network (in inference mode) on the given inputs and return its output."""
        if backend not in (None, "lite"):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}")
        if config is not None:
            raise NotImplementedError("Model.predict: config (MindSpore Lite session options) is not supported; "
                                      "sprout runs the network itself, pass config=None")
        for item in predict_data:
            if item is None or isinstance(item, (int, float, str)):
                continue
            if hasattr(item, "asnumpy"):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
                continue
            raise TypeError("The types of input data must be in the Union(Tensor, None, int, float, str, "
                            "tuple[Tensor, None, int, float, str], list[Tensor, None, int, float, str], "
                            f"dict[Tensor, None, int, float, str]), but got type {type(item).__name__}.")
        net = self._predict_network
        self._set_mode(net, False)
        return self._step_fn(net)(*predict_data)
