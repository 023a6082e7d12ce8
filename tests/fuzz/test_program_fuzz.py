"""The differential program fuzzer: a small fixed-seed batch in the default suite (30 programs, ~30 s) and the
slow runs (2,000 programs of the default mix, 600 with every feature including host fallback, bigger bodies):
eager == jit(ast) == jit(bytecode), forward and gradients, two input sets each."""
import collections
import warnings

import numpy as np
import pytest

import sprout as ms

from .gen import FEATURES, OPT_IN, generate
from .harness import check_program, load, run, unload
from .known_programs import KNOWN
from .runner import run_many

DEFAULT_SEEDS = range(30)  # ~1 s a program on a loaded 2-core machine: the default suite's budget


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


def test_generator_makes_valid_varied_programs():
    """Programs compile, eager runs (almost) all of them, and every feature family gets used."""
    used = collections.Counter()
    invalid = 0
    n = 150
    for seed in range(1000, 1000 + n):
        prog = generate(seed)
        src = prog.render()
        compile(src, "<fuzz>", "exec")
        used.update(prog.features)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                run(prog, src, "fwd", "eager")
        except Exception:  # noqa: BLE001 - counted: eager rejecting a program wastes a test case
            invalid += 1
    assert invalid <= 0.1 * n, f"{invalid} of {n} programs are rejected by eager"
    missing = [f for f in FEATURES if f not in OPT_IN and not used[f]]
    assert not missing, f"features never generated: {missing}"


def test_same_seed_same_program():
    """Programs depend on the seed only (not on the process's string hashing)."""
    import hashlib
    import os
    import subprocess
    import sys

    assert generate(7).render() == generate(7).render()
    assert generate(7).render() != generate(8).render()
    code = ("import hashlib; from fuzz.gen import generate; "
            "print(hashlib.md5(''.join(generate(s).render() for s in range(40)).encode()).hexdigest())")
    here = hashlib.md5("".join(generate(s).render() for s in range(40)).encode()).hexdigest()
    tests_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=os.pathsep.join([tests_dir] + sys.path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == here, out.stderr


def test_fallback_features_are_opt_in():
    progs = [generate(s) for s in range(60)]
    assert not any("fallback" in p.features for p in progs)
    assert any("fallback" in generate(s, frozenset(FEATURES)).features for s in range(60))


def test_program_fuzz_default_seeds():
    """Every check of every program agrees with eager, except the (check, mode) pairs of the open findings listed
    in known_programs.py (how one fails may change as fixes land: a refusal can become a disagreement)."""
    s = run_many(DEFAULT_SEEDS)
    new = {seed: sorted(k for k in keys if (k[0], k[1]) not in KNOWN.get(seed, set()))
           for seed, keys in s.failing_seeds.items()}
    new = {seed: keys for seed, keys in new.items() if keys}
    flaky = {}
    for seed in list(new):  # once more: a failure that does not repeat depends on what ran before it
        again = {(o.check, o.mode) for o in check_program(generate(seed)).failures()}
        if not any((k[0], k[1]) in again for k in new[seed]):
            flaky[seed] = new.pop(seed)
    if flaky:
        print(f"failures that did not repeat (order-dependent results; a finding): {flaky}")
    now = {seed: {(k[0], k[1]) for k in keys} for seed, keys in s.failing_seeds.items()}
    fixed = sorted(seed for seed, pairs in KNOWN.items() if pairs - now.get(seed, set()))
    print(s.table())
    if fixed:
        print(f"{len(fixed)} seeds have known-failing checks that now pass (regenerate known_programs.py): "
              f"{fixed[:20]}")
    assert not new, "new fuzz failures (shrink with `python -m tests.fuzz --seed S --count 1 --shrink 1`): " + \
        "; ".join(f"seed {seed}: {keys}" for seed, keys in list(new.items())[:10])


# failures per (check, mode, status) in each slow run (a ratchet: lower it when fixes land; 0 is the goal). Lowered to
# the run of 2026-12-06 (seeds 1000-1499, 2000-2499, 50000-50199 on da278ad + a4e5a0e's builder fix, the rest on
# a4e5a0e; load 14-19 on 2 cores): no disagreement, refusal or crash in either run. What remains are wall-clock
# timeouts (one raised inside the IR verifier is counted as a crash); re-run alone without the limit, each of those
# programs agrees in every check and capture, in 2-11 s of CPU except seed 2475 (77 s on d330112: the compile time of
# nested grads inside tensor ifs, 1684 too at 11 s). Under such load the timeouts exceed the hang entries
# below (measured hangs: mix fwd/ast 2, grad_of_jit ast 7 / bytecode 2, jit_of_grad/ast 5; all 1, 5, 4): no regression.
SLOW_BASELINE: dict = {
    "mix": {('fwd', 'ast', 'hang'): 1, ('fwd', 'bytecode', 'crash'): 1, ('grad_of_jit', 'ast', 'hang'): 2,
            ('grad_of_jit', 'bytecode', 'hang'): 1, ('jit_of_grad', 'ast', 'hang'): 2},
    "all": {('grad_of_jit', 'ast', 'hang'): 1, ('jit_of_grad', 'ast', 'hang'): 2},
}
ALL_FEATURES = frozenset(FEATURES)


@pytest.mark.slow
@pytest.mark.parametrize("run", ["mix", "all"])
def test_program_fuzz_large(run):
    if run == "mix":
        s = run_many(range(1000, 3000))
    else:  # every feature family at once, host fallback included, longer bodies
        s = run_many(range(50_000, 50_600), features=ALL_FEATURES, size=9)
    print(s.table())
    counts = collections.Counter()
    for (check, mode, status, _kind), n in s.by_outcome.items():
        if status not in ("agree", "invalid"):
            counts[(check, mode, status)] += n
    base = SLOW_BASELINE[run]
    worse = {k: (n, base.get(k, 0)) for k, n in counts.items() if n > base.get(k, 0)}
    assert not worse, f"more failures than the recorded baseline: {worse}"


def test_harness_loads_real_source_files():
    """AST capture needs the program's source: the harness imports it from a real file."""
    prog = generate(3)
    mod = load(prog.render())
    try:
        import inspect

        assert "def fuzz_grad(" in inspect.getsource(mod)
        assert np.isfinite(1.0)
    finally:
        unload(mod)
