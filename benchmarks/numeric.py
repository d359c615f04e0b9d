"""Numeric core and lazy fusion (issues 4 and 5): elementwise, reductions, chains, op overhead.

Figures to reach, all from one run on the pip PoCL device:
- ``a + b`` 16M float32: >= 0.9x the copy bandwidth (3 arrays moved), 1.5x NumPy, 20x pyopencl.array;
- ``sin(x)`` 16M float32: >= 1.5x NumPy;
- full ``sum`` of 16M float32: >= 0.8x copy bandwidth and 1.3x ``np.sum``; sum over axis 0 and
  axis 1 of 4096x4096: >= 0.7x copy bandwidth;
- ``a*b + c*d - e/2`` 16M: >= 0.9x copy bandwidth, 3x NumPy, 2x eager darray, 50x pyopencl.array,
  one launch; with ``sin(d)``: 2x NumPy;
- ``(a * b).sum()`` 16M: >= 0.8x the bandwidth of reading two arrays;
- recording one lazy op <= 5 us; a 10-op chain on 1000 elements, evaluated, <= 0.2x
  pyopencl.array's time (eager ``a + b`` on 1000 elements against pyopencl.array: ``loops.add_1k``). On
  host-backed CPU devices such small graphs run through NumPy on the calling thread
  (``darray.lazy.host``); the eager op is also timed with that path off, through a kernel.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da
from darray.lazy import host
from darray.place import runtime

from .harness import Run, case, compare, device_seconds, loop
from .memory import device_copy_bandwidth


def _pyopencl(run: Run, *hosts: np.ndarray):
    """(queue, arrays) on pyopencl.array, or None when it is not importable."""
    try:
        import pyopencl.array as cla
    except ImportError:  # pragma: no cover
        return None
    queue = runtime(run.place).new_queue()
    return queue, [cla.to_device(queue, h) for h in hosts]


def _inputs(run: Run, count: int, n: int) -> tuple[list[np.ndarray], list[da.DArray]]:
    rng = np.random.default_rng(0)
    hosts = [rng.standard_normal(n, dtype=np.float32) for _ in range(count)]
    return hosts, [da.asarray(h, device=run.place) for h in hosts]


def _speed(run: Run, key: str, fns: dict, nbytes: int, dev: float, targets: dict[str, str]) -> None:
    """Record device bandwidth vs copy, and speed ratios darray/other measured in turns."""
    copy = device_copy_bandwidth(run)
    t = compare(fns, repeat=run.pick(5, 3), sync=["darray", "eager"])
    run.figure(f"{key}_GBps", nbytes / dev / 1e9, "GB/s", label=f"{key} effective bandwidth (device time)")
    run.ratio("bandwidth/copy", nbytes / dev / 1e9 / copy, label="effective / copy bandwidth",
              target=targets.get("copy"))
    for other in fns:
        if other != "darray":
            run.ratio(f"darray/{other}", t[other] / t["darray"], label=f"speed vs {other} (wall, same run)",
                      target=targets.get(other))


@case("add_16M", family="elementwise")
def add(run: Run) -> None:
    """``c = a + b`` on 16M float32."""
    n = run.pick(16 << 20, 2 << 20)
    (ha, hb), (a, b) = _inputs(run, 2, n)
    fns = {"darray": lambda: (a + b).eval(), "numpy": lambda: ha + hb}
    pa = _pyopencl(run, ha, hb)
    if pa:
        q, (xa, xb) = pa
        fns["pyopencl.array"] = lambda: (xa + xb, q.finish())
    dev = device_seconds(lambda: (a + b).eval(), repeat=run.pick(5, 3))
    _speed(run, "add", fns, 3 * n * 4, dev, {"copy": ">= 0.9", "numpy": ">= 1.5", "pyopencl.array": ">= 20"})


@case("sin_16M", family="elementwise")
def sin(run: Run) -> None:
    """``sin(x)`` on 16M float32 at full precision (float8 vector code on CPU devices)."""
    n = run.pick(16 << 20, 2 << 20)
    (hx,), (x,) = _inputs(run, 1, n)
    dev = device_seconds(lambda: da.sin(x).eval(), repeat=run.pick(5, 3))
    _speed(run, "sin", {"darray": lambda: da.sin(x).eval(), "numpy": lambda: np.sin(hx)}, 2 * n * 4, dev,
           {"numpy": ">= 1.5"})


@case("sum_16M", family="reduction")
def total(run: Run) -> None:
    """Full ``sum`` of 16M float32 (one launch on CPU devices), sums over each axis of 4096x4096,
    and max/argmax over axis 0 (the column kernel) against NumPy.

    The wall-clock comparison takes more turns than the other cases: one turn is ~3 ms and
    the machine's memory bandwidth drifts between turns."""
    n = run.pick(16 << 20, 2 << 20)
    (hx,), (x,) = _inputs(run, 1, n)
    copy = device_copy_bandwidth(run)
    dev = device_seconds(lambda: x.sum().eval(), repeat=run.pick(5, 3))
    run.figure("sum_GBps", n * 4 / dev / 1e9, "GB/s", label="sum effective bandwidth (device time)")
    run.ratio("bandwidth/copy", n * 4 / dev / 1e9 / copy, label="effective / copy bandwidth", target=">= 0.8")
    t = compare({"darray": lambda: x.sum().get(), "numpy": lambda: hx.sum()}, repeat=run.pick(21, 3), sync=["darray"])
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs numpy (wall, same run)", target=">= 1.3")
    run.ratio("numpy_bandwidth/copy", n * 4 / t["numpy"] / 1e9 / copy,
              label="np.sum's own read bandwidth / the device's copy bandwidth (the ceiling of darray/numpy)")
    side = run.pick(4096, 1024)
    m = x.reshape(-1)[: side * side].reshape(side, side)
    for axis in (0, 1):
        dev = device_seconds(lambda axis=axis: m.sum(axis=axis).eval(), repeat=run.pick(5, 3))
        run.ratio(f"axis{axis}_bandwidth/copy", side * side * 4 / dev / 1e9 / copy,
                  label=f"sum(axis={axis}) of {side}x{side}: bandwidth / copy", target=">= 0.7")
    hm = hx[: side * side].reshape(side, side)
    for op in ("max", "argmax"):
        t = compare({"darray": lambda op=op: getattr(m, op)(axis=0).get(),
                     "numpy": lambda op=op: getattr(hm, op)(axis=0)},
                    repeat=run.pick(5, 3), sync=["darray"])
        run.figure(f"{op}_axis0_ms", t["darray"] * 1e3, "ms", label=f"{op}(axis=0) of {side}x{side} (wall)")
        run.ratio(f"{op}_axis0_darray/numpy", t["numpy"] / t["darray"], label=f"{op}(axis=0): speed vs numpy (wall)")


