"""Embedding: a lookup table of shape (vocab_size, embedding_size) indexed by integer ids."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from ...common.initializer import initializer
from ...core.tensor import Parameter
from ..cell import Cell


class Embedding(Cell):
    """``ids`` of any shape -> ids.shape + (embedding_size,). The table starts N(0, 0.01) ("normal"); the row at
    ``padding_idx`` starts at zero."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.int32, padding_idx=None):
        super().__init__()
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For 'Embedding', '{name}' must be a positive int, but got {v!r}.")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For 'Embedding', 'use_one_hot' must be a bool, but got {type(use_one_hot).__name__}.")
        self.vocab_size, self.embedding_size, self.use_one_hot = vocab_size, embedding_size, use_one_hot
        self.dtype = dtype
        self.init_tensor = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or not -vocab_size <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', 'padding_idx' must be an int in [{-vocab_size}, {vocab_size}), "
                                 f"but got {padding_idx!r}.")
            self.init_tensor.asnumpy()[padding_idx] = 0
        self.embedding_table = Parameter(self.init_tensor, name="embedding_table")

    def construct(self, ids):
        if self.use_one_hot:
            flat = ops.reshape(ids, (-1,))
            one_hot = ops.one_hot(flat, self.vocab_size, 1.0, 0.0)
            out = ops.matmul(ops.cast(one_hot, self.embedding_table.dtype), self.embedding_table)
            return ops.reshape(out, tuple(ids.shape) + (self.embedding_size,))
        return ops.gather(self.embedding_table, ids, 0)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")
