"""Stream scheduler: ordering by read/write sets over streams and threads, reuse, bounded bookkeeping.

The centre is a randomised program (``Program``): arrays created, viewed, copied, cast,
slice-assigned, freed and reallocated over several streams, run on NumPy in order and on
darray over streams; every read-back must agree. Hypothesis drives it as a stateful
machine; the same body also runs under 8 Python threads at once.
"""
from __future__ import annotations

import contextlib
import gc
import random
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyopencl as cl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import darray as da
from darray import sched
from darray.alloc import allocate

# -- shared set-up ----------------------------------------------------------------------

_state: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _needs_opencl(cl_place):
    """Every test here needs an OpenCL place (skips, or fails with DARRAY_REQUIRE_OPENCL=1)."""
    _state.setdefault("place", cl_place)


def place() -> da.CLPlace:
    return _state.get("place") or da.place.parse("cl")


def shared_streams() -> list[da.Stream]:
    """Three streams kept for the whole module (a queue each)."""
    if "streams" not in _state:
        _state["streams"] = [da.stream(place=place()) for _ in range(3)]
    return _state["streams"]


SPIN_SOURCE = """
__kernel void spin_copy(__global const int* src, int so, __global int* dst, int do_, int n, int iters) {
  /* one work-item: spin, then copy all of src (so src is read only after the spin) */
  float f = 1.0f;
  for (int k = 0; k < iters; ++k) f = f * 0.999999f + 1e-7f;   /* cannot be folded away */
  int bump = f > 1e30f ? 1 : 0;
  for (int i = 0; i < n; ++i) dst[do_ + i] = src[so + i] + bump;
}
__kernel void axpb(__global int* dst, int d0, __global const int* a, int a0, __global const int* b, int b0,
                   int alpha, int iters) {
  int i = get_global_id(0);
  float f = 1.0f + i;
  for (int k = 0; k < iters; ++k) f = f * 0.999999f + 1e-7f;
  dst[d0 + i] = (a[a0 + i] * alpha + b[b0 + i]) % 1000 + (f > 1e30f ? 1 : 0);
}
__kernel void nothing(__global int* dst) { }
"""


def kernel(name: str) -> cl.Kernel:
    k = da.place.runtime(place()).programs.kernel(SPIN_SOURCE, name)
    if name == "spin_copy":
        k.set_scalar_arg_dtypes([None, np.int32, None, np.int32, np.int32, np.int32])
    elif name == "axpb":
        k.set_scalar_arg_dtypes([None, np.int32, None, np.int32, None, np.int32, np.int32, np.int32])
    return k


SPIN_SECONDS_ITERS = 300_000_000  # about 0.3 s of one work item on a desktop CPU core


def spin_copy(src: da.DArray, dst: da.DArray, *, stream: da.Stream, iters: int = SPIN_SECONDS_ITERS) -> tuple:
    """dst[:] = src[:] on ``stream`` after a long spin (src read at the end), int32 arrays."""
    k = kernel("spin_copy")
    n = src.size
    s_alloc, d_alloc = src._data(), dst._data()

    def enqueue(q, wf):
        return k(q, (1,), None, s_alloc.buffer, s_alloc.offset // 4 + src._dim.offset, d_alloc.buffer,
                 d_alloc.offset // 4 + dst._dim.offset, n, iters, wait_for=wf)

    return sched.launch("spin_copy", enqueue, place=place(), reads=[s_alloc], writes=[d_alloc], stream=stream,
                        nbytes=8 * n)


# -- the randomised program (the machine body) --------------------------------------------

DTYPES = [np.dtype(np.int32), np.dtype(np.float64), np.dtype(np.uint8)]
MAX_ARRAYS = 8


class RandomDraw:
    """Choices from a ``random.Random`` (the threaded runs)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def integers(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def choice(self, seq: Sequence) -> Any:
        return seq[self.r.randrange(len(seq))]


class HypothesisDraw:
    """The same choices drawn from hypothesis (shrinkable)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def integers(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))

    def choice(self, seq: Sequence) -> Any:
        return self.data.draw(st.sampled_from(list(seq)))


def slice_of(d: Any, n: int, length: int | None = None) -> slice:
    """A slice of an axis of length ``n`` (``length`` elements when given; steps, negative steps)."""
    if length is None:
        start, stop = d.integers(0, n), d.integers(0, n)
        step = d.choice([1, 1, 2, 3, -1, -2])
        if step < 0:
            start, stop = max(start, stop), min(start, stop)
            return slice(start, stop if stop > 0 and d.integers(0, 1) else None, step)
        return slice(min(start, stop), max(start, stop), step)
    steps = [s for s in (1, 2, -1, -2) if (length - 1) * abs(s) < n]
    step = d.choice(steps)
    span = (length - 1) * abs(step)
    if step > 0:
        start = d.integers(0, n - 1 - span)
        return slice(start, start + span + 1, step)
    start = d.integers(span, n - 1)
    stop = start - span - 1
    return slice(start, stop if stop >= 0 else None, step)


