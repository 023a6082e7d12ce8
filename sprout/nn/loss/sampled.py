"""SampledSoftmaxLoss: softmax cross-entropy over the true classes and a sample of negative classes."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from .loss import LossBase, check_tensor

__all__ = ["SampledSoftmaxLoss"]


class SampledSoftmaxLoss(LossBase):
    """Cross-entropy of a softmax over ``num_true`` true classes and ``num_sampled`` classes drawn uniformly
    (without replacement) from [0, num_classes): logits are ``inputs @ weights[c] + biases[c]`` minus the log of each
    class's expected count in the sample; each true class has target 1 / num_true. ``sampled_values`` gives the
    (sampled, true_expected_count, sampled_expected_count) triple instead of drawing it; ``remove_accidental_hits``
    is the sampler's option (classes among the true labels are not drawn).

    MindSpore 2.10 ignores ``reduction`` (it always returns the per-example losses); sprout applies it as
    documented ('none' is the default, so default outputs agree)."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
                 seed=0, reduction="none"):
        super().__init__(reduction)
        if num_true < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_true' must be greater than or equal to 1, "
                             f"but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{self.cls_name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{self.cls_name}', the 'num_sampled' must be smaller than or equal to "
                             f"'num_classes', but got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{self.cls_name}', the 'num_true' must be smaller than or equal to 'num_classes', "
                             f"but got 'num_true': {num_true} and 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{self.cls_name}', the type of 'sampled_values' must be a list or tuple, "
                                f"but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{self.cls_name}', the length of 'sampled_values' must be equal to 3, "
                                 f"but got {len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values, self.remove_accidental_hits, self.seed = sampled_values, remove_accidental_hits, seed

    def construct(self, weights, biases, labels, logits):
        for name, v in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            check_tensor(name, v, self.cls_name)
            if v is None:
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be 'Tensor', but got 'NoneType'.")
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'labels' must be int32 or int64, "
                            f"but got {labels.dtype}.")
        labels = ops.reshape(ops.cast(labels, mstype.int32), (-1, self.num_true))
        if self.sampled_values is None:
            sampled, true_count, sampled_count = ops.uniform_candidate_sampler(
                labels, self.num_true, self.num_sampled, True, self.num_classes, self.seed,
                self.remove_accidental_hits)
        else:
            sampled, true_count, sampled_count = self.sampled_values
        sampled = ops.cast(sampled, mstype.int32)
        true_w = ops.gather(weights, ops.reshape(labels, (-1,)), 0)  # (batch * num_true, dim)
        true_w = ops.reshape(true_w, (-1, self.num_true, weights.shape[1]))
        true_logits = ops.sum(ops.mul(ops.expand_dims(logits, 1), true_w), -1)
        true_logits = ops.add(true_logits, ops.reshape(ops.gather(biases, ops.reshape(labels, (-1,)), 0),
                                                       (-1, self.num_true)))
        sampled_logits = ops.add(ops.matmul(logits, ops.transpose(ops.gather(weights, sampled, 0), (1, 0))),
                                 ops.gather(biases, sampled, 0))
        true_logits = ops.sub(true_logits, ops.log(true_count))
        sampled_logits = ops.sub(sampled_logits, ops.log(sampled_count))
        all_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.div(ops.ones_like(true_logits), self.num_true), ops.zeros_like(sampled_logits)), 1)
        shifted = ops.exp(ops.sub(all_logits, ops.amax(all_logits, 1, True)))
        prob = ops.div(shifted, ops.sum(shifted, 1, True))
        loss = ops.neg(ops.sum(ops.mul(targets, ops.log(ops.add(prob, 1.0e-20))), 1))
        return self.get_loss(loss)
