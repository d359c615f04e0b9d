"""Benchmark harness: timing helpers, the case registry, one table, and the JSON report.

A case is a function registered with :func:`case`; it receives a :class:`Run` and records
figures (measured values with a unit) and ratios (quotients of figures measured in the same
run), each optionally with a target such as ``">= 0.8"``. ``python -m darray bench`` runs
every registered case, prints one table and, with ``--json``, writes every figure.

Timing: :func:`timeit` runs a callable after warm-up calls and returns the median of the
repeats (seconds per call); ``sync=True`` waits for all device work inside the timing.
:func:`device_seconds` reads the OpenCL profiling timestamps of what a callable launched.
Every ratio against NumPy, scipy or pyopencl.array is taken by wall time with darray's work
finished (:func:`compare` with ``sync``, or a :func:`loop` synchronized at its end), as a user
sees it; device times only feed bandwidth figures.
"""
from __future__ import annotations

import gc
import importlib
import json
import math
import os
import platform
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Target", "Result", "Run", "case", "registry", "timeit", "compare", "loop", "device_seconds", "run_cases",
           "format_table", "report_json"]


# -- timing ------------------------------------------------------------------------------
def _sync() -> None:
    import darray as da

    da.synchronize()


def _warmed() -> None:
    """After a warm-up: its device work done and the programs it queued built (a call whose kernel
    was still building ran on the host engine meanwhile)."""
    import darray as da

    da.synchronize()
    da.place.finish_builds()


