"""BasicTokenizer: BERT-style pre-tokenization of one string (normalize, split at whitespace, punctuation and CJK
ideographs, keep ``[CLS]``-like special tokens whole)."""
from __future__ import annotations

import re
import unicodedata

from .._checks import check_bool
from ..transforms.transforms import TensorOperation
from .casefold import nfkc_casefold
from .transforms import NormalizeForm, _byte_offsets, _one, _scalar_text, _tokens_out

_SPECIAL = re.compile(r"\[(?:CLS|SEP|UNK|PAD|MASK|unused\d+)\]")
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK)


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:  # every ASCII symbol counts
        return True
    return unicodedata.category(ch).startswith("P")


def _fold(text: str) -> str:
    """lower_case: NFKC case folding (format characters dropped), then accents stripped (NFD, no Mn)."""
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")
    text = nfkc_casefold(text)
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


class BasicTokenizer(TensorOperation):
    """Tokenize one string the way BERT's basic tokenizer does. ``lower_case`` folds case (NFKC case folding)
    and strips accents; otherwise ``normalization_form`` (a text.NormalizeForm) is applied. Control and format
    characters become spaces; the text is split at whitespace (runs kept as tokens with ``keep_whitespace``),
    and every punctuation mark (any ASCII symbol or Unicode P* character) and CJK ideograph is its own token.
    ``preserve_unused_token`` keeps ``[CLS] [SEP] [UNK] [PAD] [MASK] [unusedN]`` whole and unfolded.
    ``with_offsets`` adds UTF-8 byte offsets (start, end) into the normalized text."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        op = "BasicTokenizer"
        self.lower_case = check_bool(op, "lower_case", lower_case)
        self.keep_whitespace = check_bool(op, "keep_whitespace", keep_whitespace)
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError(f"{op}: normalization_form must be a text.NormalizeForm, got {normalization_form!r}")
        self.normalization_form = normalization_form
        self.preserve_unused_token = check_bool(op, "preserve_unused_token", preserve_unused_token)
        self.with_offsets = check_bool(op, "with_offsets", with_offsets)

    def _normalize(self, text: str) -> str:
        if self.lower_case:
            text = _fold(text)
        elif self.normalization_form is not NormalizeForm.NONE:
            text = unicodedata.normalize(self.normalization_form.value, text)
        return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)

    def _spans(self, text: str, base: int, spans: list):
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch.isspace():
                j = i
                while j < n and text[j].isspace():
                    j += 1
                if self.keep_whitespace:
                    spans.append((base + i, base + j))
                i = j
            elif _is_punct(ch) or _is_cjk(ch):
                spans.append((base + i, base + i + 1))
                i += 1
            else:
                j = i
                while j < n and not (text[j].isspace() or _is_punct(text[j]) or _is_cjk(text[j])):
                    j += 1
                spans.append((base + i, base + j))
                i = j

    def __call__(self, *args):
        raw = _scalar_text("BasicTokenizer", (_one("BasicTokenizer", args),))
        pieces, last = [], 0
        if self.preserve_unused_token:
            for m in _SPECIAL.finditer(raw):
                pieces += [(self._normalize(raw[last:m.start()]), False), (m.group(0), True)]
                last = m.end()
        pieces.append((self._normalize(raw[last:]), False))
        text, spans = "", []
        for piece, special in pieces:
            if special:
                spans.append((len(text), len(text) + len(piece)))
            else:
                self._spans(piece, len(text), spans)
            text += piece
        tokens, starts, ends = _byte_offsets(text, spans)
        return _tokens_out(tokens, starts, ends, self.with_offsets)
