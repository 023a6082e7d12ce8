"""Fresh context flags and a private kernel cache directory for every fusion test."""
import pytest

from sprout import context


@pytest.fixture(autouse=True)
def _fresh_context(tmp_path):
    context.reset_context()
    context.set_context(kernel_cache_dir=str(tmp_path / "kernels"))
    yield
    context.reset_context()
