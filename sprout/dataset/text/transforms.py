"""Text transforms: Lookup, ToNumber, SlidingWindow, Ngram, Truncate, TruncateSequencePair, AddToken, CaseFold,
NormalizeUTF8, RegexReplace, and the whitespace / regex / character / wordpiece / Python tokenizers."""
from __future__ import annotations

import numbers
import re
import unicodedata
from enum import Enum

import numpy as np

from .._checks import check_bool, check_int, np_dtype, to_array
from ..transforms.transforms import TensorOperation
from .casefold import nfkc_casefold
from .vocab import Vocab, token_text


def _text_array(op: str, value) -> np.ndarray:
    if isinstance(value, (str, bytes)):
        value = np.array(value)
    arr = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    if arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8")
    if arr.dtype.kind != "U":
        raise TypeError(f"{op}: expects string data, got {arr.dtype}")
    return arr


def _one(op: str, args):
    if len(args) != 1:
        raise TypeError(f"{op}: takes one column, got {len(args)}")
    return args[0]


def _scalar_text(op: str, args) -> str:
    arr = _text_array(op, _one(op, args))
    if arr.ndim != 0:
        raise ValueError(f"{op}: the input should be one string (a scalar), got shape {arr.shape}; tokenize before "
                         "batching")
    return str(arr)


def _tokens_out(tokens, starts, ends, with_offsets):
    out = np.array(tokens if tokens else [""])
    if not with_offsets:
        return out
    return out, np.array(starts or [0], np.uint32), np.array(ends or [0], np.uint32)


def _byte_offsets(text: str, spans):
    """Token texts and their UTF-8 byte offsets (start, end) from character spans."""
    prefix = np.concatenate([[0], np.cumsum([len(c.encode("utf-8")) for c in text])]).astype(int)
    return [text[a:b] for a, b in spans], [int(prefix[a]) for a, _ in spans], [int(prefix[b]) for _, b in spans]


class Lookup(TensorOperation):
    """Words to ids through ``vocab``; an unknown word becomes ``unknown_token``'s id (or raises without one)."""

    def __init__(self, vocab, unknown_token=None, data_type=None):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Lookup: vocab must be a text.Vocab, got {type(vocab).__name__}")
        self.vocab, self.unknown_token = vocab, unknown_token
        self._np = np.dtype(np.int32) if data_type is None else np_dtype("Lookup", data_type)
        if self._np.kind not in "iu":
            raise TypeError(f"Lookup: data_type must be an integer type, got {self._np}")
        self._unknown = None
        if unknown_token is not None:
            if unknown_token not in vocab:
                raise ValueError(f"Lookup: unknown_token {unknown_token!r} is not in the vocab")
            self._unknown = vocab.tokens_to_ids(unknown_token)

    def __call__(self, *args):
        words = _text_array("Lookup", _one("Lookup", args))
        table = self.vocab._table
        out = np.empty(words.shape, self._np)
        flat = out.reshape(-1)
        for k, w in enumerate(words.reshape(-1).tolist()):
            i = table.get(w, self._unknown)
            if i is None:
                raise RuntimeError(f"Lookup: token {w!r} doesn't exist in the vocab and no unknown_token is given")
            flat[k] = i
        return out


_INT = re.compile(r"\s*[+-]?\d+")
_FLOAT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


