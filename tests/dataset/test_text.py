"""dataset.text: Vocab, Lookup, tokenizers and the other text transforms (values as MindSpore 2.10 gives them)."""
import numpy as np
import pytest

import sprout as ms
import sprout.dataset as ds
import sprout.dataset.text as T
import sprout.dataset.transforms as TR


def sentences():
    return ds.GeneratorDataset(lambda: iter([(np.array(["b", "a", "c", "a"]),), (np.array(["b", "d", "a", "e"]),)]),
                               ["text"])


def test_vocab_builders(tmp_path):
    v = T.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    assert v.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3, "c": 4}
    last = T.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"], special_first=False)
    assert last.tokens_to_ids(["a", "zz"]) == [0, -1] and last.ids_to_tokens([0, 4, 9]) == ["a", "<unk>", ""]
    assert last.tokens_to_ids("c") == 2 and last.ids_to_tokens(3) == "<pad>"
    assert T.Vocab.from_dict({"x": 5, "y": 2}).vocab() == {"x": 5, "y": 2}
    (tmp_path / "v.txt").write_text("hello,1\nworld,2\nfoo,3\n")
    assert T.Vocab.from_file(str(tmp_path / "v.txt"), ",", 2, ["<s>"]).vocab() == {"<s>": 0, "hello": 1, "world": 2}
    # most frequent first, ties alphabetical; then freq_range and top_k
    assert T.Vocab.from_dataset(sentences(), ["text"], special_tokens=["<unk>"]).vocab() == \
        {"<unk>": 0, "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    assert T.Vocab.from_dataset(sentences(), freq_range=(2, None)).vocab() == {"a": 0, "b": 1}
    assert sentences().build_vocab(None, None, 2, None, True).vocab() == {"a": 0, "b": 1}
    with pytest.raises(ValueError, match="duplicate word: a"):
        T.Vocab.from_list(["a", "a"])
    with pytest.raises(ValueError, match="special_tokens and the words share \\['a'\\]"):
        T.Vocab.from_list(["a", "b"], ["a"])


def test_lookup_and_to_number():
    v = T.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    lookup = T.Lookup(v, unknown_token="<unk>")
    out = lookup(np.array(["a", "zz", "c"]))
    assert out.tolist() == [2, 1, 4] and out.dtype == np.int32 and lookup("b") == 3
    assert T.Lookup(v, data_type=ms.int64)(np.array(["b"])).dtype == np.int64
    with pytest.raises(RuntimeError, match="token 'zz' doesn't exist in the vocab"):
        T.Lookup(v)(np.array(["zz"]))
    with pytest.raises(ValueError, match="unknown_token '<oov>' is not in the vocab"):
        T.Lookup(v, "<oov>")
    assert T.ToNumber(ms.int32)(np.array(["1", "-2", "30", "1.5", " 12abc"])).tolist() == [1, -2, 30, 1, 12]
    assert T.ToNumber(ms.float32)(np.array(["1e3", "-0.5"])).tolist() == [1000.0, -0.5]
    for dtype, text, msg in [(ms.int8, "300", "out of the range of int8"), (ms.uint8, "-1", "out of the range"),
                             (ms.int32, "abc", "invalid to convert 'abc'"), (ms.float32, "1e50", "out of the range")]:
        with pytest.raises(RuntimeError, match=msg):
            T.ToNumber(dtype)(np.array([text]))


def test_tokenizers():
    assert T.WhitespaceTokenizer()("Hello  world\tfoo\nbar ").tolist() == ["Hello", "world", "foo", "bar"]
    tokens, starts, ends = T.WhitespaceTokenizer(with_offsets=True)("ab cd")
    assert tokens.tolist() == ["ab", "cd"] and starts.tolist() == [0, 3] and ends.tolist() == [2, 5]
    assert starts.dtype == np.uint32 and T.WhitespaceTokenizer()("   ").tolist() == [""]
    assert T.UnicodeCharTokenizer()("héllo 你").tolist() == ["h", "é", "l", "l", "o", " ", "你"]
    _, starts, ends = T.UnicodeCharTokenizer(True)("hé")  # UTF-8 byte offsets
    assert starts.tolist() == [0, 1] and ends.tolist() == [1, 3]
    assert T.RegexTokenizer(r"\s+")("a  b c").tolist() == ["a", "b", "c"]
    assert T.RegexTokenizer(r"\s+", r"\s+")("a  b c").tolist() == ["a", "  ", "b", " ", "c"]
    assert T.RegexTokenizer(r"\s+")(" a ").tolist() == ["a"]
    vocab = T.Vocab.from_list(["un", "##aff", "##able", "[UNK]"])
    assert T.WordpieceTokenizer(vocab)(np.array(["unaffable", "xyz"])).tolist() == ["un", "##aff", "##able", "[UNK]"]
    _, starts, ends = T.WordpieceTokenizer(vocab, with_offsets=True)(np.array(["unaffable"]))
    assert starts.tolist() == [0, 2, 5] and ends.tolist() == [2, 5, 9]
    assert T.PythonTokenizer(lambda s: s.split("-"))(np.array("a-b")).tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="WhitespaceTokenizer: the input should be one string"):
        T.WhitespaceTokenizer()(np.array(["a b", "c"]))


