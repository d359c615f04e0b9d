"""Capture: record the device commands of a traced function instead of enqueuing them (``da.jit``).

While a :class:`Recorder` is active on a thread, the allocator hands out :class:`Slot`\\ s
(placeholders with no memory), :func:`~._streams.launch_kernel` appends a :class:`Step` to the
recorder, and host->device copies of constants are recorded as steps holding the bytes. Any other
command (a map, a read back, work run on the host) means the traced code needs a value on the
host: it raises :class:`~darray.errors.TraceError` naming the op and the user's line. Nothing
runs while capturing; ``darray.jit`` plans and replays the steps. ``suspended()`` runs a block
for real in the middle of a capture (state that outlives the trace, such as reduction scratch).
"""
from __future__ import annotations

import linecache
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import numpy as np

from ..errors import TraceError


class _Local(threading.local):
    recorder: Recorder | None = None  # a class default: reading it raises and catches nothing


_local = _Local()


class Slot:
    """A placeholder allocation of ``nbytes`` made while capturing (``index``: its number in the
    recorder). It quacks like ``alloc.Allocation`` for everything a trace touches: its ``buffer``
    is itself, so kernel arguments referring to it can be found and bound when replayed."""

    __slots__ = ("index", "nbytes", "buffer", "offset", "host", "write", "reads", "__weakref__")

    def __init__(self, index: int, nbytes: int) -> None:
        self.index, self.nbytes = index, nbytes
        self.buffer: Slot | None = self if nbytes > 0 else None
        self.offset = 0
        self.host = None
        self.write: tuple | None = None
        self.reads: dict = {}

    def __repr__(self) -> str:
        return f"Slot({self.index}, {self.nbytes} bytes)"


class Dynamic:
    """A kernel argument that a replay computes, by calling ``value()`` as it reaches its step
    (a random draw's counter: each replay continues the generator's stream)."""

    __slots__ = ("value",)

    def __init__(self, value: Callable[[], Any]) -> None:
        self.value = value


@dataclass(eq=False)
class Step:
    """One recorded command: a kernel launch (``kernel`` with ``args``, sizes ``gsize``/``lsize``),
    a copy of the constant bytes ``data`` into ``writes[0]``, or a library ``call(queue, buffers)``
    whose ``args`` are allocations, passed to it as buffers starting where they start."""

    name: str
    kernel: Any
    args: list[Any]
    gsize: tuple[int, ...]
    lsize: tuple[int, ...] | None
    reads: Sequence[Any]
    writes: Sequence[Any]
    data: np.ndarray | None = None
    call: Callable[[Any, list[Any]], None] | None = None
    dtypes: Sequence[Any] | None = None  # see ``launch_kernel``


@dataclass(eq=False)
class Recorder:
    """What one trace recorded: its slots (placeholder allocations) and steps, in order."""

    slots: list[Slot] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    extent: bool = False  # the trace read how far an input's memory reaches (:func:`extent`)

    def slot(self, nbytes: int) -> Slot:
        s = Slot(len(self.slots), nbytes)
        self.slots.append(s)
        return s

    def upload(self, alloc: Any, host: np.ndarray) -> None:
        """A host->device copy of ``host`` (a constant of the traced code) into ``alloc``."""
        data = np.array(host, copy=True).reshape(-1).view(np.uint8)
        self.steps.append(Step("host_to_device", None, [], (), None, (), (alloc,), data))

    def library(self, name: str, call: Callable[[Any, list[Any]], None], allocs: Sequence[Any], *,
                reads: Sequence[Any], writes: Sequence[Any]) -> None:
        """A library call (pyvkfft) that enqueues its work on the queue it is given, over the
        buffers of ``allocs``: ``call(queue, buffers)``."""
        self.steps.append(Step(name, None, list(allocs), (), None, tuple(reads), tuple(writes), call=call))


def extent(alloc: Any) -> int:
    """The bytes of ``alloc``: how far a view made from raw strides may reach. Read in a trace, it
    makes the program depend on it (``Recorder.extent``: ``da.jit`` then keys by every input's size)."""
    rec = _local.recorder
    if rec is not None and type(alloc) is Slot:
        rec.extent = True
    return int(alloc.nbytes)


TRACES: list[Recorder] = []  # the recorders active on any thread: while there is one, the host engine is off


def capturing() -> Recorder | None:
    """The recorder active on this thread, else None."""
    return _local.recorder


@contextmanager
def recording(rec: Recorder | None) -> Iterator[Recorder | None]:
    """``with recording(rec):`` makes ``rec`` this thread's recorder (None: none) for the block."""
    old = _local.recorder
    _local.recorder = rec
    if rec is not None:
        TRACES.append(rec)
    try:
        yield rec
    finally:
        _local.recorder = old
        if rec is not None:
            TRACES.remove(rec)


def suspended() -> Any:
    """``with suspended():`` runs the block for real while a capture is active."""
    return recording(None)


def user_line() -> tuple[str, str]:
    """(the op: the outermost darray function the traced code called, ``file:line: source`` of the
    traced code's line: the innermost frame outside darray)."""
    f: FrameType | None = sys._getframe(1)
    op = "?"
    while f is not None:
        name = f.f_globals.get("__name__", "")
        if name != "darray" and not name.startswith("darray."):
            code = linecache.getline(f.f_code.co_filename, f.f_lineno).strip()
            return op, f"{f.f_code.co_filename}:{f.f_lineno}: {code}"
        op = f.f_code.co_name
        if op == "method":  # the generated methods of darray._methods know their op by these names
            op = str(f.f_locals.get("kind") or f.f_locals.get("name") or op)
        f = f.f_back
    return op, "?"


def refuse(what: str, advice: str = "") -> TraceError:
    """The error for a command that needs values on the host (``what``: the command) inside a
    traced function, or with ``advice``, for something else a trace cannot record."""
    op, line = user_line()
    if advice:
        return TraceError(f"darray.jit: {op}: {what} inside a traced function, at {line}. {advice}")
    return TraceError(
        f"darray.jit: {op} needs values on the host ({what}) inside a traced function, at {line}. Keep it "
        "on the device (da.where instead of if/bool or a boolean mask, sizes that do not depend on the "
        "data), move it out of the jitted function, or pass the value as a static argument")
