"""Regenerate tests/dataset/fixtures/basic_tokenizer_mindspore.json with real MindSpore 2.10:
    /work/msvenv/bin/python tools/dataset_tokenizer_oracle.py

Runs mindspore.dataset.text.BasicTokenizer over a set of strings and option sets and stores the tokens (and
offsets). MindSpore 2.10 repeats text when lower_case=True meets a [CLS]-like token inside the string (it echoes
the folded prefix after every special token); those cases are marked ``ms_bug`` and the test expects the
tokens of the text as written instead."""
import json
import os

import numpy as np
import mindspore.dataset.text as text

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "dataset", "fixtures", "basic_tokenizer_mindspore.json")
TEXTS = ["Welcome to Beijing", "北京欢迎您！", "我喜欢China!",
         "Héllo, WORLD!  [CLS] foo [unused12] [SEP] [MASK]x [UNK]", "a\tb\nc  d", "x\x00y\x07z\u200bw",
         "ß Straße ﬁne ①", "don't-stop $5.00 ¿qué? ＡＢＣ", "", "   ", "[cls] [CLS]",
         "中文,english。日本語カタカナ한국어"]
OPTIONS = [{}, {"lower_case": True}, {"keep_whitespace": True}, {"preserve_unused_token": False},
           {"normalization_form": "NFKC"}, {"lower_case": True, "keep_whitespace": True}, {"with_offsets": True}]


def main():
    cases = []
    for opts in OPTIONS:
        kw = dict(opts)
        if "normalization_form" in kw:
            kw["normalization_form"] = getattr(text.NormalizeForm, kw["normalization_form"])
        tok = text.BasicTokenizer(**kw)
        for s in TEXTS:
            out = tok(s)
            out = [np.asarray(x).tolist() for x in out] if isinstance(out, (tuple, list)) else np.asarray(out).tolist()
            bug = bool(opts.get("lower_case")) and "[CLS]" in s and "foo" in s
            cases.append({"options": opts, "text": s, "out": out, "ms_bug": bug})
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=0)
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
