"""PascalCase classes over functional ops: the triplet-margin and CTC losses, RmsNorm, Renorm, Quantile, NthElement
and LerpScalar (``ops.Name(attrs)(inputs)`` as in MindSpore, with its argument checks)."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.dispatch import bind, current_builder
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag
from .ctc_ops import CTC_LOSS, CTC_LOSS_V2


class AttrRangeError(ValueError, RuntimeError):
    """An attribute out of its range, which MindSpore's CPU kernels report as RuntimeError when they launch."""


def _typed(owner: str, name: str, value, kind) -> None:
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        want = kind.__name__ if isinstance(kind, type) else kind[0].__name__
        raise TypeError(f"For '{owner}', the type of '{name}' should be '{want}', but got type "
                        f"'{type(value).__name__}'.")


def _tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the input '{name}' must be a Tensor, but got {type(value).__name__}.")


class TripletMarginLoss(_Flag):
    """``TripletMarginLoss(p=2, swap=False, eps=1e-6, reduction='mean')(x, positive, negative, margin)`` with a 0-d
    Tensor ``margin``: max(d(x, positive) - d(x, negative) + margin, 0) over the last axis's p-norm distance."""

    defaults = {"p": 2, "swap": False, "eps": 1e-6, "reduction": "mean"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _typed("TripletMarginLoss", "p", self.p, int)
        _typed("TripletMarginLoss", "swap", self.swap, bool)
        _typed("TripletMarginLoss", "eps", self.eps, float)
        if self.reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For 'TripletMarginLoss', the 'reduction' must be str and must be in "
                             f"['none', 'sum', 'mean'], but got {self.reduction!r}.")

    def __call__(self, x, positive, negative, margin):
        for name, t in (("x", x), ("positive", positive), ("negative", negative), ("margin", margin)):
            _tensor("TripletMarginLoss", name, t)
        if margin.ndim != 0:
            raise ValueError(f"For 'TripletMarginLoss', the rank of 'margin' must be 0, but got {margin.ndim}.")
        if max(x.ndim, positive.ndim, negative.ndim) <= 1:
            raise ValueError("For 'TripletMarginLoss', the dimensions of 'x', 'positive' and 'negative' must not all "
                             "be <= 1.")
        return F.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps, self.swap, self.reduction)


