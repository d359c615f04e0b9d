"""Streams (in-order OpenCL queues) and the one launch path that orders work by events.

Ordering rules (Majel's ``schedule(fn, reads, writes)`` on OpenCL events):

- Every Allocation carries ``write`` (its last write) and ``reads`` (the reads since that
  write, one per stream, keyed by stream id), each an entry ``(stream, seq, event)``:
  the ``seq``-th command enqueued on ``stream``.
- A launch waits on the last write of everything it reads (read after write) and on the
  last write and every read since of everything it writes (write after write, write after
  read). Entries of the launch's own stream are skipped (the queue is in order), and so are
  entries known complete (``seq <= stream.done``). Of the rest only the latest per other
  stream is waited on: a later command of an in-order queue implies the earlier ones. So
  a wait list is at most one event per stream, whatever the history.
- A stream whose event is waited on is flushed first (``seq > stream.flushed``), so no
  queue waits on a command that was never submitted to the device.
- ``stream.done`` advances when the host learns that a command finished: ``wait`` on an
  entry, ``Stream.synchronize``. A finished command also proves that what it waited on
  on other streams finished (kept in ``stream.after``, a short bounded log), so a host read
  on the transfer stream marks the compute stream's work done too.
- ``reads`` keeps one entry per stream and a write replaces it, so the bookkeeping of an
  Allocation is bounded by the number of streams; streams are registered weakly, and
  entries known complete are pruned when a reads dict grows.

All of this changes under the place's lock, which also makes ``set_args`` + enqueue of a
shared kernel object atomic. Host work on host-backed memory (small graphs, host copies) goes
through :func:`run_host` instead: it runs under the same lock once everything it would wait
for is known complete (it waits for that), and leaves nothing pending on what it wrote. A
library call that takes no wait list and returns no event (pyvkfft, a BLAS) goes through
:func:`launch_call`: a barrier on the wait list before it, a marker after it.

Streams are per place and per Python thread: ``current_stream(place)`` is the innermost
``with s:`` of this thread, else this thread's default stream; ``transfer_stream(place)``
is this thread's stream for host copies, so a host read waits only on what it reads.
The allocator keeps the entries of a freed block (see ``darray.alloc``); its next owner
starts from them, so the new owner's first writer waits for the old owner's last kernels.

At interpreter exit a hook closes darray to every other thread (their next launch, wait or
build raises ``SystemExit``, see ``place._exit``), finishes the queues and waits for those
threads to leave darray's code: daemon threads still launching then neither keep the queues
busy forever nor abort the process at finalisation.
"""
from __future__ import annotations

import atexit
import collections
import itertools
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

import pyopencl as cl

from ..errors import cl_errors
from ..place import CLPlace, PlaceLike, _exit, parse, runtime
from ..place._programs import close_builds
from ..place._runtime import runtimes
from ._capture import Step, capturing, refuse
from ._profile import _active, record_host, record_launch, timed_sync

Enqueue = Callable[[cl.CommandQueue, "list[cl.Event] | None"], cl.Event]
Entry = tuple  # (stream, seq, event)


class Allocation(Protocol):
    """What the scheduler keeps on each buffer it orders (``darray.alloc.Allocation``, which sits
    above the scheduler): its last write and the reads since, keyed by stream."""

    buffer: Any
    write: Entry | None
    reads: dict[Any, Entry]

_ids = itertools.count()
_streams: weakref.WeakSet[Stream] = weakref.WeakSet()
_streams_lock = threading.Lock()
_local = threading.local()

AFTER_LOG = 64   # cross-stream dependencies remembered per stream (older ones are forgotten: conservative)
PRUNE_AT = 8     # a reads dict this long drops its entries known complete


