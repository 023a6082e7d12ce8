"""``sprout.dataset``: MindSpore's data pipeline (sources, batch/shuffle/map/..., iterators) on NumPy."""
from . import config, text, transforms, vision
from .dataset import Dataset
from .iterators import DictIterator, TupleIterator
from .batching import BatchInfo
from .detection import CelebADataset, CocoDataset, VOCDataset
from .image_folder import ImageFolderDataset
from .mind_dataset import MindDataset, Shuffle
from .readers import Cifar10Dataset, Cifar100Dataset, MnistDataset
from .samplers import (DistributedSampler, PKSampler, RandomSampler, Sampler, SequentialSampler,
                       SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
from .sources import GeneratorDataset, MappableDataset, NumpySlicesDataset


def zip(datasets):  # MindSpore's name; shadows the builtin inside this module only
    """Join the columns of a tuple of datasets row by row (``ds.zip((a, b))``)."""
    if not isinstance(datasets, (list, tuple)) or len(datasets) < 2:
        raise TypeError("zip: datasets must be a tuple of at least two Datasets")
    if not isinstance(datasets[0], Dataset):
        raise TypeError(f"zip: every item must be a Dataset, got {type(datasets[0]).__name__}")
    return datasets[0].zip(tuple(datasets[1:]))


__all__ = [
    "BatchInfo", "CelebADataset", "Cifar100Dataset", "Cifar10Dataset", "CocoDataset", "Dataset", "DictIterator",
    "DistributedSampler", "GeneratorDataset", "ImageFolderDataset", "MappableDataset", "MindDataset",
    "MnistDataset", "NumpySlicesDataset", "PKSampler", "RandomSampler", "Sampler", "SequentialSampler", "Shuffle",
    "SubsetRandomSampler", "SubsetSampler", "TupleIterator", "VOCDataset", "WeightedRandomSampler", "config",
    "text", "transforms", "vision", "zip",
]
