"""Dask family (issue 18): the same Dask graphs with darray chunks and with NumPy chunks.

Figures, from one run (threaded scheduler, the default number of threads): ``x.sum()`` and
``x @ x.T`` over a 16384 x 16384 float32 array in 2048 x 2048 chunks (--quick: 2048 in 256),
darray chunks as views of one device array, NumPy chunks as views of one host array; the
ratio is NumPy-chunk time / darray-chunk time (issue 28: the sum's >= 1). A two-process
LocalCluster run of the sum (a 4096 x 4096 array in 1024 x 1024 chunks, moved to each
worker's device) reports its time and whether the answer matches.
"""
from __future__ import annotations

import importlib
import time

import numpy as np

import darray as da

from .harness import Run, case, compare


def _require(run: Run, *modules: str) -> None:
    """Skip the case unless every one of ``modules`` imports."""
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError:
        run.skip(f"needs {' and '.join(modules)}: pip install 'darray[dask]'")


def _graphs(run: Run) -> tuple[dict, dict, np.ndarray]:
    _require(run, "dask.array")
    import dask.array as dka

    n, chunk = run.pick((16384, 2048), (2048, 256))
    h = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    x = da.asarray(h, device=run.place)
    dx, hx = dka.from_array(x, chunks=chunk, asarray=False), dka.from_array(h, chunks=chunk)
    return {"darray": dx, "numpy": hx}, {"n": n, "chunk": chunk}, h


@case("sum_and_matmul")
def sum_and_matmul(run: Run) -> None:
    """``x.sum()`` and ``x @ x.T`` through Dask's threaded scheduler, darray vs NumPy chunks."""
    arrays, size, h = _graphs(run)
    n = size["n"]
    for what, fn, repeat, target in (("sum", lambda a: a.sum(), 3, ">= 1"), ("matmul", lambda a: a @ a.T, 1, None)):
        graphs = {k: fn(a) for k, a in arrays.items()}
        got = graphs["darray"].compute(scheduler="threads")
        want = graphs["numpy"].compute(scheduler="threads")
        got = got.get() if isinstance(got, da.DArray) else got
        scale = float(np.abs(want).max()) or 1.0
        if not np.allclose(got, want, rtol=1e-3, atol=1e-3 * scale):
            raise AssertionError(f"dask {what} with darray chunks differs from NumPy chunks")
        t = compare({k: (lambda g=g: g.compute(scheduler="threads")) for k, g in graphs.items()},
                    warmup=0, repeat=repeat, sync=["darray"])
        run.figure(f"{what}_darray_s", t["darray"], "s", label=f"{what} {n}x{n} in {size['chunk']}^2 darray chunks")
        run.figure(f"{what}_numpy_s", t["numpy"], "s", label=f"{what} {n}x{n} in {size['chunk']}^2 NumPy chunks")
        run.ratio(f"{what}:darray/numpy", t["numpy"] / t["darray"], label=f"{what} speed vs NumPy chunks",
                  target=target)


@case("local_cluster_sum")
def local_cluster_sum(run: Run) -> None:
    """The sum of a 4096 x 4096 float32 array in 1024 x 1024 darray chunks on a LocalCluster of two
    worker processes (each chunk made on a worker's default device from a host block)."""
    _require(run, "dask.array", "distributed")
    import dask.array as dka
    from dask.distributed import Client, LocalCluster

    n, chunk = run.pick((4096, 1024), (1024, 256))
    h = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
    x = dka.from_array(h, chunks=chunk).map_blocks(da.asarray, dtype=h.dtype, meta=da.empty((0, 0)))
    t0 = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        started = time.perf_counter()
        got = client.compute(x.sum(), sync=True)
        seconds = time.perf_counter() - started
    total = time.perf_counter() - t0
    got = float(got.get() if isinstance(got, da.DArray) else got)
    want = float(h.astype(np.float64).sum())
    run.figure("compute_s", seconds, "s", label="sum on the cluster (workers started)")
    run.figure("with_startup_s", total, "s", label="cluster start, sum and shutdown")
    run.figure("matches", float(abs(got - want) <= 1e-3 * np.abs(h).sum()), label="answer matches NumPy (1 = yes)",
               target=">= 1")
