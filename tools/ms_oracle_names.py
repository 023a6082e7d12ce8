"""Write the public names of MindSpore 2.10's main namespaces to tests/api/data/ms210_names.json.

Run with MindSpore's interpreter: /work/msvenv/bin/python tools/ms_oracle_names.py
Then refresh the list of names sprout does not provide (tests/api/data/ms210_not_provided.json) with sprout's:
python tools/ms_oracle_names.py --not-provided
"""
import importlib
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "api" / "data"
NAMESPACES = ("", "ops", "nn", "mint", "mint.nn", "mint.nn.functional", "Tensor")


def _resolve(root, namespace):
    return root.Tensor if namespace == "Tensor" else (
        importlib.import_module(f"{root.__name__}.{namespace}") if namespace else root)


def main():
    if "--not-provided" in sys.argv:
        import sprout

        names = json.loads((DATA / "ms210_names.json").read_text())
        missing = {ns: [n for n in names[ns] if not hasattr(_resolve(sprout, ns), n)] for ns in NAMESPACES}
        (DATA / "ms210_not_provided.json").write_text(json.dumps(missing, indent=1, sort_keys=True) + "\n")
        return
    import mindspore

    names = {ns: sorted(n for n in dir(_resolve(mindspore, ns)) if not n.startswith("_")) for ns in NAMESPACES}
    (DATA / "ms210_names.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
