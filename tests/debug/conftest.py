"""Fixtures for the debug tests: a clean context and fresh compile records per test."""
import pytest

import sprout.debug as dbg
from sprout import context


@pytest.fixture(autouse=True)
def _clean():
    context.reset_context()
    dbg.install()
    dbg.reset()
    yield
    context.reset_context()