def _chain(xp, a, b, c, d, e):
    return a * b + c * d - e / 2


def _sin_chain(xp, a, b, c, d, e):
    return a * b + c * xp.sin(d) - e / 2


@case("fused_chain_16M", family="lazy")
def chain(run: Run) -> None:
    """``a*b + c*d - e/2`` (and with ``sin(d)``) on 16M float32: one fused launch."""
    n = run.pick(16 << 20, 2 << 20)
    hosts, arrs = _inputs(run, 5, n)
    with da.profile() as p:
        _chain(da, *arrs).eval()
        da.synchronize()
    run.figure("launches", len(p.launches), "", label="launches for the fused chain", target="<= 1")
    dev = device_seconds(lambda: _chain(da, *arrs).eval(), repeat=run.pick(5, 3))

    def eager() -> None:
        with da.lazy.eager():
            _chain(da, *arrs)

    fns = {"darray": lambda: _chain(da, *arrs).eval(), "numpy": lambda: _chain(np, *hosts), "eager": eager}
    pa = _pyopencl(run, *hosts)
    if pa:
        q, parr = pa
        fns["pyopencl.array"] = lambda: (_chain(None, *parr), q.finish())
    _speed(run, "chain", fns, 6 * n * 4, dev,
           {"copy": ">= 0.9", "numpy": ">= 3", "eager": ">= 2", "pyopencl.array": ">= 50"})
    t = compare({"darray": lambda: _sin_chain(da, *arrs).eval(), "numpy": lambda: _sin_chain(np, *hosts)},
                repeat=run.pick(5, 3), sync=["darray"])
    run.ratio("sin_chain_darray/numpy", t["numpy"] / t["darray"], label="chain with sin(d): speed vs NumPy",
              target=">= 2")
    dev = device_seconds(lambda: _sin_chain(da, *arrs).eval(), repeat=run.pick(5, 3))
    intel = "Intel" in runtime(run.place).info.platform  # issue 5 sets this target on Intel's runtime
    run.ratio("sin_chain_bandwidth/copy", 6 * n * 4 / dev / 1e9 / device_copy_bandwidth(run),
              label="chain with sin(d): bandwidth / copy", target=">= 0.8" if intel else None)


