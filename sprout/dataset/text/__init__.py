"""``sprout.dataset.text``: Vocab, Lookup, tokenizers and other text transforms (no ICU needed)."""
from .transforms import (AddToken, CaseFold, Lookup, Ngram, NormalizeForm, NormalizeUTF8, PythonTokenizer,
                         RegexReplace, RegexTokenizer, SlidingWindow, ToNumber, Truncate, TruncateSequencePair,
                         UnicodeCharTokenizer, WhitespaceTokenizer, WordpieceTokenizer, to_bytes, to_str)
from .vocab import Vocab
from .basic_tokenizer import BasicTokenizer

__all__ = ["AddToken", "BasicTokenizer", "CaseFold", "Lookup", "Ngram", "NormalizeForm", "NormalizeUTF8",
           "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SlidingWindow", "ToNumber", "Truncate",
           "TruncateSequencePair", "UnicodeCharTokenizer", "Vocab", "WhitespaceTokenizer", "WordpieceTokenizer",
           "to_bytes", "to_str"]
