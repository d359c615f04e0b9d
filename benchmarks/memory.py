"""Memory family: the device's copy bandwidth, the caching allocator, host <-> device transfers.

Figures to reach (issue 2), all from one run:
- pooled allocate+free of 1 MiB at most 1/10 of a raw ``cl.Buffer`` create+release (out of
  reach from Python on PoCL, whose create+release is 0.3 us because it allocates at first
  use; the pool's cached path is about 1 us);
- 1000 iterations allocating and freeing the same sizes create no device buffer after the
  first iteration (``device_allocations`` flat, ``cache_hits`` growing);
- host-to-device and device-to-host of 64 MiB at least 0.8x ``np.copyto``'s bandwidth
  (device-to-host into an existing array, ``x.get(out=)``; into a new array it is compared
  with ``host.copy()``, which pays the same page faults);
- device-to-host of 64 MiB into a new array at least 0.8x a raw read into a pinned buffer
  on devices whose memory is not host memory (issue 19: on a discrete GPU darray reads into
  a pinned staging buffer and returns it; elsewhere the ratio is reported without a target).
"""
from __future__ import annotations

import statistics
import time

import numpy as np
import pyopencl as cl

import darray as da
from darray.place import runtime

from .harness import Run, case, compare, device_seconds

COPY_SOURCE = """
/* bench_copy(x, y): y[i] = x[i] for every work-item i; the device's copy bandwidth. */
__kernel void bench_copy(__global const float* x, __global float* y)
{
    const size_t i = get_global_id(0);
    y[i] = x[i];
}
"""

TOUCH_SOURCE = """
/* bench_touch(y, off): y[off] = 1; the smallest first use of a buffer. */
__kernel void bench_touch(__global float* y, const int off)
{
    y[off] = 1.0f;
}
"""


class RawCopy:
    """A plain pyopencl copy kernel ``y[i] = x[i]`` over ``n`` float32, on its own queue."""

    def __init__(self, place, n: int) -> None:
        rt = runtime(place)
        self.n = n
        self.queue = rt.new_queue()
        self.kernel = cl.Kernel(cl.Program(rt.context, COPY_SOURCE).build(), "bench_copy")
        mf = cl.mem_flags
        self.x = cl.Buffer(rt.context, mf.READ_WRITE, n * 4)
        self.y = cl.Buffer(rt.context, mf.READ_WRITE, n * 4)
        cl.enqueue_fill_buffer(self.queue, self.x, np.float32(1.5), 0, n * 4).wait()
        self.kernel.set_args(self.x, self.y)
        self.seconds()  # warm-up

    def seconds(self) -> float:
        """Device seconds of one copy (OpenCL profiling)."""
        ev = cl.enqueue_nd_range_kernel(self.queue, self.kernel, (self.n,), None)
        ev.wait()
        return (ev.profile.end - ev.profile.start) * 1e-9

    def gbps(self, seconds: float) -> float:
        return 2 * self.n * 4 / seconds / 1e9

    def release(self) -> None:
        self.queue.finish()
        self.x.release()
        self.y.release()


def device_copy_bandwidth(run: Run) -> float:
    """GB/s of a plain pyopencl copy kernel ``y[i] = x[i]`` over 32M float32 (4M with --quick).

    The device's bandwidth limit, measured once per run and shared as
    ``run.shared["copy_GBps"]``; later families report effective bandwidth against it.
    """
    if "copy_GBps" not in run.shared:
        raw = RawCopy(run.place, run.pick(32 << 20, 4 << 20))
        try:
            run.shared["copy_GBps"] = raw.gbps(statistics.median(raw.seconds() for _ in range(run.pick(7, 3))))
        finally:
            raw.release()
    return run.shared["copy_GBps"]


