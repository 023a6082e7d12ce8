"""One report of what the compiler did: compiles with stage times, cache misses, dropped side effects,
graph breaks and fused groups, as a dict and as text."""
from __future__ import annotations

from . import events as _ev

__all__ = ["report", "report_dict", "reset"]


def _graph_breaks() -> tuple[list | None, dict | None]:
    try:
        from ..capture.bytecode import report as pijit_report
    except ImportError:
        return None, None
    rep = pijit_report()
    breaks = [{"reason": b.reason, "file": b.filename, "line": b.lineno, "source": b.source.strip(),
               "count": b.count} for b in rep.graph_breaks]
    guards = [{"function": g.function, "guard": g.guard, "file": g.filename, "line": g.lineno, "count": g.count}
              for g in rep.guard_failures.values()]
    counters = {k: getattr(rep, k) for k in ("captures", "compiles", "hits", "misses", "evictions", "python_steps")}
    counters["guard_failures"] = guards
    return breaks, counters


def report_dict() -> dict:
    """Everything as plain data: ``compiles``, ``cache``, ``cache_misses``, ``dropped_side_effects``,
    ``host_segments`` (JIT Fallback records), ``graph_breaks`` (None when bytecode capture is unavailable),
    ``pijit``, ``fused_groups``, ``notes``."""
    from ..jit.cache import stats

    compiles = [e.as_dict() for e in _ev.events()]
    cache = stats()
    misses = []
    for key, s in cache["functions"].items():
        for reason in s["miss_reasons"]:
            misses.append({"function": key, "reason": reason})
    breaks, pijit = _graph_breaks()
    from ..jit.host import records as host_records
    fused = [dict(g, function=e.function) for e in _ev.events() for g in e.fused]
    notes = list(_ev.notes())
    if not _ev.installed():
        notes.append("compile events are not being recorded (call sprout.debug.install())")
    return {
        "compiles": compiles,
        "cache": {"compiles": cache["compiles"], "hits": cache["hits"], "misses": cache["misses"],
                  "functions": cache["functions"]},
        "cache_misses": misses,
        "dropped_side_effects": [w.as_dict() for w in _ev.warnings_seen()],
        "host_segments": [r.as_dict() for r in host_records()],
        "graph_breaks": breaks,
        "pijit": pijit,
        "fused_groups": fused,
        "notes": notes,
    }


def report() -> str:
    """``report_dict()`` as readable text."""
    d = report_dict()
    c = d["cache"]
    out = [f"sprout jit report: {c['compiles']} compiles, {c['hits']} cache hits, {c['misses']} misses"]
    out.append("")
    out.append(f"compiles ({len(d['compiles'])} recorded):")
    for e in d["compiles"]:
        stages = ", ".join(f"{k} {v:.2f}" for k, v in e["stages"].items())
        status = f"  FAILED: {e['failed']}" if e["failed"] else ""
        out.append(f"  {e['function']} ({e['where']}): {e['total_ms']:.2f} ms, {e['nodes']} nodes -- {e['reason']}"
                   f"{status}")
        if stages:
            out.append(f"      stages (ms): {stages}")
    if not d["compiles"]:
        out.append("  (none)")
    out.append("")
    out.append(f"cache misses ({len(d['cache_misses'])}):")
    out.extend(f"  {m['function']}: {m['reason']}" for m in d["cache_misses"])
    if not d["cache_misses"]:
        out.append("  (none)")
    out.append("")
    out.append(f"dropped side effects ({len(d['dropped_side_effects'])}):")
    for w in d["dropped_side_effects"]:
        first = w["message"].splitlines()[0]
        out.append(f"  {w['function']} at {w['file']}:{w['line']}: {first}")
    if not d["dropped_side_effects"]:
        out.append("  (none)")
    out.append("")
    hosts = d["host_segments"]
    out.append(f"host segments (JIT Fallback, jit_syntax_level=LAX) ({len(hosts)}):")
    for h in hosts:
        out.append(f"  {h['function']} ({h['where']}): {h['file']}:{h['line']}: {h['reason']} (x{h['count']})")
        if h["source"]:
            out.append(f"      {h['source']}")
    if not hosts:
        out.append("  (none)")
    out.append("")
    if d["graph_breaks"] is None:
        out.append("graph breaks: bytecode capture (PIJit) is not available")
    else:
        out.append(f"graph breaks ({len(d['graph_breaks'])}):")
        for b in d["graph_breaks"]:
            out.append(f"  {b['file']}:{b['line']}: {b['reason']} (x{b['count']})")
            if b["source"]:
                out.append(f"      {b['source']}")
        if not d["graph_breaks"]:
            out.append("  (none)")
    out.append("")
    out.append(f"fused groups ({len(d['fused_groups'])}):")
    for g in d["fused_groups"]:
        out.append(f"  {g['function']}: {g['kernel']} = {' + '.join(g['ops'])} ({g['where']})")
    if not d["fused_groups"]:
        out.append("  (none: no fused kernels in the compiled graphs)")
    if d["notes"]:
        out.append("")
        out.append("notes:")
        out.extend(f"  {n}" for n in d["notes"])
    return "\n".join(out) + "\n"


def reset() -> None:
    """Forget recorded compile events, the jit counters and the PIJit report."""
    from ..jit.cache import reset_stats

    from ..jit.host import reset as reset_host

    _ev.clear()
    reset_stats()
    reset_host()
    try:
        from ..capture.bytecode import reset_report
    except ImportError:
        return
    reset_report()
