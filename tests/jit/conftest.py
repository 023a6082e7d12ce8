"""Fresh context flags for every jit test."""
import pytest

from sprout import context


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_context()
    yield
    context.reset_context()