@case("copy_bandwidth")
def copy_bandwidth(run: Run) -> None:
    """A copy of 32M float32: raw kernel, darray ``x.copy()``, pyopencl.array, ``np.copyto``."""
    n = run.pick(32 << 20, 4 << 20)
    nbytes = 2 * n * 4  # read + write
    repeat = run.pick(7, 3)
    host = np.full(n, 1.5, np.float32)
    x = da.asarray(host, device=run.place)
    raw_copy = RawCopy(run.place, n)
    raw_s, dev_s = [], []
    try:
        for _ in range(repeat):  # in turns, so load hits both alike
            raw_s.append(raw_copy.seconds())
            dev_s.append(device_seconds(lambda: x.copy().eval(), repeat=1, warmup=1 if not dev_s else 0))
    finally:
        raw_copy.release()
    dev = statistics.median(dev_s)
    raw = run.shared["copy_GBps"] = raw_copy.gbps(statistics.median(raw_s))
    run.figure("raw_kernel_GBps", raw, "GB/s", label="raw pyopencl copy kernel (device time)")
    y = x.copy().eval()
    if not np.array_equal(y.get()[:: max(1, n // 4096)], host[:: max(1, n // 4096)]):
        raise AssertionError("darray copy returned wrong values")
    del y
    dst = np.empty_like(host)
    fns = {"darray": lambda: x.copy().eval(), "numpy": lambda: np.copyto(dst, host)}
    try:
        import pyopencl.array as cla
    except ImportError:  # pragma: no cover - ships with pyopencl
        run.note("pyopencl.array not importable: no comparison")
    else:
        queue = runtime(run.place).new_queue()
        xa = cla.to_device(queue, host)

        def pa_copy() -> None:
            xa.copy()
            queue.finish()

        fns["pyopencl.array"] = pa_copy
    t = compare(fns, repeat=repeat, sync=["darray"])
    wall = t["darray"]
    run.figure("darray_kernel_GBps", nbytes / dev / 1e9, "GB/s", label="darray x.copy() (device time)")
    run.figure("darray_wall_GBps", nbytes / wall / 1e9, "GB/s", label="darray x.copy() (wall, synchronized)")
    run.figure("numpy_copyto_GBps", nbytes / t["numpy"] / 1e9, "GB/s", label="np.copyto (host)")
    if "pyopencl.array" in t:
        run.figure("pyopencl_array_GBps", nbytes / t["pyopencl.array"] / 1e9, "GB/s",
                   label="pyopencl.array copy (wall)")
    run.ratio("darray_kernel/raw_kernel", (nbytes / dev / 1e9) / raw,
              label="darray copy / raw copy kernel (bandwidth)")
    run.ratio("darray/numpy", t["numpy"] / wall, label="darray copy / np.copyto (speed)")
    if "pyopencl.array" in t:
        run.ratio("darray/pyopencl_array", t["pyopencl.array"] / wall,
                  label="darray copy / pyopencl.array copy (speed)")


@case("pooled_alloc_1MiB")
def pooled_alloc(run: Run) -> None:
    """Pooled allocate+free of 1 MiB vs a raw ``cl.Buffer`` create+release (and both with a first use)."""
    place = run.place
    rt = runtime(place)
    pool = da.alloc.pool(place)
    size = 1 << 20
    number = run.pick(5000, 1000)
    repeat = run.pick(7, 3)
    mf = cl.mem_flags

    def pooled() -> None:
        a = pool.allocate(size)
        del a

    def raw() -> None:
        cl.Buffer(rt.context, mf.READ_WRITE, size).release()

    def public() -> None:
        a = da.empty(size // 4, dtype="float32", device=place)
        del a

    t = compare({"pooled": pooled, "raw": raw, "public": public}, number=number, repeat=repeat)
    t_pool, t_raw, t_pub = t["pooled"], t["raw"], t["public"]
    run.figure("pooled_us", t_pool * 1e6, "us", label="pool.allocate(1 MiB) + free")
    run.figure("darray_empty_us", t_pub * 1e6, "us", label="da.empty(1 MiB) + drop")
    run.figure("raw_us", t_raw * 1e6, "us", label="cl.Buffer(1 MiB) create + release")
    run.ratio("pooled/raw", t_pool / t_raw, label="pooled / raw create+release (time)", target="<= 0.1")

    # Some drivers (PoCL) allocate a buffer's memory lazily, at its first use: compare with
    # a one-element kernel writing into the block too, so the raw side pays for real memory.
    queue = rt.new_queue()
    kernel = cl.Kernel(cl.Program(rt.context, TOUCH_SOURCE).build(), "bench_touch")
    fixed = cl.Buffer(rt.context, mf.READ_WRITE, size)
    n_use = run.pick(500, 200)

    def touch(buf: cl.Buffer, off: int) -> None:
        kernel.set_args(buf, np.int32(off))
        cl.enqueue_nd_range_kernel(queue, kernel, (1,), None)

    def use_only() -> None:
        touch(fixed, 0)

    def raw_use() -> None:
        b = cl.Buffer(rt.context, mf.READ_WRITE, size)
        touch(b, 0)
        b.release()

    def pooled_use() -> None:
        a = pool.allocate(size)
        touch(a.buffer, a.offset // 4)
        del a

    def batch(fn):
        def run_batch() -> None:
            for _ in range(n_use):
                fn()
            queue.finish()  # the device work is part of each side's time, alike
        return run_batch

    t = compare({"use": batch(use_only), "raw": batch(raw_use), "pooled": batch(pooled_use)}, repeat=repeat)
    t_use, t_raw_use, t_pool_use = (t[k] / n_use for k in ("use", "raw", "pooled"))
    queue.finish()
    fixed.release()
    run.figure("first_use_us", t_use * 1e6, "us", label="one-element kernel on a kept buffer")
    run.figure("raw_with_use_us", t_raw_use * 1e6, "us", label="create + one-element kernel + release")
    run.figure("pooled_with_use_us", t_pool_use * 1e6, "us", label="pool.allocate + one-element kernel + free")
    raw_cost = t_raw_use - t_use
    if raw_cost > 0.05 * t_use:  # else a difference of two noisy timings: no meaningful ratio
        run.ratio("pooled/raw_with_use", max(t_pool_use - t_use, 0.0) / raw_cost,
                  label="same, first use subtracted: pooled / raw (time)")
    else:
        run.note(f"create + release is within the kernel's noise with a first use "
                 f"({raw_cost * 1e6:+.2f} us over {t_use * 1e6:.2f} us): no first-use ratio")


@case("alloc_steady_state")
def alloc_steady_state(run: Run) -> None:
    """1000 iterations allocating and freeing the same sizes: no new device buffer after the first."""
    place = run.place
    sizes = [64, 1000, 16 << 10, 256 << 10, 1 << 20, 3 << 20, 16 << 20]  # bytes
    iterations = run.pick(1000, 200)

    def one() -> None:
        arrays = [da.empty(max(1, s // 4), dtype="float32", device=place) for s in sizes]
        arrays.append(da.zeros((64, 64), dtype="float32", device=place))  # a kernel touches one of them
        del arrays

    da.synchronize()
    da.alloc.empty_cache(place)  # start cold, so the first iteration creates what it needs
    s0 = da.alloc.stats(place)
    one()
    s1 = da.alloc.stats(place)
    t0 = time.perf_counter()
    for _ in range(iterations - 1):
        one()
    t = (time.perf_counter() - t0) / max(1, iterations - 1)
    s2 = da.alloc.stats(place)
    run.figure("iterations", iterations, "")
    run.figure("device_allocations_before", s0["device_allocations"], "", label="device_allocations before")
    run.figure("device_allocations_after_first_iteration", s1["device_allocations"], "",
               label="device_allocations after the first iteration")
    run.figure("device_allocations_end", s2["device_allocations"], "", label="device_allocations at the end")
    run.figure("device_allocations_after_first", s2["device_allocations"] - s1["device_allocations"], "",
               label="device buffers created after the first iteration", target="<= 0")
    hits = s2["cache_hits"] - s1["cache_hits"]
    allocs = s2["allocations"] - s1["allocations"]
    run.figure("cache_hits_growth", hits, "", label="cache hits after the first iteration")
    run.figure("iteration_us", t * 1e6, "us", label=f"one iteration ({len(sizes) + 1} arrays)")
    run.ratio("cache_hit_rate", hits / allocs if allocs else float("nan"),
              label="cache hits / allocations after the first iteration", target=">= 1")
    run.note(f"device_allocations {s0['device_allocations']} -> {s1['device_allocations']} (first iteration) -> "
             f"{s2['device_allocations']} (end); cache_hits {s1['cache_hits']} -> {s2['cache_hits']}")


@case("transfer_64MiB")
def transfers(run: Run) -> None:
    """Host-to-device (``da.asarray``) and device-to-host (``x.get()``) of 64 MiB vs ``np.copyto``.

    Apples to apples: ``x.get(out=dst)`` (into an existing array) against ``np.copyto``, and
    ``x.get()`` (into a new array, which pays its page faults) against ``host.copy()``, and
    against a raw ``cl.enqueue_copy`` into an already-mapped pinned (``ALLOC_HOST_PTR``) buffer,
    the link rate on a discrete GPU.
    """
    place = run.place
    nbytes = run.pick(64 << 20, 16 << 20)
    repeat = run.pick(9, 3)
    host = np.arange(nbytes // 4, dtype=np.float32)
    dst = np.empty_like(host)
    got = np.empty_like(host)
    x = da.asarray(host, device=place)
    rt = runtime(place)
    queue = rt.new_queue()
    mf = cl.mem_flags
    x_buffer = cl.Buffer(rt.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    pinned_buffer = cl.Buffer(rt.context, mf.READ_WRITE | mf.ALLOC_HOST_PTR, nbytes)
    pinned, _ = cl.enqueue_map_buffer(queue, pinned_buffer, cl.map_flags.READ | cl.map_flags.WRITE, 0, (nbytes,),
                                      np.uint8, is_blocking=True)
    try:
        t = compare({"copyto": lambda: np.copyto(dst, host), "copy": lambda: host.copy(),
                     "h2d": lambda: da.asarray(host, device=place), "d2h": lambda: x.get(out=got),
                     "d2h_new": lambda: x.get(),
                     "pinned": lambda: cl.enqueue_copy(queue, pinned, x_buffer, is_blocking=True)},
                    repeat=repeat, sync=["h2d"])
        if not (np.array_equal(x.get(), host) and np.array_equal(got, host)
                and np.array_equal(pinned.view(np.float32), host)):
            raise AssertionError("transfer round trip changed the values")
    finally:
        pinned.base.release(queue).wait()
        pinned_buffer.release()
        x_buffer.release()
    t_np, t_np_new, t_h2d, t_d2h, t_d2h_new = t["copyto"], t["copy"], t["h2d"], t["d2h"], t["d2h_new"]
    gb = nbytes / 1e9
    run.figure("numpy_copyto_GBps", gb / t_np, "GB/s", label="np.copyto (into an existing array)")
    run.figure("numpy_copy_GBps", gb / t_np_new, "GB/s", label="host.copy() (into a new array)")
    run.figure("h2d_GBps", gb / t_h2d, "GB/s", label="da.asarray(host) host -> device")
    run.figure("d2h_GBps", gb / t_d2h, "GB/s", label="x.get(out=dst) device -> host (existing array)")
    run.figure("d2h_new_GBps", gb / t_d2h_new, "GB/s", label="x.get() device -> host (new array)")
    run.figure("pinned_GBps", gb / t["pinned"], "GB/s", label="raw read into a pinned buffer")
    run.ratio("h2d/copyto", t_np / t_h2d, label="host -> device / np.copyto", target=">= 0.8")
    run.ratio("d2h/copyto", t_np / t_d2h, label="device -> host (existing array) / np.copyto", target=">= 0.8")
    run.ratio("d2h_new/numpy_copy", t_np_new / t_d2h_new, label="device -> host (new array) / host.copy()",
              target=">= 0.8")
    staged = not rt.info.host_unified_memory  # host memory: the read is a host copy, not DMA, and is not staged
    run.ratio("d2h_new/pinned", t["pinned"] / t_d2h_new, label="device -> host (new array) / pinned read",
              target=">= 0.8" if staged else None)
