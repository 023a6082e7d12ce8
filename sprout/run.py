"""``python -m sprout.run script.py [args...]``: run an unmodified MindSpore script on sprout
(``import mindspore`` and its submodules resolve to sprout's modules)."""
from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import types

__all__ = ["install_alias", "uninstall_alias", "resolve", "main", "ALIASES", "FAMILIES", "EXTRAS"]

# MindSpore module -> sprout module, where the names differ (everything else maps mindspore.X -> sprout.X).
ALIASES: dict[str, str] = {
    "mindspore.ops.operations": "sprout.ops.primitive_classes",
    "mindspore.ops.functional": "sprout.ops.functional",
    "mindspore.ops.composite": "sprout.ops",
    "mindspore.ops.function": "sprout.ops.functional",
    "mindspore.common.api": "sprout.jit.api",
    "mindspore.common.seed": "sprout._seed",
    "mindspore.nn.layer": "sprout.nn.layers",
    "mindspore.nn.metrics": "sprout.train.metrics",
    "mindspore.nn.dynamic_lr": "sprout.train.lr",
    "mindspore.train.loss_scale_manager": "sprout.train",
    "mindspore.profiler": "sprout.profiler",
    "mindspore.nn.wrap.grad_reducer": "sprout.nn.grad_reducer",
    "mindspore.parallel.shard": "sprout.parallel.spmd",
    "mindspore.parallel.algo_parameter_config": "sprout.context",
}
# MindSpore's nn modules by file (``from mindspore.nn.layer.activation import get_activation``): sprout keeps those
# names in other files, so each maps to the namespace that holds them all (nn, or nn.optim).
ALIASES.update({f"mindspore.nn.layer.{m}": "sprout.nn" for m in (
    "activation", "basic", "channel_shuffle", "combined", "container", "conv", "dense", "embedding", "image", "math",
    "normalization", "padding", "pooling", "rnn_cells", "rnns", "timedistributed", "transformer")})
ALIASES.update({f"mindspore.nn.optim.{m}": "sprout.nn.optim" for m in (
    "ada_grad", "adadelta", "adafactor", "adamax", "asgd", "ftrl", "lamb", "lars", "lazyadam", "proximal_ada_grad",
    "rmsprop", "rprop")})
ALIASES.update({f"mindspore.experimental.optim.{m}": "sprout.experimental.optim" for m in (
    "adadelta", "adagrad", "adamax", "adamw", "asgd", "nadam", "radam", "rmsprop", "rprop", "sgd")})
ALIASES.update({f"mindspore.mint.optim.{m}": "sprout.mint.optim" for m in ("adam", "adamw", "fused_adamw", "sgd")})
ALIASES.update({"mindspore.nn.wrap.cell_wrapper": "sprout.nn", "mindspore.nn.wrap.loss_scale": "sprout.nn.loss_scale",
                "mindspore.nn.grad": "sprout.nn.wrap_extra", "mindspore.nn.grad.cell_grad": "sprout.nn.wrap_extra"})

# MindSpore's op implementation modules (mindspore.ops.operations.nn_ops / math_ops / comm_ops / _inner_ops ...,
# mindspore.ops.function.nn_func / math_func ...): sprout exports all those names from sprout.ops, so any submodule of
# these roots maps there (`from mindspore.ops.operations.nn_ops import ReLU`; a name sprout lacks is a plain
# "cannot import name" ImportError)
FAMILIES: dict[str, str] = {
    "mindspore.ops.operations": "sprout.ops",
    "mindspore.ops.function": "sprout.ops",
}

# top-level names MindSpore has that sprout keeps in a submodule: name -> (module, attribute or None)
EXTRAS: dict[str, tuple[str, str | None]] = {
    "Profiler": ("sprout.profiler", "Profiler"),
    "Model": ("sprout.train", "Model"),
    "save_checkpoint": ("sprout.train.serialization", "save_checkpoint"),
    "load_checkpoint": ("sprout.train.serialization", "load_checkpoint"),
    "load_param_into_net": ("sprout.train.serialization", "load_param_into_net"),
    "GradOperation": ("sprout.autodiff.api", "GradOperation"),
}

_PREFIX = "mindspore"


def _not_provided(fullname: str, why: str = "") -> ModuleNotFoundError:
    extra = f" ({why})" if why else ""
    return ModuleNotFoundError(
        f"No module named {fullname!r}: sprout does not provide the MindSpore module {fullname!r}{extra}. "
        f"sprout.run maps 'mindspore' to sprout; supported modules are listed in docs/debugging.md.",
        name=fullname)


def resolve(fullname: str) -> str:
    """The sprout module a MindSpore module name maps to; ModuleNotFoundError when there is none."""
    if fullname == _PREFIX:
        return "sprout"
    if fullname in ALIASES:
        return ALIASES[fullname]
    rest = fullname[len(_PREFIX) + 1:]
    candidate = "sprout." + rest
    try:
        spec = importlib.util.find_spec(candidate)
    except (ImportError, ValueError, AttributeError):
        spec = None
    if spec is None:
        family = _family(fullname)
        if family is None:
            raise _not_provided(fullname)
        return FAMILIES[family]
    return candidate


def _family(fullname: str) -> str | None:
    """The FAMILIES root ``fullname`` lies below (None when it lies below none)."""
    roots = [root for root in FAMILIES if fullname.startswith(root + ".")]
    return max(roots, key=len) if roots else None