class Stream:
    """An in-order command queue on one OpenCL place; ``with s:`` makes it current in this thread.

    ``seq`` counts commands enqueued, ``done`` those known complete, ``flushed`` those
    submitted to the device. See the module docstring for the ordering rules.
    """

    __slots__ = ("place", "index", "rt", "lock", "queue", "id", "seq", "done", "flushed", "after", "__weakref__")

    def __init__(self, place: PlaceLike = None) -> None:
        p = parse(place)
        if not isinstance(p, CLPlace):
            raise ValueError(f"darray stream: streams exist on OpenCL places only, not {p}")
        self.place = p
        self.index = p.index
        self.rt = runtime(p)
        self.lock = self.rt.lock  # one lock per place: kernel objects are shared (set_args + enqueue)
        self.queue = self.rt.new_queue()
        self.id = next(_ids)
        self.seq = 0      # number of commands enqueued
        self.done = 0     # commands known complete
        self.flushed = 0  # commands flushed to the device
        # (seq, ((other stream, other seq), ...)): what command ``seq`` waited for on other streams
        self.after: collections.deque = collections.deque()
        with _streams_lock:
            _streams.add(self)

    def synchronize(self) -> None:
        """Wait until everything enqueued on this stream has completed."""
        seq = self.seq
        if seq > self.done:
            _exit.check("synchronize")
            with timed_sync(f"stream {self.id}"), cl_errors("synchronize"):
                self.queue.finish()
        _completed(self, seq)

    def __enter__(self) -> Stream:
        _push(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _pop(self)

    def __repr__(self) -> str:
        return f"Stream({self.place}, id={self.id}, seq={self.seq}, done={self.done})"


def _mark(s: Stream, seq: int) -> None:
    # Plain read-compare-write: a race can only lower ``done``/``flushed``, which is conservative.
    if seq > s.done:
        s.done = seq
    if seq > s.flushed:
        s.flushed = seq


def _completed(s: Stream, seq: int) -> None:
    """Note that command ``seq`` of ``s`` (and so all before it) completed, and what it waited for."""
    _mark(s, seq)
    if s.after:
        with s.lock:  # one lock per place (dependencies never cross places); the logs change under it
            work = [(s, seq)]
            while work:
                o, oseq = work.pop()
                after = o.after
                while after and after[0][0] <= oseq:
                    for other, q in after.popleft()[1]:
                        _mark(other, q)
                        if other.after and other.after[0][0] <= q:
                            work.append((other, q))


# -- current stream per thread ----------------------------------------------------------
class _Thread:
    """One thread's streams, by place index: ``current`` (innermost ``with``, else the default),
    the ``with`` stacks, the default streams and the transfer streams."""

    __slots__ = ("current", "stacks", "defaults", "transfer")

    def __init__(self) -> None:
        self.current: dict[int, Stream] = {}
        self.stacks: dict[int, list[Stream]] = {}
        self.defaults: dict[int, Stream] = {}
        self.transfer: dict[int, Stream] = {}


def _thread() -> _Thread:
    try:
        return _local.state
    except AttributeError:
        st = _local.state = _Thread()
        return st


def _push(s: Stream) -> None:
    st = _thread()
    st.stacks.setdefault(s.index, []).append(s)
    st.current[s.index] = s


def _pop(s: Stream) -> None:
    st = _thread()
    stack = st.stacks.get(s.index)
    if not stack or stack[-1] is not s:
        raise RuntimeError(f"darray stream: leaving {s} but it is not the innermost stream of this thread")
    stack.pop()
    if stack:
        st.current[s.index] = stack[-1]
    elif s.index in st.defaults:
        st.current[s.index] = st.defaults[s.index]
    else:
        st.current.pop(s.index, None)


def default_stream(place: CLPlace) -> Stream:
    """This thread's default stream on ``place`` (created on first use)."""
    st = _thread()
    s = st.defaults.get(place.index)
    if s is None:
        s = st.defaults[place.index] = Stream(place)
        st.current.setdefault(place.index, s)
    return s


def current_stream(place: CLPlace) -> Stream:
    """The stream work on ``place`` goes to in this thread (each thread has its own default)."""
    try:
        s = _local.state.current.get(place.index)
    except AttributeError:
        s = None
    return s if s is not None else default_stream(place)


def transfer_stream(place: CLPlace) -> Stream:
    """This thread's stream for host transfers, so host reads wait only on what they read."""
    st = _thread()
    s = st.transfer.get(place.index)
    if s is None:
        s = st.transfer[place.index] = Stream(place)
    return s


def stream(s: Stream | None = None, *, place: PlaceLike = None) -> Stream:
    """``da.stream()`` makes a new stream on ``place``; ``da.stream(s)`` returns ``s``.

    Use it with ``with``: ``with da.stream(s):`` (or ``with s:``) sends this thread's work
    on that place to ``s`` until the block ends.
    """
    if s is not None and not isinstance(s, Stream):
        raise TypeError(f"darray stream: expected a Stream or None, got {type(s).__name__}")
    return s if s is not None else Stream(place)


# -- the launch path ------------------------------------------------------------------------
def _need(need: dict | None, e: Entry) -> dict:
    """Add entry ``e`` (of another stream, not known complete) to the per-stream latest map."""
    if need is None:
        return {e[0]: e}
    have = need.get(e[0])
    if have is None or have[1] < e[1]:
        need[e[0]] = e
    return need


def launch(name: str, enqueue: Enqueue, *, place: CLPlace, reads: Sequence[Allocation] = (),
           writes: Sequence[Allocation] = (), stream: Stream | None = None, nbytes: int = 0) -> Entry:
    """Enqueue one command on ``stream`` ordered after what it depends on; the only way work is queued.

    ``enqueue(queue, wait_for)`` issues the command (kernel, copy, fill, transfer, library
    call) on ``queue`` after the events ``wait_for`` (None when there are none) and returns
    its event. It runs under the place's lock and must not call ``launch`` itself.
    ``reads``/``writes`` are the Allocations the command reads and writes (zero-size ones
    are ignored); ``stream`` defaults to this thread's current stream of ``place``.
    Returns the entry ``(stream, seq, event)`` that :func:`wait` takes. While a capture is active
    (``da.jit`` tracing) a command given as a closure cannot be recorded: TraceError.
    """
    if capturing() is not None:
        raise refuse(name)
    if stream is None:
        s = current_stream(place)
    else:
        s = stream
        if s.index != place.index:
            raise ValueError(f"darray launch {name}: stream {s} is on {s.place}, the command on {place}")
    need: dict | None = None
    with s.lock:
        closing = _exit.closer is not None
        if closing:  # the interpreter is exiting: other threads launch nothing more
            _exit.check(f"launch {name}")
        for a in reads:
            e = a.write
            if e is not None and e[0] is not s and e[1] > e[0].done:
                need = _need(need, e)
        for a in writes:
            e = a.write
            if e is not None and e[0] is not s and e[1] > e[0].done:
                need = _need(need, e)
            if a.reads:
                for e in a.reads.values():
                    if e[0] is not s and e[1] > e[0].done:
                        need = _need(need, e)
        wait_for: list[cl.Event] | None
        if need is None:
            wait_for = None
        else:
            wait_for = []
            deps = []
            for other, e in need.items():
                if e[1] > other.flushed:  # never wait on a command still sitting in a host-side queue
                    other.queue.flush()
                    other.flushed = other.seq
                wait_for.append(e[2])
                deps.append((other, e[1]))
        if _shared:
            wait_for = _after_shared(s.queue, (*reads, *writes), wait_for)
        try:
            ev = enqueue(s.queue, wait_for)
        except cl.Error as err:
            if isinstance(err, cl.MemoryError):
                raise
            with cl_errors(name):
                raise
        seq = s.seq = s.seq + 1
        entry = (s, seq, ev)
        if need is not None:
            after = s.after
            after.append((seq, tuple(deps)))
            if len(after) > AFTER_LOG:
                after.popleft()
        sid = s.id
        for a in reads:
            if a.buffer is not None:
                r = a.reads
                r[sid] = entry
                if len(r) >= PRUNE_AT:
                    _prune(r)
        for a in writes:
            if a.buffer is not None:
                a.write = entry
                if a.reads:
                    a.reads = {}
    if _active:
        record_launch(name, sid, str(place), nbytes, ev)
    if closing:  # the exiting thread's own late work (a later exit hook, a finaliser): done before it goes on
        wait(entry, name)
    return entry


def launch_kernel(name: str, kernel: cl.Kernel, args: Sequence[Any], gsize: tuple[int, ...],
                  lsize: tuple[int, ...] | None, *, place: CLPlace, reads: Sequence[Allocation] = (),
                  writes: Sequence[Allocation] = (), nbytes: int = 0,
                  dtypes: Sequence[Any] | None = None) -> Entry | None:
    """Launch ``kernel(*args)`` over ``gsize`` work-items in groups of ``lsize`` through :func:`launch`;
    while capturing, record it instead (returns None then): the form of every kernel ``da.jit``
    can replay. ``dtypes``: the scalar argument dtypes the kernel was given with
    ``set_scalar_arg_dtypes`` (None: its scalar arguments are NumPy scalars already)."""
    rec = capturing()
    if rec is not None:
        rec.steps.append(Step(name, kernel, list(args), gsize, lsize, tuple(reads), tuple(writes), dtypes=dtypes))
        return None

    def enqueue(queue: cl.CommandQueue, wait_for: list[cl.Event] | None) -> cl.Event:
        kernel.set_args(*args)
        return cl.enqueue_nd_range_kernel(queue, kernel, gsize, lsize, wait_for=wait_for)

    return launch(name, enqueue, place=place, reads=reads, writes=writes, nbytes=nbytes)


def launch_call(name: str, call: Callable[[cl.CommandQueue], object], *, place: CLPlace,
                reads: Sequence[Allocation] = (), writes: Sequence[Allocation] = (),
                stream: Stream | None = None, nbytes: int = 0) -> Entry:
    """Run ``call(queue)``, a library call that enqueues its work on ``queue`` but takes no wait
    list and returns no event (pyvkfft, a BLAS), ordered like any :func:`launch`.

    A barrier on the wait list goes before it and a marker after it; the marker is the entry's
    event (so the profiler's device time of such a launch is the marker's, not the call's).
    """
    return launch(name, partial(enqueue_call, call), place=place, reads=reads, writes=writes, stream=stream,
                  nbytes=nbytes)


def enqueue_call(call: Callable[[cl.CommandQueue], object], queue: cl.CommandQueue,
                 wait_for: list[cl.Event] | None) -> cl.Event:
    """Enqueue a library call that takes no wait list and returns no event in order: a barrier on
    ``wait_for`` before it, a marker after it (the event returned). :func:`launch_call`'s command,
    and a replayed ``da.jit`` program's for a recorded library call."""
    if wait_for:
        cl.enqueue_barrier(queue, wait_for=wait_for)
    call(queue)
    return cl.enqueue_marker(queue)


HOST = -1  # the stream id the profiler gives work run on the calling thread (run_host)


_shared: dict[int, cl.CommandQueue] = {}  # id(allocation) -> the queue another library enqueues its work on it


def share(alloc: Allocation, queue: cl.CommandQueue) -> None:
    """Order every later command on ``alloc`` (kernels, copies, host work) after what another library
    (pyopencl) has enqueued on ``queue`` by then: for buffers darray lends or wraps, whose other
    owner's commands the scheduler does not see. The record goes with the allocation."""
    key = id(alloc)
    if key not in _shared:
        weakref.finalize(alloc, _shared.pop, key, None)
    _shared[key] = queue


def _after_shared(queue: cl.CommandQueue, allocs: Sequence[Allocation],
                  wait_for: list[cl.Event] | None) -> list[cl.Event] | None:
    """``wait_for`` plus a marker of the other owner's queue for each shared allocation in ``allocs``
    (none for a command on that queue itself: it is in order)."""
    for a in allocs:
        q = _shared.get(id(a))
        if q is not None and q is not queue:
            wait_for = [*(wait_for or ()), cl.enqueue_marker(q)]
    return wait_for


def settled(allocs: Sequence[Allocation], writes: int = 0) -> bool:
    """Whether every command that a read of ``allocs`` (a write of their first ``writes``) would
    have to wait for is known complete (then host work over them may run at once): the one
    question of what is pending on an allocation."""
    for k, a in enumerate(allocs):
        e = a.write
        if e is not None and e[1] > e[0].done:
            return False
        if k < writes:
            for e in a.reads.values():
                if e[1] > e[0].done:
                    return False
    return True


def run_host(name: str, fn: Callable[[], object], *, place: CLPlace, reads: Sequence[Allocation] = (),
             writes: Sequence[Allocation] = (), nbytes: int = 0) -> None:
    """Run ``fn()`` on the calling thread in place of a device command, once every command it
    would wait for has completed (waiting for them). For host-backed allocations
    (``Allocation.host``) only: ``fn`` reads and writes their host memory.

    It runs under the place's lock, so no command touching these allocations is enqueued
    meanwhile; afterwards nothing is pending on what it wrote.
    """
    if capturing() is not None:
        raise refuse(name)
    if _shared:  # what another library queued on a shared allocation completes first
        for q in {id(q): q for a in (*reads, *writes) if (q := _shared.get(id(a))) is not None}.values():
            q.finish()
    lock = runtime(place).lock
    while True:
        with lock:
            if _exit.closer is not None:
                _exit.check(name)
            if settled((*writes, *reads), len(writes)):  # else wait (outside the lock), then check again: another
                t0 = time.perf_counter_ns() if _active else 0  # thread may enqueue work on them meanwhile
                fn()
                for a in writes:
                    a.write = None
                    if a.reads:
                        a.reads = {}
                break
        for e in [a.write for a in (*reads, *writes)] + [e for a in writes for e in list(a.reads.values())]:
            wait(e, name)
    if _active:
        record_host(name, HOST, str(place), nbytes, t0, time.perf_counter_ns())


def _prune(reads: dict) -> None:
    """Drop the entries known complete from a reads dict (in place)."""
    for k in [k for k, e in reads.items() if e[1] <= e[0].done]:
        del reads[k]


def live(pending: dict) -> dict:
    """A copy of ``pending`` (stream id -> entry) without the entries known complete."""
    return {k: e for k, e in pending.items() if e[1] > e[0].done}


def is_done(entry: Entry | None) -> bool:
    """True when the command of ``entry`` is known complete (asks OpenCL without blocking)."""
    if entry is None:
        return True
    s, seq, ev = entry
    if seq <= s.done:
        return True
    if ev.command_execution_status == cl.command_execution_status.COMPLETE:
        _completed(s, seq)
        return True
    return False


def wait(entry: Entry | None, what: str = "host wait") -> None:
    """Block until one recorded command has completed (and note all before it on its stream)."""
    if entry is None:
        return
    s, seq, ev = entry
    if seq <= s.done:
        return
    _exit.check(what)
    with timed_sync(what), cl_errors(what):
        ev.wait()
    _completed(s, seq)


def wait_written(alloc: Allocation) -> None:
    """Block until the last write of ``alloc`` has completed (before a host read)."""
    wait(alloc.write, "host read")


def wait_idle(alloc: Allocation) -> None:
    """Block until every command touching ``alloc`` has completed (before a host write)."""
    wait(alloc.write, "host write")
    for entry in list(alloc.reads.values()):
        wait(entry, "host write")


def synchronize(place: PlaceLike = None) -> None:
    """Wait for all work on every stream of ``place`` (default: every place), from every thread."""
    target = None if place is None else parse(place)
    for s in all_streams():
        if target is None or s.place == target:
            s.synchronize()


SETTLE_S = 10.0  # how long the exit hook waits for other threads to leave darray's code


def _close_at_exit() -> None:
    """Exit hook (atexit runs it while daemon threads still run): refuse OpenCL work from other
    threads (``place._exit``), let a launch in flight finish its enqueue (the place locks), wait
    for all queued work (Intel's CPU runtime crashes when a process ends with kernels running),
    then for the other threads to leave darray's code, so that none is inside pyopencl when the
    interpreter finalises."""
    _exit.close()
    close_builds()
    for rt in runtimes():
        with rt.lock:
            pass
    try:
        synchronize()
    except Exception:  # a device error at exit has nobody left to report to
        pass
    _exit.settle(SETTLE_S)


atexit.register(_close_at_exit)


def all_streams() -> list[Stream]:
    """The streams alive now (a stream lives while a thread, a ``with`` or a pending entry holds it)."""
    with _streams_lock:
        return list(_streams)
