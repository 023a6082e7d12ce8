"""Data sinking on the host: ``DatasetHelper``, ``connect_network_with_dataset`` and ``data_sink``.

MindSpore's sink mode hands batches to the device and runs ``sink_size`` steps per call inside the graph (Ascend/GPU
only; its CPU build refuses). sprout keeps the same protocol on the host: a sink-mode call runs the step on the next
``sink_size`` batches in turn (the dataset cycles endlessly) and returns the last step's output, so code written for
sinking runs unchanged and computes the same values as a plain loop over the batches.
"""
from __future__ import annotations

from ..core.tensor import Tensor


def _check_sink_size(api: str, sink_size, allow_all: bool) -> int:
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For '{api}', 'sink_size' must be an int, but got {type(sink_size).__name__}.")
    if sink_size == 0 or sink_size < (-1 if allow_all else 1):
        what = "-1 or positive" if allow_all else "a positive integer"
        raise ValueError(f"For '{api}', 'sink_size' must be {what}, but got {sink_size}.")
    return sink_size


class _BatchFeed:
    """The batches of a dataset as lists of Tensors, epoch after epoch without end."""

    def __init__(self, dataset):
        if not hasattr(dataset, "create_tuple_iterator"):
            raise TypeError(f"expected a sprout.dataset Dataset, got {type(dataset).__name__}")
        self.dataset = dataset
        self._it = None

    def next(self) -> list:
        for _ in range(2):  # the second try starts a new epoch; an empty dataset fails then
            if self._it is None:
                self._it = iter(self.dataset.create_tuple_iterator(num_epochs=1))
            try:
                return next(self._it)
            except StopIteration:
                self._it = None
        raise ValueError("data sink: the dataset yields no batches")


class DatasetHelper:
    """``mindspore.DatasetHelper``: iterate a dataset for training. Without sink mode each item is a list of
    Tensors (one batch). In sink mode each item is ``()``, one per sink of ``sink_size`` steps, and the network from
    ``connect_network_with_dataset`` pulls its batches itself."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', 'dataset_sink_mode' must be a bool, "
                            f"but got {type(dataset_sink_mode).__name__}.")
        _check_sink_size("DatasetHelper", sink_size, allow_all=True)
        if isinstance(epoch_num, bool) or not isinstance(epoch_num, int) or epoch_num < 1:
            raise ValueError(f"For 'DatasetHelper', 'epoch_num' must be a positive int, but got {epoch_num!r}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = sink_size
        self.epoch_num = epoch_num
        self._feed = _BatchFeed(dataset)

    def sink_size(self) -> int:
        """Steps run per item of the iteration: ``sink_size`` (the whole epoch for -1) in sink mode, else 1."""
        if not self.dataset_sink_mode:
            return 1
        return self.dataset.get_dataset_size() if self._sink_size == -1 else self._sink_size

    def __iter__(self):
        if not self.dataset_sink_mode:
            yield from self.dataset.create_tuple_iterator(num_epochs=1)
            return
        sinks = max(1, self.dataset.get_dataset_size() // self.sink_size())
        for _ in range(sinks):
            yield ()

    def types_shapes(self):
        """The dtypes and shapes of one batch's columns."""
        batch = next(iter(self.dataset.create_tuple_iterator(num_epochs=1)))
        return [t.dtype for t in batch], [t.shape for t in batch]


class _SunkNetwork:
    """What ``connect_network_with_dataset`` returns: called without inputs, it runs ``steps`` steps on the next
    batches and returns the output of the last."""

    def __init__(self, network, feed: _BatchFeed, steps: int):
        self.network, self._feed, self._steps = network, feed, steps

    def __call__(self, *inputs):
        if inputs:
            raise TypeError("a network connected to a dataset takes its inputs from the dataset; call it with none")
        out = None
        for _ in range(self._steps):
            out = self.network(*self._feed.next())
        return out

    def __getattr__(self, name):
        return getattr(self.network, name)


def connect_network_with_dataset(network, dataset_helper: DatasetHelper):
    """``mindspore.connect_network_with_dataset``: the network fed by ``dataset_helper`` (sink mode only, as in
    MindSpore); each call runs ``dataset_helper.sink_size()`` steps."""
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', 'dataset_helper' must be a DatasetHelper, "
                        f"but got {type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode.")
    return _SunkNetwork(network, dataset_helper._feed, dataset_helper.sink_size())


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """``mindspore.data_sink``: a function that, on each call, runs ``fn`` on the next ``sink_size`` batches of
    ``dataset`` (cycling through epochs) and returns the last result. With ``jit_config`` ``fn`` is compiled
    (``ms.jit`` with that config); ``input_signature`` fixes the shape and dtype every batch must have."""
    _check_sink_size("data_sink", sink_size, allow_all=False)
    if not callable(fn):
        raise TypeError(f"For 'data_sink', 'fn' must be callable, but got {type(fn).__name__}.")
    step = fn
    if jit_config is not None:
        from ..jit.api import JitConfig, jit

        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"For 'data_sink', 'jit_config' must be a JitConfig, but got {type(jit_config).__name__}.")
        step = jit(fn, jit_config=jit_config)
    signature = None
    if input_signature is not None:
        signature = list(input_signature) if isinstance(input_signature, (list, tuple)) else [input_signature]
        if not all(isinstance(s, Tensor) for s in signature):
            raise TypeError("For 'data_sink', 'input_signature' must be a Tensor or a list/tuple of Tensors")
    feed = _BatchFeed(dataset)

    def sink_process(*args, **kwargs):
        if args or kwargs:
            raise TypeError("the function returned by data_sink takes its inputs from the dataset; call it with none")
        out = None
        for _ in range(sink_size):
            batch = feed.next()
            if signature is not None:
                _check_signature(batch, signature)
            out = step(*batch)
        return out

    return sink_process


def _check_signature(batch, signature) -> None:
    if len(batch) != len(signature):
        raise TypeError(f"data_sink: the dataset gives {len(batch)} columns, input_signature has {len(signature)}")
    for i, (value, sig) in enumerate(zip(batch, signature)):
        if value.dtype is not sig.dtype or tuple(value.shape) != tuple(sig.shape):
            raise TypeError(f"data_sink: column {i} is {value.dtype}{list(value.shape)}, but input_signature "
                            f"expects {sig.dtype}{list(sig.shape)}")
