"""Shared fixtures for the dataset tests: a clean dataset seed around every test."""
import pytest

from sprout.dataset import config


@pytest.fixture(autouse=True)
def _reset_seed():
    saved = dict(config._state)
    yield
    config._state.clear()
    config._state.update(saved)
