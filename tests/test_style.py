"""The code base is ruff clean (run as part of the suite so CI enforces it)."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is installed by the [test] extra")
def test_ruff_clean():
    result = subprocess.run(["ruff", "check", "sprout", "tests", "bench", "examples", "tools"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_have_docstrings_and_stay_small():
    for path in (ROOT / "sprout").rglob("*.py"):
        text = path.read_text()
        assert text.lstrip().startswith('"""'), f"{path} needs a one-line module docstring"
        assert text.count("\n") <= 700, f"{path} has grown past ~600 lines; split it by concept"
