"""Tensor's host-memory methods as MindSpore 2.10 answers them on the CPU: data_ptr, data_sync, is_pinned,
is_shared, get_bytes, is_meta."""
import ctypes

import numpy as np
import pytest

import sprout as ms


def test_host_memory_methods():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ms.Tensor(a)
    ptr = t.data_ptr()
    assert isinstance(ptr, int) and ptr == t.data_ptr()
    assert ctypes.c_float.from_address(ptr + 4).value == 1.0  # it is the address of the values
    assert t.data_sync(True) is None and t.data_sync(False) is None
    assert t.is_pinned() is False and t.is_shared() is False and t.is_meta is False
    assert t.get_bytes() == a.tobytes()
    assert t[:, 1].get_bytes() == np.ascontiguousarray(a[:, 1]).tobytes()  # a view: its own values, C order
    with pytest.raises(TypeError, match="waiting"):
        t.data_sync(1)