def key_for(d: Any, shape: tuple[int, ...]) -> Any:
    """A basic index into ``shape``: Ellipsis, slices per axis, or an integer on the first axis."""
    kind = d.choice(["all", "slices", "slices", "int"])
    if kind == "all" or not shape:
        return Ellipsis
    if kind == "int" and len(shape) == 2 and shape[0] > 0:
        return (d.integers(0, shape[0] - 1), slice_of(d, shape[1]))
    return tuple(slice_of(d, n) for n in shape)


def fit_key(d: Any, shape: tuple[int, ...], target: tuple[int, ...]) -> Any:
    """An index into ``shape`` whose view broadcasts to ``target`` (axes of length 1 broadcast)."""
    k = min(len(shape), len(target))
    lead = len(shape) - k
    key: list[Any] = [d.integers(0, shape[i] - 1) for i in range(lead)]
    for j in range(k):
        n, want = shape[lead + j], target[len(target) - k + j]
        if want == 1 or n < want or d.integers(0, 4) == 0:
            start = d.integers(0, n - 1)
            key.append(slice(start, start + 1))
        else:
            key.append(slice_of(d, n, want))
    return tuple(key)


def key_text(key: Any) -> str:
    """``key`` as it would be written inside ``[...]``."""
    def one(k: Any) -> str:
        if isinstance(k, slice):
            return ":".join("" if v is None else str(v) for v in (k.start, k.stop, k.step)).rstrip(":") or ":"
        return "..." if k is Ellipsis else str(k)
    return ", ".join(one(k) for k in key) if isinstance(key, tuple) else one(key)