def _top_level() -> types.ModuleType:
    """A ``mindspore`` module delegating to ``sprout`` (plus MindSpore's top-level extras)."""
    import sprout

    mod = types.ModuleType(_PREFIX, "sprout, imported as mindspore by sprout.run")

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if hasattr(sprout, name):
            return getattr(sprout, name)
        if name in EXTRAS:
            module, attr = EXTRAS[name]
            value = importlib.import_module(module)
            return getattr(value, attr) if attr else value
        try:
            return importlib.import_module(f"{_PREFIX}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module 'mindspore' (sprout) has no attribute {name!r}") from None

    def __dir__():
        return sorted(set(dir(sprout)) | set(EXTRAS))

    mod.__getattr__ = __getattr__
    mod.__dir__ = __dir__
    mod.__path__ = []
    mod.__version__ = getattr(sprout, "__version__", "0")
    mod.__sprout__ = sprout
    return mod


def _family_root(name: str, target: types.ModuleType) -> types.ModuleType:
    """``mindspore.ops.operations`` & co.: a module named as MindSpore names it, delegating to ``target``, so that
    ``from mindspore.ops.operations import math_ops`` looks for the submodule under the MindSpore name (where
    FAMILIES answers it) rather than under the sprout module's own name."""
    mod = types.ModuleType(name, target.__doc__)

    def __getattr__(attr: str):
        try:
            return getattr(target, attr)
        except AttributeError:
            raise AttributeError(f"module {name!r} (sprout: {target.__name__}) has no attribute {attr!r}") from None

    mod.__getattr__ = __getattr__
    mod.__dir__ = lambda: dir(target)
    mod.__path__ = []
    mod.__sprout__ = target
    return mod


class _AliasLoader(importlib.abc.Loader):
    """Hands back the existing sprout module (keeping its own ``__spec__``)."""

    def create_module(self, spec):
        target = spec.loader_state
        if target == "sprout":
            return _top_level()
        if spec.name in FAMILIES:
            return _family_root(spec.name, importlib.import_module(target))
        module = importlib.import_module(target)
        spec.loader_state = (target, module.__spec__)
        if spec.submodule_search_locations is not None and not hasattr(module, "__path__"):
            module.__path__ = []  # a plain module some MindSpore submodule names live under (nn.wrap.grad_reducer)
        return module

    def exec_module(self, module) -> None:
        state = module.__spec__.loader_state if module.__spec__ is not None else None
        if isinstance(state, tuple):
            module.__spec__ = state[1]


class MindSporeFinder(importlib.abc.MetaPathFinder):
    """Meta-path finder answering ``mindspore`` and ``mindspore.*`` with sprout modules."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _PREFIX and not fullname.startswith(_PREFIX + "."):
            return None
        sprout_name = resolve(fullname)
        package = True if sprout_name == "sprout" else (hasattr(importlib.import_module(sprout_name), "__path__")
                                                         or any(k.startswith(fullname + ".") for k in ALIASES)
                                                         or fullname in FAMILIES or _family(fullname) is not None)
        return importlib.machinery.ModuleSpec(fullname, _LOADER, origin=f"alias of {sprout_name}",
                                              loader_state=sprout_name, is_package=package)


_LOADER = _AliasLoader()
_FINDER = MindSporeFinder()


def install_alias() -> None:
    """Make ``import mindspore`` (and submodules) resolve to sprout in this process."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    current = sys.modules.get(_PREFIX)
    if current is not None and getattr(current, "__sprout__", None) is None:  # a real MindSpore imported earlier
        for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
            del sys.modules[name]


def uninstall_alias() -> None:
    """Remove the finder and every ``mindspore`` entry it created."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
        del sys.modules[name]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m sprout.run",
                                description="Run an unmodified MindSpore script on sprout.")
    p.add_argument("--graph", action="store_true", help="start in GRAPH_MODE (the script may still change it)")
    p.add_argument("--report", action="store_true", help="print sprout.debug.report() when the script ends")
    p.add_argument("--jit-log", action="store_true", help="set_context(jit_log=True): log compiles as they happen")
    p.add_argument("--profile", metavar="DIR", help="run under sprout.Profiler and write its output to DIR")
    p.add_argument("-m", dest="module", help="run a module (like python -m) instead of a script")
    p.add_argument("script", nargs="?", help="the script to run")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    return p


def main(argv: list[str] | None = None) -> int:
    opts = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if opts.module is None and opts.script is None:
        _parser().error("a script (or -m module) is required")
    install_alias()
    import sprout
    from sprout import context

    if opts.graph:
        context.set_context(mode=context.GRAPH_MODE)
    if opts.jit_log:
        context.set_context(jit_log=True)
    if opts.report:
        import sprout.debug  # noqa: F401  (records compile events from the start)
    prof = None
    if opts.profile:
        from sprout.profiler import Profiler

        prof = Profiler(output_path=opts.profile)
    rest = ([opts.script] if opts.module and opts.script else []) + list(opts.args)
    saved_argv, saved_path0 = list(sys.argv), sys.path[0] if sys.path else None
    code = 0
    try:
        if opts.module:
            sys.argv = [opts.module] + rest
            runpy.run_module(opts.module, run_name="__main__", alter_sys=True)
        else:
            script = os.path.abspath(opts.script)
            if not os.path.exists(script):
                print(f"sprout.run: no such script: {opts.script}", file=sys.stderr)
                return 2
            sys.argv = [opts.script] + rest
            sys.path.insert(0, os.path.dirname(script))
            runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None and not opts.module and sys.path and sys.path[0] != saved_path0:
            sys.path.pop(0)
        if prof is not None:
            prof.analyse()
            print(f"sprout.run: profile written to {prof.output_path}", file=sys.stderr)
        if opts.report:
            print(sprout.debug.report(), end="")
    return code


if __name__ == "__main__":
    sys.exit(main())
