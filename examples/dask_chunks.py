"""darray chunks in Dask: reductions and a matmul over an array larger than the device's memory
limit, chunk by chunk, then the same graph on a two-process LocalCluster; checked against NumPy.

    python examples/dask_chunks.py [--small] [--device PLACE] [--no-cluster]

The device is capped with DARRAY_MEMORY_LIMIT (set below, before darray is imported) to a
quarter of the array, so the array never sits on the device whole: Dask moves one chunk at a
time there (``map_blocks(da.asarray)``) for the reductions, and each task of ``x @ x.T`` moves
its pairs of blocks there, multiplies them and brings the product back to the host (a device
chunk that many tasks share would stay on the device until the last of them ran, and Dask's
own matmul shares every chunk among a row and a column of products). At most ``THREADS``
tasks run at once, so the chunks in flight fit the limit; an allocation that finds the
limit taken by another thread's chunks waits for them (see ``darray.alloc``). The peak
device memory comes from ``da.alloc.stats()``.
"""
from __future__ import annotations

import functools
import os
import time

SIZES = {"small": (512, (128, 32)), "full": (4096, (1024, 256))}  # (n, chunk): the array is n x n float32
THREADS = 2  # Dask's threads: two tasks of x @ x.T hold 12 MiB at most (two 1 MiB chunks and a 4 MiB product each)

n_full, _ = SIZES["full"]
os.environ.setdefault("DARRAY_MEMORY_LIMIT", str(n_full * n_full * 4 // 4))

import dask  # noqa: E402
import dask.array as dka  # noqa: E402
import numpy as np  # noqa: E402
from _cli import run  # noqa: E402  (examples/_cli.py)

import darray as da  # noqa: E402


def product_block(rows: list[np.ndarray], cols: list[np.ndarray], device: str | None = None) -> np.ndarray:
    """Block (i, j) of ``x @ x.T`` from the host blocks x[i, k] (``rows``) and x[j, k] (``cols``):
    each pair multiplied on ``device``, the products summed on the host."""
    out = None
    for a, b in zip(rows, cols):
        p = (da.asarray(a, device=device) @ da.asarray(b, device=device).T).get()
        out = p if out is None else np.add(out, p, out=out)
    return out


def graph(h: np.ndarray, chunk: tuple[int, int], device: str | None = None) -> dict:
    """The Dask computations over ``h`` with darray chunks (moved to ``device`` block by block)."""
    to_device = functools.partial(da.asarray, device=device)
    xh = dka.from_array(h, chunks=chunk)
    x = xh.map_blocks(to_device, dtype=h.dtype, meta=da.empty((0, 0)))
    product = dka.blockwise(product_block, "ij", xh, "ik", xh, "jk", dtype=h.dtype, concatenate=False,
                            meta=np.empty((0, 0), h.dtype), device=device)
    return {"sum": x.sum(), "mean": x.mean(axis=0), "max": x.max(axis=1), "var": x.var(), "x @ x.T": product}


def expected(h: np.ndarray) -> dict:
    h64 = h.astype(np.float64)
    return {"sum": h64.sum(), "mean": h64.mean(axis=0), "max": h.max(axis=1), "var": h64.var(), "x @ x.T": h64 @ h64.T}


def check(got: dict, want: dict, label: str) -> None:
    for k, w in want.items():
        g = got[k]
        g = np.asarray(g.get() if isinstance(g, da.DArray) else g, np.float64)
        scale = max(1.0, float(np.abs(w).max()))
        err = float(np.abs(g - w).max()) / scale
        assert g.shape == np.shape(w) and err < 1e-4, (label, k, err)


def main(small: bool = False, device: str | None = None, no_cluster: bool = False) -> None:
    """The threaded run on ``device``, then (unless ``no_cluster``) a LocalCluster run on the
    workers' default devices."""
    n, chunk = SIZES["small" if small else "full"]
    h = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    place = da.place.parse(device)
    limit = da.alloc.stats(place)["limit_bytes"]
    want = expected(h)
    t0 = time.perf_counter()
    got = dask.compute(graph(h, chunk, device), scheduler="threads", num_workers=THREADS)[0]
    seconds = time.perf_counter() - t0
    check(got, want, "threads")
    peak = da.alloc.stats(place)["peak_bytes"]
    print(f"dask_chunks: {n}x{n} float32 ({h.nbytes >> 20} MiB) in {chunk[0]}x{chunk[1]} darray chunks on {place}, "
          f"device limit {limit >> 20} MiB: sum, mean, max, var and x @ x.T in {seconds:.2f} s (threads), "
          f"peak device memory {peak >> 20} MiB, answers match NumPy")
    assert small or h.nbytes > limit > 0, "the array should not fit the device's limit"
    if not no_cluster:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
                Client(lc) as client:
            t0 = time.perf_counter()
            got = client.compute(graph(h, chunk), sync=True)
            seconds = time.perf_counter() - t0
        check(got, want, "LocalCluster")
        print(f"dask_chunks: the same graph on a LocalCluster of 2 worker processes: {seconds:.2f} s, answers match")


if __name__ == "__main__":
    run(main, __doc__, {"--no-cluster": "skip the LocalCluster run"})