class Program:
    """Arrays in NumPy (run in order) and in darray (over ``streams``); every read must agree.

    ``log`` is the program so far as Python-like lines; a mismatch shows it.
    """

    def __init__(self, streams: Sequence[da.Stream | None]) -> None:
        self.streams = list(streams)
        self.np: dict[int, np.ndarray] = {}
        self.da: dict[int, da.DArray] = {}
        self.freed: list[tuple[tuple[int, ...], np.dtype]] = []
        self.ids = 0
        self.reads = 0
        self.log: list[str] = []

    # helpers
    def on(self, d: Any) -> Any:
        s = d.choice(self.streams)
        self.where = "default" if s is None else f"s{self.streams.index(s)}"
        return contextlib.nullcontext() if s is None else s

    def pick(self, d: Any, nonempty: bool = False) -> int:
        names = sorted(n for n in self.np if not nonempty or self.np[n].size)
        return d.choice(names)

    def add(self, host: np.ndarray, dev: da.DArray, text: str) -> None:
        assert dev.shape == host.shape and dev.dtype == host.dtype, (dev.shape, dev.dtype, host.shape, host.dtype)
        self.np[self.ids] = host
        self.da[self.ids] = dev
        self.log.append(f"a{self.ids} = {text}  # {host.dtype}{list(host.shape)}")
        self.ids += 1

    def make(self, d: Any, shape: tuple[int, ...], dtype: np.dtype) -> None:
        kind = d.choice(["zeros", "full", "asarray"])
        value = d.integers(0, 100)
        with self.on(d):
            if kind == "zeros":
                host, dev = np.zeros(shape, dtype), da.zeros(shape, dtype=dtype, device=place())
                text = f"zeros({shape}, {dtype})"
            elif kind == "full":
                host, dev = np.full(shape, value, dtype), da.full(shape, value, dtype=dtype, device=place())
                text = f"full({shape}, {value}, {dtype})"
            else:
                host = (np.arange(int(np.prod(shape))).reshape(shape) * 7 + value) % 101
                host = host.astype(dtype)
                dev = da.asarray(host, device=place())
                text = f"asarray({host.tolist()}, {dtype})"
        self.add(host, dev, f"{text} on {self.where}")

    # rules
    def create(self, d: Any) -> None:
        if len(self.np) >= MAX_ARRAYS:
            return self.free(d)
        shape = tuple(d.integers(1, 9) for _ in range(d.integers(1, 2)))
        self.make(d, shape, d.choice(DTYPES))

    def realloc(self, d: Any) -> None:
        """A new array of the size of a freed one: likely the same (reused) block."""
        if not self.freed or len(self.np) >= MAX_ARRAYS:
            return self.create(d)
        shape, dtype = self.freed.pop(d.integers(0, len(self.freed) - 1))
        self.make(d, shape, dtype)

    def view(self, d: Any) -> None:
        if not self.np or len(self.np) >= MAX_ARRAYS:
            return self.create(d)
        n = self.pick(d)
        key = key_for(d, self.np[n].shape)
        self.add(self.np[n][key], self.da[n][key], f"a{n}[{key_text(key)}]")

    def copy(self, d: Any) -> None:
        if not self.np or len(self.np) >= MAX_ARRAYS:
            return self.create(d)
        n = self.pick(d)
        with self.on(d):
            self.add(self.np[n].copy(), self.da[n].copy(), f"a{n}.copy() on {self.where}")

    def astype(self, d: Any) -> None:
        if not self.np or len(self.np) >= MAX_ARRAYS:
            return self.create(d)
        n, dtype = self.pick(d), d.choice(DTYPES)
        with self.on(d):
            self.add(self.np[n].astype(dtype), self.da[n].astype(dtype), f"a{n}.astype({dtype}) on {self.where}")

    def setitem(self, d: Any) -> None:
        """target[key] = value: a scalar, a host array, or a view (maybe of the target: overlap)."""
        if not self.np:
            return self.create(d)
        t = self.pick(d)
        key = key_for(d, self.np[t].shape)
        shape = self.np[t][key].shape
        if 0 in shape:
            return
        kind = d.choice(["scalar", "host", "view", "view", "self"])
        if kind in ("view", "self") and any(a.size for a in self.np.values()):
            s = t if kind == "self" and self.np[t].size else self.pick(d, nonempty=True)
            skey = fit_key(d, self.np[s].shape, shape)
            # copy: NumPy's own overlapping 1-d assignment with two negative steps is not as-if-copied
            np_value, da_value = self.np[s][skey].copy(), self.da[s][skey]
            text = f"a{s}[{key_text(skey)}]"
        elif kind == "host":
            sub = shape[d.integers(0, len(shape)):]
            sub = tuple(1 if d.integers(0, 3) == 0 else m for m in sub)
            np_value = da_value = (np.arange(int(np.prod(sub))).reshape(sub) % 50).astype(d.choice(DTYPES))
            text = f"np.array({np_value.tolist()}, {np_value.dtype})"
        else:
            np_value = da_value = d.integers(0, 100)
            text = str(np_value)
        with self.on(d):
            self.np[t][key] = np_value
            self.da[t][key] = da_value
        self.log.append(f"a{t}[{key_text(key)}] = {text}  # on {self.where}")

    def free(self, d: Any) -> None:
        if not self.np:
            return
        n = self.pick(d)
        self.freed.append((self.np[n].shape, self.np[n].dtype))
        del self.np[n], self.da[n]
        self.log.append(f"del a{n}")

    def check(self, d: Any) -> None:
        if self.np:
            self.compare(self.pick(d))

    def compare(self, n: int) -> None:
        got, want = self.da[n].get(), self.np[n]
        self.reads += 1
        self.log.append(f"check a{n}")
        assert got.dtype == want.dtype and got.shape == want.shape, (n, got.dtype, want.dtype, got.shape, want.shape)
        np.testing.assert_array_equal(got, want, err_msg=f"array a{n} after:\n" + "\n".join(self.log))

    def check_all(self) -> None:
        for n in sorted(self.np):
            self.compare(n)

    RULES = ("create", "realloc", "view", "copy", "astype", "setitem", "setitem", "free", "check")

    def step(self, d: Any) -> None:
        getattr(self, d.choice(self.RULES))(d)


class StreamMachine(RuleBasedStateMachine):
    """Hypothesis drives ``Program`` over three streams (each rule picks one with ``with s:``)."""

    def __init__(self) -> None:
        super().__init__()
        self.prog = Program(shared_streams())

    @rule(data=st.data())
    def create(self, data):
        self.prog.create(HypothesisDraw(data))

    @rule(data=st.data())
    def realloc(self, data):
        self.prog.realloc(HypothesisDraw(data))

    @rule(data=st.data())
    def view(self, data):
        self.prog.view(HypothesisDraw(data))

    @rule(data=st.data())
    def copy(self, data):
        self.prog.copy(HypothesisDraw(data))

    @rule(data=st.data())
    def astype(self, data):
        self.prog.astype(HypothesisDraw(data))

    @rule(data=st.data())
    def setitem(self, data):
        self.prog.setitem(HypothesisDraw(data))

    @precondition(lambda self: bool(self.prog.np))
    @rule(data=st.data())
    def free(self, data):
        self.prog.free(HypothesisDraw(data))

    @precondition(lambda self: bool(self.prog.np))
    @rule(data=st.data())
    def check(self, data):
        self.prog.check(HypothesisDraw(data))

    @invariant()
    def bookkeeping_bounded(self):
        nstreams = len(sched.all_streams())
        for a in self.prog.da.values():
            alloc = a._alloc
            assert len(alloc.reads) <= nstreams

    def teardown(self):
        self.prog.check_all()


