"""Regenerate tests/dataset/fixtures/casefold_mindspore.json with real MindSpore 2.10:
    /work/msvenv/bin/python tools/dataset_casefold_oracle.py

Runs mindspore.dataset.text.CaseFold (ICU's NFKC_Casefold) over every assigned code point of the first three
planes, each between two letters, plus the first code point of each unassigned or private range that has a
special folding, and stores the characters whose folding is not the plain lower-casing of the text, together
with a few whole strings (combining sequences, ignorables between a letter and its accent)."""
import json
import os
import unicodedata

import numpy as np
import mindspore.dataset.text as text

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "dataset", "fixtures", "casefold_mindspore.json")
STRINGS = ["Straße ＡＢＣ ﬁ Ⅻ ǅ", "HELLO Wörld", "ﾊﾝｶｸ ①", "e\u00ad\u0301", "A\u200dB\ufeffC", "㎒ ℌ ﬀ",
           "ΣΑΣ ὈΔΥΣΣΕΎΣ", "İstanbul", "\uffa0x\ufff0y\U000e0041z", "", "MiXeD 123 !?"]


def main():
    fold = text.CaseFold()
    chars = {}
    for cp in range(0x20, 0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cs", "Co", "Cn"):
            continue
        got = str(np.asarray(fold("a" + ch + "B")))
        if got != "a" + ch.lower() + "b":
            chars[f"{cp:x}"] = got[1:-1]
    strings = {s: str(np.asarray(fold(s))) if s else "" for s in STRINGS}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"chars": chars, "strings": strings}, f, ensure_ascii=False, indent=0)
    print(f"wrote {len(chars)} characters and {len(strings)} strings to {OUT}")


if __name__ == "__main__":
    main()
