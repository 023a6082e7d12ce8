"""text.CaseFold against MindSpore 2.10 (ICU NFKC_Casefold), recorded by tools/dataset_casefold_oracle.py: every
character of planes 0-2 whose folding is not plain lower-casing, and whole strings."""
import json
import os
import unicodedata

import numpy as np
import pytest

import sprout.dataset.text as T
from sprout.dataset.text.casefold import is_default_ignorable, nfkc_casefold

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "casefold_mindspore.json"), encoding="utf-8"))


def test_every_special_character_folds_as_mindspore():
    wrong = {}
    for cp in range(0x20, 0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cs", "Co", "Cn"):
            continue
        want = DATA["chars"].get(f"{cp:x}", ch.lower())
        got = nfkc_casefold("a" + ch + "B")[1:-1]
        if got != want:
            wrong[f"{cp:x}"] = (got, want)
    assert not wrong, f"{len(wrong)} characters differ, e.g. {list(wrong.items())[:5]}"


@pytest.mark.parametrize("text", list(DATA["strings"]))
def test_casefold_strings_match_mindspore(text):
    assert str(np.asarray(T.CaseFold()(text))) == DATA["strings"][text]


def test_casefold_on_an_array_keeps_its_shape():
    out = T.CaseFold()(np.array([["ＡB", "Ⅻ"], ["ß", "x\u00ady"]]))
    assert out.shape == (2, 2) and out.tolist() == [["ab", "xii"], ["ss", "xy"]]


def test_default_ignorable_table():
    assert is_default_ignorable("\u00ad") and is_default_ignorable("\U000e0fff") and is_default_ignorable("\u2065")
    assert not is_default_ignorable("a") and not is_default_ignorable("\u0600")  # a format char that is not ignorable
