"""The caching allocator: reuse, stats, split and merge, zero size, out of memory, threads."""
from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
from helpers import assert_same, run_threads

import darray as da
from darray.alloc import CLASS, Pool, parse_bytes, round_class
from darray.alloc._sizes import segment_size
from darray.place import runtime

KiB, MiB = 1024, 1024 * 1024
STAT_KEYS = {"in_use_bytes", "cached_bytes", "peak_bytes", "allocations", "cache_hits", "device_allocations"}


@pytest.fixture
def fresh_pool(cl_place):
    """A private pool on the OpenCL place, so other tests' blocks cannot serve its requests."""
    p = Pool(runtime(cl_place))
    yield p
    p.empty_cache()


def settled(place) -> dict:
    gc.collect()
    return da.alloc.stats(place)


def test_round_class_and_parse_bytes():
    assert CLASS == 512
    assert [round_class(n) for n in (1, 511, 512, 513, 4096, 5000)] == [512, 512, 512, 1024, 4096, 5120]
    assert parse_bytes("1000") == 1000
    assert parse_bytes("64MB") == parse_bytes("64mib") == parse_bytes(" 64 M ") == 64 * MiB
    assert parse_bytes("2GiB") == 2 * 1024 * MiB and parse_bytes("1.5KB") == 1536 and parse_bytes("7b") == 7
    for bad in ("", "lots", "-5MB", "12XB", "1e9"):
        with pytest.raises(ValueError, match="DARRAY_MEMORY_LIMIT"):
            parse_bytes(bad)


def test_stats_fields(cl_place):
    s0 = settled(cl_place)
    assert STAT_KEYS <= set(s0) and s0["place"] == str(cl_place)
    assert s0["cached_bytes"] == s0["reserved_bytes"] - s0["in_use_bytes"] >= 0
    x = da.empty((1000,), dtype=da.float32, device=cl_place)  # 4000 bytes -> one 4096-byte class
    s1 = da.alloc.stats(cl_place)
    assert s1["allocations"] == s0["allocations"] + 1
    assert s1["in_use_bytes"] == s0["in_use_bytes"] + 4096
    assert s1["peak_bytes"] >= s1["in_use_bytes"] and s1["peak_bytes"] >= s0["peak_bytes"]
    assert s1["cache_hits"] + s1["device_allocations"] - s0["cache_hits"] - s0["device_allocations"] == 1
    del x
    s2 = settled(cl_place)
    assert s2["in_use_bytes"] == s0["in_use_bytes"] and s2["frees"] == s1["frees"] + 1
    assert s2["cached_bytes"] >= 4096 and s2["peak_bytes"] == s1["peak_bytes"]
    assert da.alloc.stats()["place"] == str(da.place.current())


def test_stats_cpu_place():
    s0 = da.alloc.stats("cpu")
    assert STAT_KEYS <= set(s0)
    x = da.zeros((256,), device="cpu")
    s1 = da.alloc.stats("cpu")
    assert s1["allocations"] == s0["allocations"] + 1 and s1["in_use_bytes"] == s0["in_use_bytes"] + 2048
    del x
    assert settled("cpu")["in_use_bytes"] == s0["in_use_bytes"]
    da.alloc.empty_cache("cpu")


def test_reuse_is_flat_over_1000_iterations(cl_place):
    sizes = [(17,), (1000,), (64, 64), (300_000,)]
    for shape in sizes:  # first iteration: whatever the pool needs
        da.empty(shape, dtype=da.float32, device=cl_place)
    s0 = settled(cl_place)
    for _ in range(1000):
        arrays = [da.empty(shape, dtype=da.float32, device=cl_place) for shape in sizes]
        del arrays
    s1 = settled(cl_place)
    assert s1["device_allocations"] == s0["device_allocations"]
    assert s1["cache_hits"] - s0["cache_hits"] == 4000
    assert s1["allocations"] - s0["allocations"] == 4000
    assert s1["in_use_bytes"] == s0["in_use_bytes"] and s1["reserved_bytes"] == s0["reserved_bytes"]


