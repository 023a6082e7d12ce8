"""File naming and atomic writes shared by the exporters (a failed export leaves an older file intact)."""
from __future__ import annotations

import os

from ..train.serialization import _atomic_write


def with_suffix(file_name, suffix: str) -> str:
    if not isinstance(file_name, str) or not file_name:
        raise ValueError(f"For 'export', the argument 'file_name' must be a non-empty string, but got {file_name!r}.")
    path = file_name if file_name.endswith(suffix) else file_name + suffix
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    return path


def atomic_write(path: str, data: bytes) -> None:
    _atomic_write(path, lambda f: f.write(data))
