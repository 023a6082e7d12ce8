"""Small helpers for the dataset tests."""
import numpy as np


def rows(dataset, **kwargs):
    """One epoch of ``dataset`` as nested Python lists (NumPy output)."""
    return [[np.asarray(col).tolist() for col in row]
            for row in dataset.create_tuple_iterator(output_numpy=True, **kwargs)]


def firsts(dataset, **kwargs):
    """The first column of every row as Python values."""
    return [r[0] for r in rows(dataset, **kwargs)]
