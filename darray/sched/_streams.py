"""Streams (in-order OpenCL queues) and the one launch path that orders work by events.

Every Allocation carries ``write`` (the last write) and ``reads`` (the reads since, one per
stream), each an entry ``(stream, seq, event)``. A launch waits on the last write of what
it reads and on the last write and reads of what it writes, skipping entries of its own
stream (in-order) and entries known complete. Reads keep one entry per stream, so the
bookkeeping stays bounded whatever the number of launches.
"""
from __future__ import annotations

import itertools
import threading
import weakref
from typing import TYPE_CHECKING, Callable, Sequence

import pyopencl as cl

from ..errors import cl_errors
from ..place import CLPlace, PlaceLike, parse, runtime
from ._profile import record_launch, timed_sync

if TYPE_CHECKING:
    from ..alloc import Allocation

Enqueue = Callable[[cl.CommandQueue, "list[cl.Event] | None"], cl.Event]

_ids = itertools.count()
_streams: "weakref.WeakSet[Stream]" = weakref.WeakSet()
_local = threading.local()


class Stream:
    """An in-order command queue on one OpenCL place; ``with s:`` makes it current in this thread."""

    __slots__ = ("place", "rt", "queue", "id", "seq", "done", "flushed", "__weakref__")

    def __init__(self, place: PlaceLike = None) -> None:
        p = parse(place)
        if not isinstance(p, CLPlace):
            raise ValueError(f"darray stream: streams exist on OpenCL places only, not {p}")
        self.place = p
        self.rt = runtime(p)
        self.queue = self.rt.new_queue()
        self.id = next(_ids)
        self.seq = 0      # number of commands enqueued
        self.done = 0     # commands known complete
        self.flushed = 0  # commands flushed to the device
        _streams.add(self)

    def synchronize(self) -> None:
        """Wait until everything enqueued on this stream has completed."""
        with timed_sync(f"stream {self.id}"):
            seq = self.seq
            with cl_errors("synchronize"):
                self.queue.finish()
            self.done = self.flushed = max(self.done, seq)

    def __enter__(self) -> "Stream":
        stack = _stack(self.place)
        stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _stack(self.place).pop()

    def __repr__(self) -> str:
        return f"Stream({self.place}, id={self.id})"


def _stack(place: CLPlace) -> list[Stream]:
    stacks = getattr(_local, "stacks", None)
    if stacks is None:
        stacks = _local.stacks = {}
    return stacks.setdefault(place, [])


def current_stream(place: CLPlace) -> Stream:
    """The stream work on ``place`` goes to in this thread (each thread has its own default)."""
    stack = _stack(place)
    if stack:
        return stack[-1]
    defaults = getattr(_local, "defaults", None)
    if defaults is None:
        defaults = _local.defaults = {}
    s = defaults.get(place)
    if s is None:
        s = defaults[place] = Stream(place)
    return s


def transfer_stream(place: CLPlace) -> Stream:
    """This thread's stream for host transfers, so host reads wait only on what they read."""
    ts = getattr(_local, "transfer", None)
    if ts is None:
        ts = _local.transfer = {}
    s = ts.get(place)
    if s is None:
        s = ts[place] = Stream(place)
    return s


def stream(s: Stream | None = None, *, place: PlaceLike = None) -> Stream:
    """``da.stream()`` makes a new stream on ``place``; ``da.stream(s)`` returns ``s`` (use ``with``)."""
    return s if s is not None else Stream(place)


def launch(name: str, enqueue: Enqueue, *, place: CLPlace, reads: Sequence["Allocation"] = (),
           writes: Sequence["Allocation"] = (), stream: Stream | None = None, nbytes: int = 0) -> tuple:
    """Enqueue one command on ``stream`` ordered after what it depends on; the only way work is queued.

    ``enqueue(queue, wait_for)`` issues the command and returns its event. Returns the
    entry ``(stream, seq, event)`` that :func:`wait` takes. Zero-size allocations are ignored.
    """
    s = stream or current_stream(place)
    wait: list[cl.Event] = []
    flush: set[Stream] = set()
    sid = s.id

    def need(entry: tuple) -> None:
        other, seq, ev = entry
        if other is not s and seq > other.done:
            wait.append(ev)
            if seq > other.flushed:
                flush.add(other)

    with s.rt.lock:
        for a in reads:
            if a.write is not None:
                need(a.write)
        for a in writes:
            if a.write is not None:
                need(a.write)
            for entry in a.reads.values():
                need(entry)
        for other in flush:
            other.queue.flush()
            other.flushed = other.seq
        with cl_errors(name):
            ev = enqueue(s.queue, wait or None)
        s.seq += 1
        entry = (s, s.seq, ev)
        for a in reads:
            if a.buffer is not None:
                a.reads[sid] = entry
        for a in writes:
            if a.buffer is not None:
                a.write = entry
                a.reads = {}
    record_launch(name, sid, str(place), nbytes, ev)
    return entry


def wait(entry: tuple | None, what: str = "host wait") -> None:
    """Block until one recorded command has completed (and note all before it on its stream)."""
    if entry is None:
        return
    s, seq, ev = entry
    if seq <= s.done:
        return
    with timed_sync(what), cl_errors(what):
        ev.wait()
    s.done = max(s.done, seq)
    s.flushed = max(s.flushed, seq)


def wait_written(alloc: "Allocation") -> None:
    """Block until the last write of ``alloc`` has completed (before a host read)."""
    wait(alloc.write, "host read")


def wait_idle(alloc: "Allocation") -> None:
    """Block until every command touching ``alloc`` has completed (before a host write)."""
    wait(alloc.write, "host write")
    for entry in list(alloc.reads.values()):
        wait(entry, "host write")


def synchronize(place: PlaceLike = None) -> None:
    """Wait for all work on every stream of ``place`` (default: every place)."""
    target = None if place is None else parse(place)
    for s in list(_streams):
        if target is None or s.place == target:
            s.synchronize()


def all_streams() -> list[Stream]:
    return list(_streams)