class ToNumber(TensorOperation):
    """Parse strings into numbers of ``data_type`` (like C's strtol/strtod: the leading number counts, so
    "12abc" and "1.5" give 12 and 1 for ints); values outside the type's range raise."""

    def __init__(self, data_type):
        self._np = np_dtype("ToNumber", data_type)
        if self._np.kind not in "iuf":
            raise TypeError(f"ToNumber: data_type must be a numeric type, got {self._np}")
        self.data_type = data_type

    def __call__(self, *args):
        words = _text_array("ToNumber", _one("ToNumber", args))
        pattern = _FLOAT if self._np.kind == "f" else _INT
        values = []
        for w in words.reshape(-1).tolist():
            m = pattern.match(w)
            if not m:
                raise RuntimeError(f"ToNumber: it is invalid to convert {w!r} to a number")
            v = float(m.group(0)) if self._np.kind == "f" else int(m.group(0))
            if self._np.kind == "f":
                with np.errstate(over="ignore"):
                    overflow = not np.isfinite(np.array(v, self._np))
                if overflow and np.isfinite(v):
                    raise RuntimeError(f"ToNumber: string input {w!r} is out of the range of {self._np}")
            else:
                info = np.iinfo(self._np)
                if not info.min <= v <= info.max:
                    raise RuntimeError(f"ToNumber: string input {w!r} is out of the range of {self._np} "
                                       f"[{info.min}, {info.max}]")
            values.append(v)
        return np.array(values, self._np).reshape(words.shape)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements of a 1-D column: shape (n - width + 1, width)."""

    def __init__(self, width, axis=0):
        self.width = check_int("SlidingWindow", "width", width, low=1)
        self.axis = check_int("SlidingWindow", "axis", axis)

    def __call__(self, *args):
        arr = to_array("SlidingWindow", _one("SlidingWindow", args))
        if arr.ndim != 1:
            raise ValueError(f"SlidingWindow: supports 1-D input only, got {arr.ndim}-D")
        n = arr.shape[0] - self.width + 1
        if n <= 0:
            return arr[:0]
        return np.stack([arr[i:i + self.width] for i in range(n)])


class Ngram(TensorOperation):
    """The ``n``-grams (one int or a list) of a 1-D string column joined by ``separator``, after padding with
    ``left_pad`` / ``right_pad`` (token, count); [''] when the column is too short."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        ns = [n] if isinstance(n, numbers.Integral) else list(n)
        self.n = [check_int("Ngram", "n", v, low=1) for v in ns]
        for name, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not isinstance(pad, (list, tuple)) or len(pad) != 2 or not isinstance(pad[0], str):
                raise TypeError(f"Ngram: {name} must be a (str, int) pair, got {pad!r}")
            check_int("Ngram", f"{name}[1]", pad[1], low=0)
        self.left_pad, self.right_pad, self.separator = tuple(left_pad), tuple(right_pad), separator

    def __call__(self, *args):
        words = _text_array("Ngram", _one("Ngram", args))
        if words.ndim != 1:
            raise ValueError(f"Ngram: expects a 1-D column of strings, got shape {words.shape}")
        out = []
        for n in self.n:  # an n-gram uses at most n - 1 pad tokens on each side
            seq = [self.left_pad[0]] * min(self.left_pad[1], n - 1) + words.tolist() + \
                [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            out += [self.separator.join(seq[i:i + n]) for i in range(len(seq) - n + 1)]
        return np.array(out if out else [""])


class Truncate(TensorOperation):
    """Keep the first ``max_seq_len`` elements of a 1-D column."""

    def __init__(self, max_seq_len):
        self.max_seq_len = check_int("Truncate", "max_seq_len", max_seq_len, low=0)

    def __call__(self, *args):
        arr = to_array("Truncate", _one("Truncate", args))
        if arr.ndim != 1:
            raise ValueError(f"Truncate: expects a 1-D column, got shape {arr.shape}")
        return arr[:self.max_seq_len].copy()


class TruncateSequencePair(TensorOperation):
    """Cut two 1-D columns until their total length is at most ``max_length``, always from the longer one
    (the second when they are equal)."""

    def __init__(self, max_length):
        self.max_length = check_int("TruncateSequencePair", "max_length", max_length, low=0)

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError(f"TruncateSequencePair: takes two columns, got {len(args)}")
        a, b = (to_array("TruncateSequencePair", x) for x in args)
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la].copy(), b[:lb].copy()


class AddToken(TensorOperation):
    """Put ``token`` before (``begin=True``) or after a 1-D string column."""

    def __init__(self, token, begin=True):
        if not isinstance(token, str):
            raise TypeError(f"AddToken: token must be a str, got {token!r}")
        self.token, self.begin = token, check_bool("AddToken", "begin", begin)

    def __call__(self, *args):
        words = _text_array("AddToken", _one("AddToken", args)).reshape(-1).tolist()
        return np.array([self.token] + words if self.begin else words + [self.token])


class CaseFold(TensorOperation):
    """Unicode NFKC case folding as ICU does it (a stronger lower-casing: 'ß' becomes 'ss', full-width 'Ａ' and
    'Ⅻ' become 'a' and 'xii', default-ignorable characters such as soft hyphens and zero-width joiners go)."""

    def __call__(self, *args):
        words = _text_array("CaseFold", _one("CaseFold", args))
        return np.vectorize(nfkc_casefold, otypes=[str])(words) if words.size else words


class NormalizeForm(Enum):
    NONE = "none"
    NFC = "NFC"
    NFKC = "NFKC"
    NFD = "NFD"
    NFKD = "NFKD"


class NormalizeUTF8(TensorOperation):
    """Unicode normalization of strings (``normalize_form`` a text.NormalizeForm)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"NormalizeUTF8: normalize_form must be a text.NormalizeForm, got {normalize_form!r}")
        self.normalize_form = normalize_form

    def __call__(self, *args):
        words = _text_array("NormalizeUTF8", _one("NormalizeUTF8", args))
        if self.normalize_form is NormalizeForm.NONE or not words.size:
            return words
        form = self.normalize_form.value
        return np.vectorize(lambda s: unicodedata.normalize(form, s), otypes=[str])(words)


class RegexReplace(TensorOperation):
    """Replace matches of ``pattern`` by ``replace`` (all of them, or the first with ``replace_all=False``)."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern, self.replace = re.compile(pattern), replace
        self.replace_all = check_bool("RegexReplace", "replace_all", replace_all)

    def __call__(self, *args):
        words = _text_array("RegexReplace", _one("RegexReplace", args))
        count = 0 if self.replace_all else 1
        sub = np.vectorize(lambda s: self.pattern.sub(self.replace, s, count=count), otypes=[str])
        return sub(words) if words.size else words


