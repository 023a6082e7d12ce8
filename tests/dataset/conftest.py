"""Shared fixtures for the dataset tests: a clean dataset seed around every test; a pretend 8-core machine."""
import pytest

from sprout.dataset import _checks, config


@pytest.fixture(autouse=True)
def _reset_seed():
    saved = dict(config._state)
    yield
    config._state.clear()
    config._state.update(saved)


@pytest.fixture
def eight_cores(monkeypatch):
    """Worker counts are capped by the CPU count (as in MindSpore); tests of 3-8 workers pretend to have 8."""
    monkeypatch.setattr(_checks, "cpu_count", lambda: 8)
