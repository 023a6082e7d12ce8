"""docs/ops.md lists every primitive sprout registers (so the page cannot fall behind the registry)."""
from pathlib import Path

import test_op_table  # noqa: F401  (imports every sprout module, so every op is registered)
from sprout.core.op import REGISTRY
from test_op_table import _defined_in_sprout

DOC = Path(__file__).resolve().parents[2] / "docs" / "ops.md"


def test_every_primitive_is_listed_in_docs_ops_md():
    text = DOC.read_text()
    missing = sorted(name for name, op in REGISTRY.items() if _defined_in_sprout(op) and f"`{name}`" not in text)
    assert not missing, f"docs/ops.md does not list: {missing}"
