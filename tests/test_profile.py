"""Profiler: ``with da.profile() as p:`` records launches, compiles, allocations and host waits."""
from __future__ import annotations

import json
import threading
import uuid

import numpy as np
import pytest

import darray as da
from darray import sched
from darray.place import runtime


@pytest.fixture(autouse=True)
def _needs_opencl(cl_place):
    """Every test here needs an OpenCL place (skips, or fails with DARRAY_REQUIRE_OPENCL=1)."""


def test_launches_have_name_stream_bytes_and_times(cl_place):
    A, B = da.stream(), da.stream()
    with da.profile() as p:
        with A:
            x = da.full(1000, 3, dtype=np.int32)
        with B:
            y = da.asarray(np.arange(1000, dtype=np.int32))
            z = y.copy()
            z[::2] = 0
        got = z.get()
    assert got[1] == 1 and got[0] == 0 and x.get()[0] == 3
    names = [r.name for r in p.launches]
    assert "host_to_device" in names and "device_to_host" in names
    assert {A.id, B.id} <= {r.stream for r in p.launches}
    transfer = sched.transfer_stream(cl_place).id
    for r in p.launches:
        assert r.place == str(cl_place)
        assert r.nbytes > 0
        assert r.queued <= r.start <= r.end
        assert r.seconds >= 0
        if r.name in ("host_to_device", "device_to_host"):  # a host copy on host-backed devices
            assert r.stream == (sched.HOST if runtime(cl_place).host_backed else transfer)
    on_a = [r for r in p.launches if r.stream == A.id]
    assert on_a and all(r.nbytes >= 1000 * 4 for r in on_a)


def test_nothing_recorded_outside_the_block(cl_place):
    with da.profile() as p:
        da.zeros(10, dtype=np.int32).get()
    counts = (len(p.launches), len(p.allocations), len(p.syncs))
    da.full(10, 2, dtype=np.int32).get()
    assert (len(p.launches), len(p.allocations), len(p.syncs)) == counts
    assert not sched._profile._active


def test_nested_profilers_and_other_threads(cl_place):
    with da.profile() as outer:
        with da.profile() as inner:
            th = threading.Thread(target=lambda: da.full(64, 1, dtype=np.int32).get())
            th.start()
            th.join()
        da.zeros(8, dtype=np.int32)
    assert inner.launches and len(outer.launches) > len(inner.launches)
    assert set(map(id, inner.launches)) <= set(map(id, outer.launches))


def test_compiles_record_key_seconds_and_disk_cache(cl_place, tmp_path, monkeypatch):
    monkeypatch.setenv("DARRAY_CACHE_DIR", str(tmp_path))
    rt = da.place.runtime(cl_place)
    tag = uuid.uuid4().int % 1_000_000_007
    source = f"__kernel void probe(__global int* a) {{ a[get_global_id(0)] = {tag}; }}"
    with da.profile() as p:
        rt.programs.kernel(source, "probe")
        fresh = type(rt.programs)(rt.context, rt.device, rt.programs._ident)   # a new process, as it were
        fresh.kernel(source, "probe")
    assert len(p.compiles) == 2
    built, loaded = p.compiles
    assert not built.from_disk and loaded.from_disk
    assert built.key == loaded.key and isinstance(built.key, str) and built.key
    assert built.seconds > 0 and loaded.seconds >= 0


def test_allocations_record_bytes_and_cache_hits(cl_place):
    n = 777_777  # an unusual size: its own class
    with da.profile() as p:
        a = da.empty(n, dtype=np.uint8)
        del a
        b = da.empty(n, dtype=np.uint8)
    sizes = [r for r in p.allocations if r.nbytes == n]
    assert len(sizes) == 2
    assert sizes[1].cache_hit
    assert b.size == n


def test_syncs_record_host_waits(cl_place):
    s = da.stream()
    with s:
        x = da.full(100, 5, dtype=np.int32)
    with da.profile() as p:
        assert x.get()[0] == 5
        with s:
            x[:] = 6
        s.synchronize()
    whats = [r.what for r in p.syncs]
    assert f"stream {s.id}" in whats
    # a host-backed device reads x directly, waiting (as "device_to_host") only if its fill is pending
    assert "device_to_host" in whats or runtime(cl_place).host_backed
    assert all(r.seconds >= 0 for r in p.syncs)


def test_table_summarises(cl_place):
    with da.profile() as p:
        x = da.full(2000, 1.5, dtype=np.float32)
        x.astype(np.int32).get()
    text = p.table()
    assert "device_to_host" in text and all(r.name[:40] in text for r in p.launches)
    assert "compiles:" in text and "allocations:" in text and "host waits:" in text


def test_chrome_trace_one_row_per_stream(cl_place, tmp_path):
    streams = [da.stream() for _ in range(3)]
    with da.profile() as p:
        arrays = []
        for i, s in enumerate(streams):
            with s:
                arrays.append(da.full(5000, i, dtype=np.int32))
                arrays[-1][::3] = 7
        for a in arrays:
            a.get()
    path = tmp_path / "trace.json"
    p.to_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    events = trace["traceEvents"]
    spans = [e for e in events if e["ph"] == "X"]
    assert len(spans) == len(p.launches)
    assert {e["tid"] for e in spans} == {r.stream for r in p.launches}
    assert {s.id for s in streams} <= {e["tid"] for e in spans}
    for e in spans:
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        assert e["ts"] >= 0 and e["dur"] >= 0 and e["name"]
    named = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert named == {e["tid"] for e in spans}
    assert any(e["ph"] == "M" and e["name"] == "process_name" for e in events)


def test_empty_profile_trace_and_table(tmp_path):
    p = da.profile()
    with p:
        pass
    p.to_chrome_trace(str(tmp_path / "t.json"))
    assert json.loads((tmp_path / "t.json").read_text())["traceEvents"] == []
    assert "compiles: 0" in p.table()
    assert p.overlap() == 0.0 and p.busy() == {}


def test_overlap_from_timestamps():
    """Device-free: overlap counts only time with launches of two streams running at once."""
    from darray.sched._profile import LaunchRecord, Profiler

    def rec(stream, start, end):
        return LaunchRecord("k", stream, "cl:0", 0, None, (start, start, end))

    p = Profiler()
    p.launches = [rec(1, 0, 10), rec(1, 10, 20), rec(2, 15, 40)]
    assert p.overlap() == pytest.approx(5e-9)
    assert p.busy() == {1: pytest.approx(20e-9), 2: pytest.approx(25e-9)}
    p.launches = [rec(1, 0, 10), rec(1, 5, 30)]
    assert p.overlap() == 0.0


def test_busy_and_overlap_of_two_streams(cl_place):
    A, B = da.stream(), da.stream()
    with da.profile() as p:
        xs = []
        for s in (A, B):
            with s:
                x = da.full(200_000, 1, dtype=np.int32)
                for _ in range(5):
                    x = x.copy()
                xs.append(x)
        da.synchronize()
    busy = p.busy()
    assert busy[A.id] > 0 and busy[B.id] > 0
    overlap = p.overlap()
    assert 0 <= overlap <= min(busy[A.id], busy[B.id]) + 1e-9