@case("fused_dot_16M", family="lazy")
def dot(run: Run) -> None:
    """``(a * b).sum()`` on 16M float32: one reduction kernel reading a and b, no temporary."""
    n = run.pick(16 << 20, 2 << 20)
    (ha, hb), (a, b) = _inputs(run, 2, n)
    dev = device_seconds(lambda: (a * b).sum().eval(), repeat=run.pick(5, 3))
    copy = device_copy_bandwidth(run)
    run.figure("dot_GBps", 2 * n * 4 / dev / 1e9, "GB/s", label="(a*b).sum() read bandwidth")
    run.ratio("bandwidth/copy", 2 * n * 4 / dev / 1e9 / copy, label="(a*b).sum() bandwidth / copy",
              target=">= 0.8")
    t = compare({"darray": lambda: (a * b).sum().get(), "numpy": lambda: (ha * hb).sum()},
                repeat=run.pick(5, 3))
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall)")


@case("op_overhead_1000", family="lazy")
def overhead(run: Run) -> None:
    """Python cost per op on 1000 elements: eager ``a + b`` (with and without the host path), one
    lazy record (host path off: over settled arrays an op otherwise runs at once), a 10-op chain;
    each a loop synchronized at its end. Eager ``a + b`` against
    pyopencl.array, with its target, is ``loops.add_1k``."""
    (ha, hb), (a, b) = _inputs(run, 2, 1000)
    number = run.pick(2000, 300)

    def eager() -> None:
        with da.lazy.eager():
            a + b

    def without_host(fn: Callable[[], Any]) -> Callable[[], None]:
        """``fn`` with the host path off: eager ops launch kernels, ops over settled arrays are recorded."""
        def run() -> None:
            limit, host.LIMIT = host.LIMIT, 0
            try:
                fn()
            finally:
                host.LIMIT = limit
        return run

    def chain10(x, y):
        for _ in range(5):
            x = x * y + 1.0
        return x

    fns = {"eager": loop(eager, number), "eager_kernel": loop(without_host(eager), number),
           "record": loop(without_host(lambda: a + b), number), "chain10": loop(lambda: chain10(a, b).eval(), number)}
    pa = _pyopencl(run, ha, hb)
    if pa:
        q, (xa, xb) = pa
        fns["pyopencl.array_chain10"] = loop(lambda: chain10(xa, xb), number, q.finish)
    t = {k: v / number for k, v in compare(fns, repeat=run.pick(5, 3)).items()}
    run.figure("eager_add_us", t["eager"] * 1e6, "us", label="eager a + b (1000 elements)")
    run.figure("eager_add_kernel_us", t["eager_kernel"] * 1e6, "us",
               label="eager a + b through a kernel (host path off)")
    run.figure("record_us", t["record"] * 1e6, "us", label="recording one lazy op", target="<= 5")
    run.figure("chain10_us", t["chain10"] * 1e6, "us", label="10-op chain, evaluated")
    if pa:
        run.ratio("chain10/pyopencl", t["chain10"] / t["pyopencl.array_chain10"],
                  label="10-op chain / pyopencl.array (time)", target="<= 0.2")
