"""``mindspore.runtime`` memory statistics on the CPU: sprout's tensors are NumPy arrays in the process heap, so the
"device memory" MindSpore's statistics describe is the process's own (C heap in use, resident set)."""
from __future__ import annotations

__all__ = ["ms_memory_recycle", "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
           "memory_stats", "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "reset_max_memory_reserved"]

_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"
_libc = None


def _mallinfo():
    """glibc's ``struct mallinfo2`` (ctypes is imported on first use)."""
    global _libc
    if _libc is None:
        import ctypes

        class MallInfo2(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                              "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

        try:
            lib = ctypes.CDLL("libc.so.6")
            lib.mallinfo2.restype = MallInfo2
        except (OSError, AttributeError) as e:  # not glibc >= 2.33
            raise RuntimeError("memory statistics need glibc's mallinfo2 (Linux, glibc 2.33 or later)") from e
        _libc = lib
    return _libc.mallinfo2()


def trim_heap() -> None:
    """Give the C heap's free memory back to the operating system (glibc ``malloc_trim(0)``; nothing elsewhere)."""
    try:
        _mallinfo()
    except RuntimeError:
        return
    _libc.malloc_trim(0)


def ms_memory_recycle() -> None:
    """Release what compiled graphs hold (MindSpore's compile caches and their run-time memory): every jitted
    function and Cell forgets its compiled graphs (they compile again when next called), then the heap's free
    memory goes back to the operating system."""
    from .jit.cache import clear_all

    clear_all()
    trim_heap()


def _status_kb(key: str) -> int:
    try:
        with open(_STATUS) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError as e:
        raise RuntimeError(f"memory statistics need {_STATUS} (Linux)") from e
    raise RuntimeError(f"memory statistics: {_STATUS} has no {key}")


def memory_allocated() -> int:
    """Bytes the C heap has handed out and not taken back (glibc ``mallinfo2``: in-use arena blocks plus mmapped
    blocks). NumPy allocates every tensor's data there, so this is what tensors (and the rest of Python) hold."""
    m = _mallinfo()
    return int(m.uordblks + m.hblkhd)


def memory_reserved() -> int:
    """Bytes of physical memory the process holds (its resident set, ``VmRSS``): the heap's free blocks it keeps
    for reuse are reserved, like a device pool's cached blocks."""
    return _status_kb("VmRSS")


def max_memory_reserved() -> int:
    """The largest resident set since the process started or ``reset_max_memory_reserved`` (``VmHWM``)."""
    return _status_kb("VmHWM")


def max_memory_allocated() -> int:
    """The peak of memory in use since the process started or the last reset. glibc keeps no peak of its in-use
    bytes, so this is the peak resident set (``VmHWM``): every byte ever in use was resident then, so the true
    peak of ``memory_allocated`` never exceeds it by more than pages handed out but never touched."""
    return max(_status_kb("VmHWM"), memory_allocated())


def reset_max_memory_reserved() -> None:
    """Restart the peak at the current resident set (Linux ``clear_refs`` 5)."""
    try:
        with open(_CLEAR_REFS, "w") as f:
            f.write("5")
    except OSError as e:
        raise RuntimeError(f"reset_max_memory_reserved: cannot reset the peak resident set ({_CLEAR_REFS}: {e})") \
            from e


reset_max_memory_allocated = reset_peak_memory_stats = reset_max_memory_reserved


def memory_stats() -> dict:
    """MindSpore's statistics dict with the process's figures (bytes). sprout keeps no block pool of its own, so
    the pool sections are empty, as MindSpore's CPU build reports them."""
    m = _mallinfo()
    allocated = int(m.uordblks + m.hblkhd)
    reserved = _status_kb("VmRSS")
    return {"total_reserved_memory": reserved, "total_allocated_memory": allocated,
            "total_idle_memory": int(m.fordblks), "total_eager_free_memory": 0,
            "max_reserved_memory": _status_kb("VmHWM"), "max_allocated_memory": max_memory_allocated(),
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}}}


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return ""  # pragma: no cover


def memory_summary() -> str:
    """A text table of ``memory_stats`` (MindSpore's layout)."""
    s = memory_stats()
    rows = [("Reserved memory", s["total_reserved_memory"]), ("Allocated memory", s["total_allocated_memory"]),
            ("Idle memory", s["total_idle_memory"]), ("Eager free memory", s["total_eager_free_memory"]),
            ("Max reserved memory", s["max_reserved_memory"]), ("Max allocated memory", s["max_allocated_memory"])]
    rule = "|" + "=" * 45 + "|"
    line = "|" + "-" * 45 + "|"
    out = [rule, "|" + " " * 15 + "Memory summary" + " " * 16 + "|", rule, f"| {'Metric':<20} | {'Data':<20} |", line]
    for name, value in rows:
        out += [f"| {name:<20} | {_size(value):>8}{'':<12} |", line]
    out[-1] = rule
    return "\n".join(out)
