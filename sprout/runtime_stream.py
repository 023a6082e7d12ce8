"""``mindspore.runtime`` streams and events on the CPU: sprout runs every operator synchronously on the calling
thread, so all work is done when an op returns; a stream is an ordering label, an event a recorded time."""
from __future__ import annotations

import time

__all__ = ["Stream", "Event", "StreamCtx", "current_stream", "default_stream", "communication_stream",
           "set_cur_stream"]


def _check_bool(api: str, name: str, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', the '{name}' must be a bool, but got {type(value).__name__}.")


class Stream:
    """A stream of the CPU device. Work never waits in a queue (every op finishes before it returns), so
    ``query`` is always True and ``synchronize`` / ``wait_event`` / ``wait_stream`` have nothing to wait for.
    ``Stream(stream=s)`` names the same stream as ``s``."""

    _count = 0

    def __init__(self, priority: int = 0, **kwargs):
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise TypeError(f"For 'Stream', the type of 'priority' must be 'int', but got "
                            f"'{type(priority).__name__}'.")
        unknown = set(kwargs) - {"stream"}
        if unknown:
            raise TypeError(f"For 'Stream', unexpected keyword argument(s) {sorted(unknown)}")
        other = kwargs.get("stream")
        if other is not None:
            if not isinstance(other, Stream):
                raise TypeError(f"For 'Stream', the argument 'stream' should be Stream, but got {type(other)}.")
            self.id, self.priority = other.id, other.priority
        else:
            self.id, self.priority = Stream._count, priority
            Stream._count += 1
        self.device_name, self.device_id = "CPU", 0

    stream_id = property(lambda self: self.id)

    def query(self) -> bool:
        """Whether all work submitted to the stream has finished: always, on the CPU."""
        return True

    def synchronize(self) -> None:
        """Wait for the stream's work: it has finished already."""

    def wait_event(self, event: Event) -> None:
        """Make later work on this stream wait for ``event``: recorded work has finished already."""
        _check_event("wait_event", event)

    def wait_stream(self, stream: Stream) -> None:
        """Make later work on this stream wait for ``stream``'s: it has finished already."""
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'wait_stream', the argument 'stream' should be Stream, but got {type(stream)}.")

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new one if None) on this stream and return it."""
        if event is None:
            event = Event()
        _check_event("record_event", event)
        event.record(self)
        return event

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("Stream", self.id))

    def __repr__(self) -> str:
        return f"Stream(device_name={self.device_name}, device_id:{self.device_id}, stream id:{self.id})"


def _check_event(api: str, event) -> None:
    if not isinstance(event, Event):
        raise TypeError(f"For '{api}', the argument 'event' should be Event, but got {type(event)}.")


def _check_stream(api: str, stream) -> Stream:
    if stream is None:
        return current_stream()
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{api}', the argument 'stream' should be Stream, but got {type(stream)}.")
    return stream


class Event:
    """A point in a stream. Recording it notes the time (work before it has finished, as every op does);
    ``elapsed_time`` between two recorded timing events is the wall time between the records, in milliseconds."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False):
        _check_bool("Event", "enable_timing", enable_timing)
        _check_bool("Event", "blocking", blocking)
        self.enable_timing, self.blocking = enable_timing, blocking
        self._time: float | None = None
        self._stream: Stream | None = None

    def record(self, stream: Stream | None = None) -> None:
        self._stream = _check_stream("record", stream)
        self._time = time.perf_counter()

    def wait(self, stream: Stream | None = None) -> None:
        """Make ``stream``'s later work wait for this event: recorded work has finished already."""
        _check_stream("wait", stream)

    def query(self) -> bool:
        """Whether the work before the event has finished: always (an unrecorded event has none)."""
        return True

    def synchronize(self) -> None:
        """Wait until the event completes: it completed when it was recorded."""

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds from this event's record to ``end_event``'s."""
        _check_event("elapsed_time", end_event)
        for e in (self, end_event):
            if e._time is None:
                raise RuntimeError("elapsed_time: both events must be recorded first")
            if not e.enable_timing:
                raise RuntimeError("elapsed_time: both events must be created with enable_timing=True")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return (f"Event(enable_timing={int(self.enable_timing)}, blocking:{int(self.blocking)}, "
                f"is_created:{int(self._time is not None)})")


_DEFAULT = Stream()
_current = [_DEFAULT]


def default_stream() -> Stream:
    return _DEFAULT


def communication_stream() -> Stream:
    """The stream collectives run on: the calling thread's, as every op (MPI calls return when done)."""
    return _DEFAULT


def current_stream() -> Stream:
    return _current[-1]


def set_cur_stream(stream: Stream) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"For 'set_cur_stream', the argument 'stream' should be Stream, but got {type(stream)}.")
    _current[-1] = stream


class StreamCtx:
    """``with StreamCtx(stream):`` makes ``stream`` current inside the block (None: no change)."""

    def __init__(self, ctx_stream: Stream | None):
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', the argument 'ctx_stream' should be Stream, but got "
                            f"{type(ctx_stream)}.")
        self.stream = ctx_stream

    def __enter__(self):
        _current.append(self.stream if self.stream is not None else _current[-1])
        return self

    def __exit__(self, *exc) -> None:
        _current.pop()
