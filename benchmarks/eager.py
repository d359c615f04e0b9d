"""Eager family (issue 39): the small everyday NumPy idioms one at a time, as a loop of NumPy code runs
them (scalar reads and writes, small sums, slice dots, masks, small matmuls), darray against NumPy
in the same run, each loop synchronized once at its end.

At size n: ``A`` is n x n float64, ``v`` and ``w`` 5n float64 (n = 200: ``A`` 200 x 200, ``v`` 1000).
Figures (darray's time over NumPy's, lower is better), on the CPU device:
- each idiom at most 10x NumPy's time, their geometric mean at most 3x;
- with the host engine off (the path a GPU takes: ``lazy.host.LIMIT = 0``, no host copies), darray's
  own time for ``v + w`` at most 3 us above one raw pyopencl enqueue of a prepared kernel, and for
  ``float(v.sum())`` at most 10 us above a raw kernel launch plus a raw 8-byte read.
Cold start (``startup``, fresh processes, median of 5): ``import darray`` at most 0.4 s; the import plus
a first fused chain and sum on 10^6 elements at most 0.8 s with a warm program cache, 1.0 s with an
empty one. --quick runs fewer iterations.
"""
from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da

from .harness import Run, case, compare, loop

Idiom = Callable[[Any, dict[str, Any]], Any]


def _setitem(a: Any, key: Any, value: Any) -> None:
    a[key] = value


def _iadd_item(a: Any) -> None:
    a[3, 5] += 1.0


def _stencil(s: dict[str, Any]) -> None:
    v, w = s["v"], s["w"]
    v[1:-1] = 0.5 * (w[2:] + w[:-2]) - w[1:-1]


def _mask_set(s: dict[str, Any]) -> None:
    s["v"][s["w"] > 0.9] = 0.25


# name -> (xp, state) -> result; each body reads and writes state as a NumPy loop would
IDIOMS: dict[str, Idiom] = {
    "float_item": lambda xp, s: float(s["A"][3, 5]),
    "set_item": lambda xp, s: _setitem(s["A"], (3, 5), 1.5),
    "iadd_item": lambda xp, s: _iadd_item(s["A"]),
    "bool_compare": lambda xp, s: bool(s["v"][7] > 0.5),
    "float_sum_method": lambda xp, s: float(s["v"].sum()),
    "float_sum_function": lambda xp, s: float(xp.sum(s["v"])),
    "float_max": lambda xp, s: float(s["v"].max()),
    "slice_dot": lambda xp, s: float(s["A"][7, :50] @ s["A"][:50, 9]),
    "matvec": lambda xp, s: s["A"] @ s["v"][:s["n"]],
    "stencil_assign": lambda xp, s: _stencil(s),
    "add": lambda xp, s: s["v"] + s["w"],
    "chain": lambda xp, s: s["v"] * 2.0 + s["w"] - 1.0,
    "mask_select": lambda xp, s: s["v"][s["v"] > 0.5],
    "mask_assign": lambda xp, s: _mask_set(s),
    "gather": lambda xp, s: s["v"][s["idx"]],
    "where": lambda xp, s: xp.where(s["v"] > 0.5, s["v"], s["w"]),
    "mean_axis0": lambda xp, s: s["A"].mean(axis=0),
    "outer_broadcast": lambda xp, s: s["v"][:s["n"], None] * s["w"][None, :s["n"]],
}


def _state(xp: Any, n: int, place: Any) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    host = {"A": rng.random((n, n)), "v": rng.random(5 * n), "w": rng.random(5 * n),
            "idx": rng.integers(0, 5 * n, 64)}
    if xp is np:
        return {**host, "n": n}
    return {**{k: da.asarray(v, device=place) for k, v in host.items()}, "n": n}


def _evaluated(body: Idiom) -> Idiom:
    """``body`` whose array result is computed before the next call (a pending result nobody reads
    would never run: NumPy's side computes every one)."""
    def run(xp: Any, s: dict[str, Any]) -> Any:
        r = body(xp, s)
        return r.eval() if isinstance(r, da.DArray) else r
    return run


def _idioms(run: Run, n: int) -> None:
    states = {"numpy": _state(np, n, run.place), "darray": _state(da, n, run.place)}
    count = run.pick(400, 60)
    ratios = []
    for name, body in IDIOMS.items():
        ours = _evaluated(body)
        t = compare({"numpy": loop(lambda body=body: body(np, states["numpy"]), count),
                     "darray": loop(lambda ours=ours: ours(da, states["darray"]), count)}, repeat=run.pick(5, 3))
        r = run.ratio(f"{name}_{n}", t["darray"] / t["numpy"], label=f"{name}, n = {n}: darray's time / NumPy's",
                      target="<= 10")
        run.figure(f"{name}_{n}_us", t["darray"] / count * 1e6, "us", label=f"{name}, n = {n}: darray per call")
        ratios.append(r)
    run.ratio(f"geomean_{n}", math.exp(sum(map(math.log, ratios)) / len(ratios)),
              label=f"geometric mean of the {len(ratios)} idioms, n = {n}: darray's time / NumPy's", target="<= 3")
    for k in ("A", "v", "w"):  # both sides ran the same writes the same number of times
        if not np.allclose(np.asarray(states["darray"][k]), states["numpy"][k]):
            raise AssertionError(f"eager idioms: darray's {k} differs from NumPy's")


