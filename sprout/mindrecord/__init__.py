"""``sprout.mindrecord``: MindSpore's MindRecord file format (FileWriter, FileReader, dataset converters)."""
from .converters import Cifar10ToMR, Cifar100ToMR, CsvToMR, ImageNetToMR, MnistToMR
from .reader import FileReader
from .writer import FileWriter

SUCCESS, FAILED = 0, 1

__all__ = ["FAILED", "Cifar100ToMR", "Cifar10ToMR", "CsvToMR", "FileReader", "FileWriter", "ImageNetToMR",
           "MnistToMR", "SUCCESS"]