def test_same_size_is_a_cache_hit(fresh_pool):
    a = fresh_pool.allocate(10_000)
    assert fresh_pool.stats()["device_allocations"] == 1 and a.nbytes == 10_000
    buf, off = a.buffer, a.offset
    del a
    b = fresh_pool.allocate(10_000)
    s = fresh_pool.stats()
    assert s["device_allocations"] == 1 and s["cache_hits"] == 1 and s["allocations"] == 2
    assert (b.buffer, b.offset) == (buf, off)


def test_small_blocks_split_and_merge(fresh_pool):
    quarter = 512 * KiB
    blocks = [fresh_pool.allocate(quarter) for _ in range(4)]  # exactly one 2 MiB segment
    s = fresh_pool.stats()
    assert s["device_allocations"] == 1 and s["segments"] == 1 and s["cached_bytes"] == 0
    assert len({b.buffer.int_ptr for b in blocks}) == 1
    assert sorted(b.offset for b in blocks) == [0, quarter, 2 * quarter, 3 * quarter]
    blocks[0] = blocks[3] = None  # two free quarters, not adjacent: no 1 MiB block yet
    assert fresh_pool.stats()["cached_bytes"] == 2 * quarter
    c = fresh_pool.allocate(MiB)
    assert fresh_pool.stats()["device_allocations"] == 2  # had to grow
    del c
    fresh_pool.empty_cache()  # releases the second, now wholly free segment only
    assert fresh_pool.stats()["segments"] == 1
    blocks[1] = None  # quarters 0 and 1 merge into one free half
    d = fresh_pool.allocate(MiB)
    s = fresh_pool.stats()
    assert s["device_allocations"] == 2 and d.offset == 0 and d.buffer.int_ptr == blocks[2].buffer.int_ptr
    del d, blocks
    s = fresh_pool.stats()
    assert s["in_use_bytes"] == 0 and s["cached_bytes"] == 2 * MiB
    many = [fresh_pool.allocate(CLASS) for _ in range(4096)]  # the whole merged segment, 512 bytes at a time
    assert fresh_pool.stats()["device_allocations"] == 2
    del many
    assert fresh_pool.allocate(MiB).offset == 0  # everything merged back into one block
    assert fresh_pool.stats()["device_allocations"] == 2


def test_large_blocks_split_and_merge(fresh_pool):
    big = fresh_pool.allocate(8 * MiB)
    assert fresh_pool.stats()["device_allocations"] == 1
    del big
    a = fresh_pool.allocate(3 * MiB)
    b = fresh_pool.allocate(5 * MiB)
    s = fresh_pool.stats()
    assert s["device_allocations"] == 1 and s["cache_hits"] == 2
    assert a.buffer.int_ptr == b.buffer.int_ptr and {a.offset, b.offset} == {0, 3 * MiB}
    del a, b
    c = fresh_pool.allocate(8 * MiB)
    assert fresh_pool.stats()["device_allocations"] == 1 and c.offset == 0
    del c
    fresh_pool.empty_cache()
    s = fresh_pool.stats()
    assert s["reserved_bytes"] == 0 and s["segments"] == 0 and s["cached_bytes"] == 0


def test_small_requests_never_take_large_blocks(fresh_pool):
    big = fresh_pool.allocate(4 * MiB)
    del big
    small = fresh_pool.allocate(1000)
    assert fresh_pool.stats()["device_allocations"] == 2
    assert small.nbytes == 1000


def test_empty_cache_keeps_blocks_in_use(cl_place, fresh_pool):
    a = fresh_pool.allocate(1000)
    fresh_pool.empty_cache()
    s = fresh_pool.stats()
    assert s["segments"] == 1 and s["in_use_bytes"] == 1024
    del a
    fresh_pool.empty_cache()
    assert fresh_pool.stats()["reserved_bytes"] == 0
    x = da.arange(1000, dtype=da.int32, device=cl_place)
    da.alloc.empty_cache(cl_place)
    assert_same(x, np.arange(1000, dtype=np.int32))
    assert settled(cl_place)["in_use_bytes"] >= 4000


