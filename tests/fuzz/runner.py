"""Run many fuzz programs and tally the outcomes (shared by the CLI and the tests)."""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field

from .gen import generate
from .harness import CHECKS, MODES, OVERFLOW, check_program
from .shrink import failure_key


@dataclass
class Summary:
    programs: int = 0
    by_status: collections.Counter = field(default_factory=collections.Counter)     # per program (worst outcome)
    by_outcome: collections.Counter = field(default_factory=collections.Counter)    # (check, mode, status, kind)
    by_feature: collections.Counter = field(default_factory=collections.Counter)    # feature -> failing programs
    feature_use: collections.Counter = field(default_factory=collections.Counter)   # feature -> programs using it
    first: dict = field(default_factory=dict)    # failure key -> [(seed, outcome)] (a few per key)
    failing_seeds: dict = field(default_factory=dict)  # seed -> sorted failure keys
    invalid: collections.Counter = field(default_factory=collections.Counter)
    overflow: collections.Counter = field(default_factory=collections.Counter)  # (check, mode) -> checks invalid
    # by the float32 overflow rule (harness docstring)
    compiled: collections.Counter = field(default_factory=collections.Counter)  # (check, mode, graph/host/break)
    strict: collections.Counter = field(default_factory=collections.Counter)    # (check, mode, STRICT's outcome)
    reasons: collections.Counter = field(default_factory=collections.Counter)   # (mode, reason) -> programs
    seconds: float = 0.0

    def add(self, seed: int, res, per_key: int = 3) -> None:
        self.programs += 1
        self.by_status[res.status] += 1
        feats = res.program.features if hasattr(res.program, "features") else set()
        for f in feats:
            self.feature_use[f] += 1
        if res.invalid:
            self.invalid[res.invalid.split(":")[1].strip() if ":" in res.invalid else res.invalid] += 1
            return
        bad = res.failures()
        reasons = set()
        for o in res.outcomes:
            self.by_outcome[(o.check, o.mode, o.status, o.kind)] += 1
            if o.compiled:
                self.compiled[(o.check, o.mode, o.compiled)] += 1
                reasons.update((o.mode, r) for r in o.reasons)
            if o.strict:
                self.strict[(o.check, o.mode, o.strict)] += 1
            if o.status == "invalid" and o.detail.startswith(OVERFLOW):
                self.overflow[(o.check, o.mode)] += 1
        self.reasons.update(reasons)
        if bad:
            for f in feats:
                self.by_feature[f] += 1
            keys = sorted({failure_key(o) for o in bad})
            self.failing_seeds[seed] = keys
            for o in bad:
                lst = self.first.setdefault(failure_key(o), [])
                if len(lst) < per_key:
                    lst.append((seed, o))

    def compilation(self) -> dict:
        """How much compiled, as plain data for tests: ``{(check, mode): {"graph": n, "host": n, "break": n,
        "strict_refused": n}}`` (programs per check; "host": AST capture refused and jit_syntax_level=LAX ran
        host segments, "break": PIJit graph breaks, "strict_refused": of "host", refused again under STRICT)."""
        out = {}
        for check in CHECKS:
            for mode in MODES:
                row = {k: self.compiled[(check, mode, k)] for k in ("graph", "host", "break")}
                if any(row.values()):
                    row["strict_refused"] = self.strict[(check, mode, "refused")]
                    out[(check, mode)] = row
        return out

    def compilation_table(self, top: int = 12) -> str:
        """``compilation()`` as text, the contradictions (STRICT ran what LAX demoted) and the commonest reasons."""
        lines = ["compiled (programs per check): graph = whole graphs, host = AST refused -> Python host segments "
                 "(LAX), break = PIJit graph breaks",
                 f"{'check':<12} {'mode':<9} {'graph':>7} {'host':>7} {'break':>7} {'STRICT refused':>15}"]
        for (check, mode), row in self.compilation().items():
            lines.append(f"{check:<12} {mode:<9} {row['graph']:>7} {row['host']:>7} {row['break']:>7} "
                         f"{row['strict_refused']:>15}")
        odd = [(k, n) for k, n in sorted(self.strict.items()) if k[2] != "refused"]
        if odd:
            lines.append("host segments whose STRICT run was not refused: " + ", ".join(
                f"{c}/{m} {s} {n}" for (c, m, s), n in odd))
        for mode in MODES:
            common = [(r, n) for (m, r), n in self.reasons.most_common() if m == mode][:top]
            if common:
                lines.append(f"top reasons under {mode} capture (programs):")
                lines += [f"  {n:>6}  {r[:150]}" for r, n in common]
        return "\n".join(lines)

    def table(self) -> str:
        """Counts per program and per (check, mode): agree / disagree / refused / crash / hang."""
        lines = [f"{self.programs} programs in {self.seconds:.1f} s ({1000 * self.seconds / max(1, self.programs):.0f}"
                 " ms each)",
                 "programs by worst outcome: " + ", ".join(f"{k} {v}" for k, v in sorted(self.by_status.items()))]
        lines.append(f"{'check':<12} {'mode':<9} " + " ".join(f"{s:>9}" for s in
                                                             ("agree", "disagree", "refused", "crash", "hang")))
        for check in CHECKS:
            for mode in MODES:
                row = collections.Counter()
                for (c, m, s, _k), n in self.by_outcome.items():
                    if c == check and m == mode:
                        row[s] += n
                if row:
                    lines.append(f"{check:<12} {mode:<9} " + " ".join(
                        f"{row[s]:>9}" for s in ("agree", "disagree", "refused", "crash", "hang")))
        kinds = [(k, n) for k, n in sorted(self.by_outcome.items()) if k[2] not in ("agree", "invalid")]
        if kinds:
            lines.append("failures by kind:")
            lines += [f"  {n:>6}  {c}/{m} {s} ({k})" for (c, m, s, k), n in kinds]
        if self.feature_use:
            lines.append("failing programs per feature (of programs using it):")
            lines += [f"  {f:<14} {self.by_feature[f]:>6} / {n}" for f, n in sorted(self.feature_use.items())]
        if self.overflow:
            lines.append("float32 overflow, non-finite values differ (not test cases): " + ", ".join(
                f"{c}/{m} {n}" for (c, m), n in sorted(self.overflow.items())))
        if self.compiled:
            lines.append(self.compilation_table())
        if self.invalid:
            lines.append("eager rejected (not test cases): " + ", ".join(
                f"{k} {v}" for k, v in self.invalid.most_common(6)))
        return "\n".join(lines)


def run_many(seeds, *, modes=MODES, checks=CHECKS, features=None, size: int = 6, on_result=None) -> Summary:
    s = Summary()
    t0 = time.time()
    for seed in seeds:
        prog = generate(seed, features, size)
        res = check_program(prog, modes=modes, checks=checks)
        s.add(seed, res)
        if on_result:
            on_result(seed, res)
    s.seconds = time.time() - t0
    return s
