"""SummaryCollector: a callback recording the training loss, input images and weight histograms for TensorBoard."""
from __future__ import annotations

import re

import numpy as np

from ... import log as logger
from ._callback import Callback

_SUPPORTED = {"collect_metric": True, "collect_input_data": True, "histogram_regular": None}
# MindInsight-only data (graphs, lineage, loss landscapes): TensorBoard cannot show them; off by default here
_MINDINSIGHT = ("collect_graph", "collect_train_lineage", "collect_eval_lineage", "collect_dataset_graph",
                "collect_landscape")
_DEFAULT_HISTOGRAMS = 5


def _check_positive(name, value, allow_none=False):
    if allow_none and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For 'SummaryCollector', the argument '{name}' must be int, but got {type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For 'SummaryCollector', the argument '{name}' must be greater than 0, but got {value}.")


class SummaryCollector(Callback):
    """Collects summaries during ``Model.train`` into ``summary_dir`` (TensorBoard event files): the loss as scalar
    ``loss/auto``, the first input as image ``input_data/auto`` (when it is an NCHW batch) and histograms
    ``<param>/auto`` of the optimizer's first five parameters (or those matching ``histogram_regular``), and what
    the network's summary operators (``ops.ScalarSummary`` ...) kept, at the first step and every ``collect_freq``
    steps; ``ops.TensorSummary`` values also every ``collect_tensor_freq`` steps."""

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None, max_file_size=None,
                 export_options=None):
        super().__init__()
        from ..summary.summary_record import _make_directory
        self._summary_dir = _make_directory(summary_dir, "summary_dir")
        _check_positive("collect_freq", collect_freq)
        _check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        _check_positive("max_file_size", max_file_size, allow_none=True)
        if not isinstance(keep_default_action, bool):
            raise TypeError(f"For 'SummaryCollector', the argument 'keep_default_action' must be bool, but got "
                            f"{type(keep_default_action).__name__}.")
        if custom_lineage_data is not None:
            raise NotImplementedError("SummaryCollector(custom_lineage_data=...): lineage is MindInsight data; "
                                      "sprout writes TensorBoard summaries only.")
        if export_options is not None:
            raise NotImplementedError("SummaryCollector(export_options=...): sprout does not export summary tensors.")
        self._collect_freq = collect_freq
        self._collect_tensor_freq = collect_tensor_freq
        self._max_file_size = max_file_size
        self._specified = self._process_specified_data(collect_specified_data, keep_default_action)
        self._record = None
        self._first_step = True
        self._loss_ok = True

    @staticmethod
    def _process_specified_data(specified, keep_default_action) -> dict:
        if specified is None:
            return dict(_SUPPORTED)
        if not isinstance(specified, dict):
            raise TypeError(f"For 'SummaryCollector', the argument 'collect_specified_data' must be dict or None, "
                            f"but got {type(specified).__name__}.")
        unexpected = set(specified) - set(_SUPPORTED) - set(_MINDINSIGHT)
        if unexpected:
            raise ValueError(f"For 'SummaryCollector', the keys {sorted(unexpected)} of 'collect_specified_data' "
                             f"are unsupported, expect the following keys: {sorted((*_SUPPORTED, *_MINDINSIGHT))}")
        for key in _MINDINSIGHT:
            if specified.get(key):
                raise NotImplementedError(f"SummaryCollector: {key!r} is MindInsight data that TensorBoard cannot "
                                          "show; sprout does not collect it (pass False).")
        for key in ("collect_metric", "collect_input_data"):
            if key in specified and not isinstance(specified[key], bool):
                raise TypeError(f"For 'SummaryCollector', the value of {key!r} must be bool, but got "
                                f"{type(specified[key]).__name__}.")
        regular = specified.get("histogram_regular")
        if regular is not None and not isinstance(regular, str):
            raise TypeError("For 'SummaryCollector', the value of 'histogram_regular' must be str or None, but got "
                            f"{type(regular).__name__}.")
        if regular is not None:
            re.compile(regular)
        chosen = {k: v for k, v in specified.items() if k in _SUPPORTED}
        return {**_SUPPORTED, **chosen} if keep_default_action else chosen

    def __enter__(self):
        from ..summary.summary_record import SummaryRecord
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size)
        self._first_step = True
        return self

    def __exit__(self, *err):
        if self._record is not None:
            self._record.close()

    def begin(self, run_context):
        cb_params = run_context.original_args()
        mine = [cb for cb in cb_params.get("list_callback", []) if type(cb).__name__ == type(self).__name__]
        if len(mine) > 1:
            raise ValueError("There are more than one SummaryCollector instance in callback list,but expected only "
                             "one SummaryCollector instance.")
        if cb_params.mode not in ("train", "eval"):
            raise ValueError(f"Only support `train` (model.train) and `eval` (model.eval) mode, but got "
                             f"`{cb_params.mode}` mode.")
        if self._record is None:  # used without the callback manager entering it
            self.__enter__()
        self._record.set_mode(cb_params.mode)

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode != "train":
            return
        if self._first_step or cb_params.cur_step_num % self._collect_freq == 0:
            self._collect_input_data(cb_params)
            self._collect_metric(cb_params)
            self._collect_histogram(cb_params)
            self._record.record(cb_params.cur_step_num)
            if self._first_step:
                self._record.flush()
            self._first_step = False
        elif self._collect_tensor_freq is not None and cb_params.cur_step_num % self._collect_tensor_freq == 0:
            self._record.record(cb_params.cur_step_num, plugin_filter=lambda plugin: plugin == "tensor")

    def epoch_end(self, run_context):
        self._record.flush()

    def end(self, run_context):
        self._record.flush()

    def _collect_metric(self, cb_params):
        if not self._specified.get("collect_metric") or not self._loss_ok:
            return
        from ...core.tensor import Tensor
        output = cb_params.get("net_outputs")
        if isinstance(output, (list, tuple)) and output:
            output = output[0]
        if not isinstance(output, (int, float, Tensor)):
            logger.warning("The output type could not be identified, expect type is one of [int, float, Tensor, "
                           "list, tuple], so no loss was recorded in SummaryCollector.")
            self._loss_ok = False
            return
        value = output.asnumpy() if isinstance(output, Tensor) else np.asarray(output)
        self._record.add_value("scalar", "loss/auto", Tensor(np.mean(value)))

    def _collect_input_data(self, cb_params):
        if not self._specified.get("collect_input_data"):
            return
        from ...core.tensor import Tensor
        data = cb_params.get("train_dataset_element")
        if isinstance(data, (list, tuple)) and data:
            data = data[0]
        if not isinstance(data, Tensor) or data.ndim != 4 or data.shape[1] not in (1, 3):
            logger.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._specified["collect_input_data"] = False
            return
        self._record.add_value("image", "input_data/auto", data)

    def _collect_histogram(self, cb_params):
        if "histogram_regular" not in self._specified:
            return
        optimizer = cb_params.get("optimizer")
        if optimizer is None:
            network = cb_params.get("train_network")
            optimizer = getattr(network, "optimizer", None)
        if optimizer is None:
            return
        regular = self._specified["histogram_regular"]
        params = list(optimizer.parameters)
        chosen = [p for p in params if re.match(regular, p.name)] if regular is not None \
            else params[:_DEFAULT_HISTOGRAMS]
        for param in chosen:
            self._record.add_value("histogram", param.name + "/auto", param)