def test_too_large_for_the_device(fresh_pool):
    limit = fresh_pool.rt.info.max_alloc_bytes
    with pytest.raises(MemoryError, match="largest single allocation"):
        fresh_pool.allocate(limit + 1)
    assert fresh_pool.allocate(100).nbytes == 100


def test_zero_size_allocates_nothing(any_place):
    s0 = settled(any_place)
    arrays = [da.zeros((0, 5), device=any_place), da.empty((3, 0), dtype=da.int8, device=any_place),
              da.asarray(np.ones((0,)), device=any_place), da.ones((2, 0, 2), device=any_place).copy()]
    s1 = da.alloc.stats(any_place)
    assert s1["allocations"] == s0["allocations"] and s1["in_use_bytes"] == s0["in_use_bytes"]
    for x in arrays:
        assert x.size == 0 and x.get().size == 0
        x[...] = 1
        assert x.astype(da.int32).shape == x.shape and x.nbytes == 0
    if isinstance(any_place, da.CLPlace):
        assert arrays[0]._alloc.buffer is None and arrays[0]._alloc.nbytes == 0


def test_freed_block_reused_while_a_kernel_reads_it(cl_place):
    """A block freed with pending work is handed out again only behind that work."""
    n = 1 << 20
    for i in range(20):
        x = da.full((n,), i, dtype=da.int32, device=cl_place)
        y = x.copy()  # reads x on the compute stream
        del x
        z = da.full((n,), -1, dtype=da.int32, device=cl_place)  # may get x's block
        assert int(y[n - 1]) == i and int(y[0]) == i
        assert int(z[n // 2]) == -1


def test_threads_allocate_and_free_at_once(cl_place):
    s0 = settled(cl_place)
    errors: list[str] = []
    start = threading.Barrier(8)

    def work(tid: int) -> None:
        try:
            start.wait(30)
            for it in range(25):
                value = tid * 1000 + it
                n = 1000 + 37 * tid + it
                x = da.full((n,), value, dtype=da.int32, device=cl_place)
                extra = [da.empty((CLASS * (k + 1),), dtype=da.uint8, device=cl_place) for k in range(3)]
                got = x.get()
                if got.shape != (n,) or not (got == value).all():
                    errors.append(f"thread {tid} iteration {it}: {np.unique(got)[:5]} instead of {value}")
                del x, extra
        except Exception as err:  # reported below
            errors.append(f"thread {tid}: {type(err).__name__}: {err}")

    run_threads(work, 8)
    assert not errors, errors[:5]
    s1 = settled(cl_place)
    assert s1["allocations"] - s0["allocations"] >= 8 * 25 * 4
    assert s1["in_use_bytes"] == s0["in_use_bytes"]
    assert da.full((3,), 5, device=cl_place).get().tolist() == [5.0, 5.0, 5.0]


# -- the per-size stacks of freed blocks ----------------------------------------------------


class _FakeStream:
    """Stands in for a sched.Stream in a pending entry: an id and how many commands completed."""

    def __init__(self, sid: int, done: int) -> None:
        self.id, self.done = sid, done


def test_stack_reuse_is_lifo_and_leaves_the_free_lists_alone(fresh_pool):
    a, b, c = (fresh_pool.allocate(3000) for _ in range(3))  # one 3072-byte class
    where = {id(x): (x.buffer.int_ptr, x.offset) for x in (a, b, c)}
    wa, wb, wc = where[id(a)], where[id(b)], where[id(c)]
    free_lists = list(fresh_pool.free_small)
    del a, c, b  # stack: a, c, b (b on top)
    assert [(blk.buffer.int_ptr, blk.offset) for blk in fresh_pool.cached[3072]] == [wa, wc, wb]
    assert fresh_pool.free_small == free_lists  # nothing merged or listed
    s0 = fresh_pool.stats()
    got = [fresh_pool.allocate(n) for n in (2561, 3000, 3072)]  # all round to 3072
    assert [(x.buffer.int_ptr, x.offset) for x in got] == [wb, wc, wa]
    s1 = fresh_pool.stats()
    assert s1["cache_hits"] - s0["cache_hits"] == 3 and s1["device_allocations"] == s0["device_allocations"]
    assert s1["in_use_bytes"] == 3 * 3072 and fresh_pool.cached[3072] == []
    other = fresh_pool.allocate(4000)  # another class: not served from the 3072 stack
    assert (other.buffer.int_ptr, other.offset) not in {wa, wb, wc}


def test_stacked_blocks_merge_before_the_pool_grows(fresh_pool):
    small = [fresh_pool.allocate(64 * KiB) for _ in range(32)]  # exactly one 2 MiB segment
    assert fresh_pool.stats()["device_allocations"] == 1
    del small  # 32 stacked blocks of 64 KiB, not merged
    assert len(fresh_pool.cached[64 * KiB]) == 32 and not fresh_pool.free_small
    half = fresh_pool.allocate(MiB)  # no stack of its class, no free block: merge, then it fits
    assert fresh_pool.stats()["device_allocations"] == 1 and half.offset == 0
    assert not fresh_pool.cached and [b.size for _, b in fresh_pool.free_small] == [MiB]
    del half
    fresh_pool.empty_cache()  # stacked blocks are merged and released too
    s = fresh_pool.stats()
    assert s["reserved_bytes"] == 0 and s["segments"] == 0 and not fresh_pool.cached


def test_unsplit_large_block_is_stacked_under_its_request(fresh_pool):
    a = fresh_pool.allocate(4 * MiB)
    del a
    fresh_pool.empty_cache()
    b = fresh_pool.allocate(3 * MiB + 512 * KiB)  # a 4 MiB segment; the 512 KiB rest is not split off
    s = fresh_pool.stats()
    assert s["in_use_bytes"] == 4 * MiB and s["reserved_bytes"] == 4 * MiB
    where = (b.buffer.int_ptr, b.offset)
    del b
    assert fresh_pool.stats()["in_use_bytes"] == 0
    c = fresh_pool.allocate(3 * MiB + 512 * KiB)  # same request: straight from its stack
    assert (c.buffer.int_ptr, c.offset) == where and fresh_pool.stats()["in_use_bytes"] == 4 * MiB


def test_pending_entries_travel_through_the_stack(fresh_pool):
    busy, idle = _FakeStream(7, done=3), _FakeStream(8, done=10)
    a = fresh_pool.allocate(1000)
    a.reads = {7: (busy, 5, "read-event"), 8: (idle, 9, "done-event")}
    a.write = (busy, 4, "write-event")
    del a
    b = fresh_pool.allocate(1000)
    assert b.reads == {7: (busy, 5, "read-event")}  # the later entry of stream 7; stream 8's is complete
    b.reads, b.write = {}, (busy, 6, "write-event-2")
    del b
    c = fresh_pool.allocate(1000)
    assert c.reads == {7: (busy, 6, "write-event-2")}
    c.reads = {}


def test_frees_while_the_lock_is_taken_are_deferred(fresh_pool):
    a, b = fresh_pool.allocate(1000), fresh_pool.allocate(1000)
    wa = (a.buffer.int_ptr, a.offset)
    with fresh_pool.lock:  # another thread, or a nested call, holds the pool
        del a
        assert len(fresh_pool.deferred) == 1 and fresh_pool.in_use == 2048
    assert fresh_pool.stats()["in_use_bytes"] == 1024 and not fresh_pool.deferred  # drained
    c = fresh_pool.allocate(1000)
    assert (c.buffer.int_ptr, c.offset) == wa
    with fresh_pool.lock:
        del b
    d = fresh_pool.allocate(1000)  # drains first, then takes b's block from the stack
    s = fresh_pool.stats()
    assert s["frees"] == 2 and s["in_use_bytes"] == 2048 and not fresh_pool.deferred
    del c, d


def test_threads_never_share_a_block(fresh_pool):
    """Threads allocating and freeing the same classes at once: no block is handed out twice."""
    live: dict[tuple[int, int], int] = {}
    live_lock = threading.Lock()
    errors: list[str] = []
    start = threading.Barrier(6)

    def work(tid: int) -> None:
        try:
            start.wait(30)
            for it in range(400):
                held = [fresh_pool.allocate(n) for n in (512, 3000, 70_000, (1 + (it + tid) % 4) * 512)]
                with live_lock:
                    for x in held:
                        key = (x.buffer.int_ptr, x.offset)
                        if key in live:
                            errors.append(f"thread {tid}: block {key} also held by thread {live[key]}")
                        live[key] = tid
                with live_lock:
                    for x in held:
                        del live[(x.buffer.int_ptr, x.offset)]
                del held, x
        except Exception as err:  # reported below
            errors.append(f"thread {tid}: {type(err).__name__}: {err}")

    run_threads(work, 6)
    assert not errors, errors[:5]
    s = fresh_pool.stats()
    assert s["in_use_bytes"] == 0 and s["allocations"] == 6 * 400 * 4 and s["frees"] == s["allocations"]
    assert s["cache_hits"] + s["device_allocations"] == s["allocations"]
    grown = s["device_allocations"]
    assert fresh_pool.allocate(MiB).nbytes == MiB  # everything merges back: an existing segment fits it
    assert fresh_pool.stats()["device_allocations"] == grown


# -- out of memory (subprocesses: the limit is read when a place's pool is created) ------------

OOM_SCRIPT = """
import gc, darray as da
place = da.place.parse("cl")
MiB = 1024 * 1024
a = da.empty((40 * MiB,), dtype=da.uint8, device=place)
try:
    b = da.empty((40 * MiB,), dtype=da.uint8, device=place)
except MemoryError as err:
    print("ERR", err)
else:
    print("NO ERROR")
s = da.alloc.stats(place)
print("STATS", s["in_use_bytes"], s["limit_bytes"], s["oom_retries"])
a[...] = 3
print("STILL", int(a[12345]))
del a
b = da.empty((40 * MiB,), dtype=da.uint8, device=place)
b[...] = 7
print("AFTER", int(b[-1]), da.alloc.stats(place)["in_use_bytes"])
del b  # cached now: the next request must release the cache and retry
c = da.full((50 * MiB,), 1, dtype=da.uint8, device=place)
s = da.alloc.stats(place)
print("RETRY", int(c[0]), s["oom_retries"], s["reserved_bytes"])
"""


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def test_out_of_memory_then_recovery(cl_place):
    proc = run_python(OOM_SCRIPT, DARRAY_MEMORY_LIMIT="64MB")
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    err = lines["ERR"]
    for part in ("requested 41943040 bytes", "in use 41943040", "cached 0", "limit 67108864", str(cl_place)):
        assert part in err, err
    assert lines["STATS"].split() == ["41943040", "67108864", "1"]
    assert lines["STILL"] == "3"
    assert lines["AFTER"].split() == ["7", "41943040"]
    retry = lines["RETRY"].split()
    assert retry[:2] == ["1", "2"] and int(retry[2]) <= 64 * 1024 * 1024


def test_memory_limit_formats(cl_place):
    code = "import darray as da; print(da.alloc.stats(da.place.parse('cl'))['limit_bytes'])"
    for text, want in (("1000000", 1000000), ("0.5GiB", 512 * MiB), ("512MB", 512 * MiB)):
        proc = run_python(code, DARRAY_MEMORY_LIMIT=text)
        assert proc.returncode == 0, proc.stderr
        assert int(proc.stdout) == want
    proc = run_python(code, DARRAY_MEMORY_LIMIT="plenty")
    assert proc.returncode != 0 and "DARRAY_MEMORY_LIMIT" in proc.stderr


# -- a small limit (in-process: a private pool with its own limit) ------------------------------


@pytest.fixture
def small_pool(cl_place):
    """A private pool capped at 8 MiB."""
    p = Pool(runtime(cl_place), limit=8 * MiB)
    yield p
    p.empty_cache()


def consistent(pool: Pool) -> dict:
    """The pool's stats, checked against its segments and its per-thread counts."""
    s = pool.stats()
    assert s["in_use_bytes"] + s["cached_bytes"] == s["reserved_bytes"] <= s["limit_bytes"], s
    assert s["reserved_bytes"] == sum(seg.size for seg in pool.segments) and s["segments"] == len(pool.segments)
    with pool.lock:
        assert sum(pool.holders().values()) == s["in_use_bytes"]
    return s


def test_segment_size_scales_with_a_small_limit():
    assert segment_size(8 * MiB) == 256 * KiB and segment_size(9 * MiB) == 256 * KiB  # a power of two
    assert segment_size(16 * MiB) == 512 * KiB
    assert segment_size(64 * MiB) == segment_size(1 << 40) == 2 * MiB
    assert segment_size(100 * KiB) == segment_size(0) == 64 * KiB
    assert parse_bytes("8MiB") == parse_bytes("8 MiB") == parse_bytes("8mb") == 8 * MiB


def test_small_limit_is_usable_up_to_its_size(small_pool):
    arrays = [small_pool.allocate(n) for n in (3 * MiB, MiB, 100 * KiB, 2 * MiB + 1)]
    scratch = small_pool.allocate(64 * KiB)  # an internal block left in use, as a reduction's scratch
    s = consistent(small_pool)
    assert s["cached_bytes"] < 512 * KiB  # segments close to the requests, not rounded to 2 MiB
    del arrays
    big = small_pool.allocate(7 * MiB)  # releases the free segments: only the scratch's small one stays
    s = consistent(small_pool)
    assert s["in_use_bytes"] == 7 * MiB + 64 * KiB and s["reserved_bytes"] == 7 * MiB + 256 * KiB
    assert s["oom_retries"] == 1 and s["oom_waits"] == 0
    for request in (2 * MiB, 9 * MiB):  # over what is left, over the limit itself
        with pytest.raises(MemoryError) as err:
            small_pool.allocate(request)
        for part in (f"requested {request} bytes", f"in use {7 * MiB + 64 * KiB}", "cached 196608",
                     "limit 8388608", str(small_pool.rt.place)):
            assert part in str(err.value), str(err.value)
        assert "waited" not in str(err.value)  # no other thread holds memory: no wait
        consistent(small_pool)
    del big
    again = small_pool.allocate(7 * MiB + 512 * KiB)  # the next call works
    assert again.nbytes == 7 * MiB + 512 * KiB and consistent(small_pool)["in_use_bytes"] == 7 * MiB + 576 * KiB
    del again, scratch
    small_pool.empty_cache()
    assert consistent(small_pool)["reserved_bytes"] == 0 and not small_pool.holders()


def _holder(pool: Pool, nbytes: int, hold: threading.Event, then: int = 0) -> tuple[threading.Thread, list]:
    """A thread that allocates ``nbytes`` and keeps them until ``hold`` is set (then, with
    ``then``, requests that many bytes more before it frees everything); its results in the list."""
    out: list = []
    took = threading.Event()

    def run() -> None:
        try:
            blocks = [pool.allocate(nbytes)]
            took.set()
            if then:
                blocks.append(pool.allocate(then))
                out.append(blocks[-1].nbytes)
            hold.wait(30)
            blocks.clear()
        except MemoryError as err:  # reported in ``out``
            out.append(err)
        finally:
            took.set()

    t = threading.Thread(target=run)
    t.start()
    assert took.wait(30)
    return t, out


def test_a_failed_request_waits_for_another_threads_frees(small_pool):
    hold = threading.Event()
    t, _ = _holder(small_pool, 6 * MiB, hold)
    threading.Timer(0.2, hold.set).start()
    start = time.monotonic()
    got = small_pool.allocate(4 * MiB)  # fits only once the other thread has freed its 6 MiB
    assert time.monotonic() - start >= 0.15 and got.nbytes == 4 * MiB
    t.join(30)
    s = consistent(small_pool)
    assert s["oom_waits"] == 1 and s["in_use_bytes"] == 4 * MiB


def test_the_wait_is_bounded(small_pool):
    small_pool.wait_s = 0.3
    hold = threading.Event()
    t, _ = _holder(small_pool, 6 * MiB, hold)
    start = time.monotonic()
    with pytest.raises(MemoryError, match=r"requested 4194304 bytes.*waited [0-9.]+ s") as err:
        small_pool.allocate(4 * MiB)
    waited = float(re.search(r"waited ([0-9.]+) s", str(err.value)).group(1))
    assert waited >= 0.3 - 0.05 and time.monotonic() - start >= 0.3  # a loaded machine may wait longer
    assert "in use 6291456" in str(err.value)
    hold.set()
    t.join(30)
    assert small_pool.allocate(4 * MiB).nbytes == 4 * MiB  # the next call works
    assert consistent(small_pool)["oom_waits"] == 1


def test_threads_that_all_wait_do_not_wait_for_each_other(small_pool):
    """A thread waiting for memory frees nothing: a request that only waiting threads could
    serve fails at once, and its caller's free lets the waiting thread go on."""
    mine = small_pool.allocate(3 * MiB)
    hold = threading.Event()
    t, out = _holder(small_pool, 4 * MiB, hold, then=3 * MiB)  # waits: this thread holds 3 MiB
    deadline = time.monotonic() + 30
    while not small_pool.waiting and time.monotonic() < deadline:
        time.sleep(0.01)
    assert small_pool.waiting
    with pytest.raises(MemoryError) as err:
        small_pool.allocate(3 * MiB)
    assert "waited" not in str(err.value)
    del mine  # the waiting thread gets its 3 MiB now
    hold.set()
    t.join(30)
    assert out == [3 * MiB]
    s = consistent(small_pool)
    assert s["in_use_bytes"] == 0 and s["oom_waits"] == 1


LIMIT_SCRIPT = """
import gc, numpy as np, darray as da
place = da.place.parse("cl")
MiB = 1024 * 1024
def consistent():
    s = da.alloc.stats(place)
    assert s["in_use_bytes"] + s["cached_bytes"] == s["reserved_bytes"] <= s["limit_bytes"], s
    return s
arrays = [da.ones(n, dtype=da.float32, device=place) for n in (MiB // 4, MiB // 2, 300_000)]
total = float(arrays[1].sum())                  # a reduction: its scratch block stays
small = (arrays[0][:100] * 2 + 1).get()         # a small op
consistent()
del arrays
gc.collect()
big = da.full((7 * MiB,), 3, dtype=da.uint8, device=place)
print("BIG", int(big[-1]), total, small[-1])
print("STATS", *(consistent()[k] for k in ("in_use_bytes", "reserved_bytes", "limit_bytes")))
try:
    da.empty((2 * MiB,), dtype=da.uint8, device=place)
except MemoryError as err:
    print("ERR", err)
print("NEXT", float(da.ones(1000, device=place).sum()), int(big[123]))
del big
again = da.full((7 * MiB,), 5, dtype=da.uint8, device=place)
print("AGAIN", int(again[-1]), consistent()["in_use_bytes"] - 7 * MiB)
"""


def test_a_7_mib_array_fits_an_8_mib_limit(cl_place):
    proc = run_python(LIMIT_SCRIPT, DARRAY_MEMORY_LIMIT="8MiB")
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    assert lines["BIG"].split() == ["3", str(float(MiB // 2)), "3.0"]
    in_use, reserved, limit = map(int, lines["STATS"].split())
    assert limit == 8 * MiB and 7 * MiB < in_use <= reserved <= limit
    for part in ("requested 2097152 bytes", "in use", "cached", "limit 8388608 bytes"):
        assert part in lines["ERR"], lines["ERR"]
    assert lines["NEXT"].split() == ["1000.0", "3"]
    again, extra = lines["AGAIN"].split()
    assert again == "5" and 0 < int(extra) < MiB  # the internal blocks, well under a segment of 2 MiB