class CTCLossV2(_Flag):
    """``CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs (T, N, C), targets (N, S),
    input_lengths, target_lengths)`` -> (neg_log_likelihood (N,), log_alpha (N, T, 2S+1))."""

    defaults = {"blank": 0, "reduction": "none", "zero_infinity": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _typed("CTCLossV2", "blank", self.blank, int)
        _typed("CTCLossV2", "reduction", self.reduction, str)
        _typed("CTCLossV2", "zero_infinity", self.zero_infinity, bool)
        if self.reduction != "none":
            raise ValueError(f"For 'CTCLossV2', the 'reduction' must be str and must be in ['none'], "
                             f"but got {self.reduction!r}.")

    def __call__(self, log_probs, targets, input_lengths, target_lengths):
        lengths = [v if isinstance(v, Tensor) else Tensor(list(v), targets.dtype)
                   for v in (input_lengths, target_lengths)]
        return bind(CTC_LOSS_V2, (log_probs, targets, lengths[0], lengths[1]),
                    {"blank": self.blank, "zero_infinity": self.zero_infinity})


class CTCLoss(_Flag):
    """``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False)
    (x (T, N, C) logits, labels_indices (M, 2) int64, labels_values (M,) int32, sequence_length (N,) int32)`` ->
    (loss (N,), gradient (T, N, C)); the blank is the last class."""

    defaults = {"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
                "ignore_longer_outputs_than_inputs": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.defaults:
            _typed("CTCLoss", name, getattr(self, name), bool)

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        for name, t in (("x", x), ("labels_indices", labels_indices), ("labels_values", labels_values),
                        ("sequence_length", sequence_length)):
            _tensor("CTCLoss", name, t)
        return bind(CTC_LOSS, (x, labels_indices, labels_values, sequence_length),
                    {name: getattr(self, name) for name in self.defaults})


class RmsNorm(_Flag):
    """``RmsNorm(epsilon=1e-6)(x, gamma)`` -> (x / sqrt(mean(x^2) + epsilon) * gamma, rstd) over gamma's axes."""

    defaults = {"epsilon": 1e-6}

    def __call__(self, x, gamma):
        _typed("RmsNorm", "epsilon", self.epsilon, float)
        return F.rms_norm(x, gamma, self.epsilon)


class Renorm(_Flag):
    """``Renorm(p, dim, maxnorm)(x)``: every slice along ``dim`` whose p-norm exceeds ``maxnorm`` is scaled to it."""

    defaults = {"p": None, "dim": None, "maxnorm": None}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _typed("Renorm", "p", self.p, int)
        _typed("Renorm", "dim", self.dim, int)
        _typed("Renorm", "maxnorm", self.maxnorm, float)
        if self.p <= 0:
            raise ValueError(f"For 'Renorm', the 'p' must be a positive norm degree, but got {self.p}.")

    def __call__(self, x):
        _tensor("Renorm", "x", x)
        if not -x.ndim <= self.dim < x.ndim:
            raise AttrRangeError(f"For 'Renorm', the attribute 'dim' must be in range [{-x.ndim}, {x.ndim}), "
                                 f"but got {self.dim}.")
        return F.renorm(x, self.p, self.dim, self.maxnorm)


class Quantile(_Flag):
    """``Quantile(dim=None, keep_dims=False, ignore_nan=False)(input, q)``: linear-interpolated quantiles (NaN-aware
    with ``ignore_nan``); a 1-D ``q`` puts one result per q on a new leading axis."""

    defaults = {"dim": None, "keep_dims": False, "ignore_nan": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.dim is not None:
            _typed("Quantile", "dim", self.dim, int)
        _typed("Quantile", "keep_dims", self.keep_dims, bool)
        _typed("Quantile", "ignore_nan", self.ignore_nan, bool)

    def __call__(self, input, q):  # noqa: A002
        fn = F.nanquantile if self.ignore_nan else F.quantile
        return fn(input, q, self.dim, self.keep_dims)


def _n_range(n: int, size: int) -> None:
    if not 0 <= n < size:
        raise ValueError(f"For 'NthElement', 'n' must be in [0, {size}), but got {n}.")


class NthElement(_Flag):
    """``NthElement(reverse=False)(input, n)``: the n-th smallest (``reverse``: largest) value along the last axis;
    the result drops that axis."""

    defaults = {"reverse": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _typed("NthElement", "reverse", self.reverse, bool)

    def __call__(self, input, n):  # noqa: A002
        _tensor("NthElement", "input", input)
        if input.dtype == mstype.bool_ or not (input.dtype.is_float or input.dtype.is_int):
            raise TypeError(f"For 'NthElement', the input must be a real number tensor, but got {input.dtype}.")
        if input.ndim < 1:
            raise ValueError("For 'NthElement', the input must have at least 1 dimension, but got a 0-d tensor.")
        size = input.shape[-1]
        values = F.sort(input, -1, self.reverse)[0]
        if isinstance(n, Tensor):
            if n.ndim != 0 or n.dtype != mstype.int32:
                raise TypeError(f"For 'NthElement', 'n' must be an int or a 0-d int32 Tensor, but got a "
                                f"{n.dtype} tensor of shape {list(n.shape)}.")
            if current_builder() is None:  # a traced n is checked by Gather's own range check when it runs
                _n_range(int(n.asnumpy()), size)
            return F.gather(values, n, values.ndim - 1)
        _typed("NthElement", "n", n, int)
        _n_range(n, size)
        return values[..., n]


class LerpScalar(_Flag):
    """``LerpScalar()(input, end, weight)`` with a Python float ``weight``: input + weight * (end - input)."""

    def __call__(self, input, end, weight):  # noqa: A002
        _tensor("LerpScalar", "input", input)
        _tensor("LerpScalar", "end", end)
        _typed("LerpScalar", "weight", weight, (float, int))
        return F.lerp(input, end, float(weight))


__all__ = ["TripletMarginLoss", "CTCLossV2", "CTCLoss", "RmsNorm", "Renorm", "Quantile", "NthElement", "LerpScalar"]
