"""Every test in this directory starts and ends in the default context (PyNative mode)."""
import pytest

from sprout import context


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_context()
    yield
    context.reset_context()
