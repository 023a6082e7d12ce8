"""Summaries for TensorBoard (MindSpore's ``mindspore.train.summary``)."""
from .summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