def test_sequence_transforms():
    assert T.SlidingWindow(3)(np.array([1, 2, 3, 4, 5])).tolist() == [[1, 2, 3], [2, 3, 4], [3, 4, 5]]
    assert T.SlidingWindow(3)(np.array(["a", "b"])).shape == (0,)
    a, b = T.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5, 6]))
    assert a.tolist() == [1, 2] and b.tolist() == [4, 5]
    a, b = T.TruncateSequencePair(5)(np.array([1, 2, 3, 4]), np.array([5, 6]))
    assert a.tolist() == [1, 2, 3] and b.tolist() == [5, 6]
    assert T.Ngram(2)(np.array(["a", "b", "c"])).tolist() == ["a b", "b c"]
    assert T.Ngram([1, 3], ("_", 1), ("-", 1), "+")(np.array(["a", "b", "c"])).tolist() == \
        ["a", "b", "c", "_+a+b", "a+b+c", "b+c+-"]
    assert T.Ngram(4)(np.array(["a", "b"])).tolist() == [""]
    assert T.Truncate(2)(np.array([1, 2, 3])).tolist() == [1, 2]
    assert T.AddToken("<s>")(np.array(["a", "b"])).tolist() == ["<s>", "a", "b"]
    assert T.CaseFold()("ÄBC Straße").tolist() == "äbc strasse"
    assert T.NormalizeUTF8(T.NormalizeForm.NFKC)("ｆｕｌｌ").tolist() == "full"
    assert T.RegexReplace(r"\s+", "_", False)("a  b c").tolist() == "a_b c"
    assert T.to_str(np.array([b"ab"])).tolist() == ["ab"] and T.to_bytes(np.array(["ab"])).tolist() == [b"ab"]


def test_general_transforms():
    assert TR.PadEnd([5], 0)(np.array([1, 2, 3])).tolist() == [1, 2, 3, 0, 0]
    assert TR.PadEnd([2], 0)(np.array([1, 2, 3])).tolist() == [1, 2]
    assert TR.PadEnd([4], "<p>")(np.array(["a", "b"])).tolist() == ["a", "b", "<p>", "<p>"]
    assert TR.PadEnd([2, 3], 9)(np.array([[1], [2]])).tolist() == [[1, 9, 9], [2, 9, 9]]
    assert TR.Concatenate(0, np.array([0]), np.array([9]))(np.array([1, 2])).tolist() == [0, 1, 2, 9]
    assert TR.Slice(slice(1, 3))(np.arange(5)).tolist() == [1, 2]
    assert TR.Mask(TR.Relational.GT, 2)(np.arange(5)).tolist() == [False, False, False, True, True]
    ds.config.set_seed(1)
    choice = TR.RandomChoice([lambda x: x + 1, lambda x: x + 2])
    picked = {int(choice(np.array(0))) for _ in range(20)}
    assert picked == {1, 2}
    assert TR.RandomApply([lambda x: x + 1], prob=0.0)(np.array(5)) == 5
    assert TR.RandomOrder([lambda x: x * 2, lambda x: x + 1])(np.array(3)) in (7, 8)


def test_text_pipeline_end_to_end():
    lines = ds.NumpySlicesDataset({"line": np.array(["the cat sat", "the dog", "a cat ran far away"])},
                                  shuffle=False)
    tokens = lines.map(T.WhitespaceTokenizer(), "line")
    vocab = T.Vocab.from_dataset(tokens, ["line"], special_tokens=["<pad>", "<unk>"])
    ids = tokens.map([T.Lookup(vocab, "<unk>"), TR.PadEnd([4], 0)], "line").batch(3)
    batch = next(ids.create_tuple_iterator(output_numpy=True))[0]
    assert batch.shape == (3, 4) and batch[1].tolist() == [vocab.tokens_to_ids("the"), vocab.tokens_to_ids("dog"),
                                                          0, 0]