def timeit(fn: Callable[[], Any], *, warmup: int = 1, repeat: int = 5, number: int = 1,
           sync: bool = False, setup: Callable[[], Any] | None = None) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` timings of ``number`` calls each.

    ``warmup`` calls run first (kernel builds, pool growth). ``sync=True`` waits for all
    device work before each timing starts and before it ends. ``setup`` runs before each
    timing, outside it. The garbage collector is off while timing.
    """
    for _ in range(warmup):
        fn()
    _warmed()
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            if setup is not None:
                setup()
            if sync:
                _sync()
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            if sync:
                _sync()
            times.append((time.perf_counter() - t0) / number)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(times)


def compare(fns: dict[str, Callable[[], Any]], *, warmup: int = 1, repeat: int = 5, number: int = 1,
            sync: Iterable[str] = ()) -> dict[str, float]:
    """Median seconds per call of each of ``fns``, timed in turns (a, b, c, a, b, c, ...).

    Interleaving makes the machine's load hit every contender alike, so the ratios of one
    call hold even when absolute times drift. Names in ``sync`` wait for the device.
    """
    sync = set(sync)
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    _warmed()
    times: dict[str, list[float]] = {k: [] for k in fns}
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for k, fn in fns.items():
                s = k in sync
                if s:
                    _sync()
                t0 = time.perf_counter()
                for _ in range(number):
                    fn()
                if s:
                    _sync()
                times[k].append((time.perf_counter() - t0) / number)
    finally:
        if enabled:
            gc.enable()
    return {k: statistics.median(v) for k, v in times.items()}


def loop(body: Callable[[], Any], count: int, finish: Callable[[], Any] = _sync) -> Callable[[], None]:
    """A callable that runs ``body`` ``count`` times, then ``finish`` (default: wait for darray's
    device work): a loop timed as a user sees it, synchronized once at its end."""
    def run() -> None:
        for _ in range(count):
            body()
        finish()
    return run


class NothingLaunched(RuntimeError):
    """:func:`device_seconds` of work that launched no command (the host engine ran it)."""


def device_seconds(fn: Callable[[], Any], *, repeat: int = 5, warmup: int = 1,
                   name: str | None = None) -> float:
    """Median device time (OpenCL profiling: first start to last end) of what ``fn`` launches.

    ``name`` keeps only the launches whose name contains it (e.g. a kernel, not the transfers).
    Work run on the host instead (``sched.HOST``, host clock times) is left out.
    """
    import darray as da

    for _ in range(warmup):
        fn()
    _warmed()
    spans = []
    for _ in range(repeat):
        with da.profile() as p:
            fn()
            _sync()
        recs = [r for r in p.launches if (name is None or name in r.name) and r.stream != da.sched.HOST]
        if not recs:
            raise NothingLaunched(f"device_seconds: nothing launched{' named ' + name if name else ''}")
        spans.append((max(r.end for r in recs) - min(r.start for r in recs)) * 1e-9)
    return statistics.median(spans)


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """A bound a figure or ratio should reach: ``">= 0.8"`` or ``"<= 5"``."""

    op: str
    value: float

    @classmethod
    def parse(cls, text: str | Target) -> Target:
        if isinstance(text, Target):
            return text
        op, _, num = text.strip().partition(" ")
        if op not in (">=", "<=") or not num:
            raise ValueError(f"bench target: expected '>= X' or '<= X', got {text!r}")
        return cls(op, float(num))

    def met(self, value: float) -> bool:
        if value is None or math.isnan(value):
            return False
        return value >= self.value if self.op == ">=" else value <= self.value

    def __str__(self) -> str:
        return f"{self.op} {self.value:g}"


@dataclass
class Result:
    """What one case measured."""

    name: str
    family: str
    figures: dict[str, float] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    ratios: dict[str, float] = field(default_factory=dict)
    targets: dict[str, Target] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    skipped: str | None = None

    @property
    def key(self) -> str:
        return f"{self.family}.{self.name}"

    def met(self) -> dict[str, bool]:
        out = {}
        for k, t in self.targets.items():
            v = self.ratios.get(k, self.figures.get(k))
            out[k] = t.met(v) if v is not None else False
        return out

    def as_dict(self) -> dict[str, Any]:
        met = self.met()
        return {
            "name": self.name, "family": self.family, "seconds": round(self.seconds, 3),
            "figures": self.figures, "units": self.units, "ratios": self.ratios,
            "targets": {k: {"op": t.op, "value": t.value, "met": met[k]} for k, t in self.targets.items()},
            "labels": self.labels, "notes": self.notes, "error": self.error, "skipped": self.skipped,
        }


class Skip(Exception):
    """Raised by a case that cannot run here (e.g. no OpenCL device)."""


class Run:
    """What a case gets: the run's settings, shared reference figures, and the recorder."""

    def __init__(self, *, quick: bool, place: Any, result: Result, shared: dict[str, Any]) -> None:
        self.quick = quick
        self.place = place
        self.result = result
        self.shared = shared  # reference figures measured once per run (e.g. the copy bandwidth)

    def pick(self, full: Any, quick: Any) -> Any:
        """``full`` normally, ``quick`` under ``--quick``."""
        return quick if self.quick else full

    def figure(self, key: str, value: float, unit: str = "", *, label: str | None = None,
               target: str | None = None) -> float:
        value = float(value)
        self.result.figures[key] = value
        self.result.units[key] = unit
        if label:
            self.result.labels[key] = label
        if target:
            self.result.targets[key] = Target.parse(target)
        return value

    def ratio(self, key: str, value: float, *, label: str | None = None, target: str | None = None) -> float:
        value = float(value)
        self.result.ratios[key] = value
        if label:
            self.result.labels[key] = label
        if target:
            self.result.targets[key] = Target.parse(target)
        return value

    def note(self, text: str) -> None:
        self.result.notes.append(text)

    def skip(self, why: str) -> None:
        raise Skip(why)


# -- registry ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CaseDef:
    name: str
    family: str
    fn: Callable[[Run], None]
    needs_opencl: bool = True

    @property
    def key(self) -> str:
        return f"{self.family}.{self.name}"


_registry: list[CaseDef] = []


def case(name: str, *, family: str | None = None, needs_opencl: bool = True) -> Callable:
    """Register ``fn(run)`` as a benchmark case (family: the defining module's last name)."""

    def deco(fn: Callable[[Run], None]) -> Callable[[Run], None]:
        fam = family or fn.__module__.rsplit(".", 1)[-1]
        if any(c.name == name and c.family == fam for c in _registry):
            return fn  # module imported twice (e.g. as a script): keep the first
        _registry.append(CaseDef(name, fam, fn, needs_opencl))
        return fn

    return deco


FAMILIES = ["memory", "scheduler", "numeric", "linalg", "manipulation", "indexing", "sorting", "numpy_api", "random",
            "fft", "sparse", "dask_chunks", "loops", "kernels", "eager", "numpy_loops", "programs"]


def load_families() -> None:
    """Import every family module (which registers its cases)."""
    for name in FAMILIES:
        importlib.import_module(f"{__package__}.{name}")


def registry() -> list[CaseDef]:
    """Every registered case, after importing every family module."""
    load_families()
    return list(_registry)


def versus(run: Run, key: str, mine, theirs, target: str | None, what: str) -> None:
    """Device time of ``mine`` (a DArray) and the wall-clock ratio against NumPy's ``theirs``, timed in turns:
    ``{key}_ms`` and ``darray/numpy`` (its ``target``, e.g. ``">= 1"``)."""
    try:
        dev = device_seconds(lambda: mine().eval(), repeat=run.pick(5, 3))
        run.figure(f"{key}_ms", dev * 1e3, "ms", label=f"{what} (device time)")
    except NothingLaunched:  # the host engine computed it: no device time to report
        run.note(f"{what}: no kernel launched (the host engine computed it)")
    t = compare({"darray": lambda: mine().get(), "numpy": theirs}, repeat=run.pick(5, 3), sync=["darray"])
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label=f"{what}: speed vs NumPy (wall, same run)",
              target=target)


# -- running ----------------------------------------------------------------------------------
def run_cases(cases: Iterable[CaseDef], *, quick: bool, place: Any, echo: Callable[[str], None] | None = None,
              shared: dict[str, Any] | None = None, progress: Any = None) -> list[Result]:
    """Run ``cases`` in order; an exception becomes the case's ``error`` and the rest go on.
    ``echo`` gets a line per case as it starts; ``progress`` (a tqdm bar) gets its name and a tick."""
    from darray.place import CLPlace

    shared = {} if shared is None else shared
    out = []
    for c in cases:
        res = Result(c.name, c.family)
        t0 = time.perf_counter()
        if echo:
            echo(f"  {c.key} ...")
        if progress is not None:
            progress.set_description(c.key)
        try:
            if c.needs_opencl and not isinstance(place, CLPlace):
                raise Skip(f"needs an OpenCL place, the default is {place}")
            c.fn(Run(quick=quick, place=place, result=res, shared=shared))
        except Skip as why:
            res.skipped = str(why)
        except Exception as err:  # a failing case is reported, the suite goes on
            res.error = f"{type(err).__name__}: {err}"
            res.notes.append(traceback.format_exc(limit=4))
        finally:
            gc.collect()
            try:
                _sync()
            except Exception:
                pass
        res.seconds = time.perf_counter() - t0
        out.append(res)
        if progress is not None:
            progress.update(1)
    return out


def _fmt(v: float) -> str:
    if v is None or math.isnan(v):
        return "nan"
    a = abs(v)
    if a == 0:
        return "0"
    if float(v).is_integer() and a < 1e6:
        return str(int(v))
    if a >= 1e5 or a < 1e-3:
        return f"{v:.3g}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}" if a < 1 else f"{v:.2f}"


def format_table(results: list[Result]) -> str:
    """One table: per case its figures, then its ratios with their targets."""
    rows: list[tuple[str, str, str, str, str]] = []
    for r in results:
        head = r.key
        if r.skipped:
            rows.append((head, f"skipped: {r.skipped}", "", "", ""))
            continue
        if r.error:
            rows.append((head, f"ERROR {r.error}", "", "", ""))
            continue
        met = r.met()
        for k, v in r.figures.items():
            t = r.targets.get(k)
            rows.append((head, r.labels.get(k, k), f"{_fmt(v)} {r.units.get(k, '')}".rstrip(),
                         str(t) if t else "", ("ok" if met[k] else "MISSED") if t else ""))
            head = ""
        for k, v in r.ratios.items():
            t = r.targets.get(k)
            rows.append((head, r.labels.get(k, k), f"{_fmt(v)}x",
                         str(t) if t else "", ("ok" if met[k] else "MISSED") if t else ""))
            head = ""
    titles = ("case", "figure", "value", "target", "")
    widths = [max(len(t), *(len(row[i]) for row in rows)) if rows else len(t) for i, t in enumerate(titles)]
    widths[1] = min(widths[1], 60)

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join([cells[0].ljust(widths[0]), cells[1][:60].ljust(widths[1]), cells[2].rjust(widths[2]),
                          cells[3].ljust(widths[3]), cells[4]]).rstrip()

    out = [line(titles), "  ".join("-" * w for w in widths[:4]) + "  ------"]
    out += [line(row) for row in rows]
    return "\n".join(out)


def describe(place: Any) -> str:
    """The place, and for a device its name, platform, driver and kernel form (``cl:0 (AMD EPYC;
    Intel(R) OpenCL, driver 2026.22.10.0; kernel form item)``)."""
    import darray as da

    if not isinstance(place, da.CLPlace):
        return str(place)
    d = da.place.devices()[place.index]
    return f"{place} ({d.name}; {d.platform}, driver {d.driver}; kernel form {d.form})"


def environment(place: Any) -> dict[str, Any]:
    """The machine and device the figures come from."""
    import numpy as np
    import pyopencl as cl

    import darray as da

    env: dict[str, Any] = {
        "darray": da.__version__, "python": sys.version.split()[0], "numpy": np.__version__,
        "pyopencl": cl.VERSION_TEXT, "machine": platform.machine(), "cpus": os.cpu_count(),
        "place": str(place),
    }
    from darray.place import CLPlace

    if isinstance(place, CLPlace):
        env["device"] = da.place.get_device_properties(place.index)
    return env


def report_json(results: list[Result], *, place: Any, quick: bool, seconds: float) -> dict[str, Any]:
    missed = [f"{r.key}:{k}" for r in results for k, ok in r.met().items() if not ok and not r.error]
    return {
        "environment": environment(place), "quick": quick, "seconds": round(seconds, 2),
        "cases": {r.key: r.as_dict() for r in results},
        "errors": [r.key for r in results if r.error],
        "targets_missed": missed,
        "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def write_json(path: str, data: dict[str, Any]) -> None:
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False, default=str)
        f.write("\n")
