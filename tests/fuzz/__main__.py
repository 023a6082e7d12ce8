"""``python -m tests.fuzz --count N --seed S [--shrink K] ...``: run N fuzz programs, print the counts
(agree / disagree / refused / crash / hang per check and mode; how many ran as whole graphs, with host segments
or with graph breaks, and the commonest reasons), shrink failures and print each minimal
reproducer as a ready-to-paste regression test. ``--graphs N`` runs the graph-level fuzzer instead."""
from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    ap.add_argument("--count", type=int, default=200, help="number of programs")
    ap.add_argument("--seed", type=int, default=0, help="first seed (programs use seed, seed+1, ...)")
    ap.add_argument("--modes", default="ast,bytecode", help="jit capture modes to compare with eager")
    ap.add_argument("--checks", default="fwd,grad_of_jit,jit_of_grad")
    ap.add_argument("--features", default=None,
                    help="comma-separated feature families (default: a random half per program; "
                         "'fallback' only when named)")
    ap.add_argument("--size", type=int, default=6, help="statements in the main body (roughly)")
    ap.add_argument("--shrink", type=int, default=0, metavar="K",
                    help="shrink up to K failures per distinct failure kind and print reproducers")
    ap.add_argument("--shrink-budget", type=float, default=120.0, help="seconds per shrink")
    ap.add_argument("--only", default=None, help="shrink only failures whose key contains this text")
    ap.add_argument("--show", type=int, default=None, help="print one program (this seed) and its outcomes")
    ap.add_argument("--graphs", type=int, default=0, help="run N random IR graphs through the passes instead")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per failing program")
    ap.add_argument("--write-known", default=None, metavar="PATH",
                    help="write the failing seeds and their failure keys (the tests' known list) to PATH")
    ap.add_argument("--streams", action="store_true",
                    help="compile on two executor streams (inter_op_parallel_num=2) with every GEMM and convolution "
                         "scheduled, however small, each task taken by the worker (tests/backend/stream_forcing.py)")
    a = ap.parse_args(argv)
    if a.streams:
        from tests.backend.stream_forcing import force

        force()

    if a.graphs:
        from .graphs import run_graphs

        s = run_graphs(range(a.seed, a.seed + a.graphs))
        print(s.table())
        for seed, msg in s.failures[:20]:
            print(f"graph seed {seed}: {msg}")
        return 0 if not s.failures else 1

    from .gen import generate
    from .harness import check_program
    from .runner import run_many
    from .shrink import failure_key, reproducer, shrink

    modes = tuple(a.modes.split(","))
    checks = tuple(a.checks.split(","))
    features = frozenset(a.features.split(",")) if a.features else None
    if a.show is not None:
        prog = generate(a.show, features, a.size)
        res = check_program(prog, modes=modes, checks=checks)
        print(res.source)
        print("features:", sorted(prog.features))
        print(res.invalid or "\n".join(f"{o.check}/{o.mode}: {o.status} ({o.kind}) {o.detail}" for o in res.outcomes))
        return 0

    def log(seed, res):
        if a.verbose and res.status not in ("agree", "invalid"):
            o = res.failures()[0]
            print(f"seed {seed}: {o.check}/{o.mode} {o.status} ({o.kind}) {o.detail[:150]}", flush=True)

    s = run_many(range(a.seed, a.seed + a.count), modes=modes, checks=checks, features=features, size=a.size,
                 on_result=log)
    print(s.table())
    if a.write_known:  # each seed once more: results that depend on what ran before are listed too
        failing = {seed: set(keys) for seed, keys in s.failing_seeds.items()}
        for seed in range(a.seed, a.seed + a.count):
            res = check_program(generate(seed, features, a.size), modes=modes, checks=checks)
            failing.setdefault(seed, set()).update(failure_key(o) for o in res.failures())
        with open(a.write_known, "w") as fh:
            fh.write(known_text({k: v for k, v in failing.items() if v}))
    print("\ndistinct failure keys (first seeds):")
    for key, found in sorted(s.first.items()):
        print(f"  {key}: seeds {[seed for seed, _ in found]}  e.g. {found[0][1].detail[:120]}")
    if a.shrink:
        seen: set = set()
        n = 0
        for key, found in sorted(s.first.items()):
            if a.only and a.only not in repr(key):
                continue
            for seed, _o in found[:a.shrink]:
                prog = generate(seed, features, a.size)
                small = shrink(prog, key, budget_s=a.shrink_budget)
                res = check_program(small, modes=(key[1],), checks=(key[0],))
                outs = [o for o in res.outcomes if failure_key(o) == key]
                text = small.render()
                if not outs or text in seen:
                    continue
                seen.add(text)
                n += 1
                print(f"\n# ---- seed {seed}: {key}\n")
                print(reproducer(small, outs[0], f"S{seed}", "?"))
        print(f"\n{n} distinct shrunk reproducers")
    return 0


def known_text(failing: dict) -> str:
    """``KNOWN = {seed: {(check, mode), ...}}`` (the checks that fail today) as Python source."""
    lines = ['"""Failing (check, mode) pairs per seed of the default program fuzz run (seeds 0-29): the open',
             "findings (notes/fuzz-findings.md). A check failing in another way (a refusal that became a",
             "disagreement after a fix) is still known; a check that agreed and now fails is a regression.",
             "Regenerate after fixes: ``python -m tests.fuzz --count 30 --write-known tests/fuzz/known_programs.py``.",
             '"""', "KNOWN = {"]
    for seed, keys in sorted(failing.items()):
        pairs = sorted({(k[0], k[1]) for k in keys})
        line = f"    {seed}: {{" + ", ".join(repr(p) for p in pairs) + "},"
        if len(line) > 118:
            line = f"    {seed}: {{\n" + "".join(f"        {p!r},\n" for p in pairs) + "    },"
        lines.append(line)
    return "\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    sys.exit(main())
