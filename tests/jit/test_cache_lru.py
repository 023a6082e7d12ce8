"""The compile cache is bounded per jitted function (``jit_cache_size``), least recently used first out."""
import numpy as np

import sprout as ms
from sprout import Tensor, context, jit


def test_lru_bound_and_eviction_counter():
    context.set_context(jit_cache_size=2)

    @jit
    def f(x, k):
        return x * k

    x = Tensor(np.ones(2, np.float32))
    f(x, 1)
    f(x, 2)
    f(x, 1)  # a fast-path hit: does not refresh the entry
    assert f.stats["compiles"] == 2 and f.stats["evictions"] == 0
    f(x, k=1)  # a keyword argument is a different key: a third entry
    assert f.stats["compiles"] == 3 and f.stats["evictions"] == 1  # (x, 1) positional was the LRU
    assert len(f.entries) == 2
    assert np.array_equal(f(x, 1).asnumpy(), [1, 1])  # evicted: compiles again, same result
    assert f.stats["compiles"] == 4 and f.stats["evictions"] == 2
    assert np.array_equal(f(x, 2).asnumpy(), [2, 2])
    assert ms.jit.stats()["evictions"] >= 2


def test_slow_path_hit_refreshes_entry():
    context.set_context(jit_cache_size=2)

    @jit
    def f(x, k):
        return x + k

    x = Tensor(np.ones(2, np.float32))
    f(x, k=1)
    f(x, k=2)
    f(x, k=1)  # hit: k=1 becomes most recent
    f(x, k=3)  # evicts k=2
    assert f.stats["evictions"] == 1
    before = f.stats["compiles"]
    f(x, k=1)
    assert f.stats["compiles"] == before  # still cached
    f(x, k=2)
    assert f.stats["compiles"] == before + 1


def test_unbounded_when_zero():
    context.set_context(jit_cache_size=0)

    @jit
    def f(x, k):
        return x + k

    x = Tensor(np.ones(2, np.float32))
    for k in range(5):
        f(x, k)
    assert f.stats["compiles"] == 5 and f.stats["evictions"] == 0
    assert context.get_context("jit_cache_size") == 0