class WhitespaceTokenizer(TensorOperation):
    """Split one string at runs of Unicode whitespace ([''] for none); ``with_offsets`` adds the UTF-8 byte
    offsets of each token (start, end)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = check_bool("WhitespaceTokenizer", "with_offsets", with_offsets)

    def __call__(self, *args):
        text = _scalar_text("WhitespaceTokenizer", args)
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        return _tokens_out(*_byte_offsets(text, spans), self.with_offsets)


class UnicodeCharTokenizer(TensorOperation):
    """Split one string into its characters (with UTF-8 byte offsets if ``with_offsets``)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = check_bool("UnicodeCharTokenizer", "with_offsets", with_offsets)

    def __call__(self, *args):
        text = _scalar_text("UnicodeCharTokenizer", args)
        return _tokens_out(*_byte_offsets(text, [(i, i + 1) for i in range(len(text))]), self.with_offsets)


class RegexTokenizer(TensorOperation):
    """Split one string at matches of ``delim_pattern``; matches of ``keep_delim_pattern`` are kept as tokens."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        self.delim = re.compile(delim_pattern)
        self.keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None
        self.with_offsets = check_bool("RegexTokenizer", "with_offsets", with_offsets)

    def __call__(self, *args):
        text = _scalar_text("RegexTokenizer", args)
        spans, pos = [], 0
        for m in self.delim.finditer(text):
            if m.start() == m.end():
                continue
            if m.start() > pos:
                spans.append((pos, m.start()))
            if self.keep is not None and self.keep.fullmatch(m.group(0)):
                spans.append(m.span())
            pos = m.end()
        if pos < len(text):
            spans.append((pos, len(text)))
        return _tokens_out(*_byte_offsets(text, spans), self.with_offsets)


class WordpieceTokenizer(TensorOperation):
    """Split each word of a 1-D string column into the longest vocab pieces from the left (continuations
    prefixed by ``suffix_indicator``); a word that cannot be split (or longer than ``max_bytes_per_token``)
    becomes ``unknown_token`` (or is kept whole when unknown_token is '')."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"WordpieceTokenizer: vocab must be a text.Vocab, got {type(vocab).__name__}")
        self.vocab, self.suffix = vocab, suffix_indicator
        self.max_bytes = check_int("WordpieceTokenizer", "max_bytes_per_token", max_bytes_per_token, low=1)
        self.unknown_token = unknown_token
        self.with_offsets = check_bool("WordpieceTokenizer", "with_offsets", with_offsets)

    def _pieces(self, word):
        if len(word.encode("utf-8")) > self.max_bytes:
            return None
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.suffix + word[start:end]
                if piece in self.vocab._table:
                    out.append((piece, start, end))
                    break
                end -= 1
            if end == start:
                return None
            start = end
        return out

    def __call__(self, *args):
        words = _text_array("WordpieceTokenizer", _one("WordpieceTokenizer", args)).reshape(-1).tolist()
        tokens, starts, ends = [], [], []
        for word in words:
            pieces = self._pieces(word)
            if pieces is None:
                pieces = [(self.unknown_token if self.unknown_token else word, 0, len(word))]
            for piece, a, b in pieces:
                _, s, e = _byte_offsets(word, [(a, b)])
                tokens.append(piece)
                starts += s
                ends += e
        return _tokens_out(tokens, starts, ends, self.with_offsets)


class PythonTokenizer(TensorOperation):
    """Tokenize one string with a Python function returning a list of str."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: tokenizer must be callable, got {type(tokenizer).__name__}")
        self.tokenizer = tokenizer

    def __call__(self, *args):
        value = _one("PythonTokenizer", args)
        if not isinstance(value, np.ndarray):
            raise TypeError(f"PythonTokenizer: input should be a NumPy array, got {type(value).__name__}")
        return np.array(self.tokenizer(_scalar_text("PythonTokenizer", args)))


def to_str(array, encoding="utf8") -> np.ndarray:
    """A NumPy bytes array as str."""
    arr = np.asarray(array)
    if arr.dtype.kind != "S":
        raise TypeError(f"to_str: expects a NumPy bytes array, got {arr.dtype}")
    return np.char.decode(arr, encoding)


def to_bytes(array, encoding="utf8") -> np.ndarray:
    """A NumPy str array as bytes."""
    arr = np.asarray(array)
    if arr.dtype.kind != "U":
        raise TypeError(f"to_bytes: expects a NumPy str array, got {arr.dtype}")
    return np.char.encode(arr, encoding)


__all__ = ["AddToken", "CaseFold", "Lookup", "Ngram", "NormalizeForm", "NormalizeUTF8", "PythonTokenizer",
           "RegexReplace", "RegexTokenizer", "SlidingWindow", "ToNumber", "Truncate", "TruncateSequencePair",
           "UnicodeCharTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer", "to_bytes", "to_str", "token_text"]