StreamMachine.TestCase.settings = settings(stateful_step_count=50, deadline=None)
test_stream_machine = StreamMachine.TestCase


def test_program_under_8_threads():
    """The machine body under 8 threads at once, each with its own arrays, sharing the 3 streams."""
    streams = shared_streams() + [None]   # None: the thread's own default stream
    errors: list[BaseException] = []
    reads = []

    def body(seed: int) -> None:
        try:
            prog = Program(streams)
            d = RandomDraw(seed)
            for _ in range(250):
                prog.step(d)
            prog.check_all()
            reads.append(prog.reads)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=body, args=(seed,)) for seed in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]
    assert len(reads) == 8 and min(reads) > 0


@pytest.mark.parametrize("seed", range(2))
def test_program_random_long(seed):
    """A long program (1000 steps) on one thread over streams and the default stream."""
    prog = Program(shared_streams() + [None])
    d = RandomDraw(1000 + seed)
    for _ in range(1000):
        prog.step(d)
    prog.check_all()


# -- use after free across streams ------------------------------------------------------------


@pytest.mark.parametrize("slow", ["spin", "queued_copies"])
def test_freed_buffer_still_read_on_other_stream_is_not_overwritten(slow):
    """Stream A still reads x when x is dropped; B's new array in x's block waits for A."""
    n = 1_000_003  # a large, odd size: a block of its own
    want = (np.arange(n) % 1009).astype(np.int32)
    A, B = da.stream(), da.stream()
    da.synchronize()
    da.alloc.empty_cache()
    x = da.asarray(want)
    block = (x._alloc.buffer.int_ptr, x._alloc.offset)
    outs = []
    with A:
        if slow == "spin":
            out = da.empty(n, dtype=np.int32)
            spin_copy(x, out, stream=A, iters=SPIN_SECONDS_ITERS // 3)
            outs.append(out)
        for _ in range(8):
            outs.append(x.copy())
    del x
    with B:
        y = da.full(n, 7, dtype=np.int32)
    assert (y._alloc.buffer.int_ptr, y._alloc.offset) == block, "the test needs y to reuse x's block"
    for o in outs:
        np.testing.assert_array_equal(o.get(), want)
    assert (y.get() == 7).all()


def test_freed_buffer_reused_by_host_upload_waits():
    """The new owner's first writer is a host upload (transfer stream): it waits too."""
    n = 1_000_033
    want = np.arange(n, dtype=np.int32)
    A = da.stream()
    da.synchronize()
    da.alloc.empty_cache()
    x = da.asarray(want)
    out = da.empty(n, dtype=np.int32)
    spin_copy(x, out, stream=A, iters=SPIN_SECONDS_ITERS // 3)
    del x
    y = da.asarray(np.full(n, -5, np.int32))
    np.testing.assert_array_equal(out.get(), want)
    assert (y.get() == -5).all()


# -- host reads, dropping, streams ---------------------------------------------------------------


def test_host_read_waits_only_for_what_it_reads():
    x = da.asarray(np.arange(64, dtype=np.int32))
    out = da.empty(64, dtype=np.int32)
    y = da.asarray(np.arange(5, dtype=np.int32))
    A = da.stream()
    entry = spin_copy(x, out, stream=A)
    t0 = time.perf_counter()
    np.testing.assert_array_equal(y.get(), np.arange(5))
    read_s = time.perf_counter() - t0
    still_running = not sched.is_done(entry)
    t0 = time.perf_counter()
    del out                                      # dropping never blocks
    drop_s = time.perf_counter() - t0
    assert still_running, f"the unrelated read took {read_s:.3f} s and the spin had finished"
    assert drop_s < 0.05
    sched.wait(entry)
    assert A.done == A.seq


def test_launch_call_orders_a_library_call_without_wait_list():
    """A call that enqueues without a wait list (as pyvkfft does) still waits for A's slow write."""
    p = place()
    n = 4096
    src = da.asarray(np.arange(n, dtype=np.int32))
    mid = da.empty(n, dtype=np.int32)
    dst = da.zeros(n, dtype=np.int32)
    A, B = da.stream(), da.stream()
    spin_copy(src, mid, stream=A, iters=SPIN_SECONDS_ITERS // 3)
    m, d = mid._alloc, dst._alloc

    def call(queue):
        cl.enqueue_copy(queue, d.buffer, m.buffer, byte_count=n * 4, src_offset=m.offset, dst_offset=d.offset)

    entry = sched.launch_call("library", call, place=p, reads=[m], writes=[d], stream=B)
    assert entry[0] is B
    np.testing.assert_array_equal(dst.get(), np.arange(n))


def test_streams_api_and_thread_defaults():
    p = place()
    s = da.stream()
    assert isinstance(s, da.Stream) and da.stream(s) is s
    with pytest.raises(TypeError):
        da.stream(3)
    with pytest.raises(ValueError):
        da.stream(place="cpu")
    main_default = sched.current_stream(p)
    assert sched.current_stream(p) is main_default
    t = da.stream()
    with da.stream(s):
        assert sched.current_stream(p) is s
        with t:
            assert sched.current_stream(p) is t
        assert sched.current_stream(p) is s
    assert sched.current_stream(p) is main_default
    seen = {}

    def other():
        seen["default"] = sched.current_stream(p)
        seen["transfer"] = sched.transfer_stream(p)
        with s:
            seen["inside"] = sched.current_stream(p)

    with s:
        th = threading.Thread(target=other)
        th.start()
        th.join()
        assert sched.current_stream(p) is s        # the other thread's with did not touch ours
    assert seen["inside"] is s
    assert seen["default"] is not main_default and seen["transfer"] is not sched.transfer_stream(p)
    assert seen["default"] is not seen["transfer"]
    with pytest.raises(RuntimeError):      # leaving a stream that is not the innermost one
        with s:
            t.__exit__(None, None, None)
    assert sched.current_stream(p) is main_default


def test_synchronize_stream_and_all():
    p = place()
    A, B = da.stream(), da.stream()
    with A:
        a = da.zeros(1000, dtype=np.int32)
        a[::2] = 5
    with B:
        b = da.full(1000, 3, dtype=np.int32)
    A.synchronize()
    assert A.done == A.seq > 0
    da.synchronize(p)
    assert all(s.done == s.seq for s in sched.all_streams())
    da.synchronize()
    assert a.get()[:4].tolist() == [5, 0, 5, 0] and b.get()[0] == 3


def test_cross_stream_wait_flushes_and_keeps_one_event_per_stream():
    p = place()
    A, B = da.stream(), da.stream()
    with A:
        xs = [da.full(10, i, dtype=np.int32) for i in range(3)]
    last_a = A.seq
    assert A.flushed < last_a or A.done >= last_a
    captured = []
    out = da.empty(10, dtype=np.int32)
    nothing = kernel("nothing")

    def enqueue(q, wf):
        captured.append(wf)
        nothing.set_args(out._alloc.buffer)
        return cl.enqueue_nd_range_kernel(q, nothing, (1,), None, wait_for=wf)

    allocs = [x._alloc for x in xs]
    sched.launch("probe", enqueue, place=p, reads=allocs, writes=[out._alloc], stream=B)
    if A.done < last_a:
        assert captured[-1] is not None and len(captured[-1]) == 1      # the latest of A implies the rest
        assert A.flushed >= last_a                                       # A was flushed before B waited on it
    A.synchronize()
    sched.launch("probe", enqueue, place=p, reads=allocs, writes=[out._alloc], stream=B)
    assert captured[-1] is None                                          # known complete: dropped
    # the same stream never waits on itself
    sched.launch("probe", enqueue, place=p, reads=[out._alloc], writes=allocs, stream=B)
    assert captured[-1] is None
    da.synchronize()


def test_host_wait_marks_the_other_streams_work_done():
    """A host read on the transfer stream that waited for A's write proves A's write complete."""
    A = da.stream()
    with A:
        x = da.full(100, 4, dtype=np.int32)
    seq = A.seq
    assert x.get()[0] == 4
    assert A.done >= seq


def test_launch_error_becomes_device_error_and_next_launch_works():
    p = place()
    out = allocate(p, 64)
    nothing = kernel("nothing")

    def bad(q, wf):
        nothing.set_args(out.buffer)
        return cl.enqueue_nd_range_kernel(q, nothing, (3,), (2,), wait_for=wf)  # 3 not a multiple of 2

    with pytest.raises(da.DeviceError):
        sched.launch("bad", bad, place=p, writes=[out])
    x = da.full(4, 1, dtype=np.int32)
    assert x.get().tolist() == [1, 1, 1, 1]


# -- no launch waits forever; bounded bookkeeping ------------------------------------------------

RANDOM_LAUNCHES = textwrap.dedent("""
    import random, threading, numpy as np, pyopencl as cl
    import darray as da
    from darray import sched
    p = da.place.parse("cl")
    enqueued, keep, bad = set(), [], []
    lock = threading.Lock()
    real_launch = sched.launch

    def checked_launch(name, enqueue, **kw):
        # every event a command waits on must come from a command enqueued before it
        def checked(q, wf):
            with lock:
                bad.extend(ev for ev in wf or () if ev.int_ptr not in enqueued)
            ev = enqueue(q, wf)
            with lock:
                enqueued.add(ev.int_ptr)
                keep.append(ev)
            return ev
        return real_launch(name, checked, **kw)

    sched.launch = checked_launch   # darray calls sched.launch through the package attribute
    sched._streams.launch = checked_launch  # and sched.launch_kernel through its module's
    real_host = sched.run_host

    def counted_host(*args, **kw):  # host copies and small graphs on host-backed devices
        real_host(*args, **kw)
        with lock:
            keep.append(None)

    sched.run_host = counted_host
    streams = [da.stream() for _ in range(3)]
    shared = [da.zeros(257, dtype=np.int32) for _ in range(6)]

    def body(seed):
        r = random.Random(seed)
        mine = [da.zeros(257, dtype=np.int32) for _ in range(3)]
        for i in range(250):
            pool = shared + mine
            s = r.choice(streams + [None])
            with (s if s is not None else sched.current_stream(p)):
                op = r.randrange(7)
                a, b = r.choice(pool), r.choice(pool)
                if op == 0:
                    a[r.randrange(257):] = b[0]
                elif op == 1:
                    mine[r.randrange(3)] = b.copy()
                elif op == 2:
                    a.get()
                elif op == 3 and a._alloc is not b._alloc:
                    x, y = a._alloc, b._alloc
                    sched.launch("copy", lambda q, wf: cl.enqueue_copy(q, x.buffer, y.buffer, byte_count=257 * 4,
                                 dst_offset=x.offset, src_offset=y.offset, wait_for=wf),
                                 place=p, reads=[y], writes=[x], stream=s)
                elif op == 4:
                    x = a._alloc
                    sched.launch("fill", lambda q, wf: cl.enqueue_fill_buffer(q, x.buffer, np.int32(i), x.offset,
                                 257 * 4, wait_for=wf), place=p, writes=[x], stream=s)
                elif op == 5:
                    mine[r.randrange(3)] = da.full(257, i, dtype=np.int32)
                else:
                    b.astype(np.float64)

    threads = [threading.Thread(target=body, args=(k,)) for k in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    da.synchronize()
    assert not bad, f"{len(bad)} waits on events never enqueued"
    print("finished", len(keep))  # commands enqueued and host runs
""")


def test_thousand_random_launches_over_streams_and_threads_finish():
    proc = subprocess.run([sys.executable, "-c", RANDOM_LAUNCHES], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "finished" in proc.stdout
    assert int(proc.stdout.split()[-1]) >= 300  # copies, fills and casts over settled host memory run at once


def test_event_bookkeeping_bounded_over_100k_launches():
    p = place()
    streams = [da.stream() for _ in range(3)]
    allocs = [allocate(p, 512) for _ in range(8)]
    k = kernel("nothing")
    k.set_args(allocs[0].buffer)
    longest_wait = [0]

    def enqueue(q, wf):
        if wf is not None and len(wf) > longest_wait[0]:
            longest_wait[0] = len(wf)
        return cl.enqueue_nd_range_kernel(q, k, (1,), None, wait_for=wf)

    r = random.Random(5)
    gc.collect()
    live_before = len(sched.all_streams())
    sizes = []
    n = 100_000
    for i in range(n):
        s = streams[r.randrange(3)]
        reads = [allocs[r.randrange(8)]]
        writes = [allocs[r.randrange(8)]] if r.randrange(2) else []
        entry = sched.launch("nothing", enqueue, place=p, reads=reads, writes=writes, stream=s)
        if i % 5000 == 4999:
            sched.wait(entry)         # the host learns something completed now and then
        if i % 25000 == 24999:
            entries = sum(len(a.reads) + (a.write is not None) for a in allocs)
            sizes.append((entries, sum(len(s.after) for s in streams)))
    da.synchronize()
    gc.collect()
    assert len(sched.all_streams()) <= live_before
    assert longest_wait[0] <= 2                        # one event per other stream at most
    for a in allocs:
        assert len(a.reads) <= 3
    for entries, after in sizes:
        assert entries <= 8 * 4 and after <= 3 * sched._streams.AFTER_LOG
    # every stream's event log has been drained by the waits/synchronize
    assert all(len(s.after) == 0 for s in streams)


def test_streams_of_finished_threads_are_released():
    gc.collect()
    before = len(sched.all_streams())

    def body():
        x = da.full(300, 2, dtype=np.int32)
        y = x.copy()
        y[::3] = 1
        assert y.get()[0] == 1

    for _ in range(10):
        th = threading.Thread(target=body)
        th.start()
        th.join()
    da.synchronize()
    gc.collect()
    assert len(sched.all_streams()) <= before + 2


# -- levels and run ------------------------------------------------------------------------------


def L(reads=(), writes=()):
    return sched.Launch("t", lambda q, wf: None, place(), tuple(reads), tuple(writes))


def test_levels_hand_written():
    a, b, c, d, x, y = (object() for _ in range(6))
    assert sched.levels([]) == []
    assert sched.levels([L(writes=[a]), L(writes=[b]), L(writes=[c])]) == [[0, 1, 2]]
    assert sched.levels([L(writes=[a]), L([a], [b]), L([b], [c])]) == [[0], [1], [2]]          # read after write
    assert sched.levels([L([a], [b]), L(writes=[a])]) == [[0], [1]]                            # write after read
    assert sched.levels([L(writes=[a]), L(writes=[a])]) == [[0], [1]]                          # write after write
    assert sched.levels([L([a], [b]), L([a], [c])]) == [[0, 1]]                                # reads commute
    assert sched.levels([L(writes=[a]), L([a], [b]), L([a], [c]), L([b, c], [d])]) == [[0], [1, 2], [3]]  # diamond
    assert sched.levels([L([a], [a]), L([a], [a])]) == [[0], [1]]                              # in place
    assert sched.levels([L(writes=[x]), L(writes=[y]), L([x], [x]), L([y], [y]), L([x, y], [d])]) == \
        [[0, 1], [2, 3], [4]]
    # a write after reads of several levels comes after the deepest of them
    assert sched.levels([L(writes=[a]), L([a], [b]), L([b], [c]), L(writes=[a]), L([c], [a])]) == \
        [[0], [1], [2, 3], [4]]
    assert sched.levels([L(writes=[a]), L([a], [b]), L([b], [c]), L(writes=[b])]) == [[0], [1], [2], [3]]


def _axpb_launch(bufs, dst, a, b, alpha, iters=2000):
    k = kernel("axpb")
    n = 64

    def enqueue(q, wf):
        d, x, y = bufs[dst], bufs[a], bufs[b]
        return k(q, (n,), None, d.buffer, d.offset // 4, x.buffer, x.offset // 4, y.buffer, y.offset // 4, alpha,
                 iters, wait_for=wf)

    reads = [bufs[a], bufs[b]]
    return sched.Launch(f"axpb{dst}", enqueue, place(), reads, [bufs[dst]], 12 * n)


def _model(ops, start):
    vals = [v.copy() for v in start]
    for dst, a, b, alpha in ops:
        vals[dst] = (vals[a] * alpha + vals[b]) % 1000
    return vals


op_lists = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.integers(0, 4)),
                    min_size=1, max_size=30)


@given(ops=op_lists)
def test_run_over_two_streams_equals_serial(ops):
    p = place()
    start = [(np.arange(64, dtype=np.int32) * (i + 1)) % 97 for i in range(6)]
    results = []
    for mode in ("serial", "run"):
        bufs = [da.asarray(v)._alloc for v in start]
        batch = [_axpb_launch(bufs, *op) for op in ops]
        if mode == "serial":
            s = da.stream()
            entries = [sched.launch(b.name, b.enqueue, place=p, reads=b.reads, writes=b.writes, stream=s)
                       for b in batch]
        else:
            streams = shared_streams()[:2]
            entries = sched.run(batch, streams)
            # levels are respected: every launch comes after what it depends on
            lv = sched.levels(batch)
            where = {i: k for k, g in enumerate(lv) for i in g}
            for i, deps in enumerate(sched.dependencies(batch)):
                assert all(where[j] < where[i] for j in deps)
                assert where[i] == 1 + max((where[j] for j in deps), default=-1)
        assert len(entries) == len(batch) and all(e is not None for e in entries)
        results.append([da.DArray(b, da.dim.Dim.contiguous((64,)), np.dtype(np.int32), p).get() for b in bufs])
    want = _model(ops, start)
    for got_serial, got_run, w in zip(results[0], results[1], want):
        np.testing.assert_array_equal(got_serial, w)
        np.testing.assert_array_equal(got_run, w)


def test_run_keeps_chains_on_their_streams():
    p = place()
    bufs = [da.zeros(64, dtype=np.int32)._alloc for _ in range(4)]
    # two independent chains: 0 -> 2 on buffers 0/2, 1 -> 3 on buffers 1/3
    batch = [_axpb_launch(bufs, 0, 0, 0, 1), _axpb_launch(bufs, 1, 1, 1, 1),
             _axpb_launch(bufs, 2, 0, 0, 2), _axpb_launch(bufs, 3, 1, 1, 2)]
    assert sched.levels(batch) == [[0, 1], [2, 3]]
    streams = [da.stream(), da.stream()]
    entries = sched.run(batch, streams)
    assert entries[0][0] is not entries[1][0]              # a level spreads over the streams
    assert entries[2][0] is entries[0][0] and entries[3][0] is entries[1][0]   # chains stay put
    with pytest.raises(ValueError):
        sched.run(batch, [])
    da.synchronize()
    assert p is not None


# -- launch overhead (measured, loosely bounded: the benchmark reports the figure) ----------------


def test_launch_overhead_is_small():
    p = place()
    rt = da.place.runtime(p)
    k = kernel("nothing")
    a, b = allocate(p, 512), allocate(p, 512)
    k.set_args(a.buffer)
    q = rt.new_queue()
    s = da.stream()
    n = 3000

    def raw() -> float:
        t = time.perf_counter()
        for _ in range(n):
            cl.enqueue_nd_range_kernel(q, k, (1,), None)
        t = time.perf_counter() - t
        q.finish()
        return t / n

    enq = lambda qq, wf: cl.enqueue_nd_range_kernel(qq, k, (1,), None, wait_for=wf)  # noqa: E731

    def via() -> float:
        t = time.perf_counter()
        for _ in range(n):
            sched.launch("nothing", enq, place=p, reads=[b], writes=[a], stream=s)
        t = time.perf_counter() - t
        s.synchronize()
        return t / n

    diffs = []
    for _ in range(5):
        diffs.append(via() - raw())
    overhead_us = sorted(diffs)[len(diffs) // 2] * 1e6
    assert overhead_us < 25, f"sched.launch costs {overhead_us:.1f} us over a raw enqueue"


# an exit hook registered before darray's runs after it (atexit is last in, first out): it prints how
# long the interpreter took from the end of the script through darray's hook
EXIT_TIMER = ("import atexit, time\n"
              "atexit.register(lambda: print('exit took', time.perf_counter() - END))\n"
              "END = float('inf')\n")


def exit_seconds(proc: subprocess.CompletedProcess) -> float:
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    return float(proc.stdout.split()[-1])


@pytest.mark.lazy_only
def test_exit_with_work_queued(cl_place, tmp_path):
    """A process that ends while kernels still run exits cleanly (darray drains the queues at exit;
    Intel's runtime crashed with SIGSEGV otherwise) and soon."""
    code = EXIT_TIMER + (f"import darray as da; x = da.ones(1 << 24, dtype=da.float32, device='{cl_place}')\n"
                         "y = da.sin(da.cos(da.sin(x * 2) + 1)).eval()\n"
                         "END = time.perf_counter()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert exit_seconds(proc) < sched._streams.SETTLE_S / 2


DAEMON_AT_EXIT = EXIT_TIMER + """
import sys, threading
import numpy as np
import darray as da

def loop(k):
    y = da.arange(200_000, dtype=np.float32, device=sys.argv[1])
    while True:
        try:
            y = (y * 0.5 + k).eval()
            float(y.sum())
            y[:3] = 1
            np.asarray(y[::7])
            da.argmax(y)
        except Exception as err:  # a darray error would show here; SystemExit ends the thread quietly
            print("error", type(err).__name__, err, file=sys.stderr)

for k in range(3):
    threading.Thread(target=loop, args=(k,), daemon=True).start()
time.sleep(float(sys.argv[2]))
END = time.perf_counter()
"""


@pytest.mark.lazy_only
def test_exit_while_daemon_threads_launch(cl_place, tmp_path):
    """Daemon threads still launching kernels, compiling and waiting when the main thread ends: the
    exit hook refuses their further work (SystemExit in those threads, quietly), drains the queues and
    waits for them to leave darray, so no thread is inside pyopencl at finalisation. Intel's runtime
    aborted (``terminate called without an active exception``, exit code -6), or the exit hung."""
    for pause in ("0", "0.05", "0.3"):  # ending during the first builds, the first launches, the loop
        proc = subprocess.run([sys.executable, "-c", DAEMON_AT_EXIT, str(cl_place), pause], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert "terminate" not in proc.stderr and "Traceback" not in proc.stderr and "error" not in proc.stderr, \
            proc.stderr[-2000:]
        assert exit_seconds(proc) < sched._streams.SETTLE_S / 2, pause
