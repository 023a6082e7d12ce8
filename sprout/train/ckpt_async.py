"""``load_checkpoint_async``: read a checkpoint on a background thread while the caller builds the network."""
from __future__ import annotations

import threading
from concurrent.futures import Future

from .serialization import load_checkpoint


class _PendingCheckpoint:
    """What ``load_checkpoint_async`` returns: ``result()`` waits for the load and returns what
    ``load_checkpoint`` returns (or raises what it raised)."""

    def __init__(self, future: Future):
        self._future = future

    def result(self, timeout=None):
        return self._future.result(timeout)

    def done(self) -> bool:
        return self._future.done()


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                          dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """Start ``load_checkpoint`` (format from the file suffix) on a daemon thread; ``.result()`` gives its result."""
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'load_checkpoint_async', 'ckpt_file_name' must be a str, "
                        f"but got {type(ckpt_file_name).__name__}.")
    fmt = "safetensors" if ckpt_file_name.endswith(".safetensors") else "ckpt"
    future: Future = Future()

    def work():
        try:
            future.set_result(load_checkpoint(ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                                              specify_prefix, choice_func, format=fmt))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller of result()
            future.set_exception(exc)

    threading.Thread(target=work, name="sprout-load-checkpoint", daemon=True).start()
    return _PendingCheckpoint(future)


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save is still writing: never, since sprout saves synchronously."""
    return False
