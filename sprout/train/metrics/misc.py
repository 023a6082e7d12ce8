"""BleuScore (corpus BLEU with clipped n-gram counts and brevity penalty), CosineSimilarity (pairwise similarity
matrix of the rows), Perplexity (exp of the mean negative log probability of the labels) and OcclusionSensitivity
(how much a model's score for a label drops when each region of the input is occluded)."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ...core.tensor import Tensor
from .metric import Metric, check_inputs, check_is_updated, check_type, rearrange_inputs


def _ngrams(tokens, n: int) -> Counter:
    counts = Counter()
    for size in range(1, n + 1):
        for start in range(len(tokens) - size + 1):
            counts[tuple(tokens[start:start + size])] += 1
    return counts


class BleuScore(Metric):
    """BLEU of candidate sentences (token lists) against lists of reference sentences."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        self.n_gram = check_type(n_gram, int, "n_gram", "BleuScore")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        self.smooth = check_type(smooth, bool, "smooth", "BleuScore")
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._precision_scores = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("BleuScore", inputs, 2, "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for cand, refs in zip(candidates, references):
            self._c += len(cand)
            lengths = [len(r) for r in refs]
            gaps = [abs(len(cand) - n) for n in lengths]
            self._r += lengths[gaps.index(min(gaps))]  # the closest reference length (first on ties)
            cand_counts = _ngrams(cand, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, count in (cand_counts & ref_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in cand_counts.items():
                self._denominator[len(gram) - 1] += count
        self._trans_len = np.array(self._c)
        self._ref_len = np.array(self._r)
        self._is_update = True

    def eval(self):
        check_is_updated(self._is_update)
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        geometric = np.exp(np.sum(np.log(precision) / self.n_gram))
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - self._ref_len / self._trans_len)
        return penalty * geometric


class CosineSimilarity(Metric):
    """The (N, N) similarity matrix of the rows of the last update (``similarity`` "cosine" or "dot"), diagonal
    zeroed (``zero_diagonal``), reduced per row by ``reduction`` ("none", "sum", "mean")."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        owner = "CosineSimilarity"
        check_type(similarity, str, "similarity", owner)
        if similarity not in ("dot", "cosine"):
            raise ValueError(f"The 'similarity' must be str and must be in ['dot', 'cosine'], but got '{similarity}'.")
        check_type(reduction, str, "reduction", owner)
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"The 'reduction' must be str and must be in ['none', 'sum', 'mean'], but got "
                             f"'{reduction}'.")
        self.similarity, self.reduction = similarity, reduction
        self.zero_diagonal = check_type(zero_diagonal, bool, "zero_diagonal", owner)
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.T)
        self._is_update = True

    def eval(self):
        check_is_updated(self._is_update)
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


class Perplexity(Metric):
    """exp(mean over labels of -log p(label)), p clipped at 1e-10; ``ignore_label`` positions are skipped."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label if ignore_label is None else \
            check_type(ignore_label, int, "ignore_label", "Perplexity")
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        check_inputs("Perplexity", inputs, 2, "predicted value, label")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should have "
                               f"the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(label.size)
        picked = np.squeeze(pred[np.arange(label.shape[0])[:, None], label.astype(int)[:, None]])
        count = 0
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count + picked.size

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


class OcclusionSensitivity(Metric):
    """``update(model, x, label)`` with one image x (1, ...): for every position (inside ``b_box``), the model's
    score for ``label`` on x with a (2 margin)-wide box around it set to ``pad_val``; ``eval()`` is the drop from
    the unoccluded score."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        owner = "OcclusionSensitivity"
        self.pad_val = check_type(pad_val, float, "pad_val", owner)
        self.margin = check_type(margin, (int, list), "margin", owner)
        self.n_batch = check_type(n_batch, int, "n_batch", owner)
        self.b_box = b_box if b_box is None else check_type(b_box, list, "b_box", owner)
        self.clear()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _box(self, shape):
        if self.b_box is None:
            return None, None
        if len(self.b_box) != 2 * len(shape):
            raise ValueError(f"For 'OcclusionSensitivity', the length of 'b_box' must be twice as long as the "
                             f"predicted value's (except batch number), but got 'b_box' length {len(self.b_box)}, "
                             f"predicted value length (except batch number) {len(shape)}.")
        lo, hi = np.array(self.b_box[::2]), np.array(self.b_box[1::2])
        lo[lo < 0] = 0
        hi[hi < 0] = shape[hi < 0] - 1
        if np.any(hi >= shape):
            raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                             "values.")
        if np.any(lo > hi):
            raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding "
                             "box for all values.")
        return lo, hi

    @rearrange_inputs
    def update(self, *inputs):
        from ...nn.cell import Cell  # metrics are imported by nn lazily; the model is a Cell

        check_inputs("OcclusionSensitivity", inputs, 3, "classification model, predicted value, label")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity', the type of 'model' should be 'Cell', but got type "
                            f"'{type(model).__name__}'.")
        x = self._convert_data(inputs[1])
        label = self._convert_data(inputs[2])  # (MindSpore converts first, so a plain int label is a TypeError)
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {x.shape[0]}.")
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same as "
                               f"the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{x.shape[0]}.")
        shape = np.array(x.shape[1:])
        lo, hi = self._box(shape)
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        out_shape = shape if lo is None else hi - lo + 1
        total = int(np.prod(out_shape))
        scores, batch = [], []
        for i in range(total):
            idx = np.array(np.unravel_index(i, out_shape))
            if lo is not None:
                idx = idx + lo
            start = [max(0, j - self.margin) for j in idx]
            stop = [min(n, j + self.margin) for j, n in zip(idx, shape)]
            occluded = x.copy()
            occluded[(...,) + tuple(slice(a, b) for a, b in zip(start, stop))] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                out = model(Tensor(np.vstack(batch))).asnumpy()
                scores.append(out[np.arange(len(batch)), int(np.asarray(label).ravel()[0])])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._is_update = True

    def eval(self):
        check_is_updated(self._is_update)
        return self._baseline - np.squeeze(self._sensitivity_im)
