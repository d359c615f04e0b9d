"""Profiler: ``with da.profile() as p:`` records launches, compiles, allocations and host waits.

Recording costs nothing while no profiler is active. Launch times come from OpenCL
profiling events and are read when first asked for (after the work completed).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..place._exit import check
from ..place._programs import on_compile

_active: list[Profiler] = []
_lock = threading.Lock()


@dataclass
class LaunchRecord:
    """One enqueued command (kernel, copy, fill or transfer): name, stream id, place, bytes moved.

    ``queued``/``start``/``end`` are OpenCL profiling timestamps in ns; reading one waits
    for the command to complete. Work run on the calling thread instead (``sched.run_host``)
    has stream id -1 and host clock times (``time.perf_counter_ns``), which OpenCL's need not share.
    """

    name: str
    stream: int
    place: str
    nbytes: int
    event: Any = field(repr=False)
    _times: tuple[int, int, int] | None = field(default=None, repr=False)

    def _read(self) -> tuple[int, int, int]:
        if self._times is None:
            check("profiler")
            self.event.wait()
            prof = self.event.profile
            self._times = (prof.queued, prof.start, prof.end)
            self.event = None  # the times are all we need: let OpenCL release the event
        return self._times

    @property
    def queued(self) -> int:
        """OpenCL queued timestamp (ns)."""
        return self._read()[0]

    @property
    def start(self) -> int:
        return self._read()[1]

    @property
    def end(self) -> int:
        return self._read()[2]

    @property
    def seconds(self) -> float:
        q, s, e = self._read()
        return (e - s) * 1e-9


@dataclass(frozen=True)
class CompileRecord:
    key: str
    seconds: float
    from_disk: bool


@dataclass(frozen=True)
class AllocationRecord:
    nbytes: int
    cache_hit: bool


@dataclass(frozen=True)
class SyncRecord:
    what: str
    seconds: float


class Profiler:
    """Collects what happened inside its ``with`` block, from every thread."""

    def __init__(self) -> None:
        self.launches: list[LaunchRecord] = []
        self.compiles: list[CompileRecord] = []
        self.allocations: list[AllocationRecord] = []
        self.syncs: list[SyncRecord] = []

    def __enter__(self) -> Profiler:
        with _lock:
            _active.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        with _lock:
            _active.remove(self)

    def table(self) -> str:
        """A summary per launch name: count, device time, bytes and bandwidth; then compiles and waits."""
        rows: dict[str, list[float]] = {}
        for r in self.launches:
            row = rows.setdefault(r.name, [0, 0.0, 0])
            row[0] += 1
            row[1] += r.seconds
            row[2] += r.nbytes
        lines = [f"{'launch':<40} {'count':>6} {'device ms':>10} {'MB':>10} {'GB/s':>8}"]
        for name, (n, sec, nb) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
            gbs = nb / sec / 1e9 if sec > 0 else 0.0
            lines.append(f"{name[:40]:<40} {n:>6} {sec * 1e3:>10.3f} {nb / 1e6:>10.2f} {gbs:>8.2f}")
        disk = sum(c.from_disk for c in self.compiles)
        lines.append(f"compiles: {len(self.compiles)} ({disk} from disk cache), "
                     f"{sum(c.seconds for c in self.compiles) * 1e3:.1f} ms")
        hits = sum(a.cache_hit for a in self.allocations)
        lines.append(f"allocations: {len(self.allocations)} ({hits} cache hits)")
        builds = [s.seconds for s in self.syncs if s.what == "build"]
        lines.append(f"host waits: {len(self.syncs)}, {sum(s.seconds for s in self.syncs) * 1e3:.3f} ms "
                     f"({len(builds)} for builds, {sum(builds) * 1e3:.3f} ms)")
        return "\n".join(lines)

    def to_chrome_trace(self, path: str) -> None:
        """Write a Chrome/Perfetto trace (JSON ``traceEvents``): one process per place, one row (tid) per stream.

        Times are the OpenCL profiling timestamps in microseconds from the first launch queued.
        """
        events: list[dict[str, Any]] = []
        t0 = min((r.queued for r in self.launches), default=0)
        pids: dict[str, int] = {}
        tids: set[tuple[int, int]] = set()
        for r in self.launches:
            pid = pids.setdefault(r.place, len(pids) + 1)
            if (pid, r.stream) not in tids:
                tids.add((pid, r.stream))
                events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": r.stream,
                               "args": {"name": f"stream {r.stream}"}})
            q, s, e = r._read()
            events.append({"name": r.name, "cat": "launch", "ph": "X", "pid": pid, "tid": r.stream,
                           "ts": (s - t0) / 1e3, "dur": max(e - s, 0) / 1e3,
                           "args": {"bytes": r.nbytes, "queued_us": (q - t0) / 1e3}})
        for place, pid in pids.items():
            events.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": place}})
        with open(path, "w") as f:
            json.dump({"traceEvents": events, "displayTimeUnit": "ns"}, f)

    def busy(self) -> dict[int, float]:
        """Seconds each stream spent executing (the union of its launches' start..end)."""
        out: dict[int, float] = {}
        for sid, spans in self._spans().items():
            out[sid] = _union(spans) * 1e-9
        return out

    def overlap(self) -> float:
        """Seconds during which launches of two or more different streams executed at once."""
        edges: list[tuple[int, int, int]] = []
        for sid, spans in self._spans().items():
            for s, e in _merge(spans):
                edges.append((s, 1, sid))
                edges.append((e, -1, sid))
        edges.sort(key=lambda t: (t[0], t[1]))
        active, last, total = 0, 0, 0
        for t, d, _ in edges:
            if active >= 2:
                total += t - last
            active += d
            last = t
        return total * 1e-9

    def _spans(self) -> dict[int, list[tuple[int, int]]]:
        spans: dict[int, list[tuple[int, int]]] = {}
        for r in self.launches:
            _, s, e = r._read()
            spans.setdefault(r.stream, []).append((s, e))
        return spans


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def _union(spans: list[tuple[int, int]]) -> int:
    return sum(e - s for s, e in _merge(spans))


def profile() -> Profiler:
    """A new profiler; use it as ``with da.profile() as p:``."""
    return Profiler()


def record_launch(name: str, stream: int, place: str, nbytes: int, event: Any) -> None:
    if _active:
        rec = LaunchRecord(name, stream, place, nbytes, event)
        for p in _active:
            p.launches.append(rec)


def record_host(name: str, stream: int, place: str, nbytes: int, start: int, end: int) -> None:
    if _active:
        rec = LaunchRecord(name, stream, place, nbytes, None, (start, start, end))
        for p in _active:
            p.launches.append(rec)


def record_compile(key: str, seconds: float, from_disk: bool) -> None:
    if _active:
        rec = CompileRecord(key, seconds, from_disk)
        for p in _active:
            p.compiles.append(rec)


def record_build_wait(seconds: float) -> None:
    if _active:
        rec = SyncRecord("build", seconds)
        for p in _active:
            p.syncs.append(rec)


on_compile(record_compile, record_build_wait)  # the program cache (darray.place, below) reports its builds here


def record_allocation(nbytes: int, cache_hit: bool) -> None:
    if _active:
        rec = AllocationRecord(nbytes, cache_hit)
        for p in _active:
            p.allocations.append(rec)


class timed_sync:
    """Context manager that records a host wait when a profiler is active."""

    __slots__ = ("what", "t0")

    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        if _active:
            rec = SyncRecord(self.what, time.perf_counter() - self.t0)
            for p in _active:
                p.syncs.append(rec)
