"""Layer order: core -> ops/ir -> autodiff/passes/backend -> capture -> jit -> the rest; no module imports
(at top level or inside a function) from a higher layer, except the listed, shrinking set."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "sprout"

# package (first component under sprout/) -> layer; anything not listed (nn, train, debug, dataset, ...) is top
LAYERS = {"core": 0, "dtype": 0, "dtype_kinds": 0, "context": 0, "_seed": 0,
          "ops": 1, "ir": 1, "communication": 1,  # the collectives' run time sits beside the op kernels
          "autodiff": 2, "passes": 2, "backend": 2,
          "capture": 3,
          "jit": 4}
TOP = 5

# (importing module, imported module): upward imports still to remove. This list may only shrink;
# test_exceptions_are_still_needed fails when an entry is no longer used, so it is deleted at once.
EXCEPTIONS = {
    # set_seed also seeds dataset shuffling (dataset should read the seed instead)
    ("sprout._seed", "sprout.dataset"),
    # ops re-exports the MindSpore names ops.grad / GradOperation / value_and_grad from autodiff
    ("sprout.ops", "sprout.autodiff.api"),
    ("sprout.ops.composite", "sprout.autodiff.api"),
    # PIJit inlines Cell calls (recognises Cell instances)
    ("sprout.capture.bytecode.capture", "sprout.nn.cell"),
}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "sprout":
        return None
    if len(parts) == 1:
        return TOP
    return LAYERS.get(parts[1], TOP)


def _module_name(path: Path) -> tuple[str, str]:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    name = ".".join(rel.parts)
    if name.endswith(".__init__"):
        name = name[: -len(".__init__")]
        return name, name
    return name, name.rsplit(".", 1)[0]


def _imports(path: Path):
    module, package = _module_name(path)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            yield module, name, node.lineno


def upward_imports() -> dict:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        for module, target, line in _imports(path):
            lm, lt = _layer(module), _layer(target)
            if lm is None or lt is None or lt <= lm:
                continue
            # a top-level module importing the sprout package itself is fine
            found.setdefault((module, _owner(target)), []).append(f"{path.relative_to(ROOT.parent)}:{line}")
    return found


def _owner(target: str) -> str:
    """``sprout.autodiff.tape.Tape`` -> ``sprout.autodiff.tape`` (the module part of an imported name)."""
    parts = target.split(".")
    for k in range(len(parts), 1, -1):
        cand = ROOT.parent.joinpath(*parts[:k])
        if cand.with_suffix(".py").exists() or (cand / "__init__.py").exists():
            return ".".join(parts[:k])
    return target


def test_no_upward_imports():
    bad = {k: v for k, v in upward_imports().items() if k not in EXCEPTIONS}
    lines = [f"  {a} imports {b} at {', '.join(w)}" for (a, b), w in bad.items()]
    assert not bad, "imports from a higher layer (core -> ops/ir -> autodiff/passes/backend -> capture -> jit -> " \
                    "nn/train/debug):\n" + "\n".join(lines)


def test_exceptions_are_still_needed():
    stale = EXCEPTIONS - set(upward_imports())
    assert not stale, f"remove these from EXCEPTIONS (the upward import is gone): {sorted(stale)}"


def test_ir_and_ops_do_not_import_capture():
    found = [k for k in upward_imports() if _layer(k[0]) == 1 and k[1].startswith("sprout.capture")]
    assert not found, found