@case("idioms_200")
def idioms_200(run: Run) -> None:
    """The 18 idioms at n = 200 (A 200 x 200, v and w 1000 elements): darray's time over NumPy's."""
    _idioms(run, 200)


@case("idioms_1000")
def idioms_1000(run: Run) -> None:
    """The 18 idioms at n = 1000 (A 1000 x 1000, v and w 5000 elements): darray's time over NumPy's."""
    _idioms(run, 1000)


def _raw(run: Run, n: int) -> tuple[Any, Callable[[], None], Callable[[], None]]:
    """A pyopencl queue of darray's context, an enqueue of a prepared ``c = a + b`` kernel over ``n``
    float64 and a prepared one-work-item sum kernel followed by a blocking 8-byte read."""
    import pyopencl as cl

    from darray.place import runtime

    rt = runtime(run.place)
    queue = cl.CommandQueue(rt.context, rt.device)
    prg = cl.Program(rt.context, """
        __kernel void add(__global const double *a, __global const double *b, __global double *c) {
            size_t i = get_global_id(0); c[i] = a[i] + b[i]; }
        __kernel void total(__global const double *a, __global double *out, int n) {
            double s = 0; for (int i = 0; i < n; i++) s += a[i]; out[0] = s; }""").build()
    mf = cl.mem_flags
    a, b = (cl.Buffer(rt.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ones(n)) for _ in range(2))
    c = cl.Buffer(rt.context, mf.READ_WRITE, 8 * n)
    add, total = prg.add, prg.total
    add.set_args(a, b, c)
    total.set_args(a, c, np.int32(n))
    one = np.empty(1)
    keep = (a, b, c)  # the kernels' arguments do not keep their buffers alive

    def enqueue_add() -> None:
        cl.enqueue_nd_range_kernel(queue, add, (n,), None)
        assert keep

    def sum_and_read() -> None:
        cl.enqueue_nd_range_kernel(queue, total, (1,), None)
        cl.enqueue_copy(queue, one, c, is_blocking=True)

    return queue, enqueue_add, sum_and_read


@case("engine_off")
def engine_off(run: Run) -> None:
    """With the host engine off (the GPU's path): darray's ``v + w`` and ``float(v.sum())`` (n = 1000
    float64) against raw pyopencl: an enqueue of a prepared kernel; a launch plus an 8-byte read."""
    from darray.lazy import host
    from darray.transfer import copies

    n = 1000
    queue, enqueue_add, sum_and_read = _raw(run, n)
    v, w = (da.asarray(np.random.default_rng(k).random(n), device=run.place) for k in range(2))
    count = run.pick(2000, 300)
    saved = host.LIMIT, copies.HOST_COPIES
    host.LIMIT, copies.HOST_COPIES = 0, False
    try:
        t = compare({"raw_add": loop(enqueue_add, count, queue.finish),
                     "darray_add": loop(lambda: (v + w).eval(), count),
                     "raw_sum": loop(sum_and_read, count, queue.finish),
                     "darray_sum": loop(lambda: float(v.sum()), count)}, repeat=run.pick(5, 3))
    finally:
        host.LIMIT, copies.HOST_COPIES = saved
    us = {k: s / count * 1e6 for k, s in t.items()}
    for k, u in us.items():
        run.figure(f"{k}_us", u, "us", label=f"{k}, n = {n}, per call (host engine off)")
    run.figure("add_over_raw_us", us["darray_add"] - us["raw_add"], "us",
               label="v + w: darray's time above one raw enqueue (target <= 3 us)")
    run.figure("sum_over_raw_us", us["darray_sum"] - us["raw_sum"], "us",
               label="float(v.sum()): darray's time above a raw launch + 8-byte read (target <= 10 us)")


_FIRST = "x = xp.arange(1_000_000, dtype=xp.float64); float(((x * 2.0 + 1.0) ** 2).sum())"


def _seconds(code: str, env: dict[str, str], repeat: int) -> float:
    """The median wall time of ``python -c code`` in fresh processes."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


@case("startup")
def startup(run: Run) -> None:
    """Fresh processes (median of 5): ``import darray``, and the import plus a first fused chain and
    sum on 10^6 float64 with a warm and an empty program cache, beside NumPy's."""
    repeat = run.pick(5, 3)
    env = {**os.environ, "DARRAY_DEVICE": str(run.place)}
    first = f"import darray as xp; {_FIRST}"
    subprocess.run([sys.executable, "-c", first], env=env, check=True)  # the warm cache
    figures = {"import_numpy": _seconds("import numpy", env, repeat),
               "import_darray": _seconds("import darray", env, repeat),
               "first_numpy": _seconds(f"import numpy as xp; {_FIRST}", env, repeat),
               "first_warm": _seconds(first, env, repeat)}
    cold = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as empty:
            cold.append(_seconds(first, {**env, "DARRAY_CACHE_DIR": empty}, 1))
    figures["first_cold"] = statistics.median(cold)
    targets = {"import_darray": "<= 0.4", "first_warm": "<= 0.8", "first_cold": "<= 1.0"}
    for k, v in figures.items():
        run.figure(f"{k}_s", v, "s", label=f"{k.replace('_', ' ')} (fresh process, median)", target=targets.get(k))
