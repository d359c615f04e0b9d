"""Scheduler family: the cost of one launch through ``darray.sched`` and overlap across streams.

Figures to reach (issue 3), from one run:
- scheduler overhead per launch at most 5 us over a raw ``enqueue_nd_range_kernel``;
- two independent chains on two streams vs one stream: the overlap measured from the
  profiler's timestamps (reported as it is; on 2 CPU cores it may be small).
"""
from __future__ import annotations

import statistics
import time

import numpy as np
import pyopencl as cl

import darray as da
from darray import sched
from darray.place import runtime

from .harness import Run, case

TRIVIAL_SOURCE = """
/* bench_fill(y, off, n): y[off + i] = i for i < n; a trivial kernel for launch overhead. */
__kernel void bench_fill(__global float* y, const int off, const int n)
{
    const int i = get_global_id(0);
    if (i < n) y[off + i] = (float)i;
}
"""


@case("launch_overhead")
def launch_overhead(run: Run) -> None:
    """Host time per launch of the same trivial kernel: ``sched.launch`` vs raw pyopencl."""
    place = run.place
    rt = runtime(place)
    kernel = cl.Kernel(cl.Program(rt.context, TRIVIAL_SOURCE).build(), "bench_fill")
    n = 64
    alloc = da.alloc.pool(place).allocate(n * 4)
    off = np.int32(alloc.offset // 4)
    buf = alloc.buffer

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(buf, off, np.int32(n))
        return cl.enqueue_nd_range_kernel(queue, kernel, (n,), None, wait_for=wait_for)

    stream = da.stream(place=place)
    raw_queue = rt.new_queue()
    count = run.pick(200, 100)  # per batch: PoCL slows down with many commands pending
    launch = sched.launch

    # The device must not run the kernels while the host enqueues them (on a CPU device it
    # would compete for the same cores): each batch waits behind a user event that is set
    # once the timing ends, so both sides measure host time only.
    def gated(queue: cl.CommandQueue, body) -> float:
        gate = cl.UserEvent(rt.context)
        cl.enqueue_barrier(queue, wait_for=[gate])
        t0 = time.perf_counter()
        body()
        t = time.perf_counter() - t0
        gate.set_status(cl.command_execution_status.COMPLETE)
        queue.finish()
        return t / count

    def darray_body() -> None:
        for _ in range(count):
            launch("bench_fill", enqueue, place=place, writes=[alloc], stream=stream)

    def raw_body() -> None:
        for _ in range(count):
            enqueue(raw_queue, None)

    def darray_batch() -> float:
        stream.synchronize()
        t = gated(stream.queue, darray_body)
        stream.synchronize()
        return t

    def raw_batch() -> float:
        return gated(raw_queue, raw_body)

    darray_batch(), raw_batch()  # warm-up
    t_da, t_raw = [], []
    for _ in range(run.pick(21, 5)):  # alternate, so both see the same machine load
        t_da.append(darray_batch())
        t_raw.append(raw_batch())
    da_us, raw_us = statistics.median(t_da) * 1e6, statistics.median(t_raw) * 1e6
    out = np.empty(n, np.float32)
    cl.enqueue_copy(raw_queue, out, buf, src_offset=alloc.offset).wait()
    if not np.array_equal(out, np.arange(n, dtype=np.float32)):
        raise AssertionError("bench_fill wrote wrong values")
    run.figure("raw_us", raw_us, "us", label="raw set_args + enqueue_nd_range_kernel (host)")
    run.note("launch_overhead: host time per launch, enqueued behind a user event (the device idle while timing)")
    run.figure("darray_us", da_us, "us", label="sched.launch of the same (host)")
    run.figure("overhead_us", da_us - raw_us, "us", label="scheduler overhead per launch", target="<= 5")
    run.ratio("darray/raw", da_us / raw_us, label="sched.launch / raw enqueue (time)")


@case("stream_overlap")
def stream_overlap(run: Run) -> None:
    """Two independent chains of copies, on two streams vs on one; overlap from profiler timestamps."""
    place = run.place
    n = run.pick(8 << 20, 1 << 20)
    steps = run.pick(8, 4)
    a = da.full((n,), 1.0, dtype="float32", device=place)
    b = da.full((n,), 2.0, dtype="float32", device=place)
    s1, s2 = da.stream(place=place), da.stream(place=place)

    def chains(sa: da.Stream, sb: da.Stream) -> tuple:
        xa, xb = a, b
        for _ in range(steps):
            with sa:
                xa = xa.copy().eval()
            with sb:
                xb = xb.copy().eval()
        return xa, xb

    def measure(sa: da.Stream, sb: da.Stream) -> tuple[float, float, float]:
        da.synchronize()
        with da.profile() as p:
            t0 = time.perf_counter()
            xa, xb = chains(sa, sb)
            da.synchronize()
            wall = time.perf_counter() - t0
        span = (max(r.end for r in p.launches) - min(r.start for r in p.launches)) * 1e-9
        frac = p.overlap() / span if span else 0.0
        if xa.get()[-1] != 1.0 or xb.get()[-1] != 2.0:
            raise AssertionError("a chain returned wrong values")
        return wall, frac, span

    measure(s1, s2)  # warm-up (kernel build, pool)
    one, two = [], []
    for _ in range(run.pick(5, 2)):
        one.append(measure(s1, s1))
        two.append(measure(s1, s2))
    med = lambda rows, i: statistics.median(r[i] for r in rows)  # noqa: E731
    run.figure("one_stream_ms", med(one, 0) * 1e3, "ms",
               label=f"2 chains x {steps} copies of {n >> 20}M float32, 1 stream")
    run.figure("two_streams_ms", med(two, 0) * 1e3, "ms", label="the same on 2 streams")
    run.figure("overlap_fraction", med(two, 1), "", label="2 streams: share of the span with both running")
    run.figure("one_stream_overlap_fraction", med(one, 1), "", label="1 stream: the same (0 by construction)")
    run.ratio("speedup", med(one, 0) / med(two, 0), label="2 streams / 1 stream (speed)")
