"""Vocab: the word-to-id table of text pipelines (from a list, a dict, a file or a dataset's words)."""
from __future__ import annotations

import collections
import numbers
import os

import numpy as np


def _strings(op: str, name: str, values) -> list:
    if values is None:
        return []
    if isinstance(values, str) or not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"{op}: {name} must be a list of str, got {values!r}")
    return list(values)


def _with_specials(op: str, words: list, special_tokens, special_first) -> dict:
    specials = _strings(op, "special_tokens", special_tokens)
    if not isinstance(special_first, bool):
        raise TypeError(f"{op}: special_first must be a bool, got {special_first!r}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"{op}: special_tokens contains duplicates: {specials}")
    clash = set(specials) & set(words)
    if clash:
        raise ValueError(f"{op}: special_tokens and the words share {sorted(clash)}")
    ordered = specials + words if special_first else words + specials
    return {w: i for i, w in enumerate(ordered)}


def token_text(value) -> str:
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8")
    return str(value)


class Vocab:
    """A mapping from words to ids. Build it with ``from_list``, ``from_dict``, ``from_file`` or
    ``from_dataset`` (or ``Dataset.build_vocab``)."""

    def __init__(self, table: dict | None = None):
        self._table = dict(table or {})
        self._words = {i: w for w, i in self._table.items()}

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order; ``special_tokens`` go first (ids 0, 1, ...) or last."""
        words = _strings("Vocab.from_list", "word_list", word_list)
        seen = [w for w, n in collections.Counter(words).items() if n > 1]
        if seen:
            raise ValueError(f"Vocab.from_list: word_list contains duplicate word: {seen[0]}")
        return cls(_with_specials("Vocab.from_list", words, special_tokens, special_first))

    @classmethod
    def from_dict(cls, word_dict):
        """Ids as given ({word: id}, ids non-negative ints)."""
        if not isinstance(word_dict, dict) or not all(
                isinstance(k, str) and isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 0
                for k, v in word_dict.items()):
            raise TypeError(f"Vocab.from_dict: word_dict must map str to non-negative int ids, got {word_dict!r}")
        return cls({k: int(v) for k, v in word_dict.items()})

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One word per line (the text before ``delimiter`` if given), at most ``vocab_size`` words."""
        if not isinstance(file_path, (str, os.PathLike)) or not os.path.isfile(file_path):
            raise ValueError(f"Vocab.from_file: {file_path!r} is not a file")
        if vocab_size is not None and (isinstance(vocab_size, bool) or not isinstance(vocab_size, int)
                                       or vocab_size <= 0):
            raise ValueError(f"Vocab.from_file: vocab_size must be a positive int or None, got {vocab_size!r}")
        words = []
        with open(file_path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip("\r\n")
                word = line.split(delimiter, 1)[0] if delimiter else line
                if not word:
                    continue
                if word in words:
                    raise ValueError(f"Vocab.from_file: word {word!r} on line {number} of {os.fspath(file_path)!r} "
                                     "appears twice")
                words.append(word)
                if vocab_size is not None and len(words) == vocab_size:
                    break
        return cls(_with_specials("Vocab.from_file", words, special_tokens, special_first))

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None,
                     special_first=True):
        """The words of string ``columns`` of ``dataset`` (all columns by default), most frequent first (ties
        in alphabetical order), keeping those whose count is within ``freq_range`` (min, max; None for no
        bound) and then the ``top_k`` most frequent."""
        op = "Vocab.from_dataset"
        names = dataset.get_col_names()
        columns = names if columns is None else [columns] if isinstance(columns, str) else list(columns)
        unknown = [c for c in columns if c not in names]
        if unknown:
            raise ValueError(f"{op}: columns {unknown} are not in the dataset's columns {names}")
        low, high = (None, None) if freq_range is None else freq_range
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k <= 0):
            raise ValueError(f"{op}: top_k must be a positive int or None, got {top_k!r}")
        picks = [names.index(c) for c in columns]
        counts = collections.Counter()
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for i in picks:
                col = np.asarray(row[i])
                if col.dtype.kind not in "US":
                    raise TypeError(f"{op}: column {names[i]!r} holds {col.dtype} data; it needs strings "
                                    "(tokenize the text first)")
                counts.update(token_text(w) for w in col.reshape(-1))
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ranked = [w for w, n in ranked if (low is None or n >= low) and (high is None or n <= high)]
        if top_k is not None:
            ranked = ranked[:top_k]
        return cls(_with_specials(op, ranked, special_tokens, special_first))

    def vocab(self) -> dict:
        """The {word: id} table."""
        return dict(self._table)

    def tokens_to_ids(self, tokens):
        """Id of each token (-1 for unknown words); a single token gives a single id."""
        if isinstance(tokens, (str, bytes, np.str_, np.bytes_)):
            return self._table.get(token_text(tokens), -1)
        return [self._table.get(token_text(t), -1) for t in np.asarray(tokens).reshape(-1).tolist()]

    def ids_to_tokens(self, ids):
        """Word of each id ('' for unknown ids); a single id gives a single word."""
        if isinstance(ids, numbers.Integral):
            return self._words.get(int(ids), "")
        return [self._words.get(int(i), "") for i in np.asarray(ids).reshape(-1).tolist()]

    def __len__(self):
        return len(self._table)

    def __contains__(self, word):
        return token_text(word) in self._table
