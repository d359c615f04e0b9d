"""darray.interop.dask_chunks: DArrays as Dask chunks, on the threaded scheduler and a two-process LocalCluster."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import darray as da

dask = pytest.importorskip("dask")
dka = pytest.importorskip("dask.array")

GRAPHS = {
    "add": lambda a: a + 1,
    "chain": lambda a: (a * 2 - a.T) / 3,
    "sin": lambda a: np.sin(a),
    "sum": lambda a: a.sum(),
    "sum0": lambda a: a.sum(axis=0),
    "mean1": lambda a: a.mean(axis=1),
    "max": lambda a: a.max(),
    "min0": lambda a: a.min(axis=0),
    "var": lambda a: a.var(),
    "std1": lambda a: a.std(axis=1),
    "matmul": lambda a: a @ a.T,
    "rechunk": lambda a: a.rechunk((5, 12)),
    "slice": lambda a: a[3:17:2, ::-1],
    "transpose_sum": lambda a: (a.T + a).sum(axis=1),
}


def _host(x):
    return x.get() if isinstance(x, da.DArray) else np.asarray(x)


@pytest.fixture(scope="module")
def chunked(cl_place):
    h = np.random.default_rng(0).standard_normal((24, 24)).astype(np.float32)
    return h, dka.from_array(da.asarray(h, device=cl_place), chunks=(8, 10), asarray=False)


@pytest.mark.parametrize("name", GRAPHS)
def test_threaded_matches_numpy(chunked, name):
    h, x = chunked
    got = GRAPHS[name](x).compute(scheduler="threads")
    assert isinstance(got, da.DArray), type(got)
    want = GRAPHS[name](dka.from_array(h, chunks=(8, 10))).compute(scheduler="threads")
    if name == "rechunk":
        assert GRAPHS[name](x).chunks == ((5,) * 4 + (4,), (12, 12))
    np.testing.assert_allclose(_host(got), want, rtol=2e-5, atol=2e-5)


def test_chunks_are_darrays(chunked):
    _, x = chunked
    assert isinstance(x._meta, da.DArray)
    blocks = x.to_delayed().ravel()
    assert all(isinstance(b.compute(), da.DArray) for b in blocks[:2])
    y = x.map_blocks(lambda b: b * 2, dtype=x.dtype)
    assert isinstance(y.compute(), da.DArray)


def test_from_host_blocks_and_percentile(cl_place):
    h = np.arange(100, dtype=np.float64).reshape(10, 10)
    x = dka.from_array(h, chunks=5).map_blocks(da.asarray, dtype=h.dtype, meta=da.empty((0, 0), device=cl_place))
    np.testing.assert_allclose(_host(x.sum().compute()), h.sum())
    p = dka.percentile(x.ravel(), [25, 50, 75]).compute()
    np.testing.assert_allclose(_host(p), np.percentile(h, [25, 50, 75]), rtol=0.05)
    assert dask.sizeof.sizeof(da.ones(10, dtype=da.float32)) == 40


def test_random_chunks_reproducible(cl_place):
    def draw():
        g = dka.random.default_rng(da.random.default_rng(3))
        return g.random((40, 30), chunks=(20, 15), dtype=np.float32).compute(scheduler="threads")

    a, b = draw(), draw()
    assert isinstance(a, da.DArray)
    h = a.get()
    np.testing.assert_array_equal(h, b.get())
    assert 0 <= h.min() and h.max() < 1 and len(np.unique(h)) > 1000  # blocks are different streams


def test_registers_in_either_import_order():
    code = ("import dask.array, darray; from dask.array.dispatch import concatenate_lookup; "
            "print(concatenate_lookup.dispatch(darray.DArray).__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "darray.interop.dask_chunks"


def test_local_cluster(cl_place):
    """Two worker processes: darray chunks made on the workers, pickled back to this process."""
    distributed = pytest.importorskip("distributed")
    h = np.random.default_rng(1).standard_normal((64, 48)).astype(np.float32)
    x = dka.from_array(h, chunks=(16, 24)).map_blocks(da.asarray, dtype=h.dtype, meta=da.empty((0, 0)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        total, product = client.compute([x.sum(), x @ x.T], sync=True)
    assert isinstance(product, da.DArray)
    np.testing.assert_allclose(_host(total), h.astype(np.float64).sum(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(product.get(), h @ h.T, rtol=1e-4, atol=1e-4)


def test_threaded_sum_of_strided_chunks(cl_place):
    """The Dask sum of a float32 array in blocks (each a strided view with unit-stride rows, read with
    float8 loads) on four threads: every block's sum and the total as NumPy's, run after run."""
    h = np.random.default_rng(1).standard_normal((512, 768)).astype(np.float32)
    x = dka.from_array(da.asarray(h, device=cl_place), chunks=(128, 192), asarray=False)
    per_block = x.map_blocks(lambda b: b.sum(keepdims=True), chunks=(1, 1), dtype=x.dtype)
    want = h.reshape(4, 128, 4, 192).astype(np.float64).sum(axis=(1, 3))
    for _ in range(3):
        got = per_block.compute(scheduler="threads", num_workers=4)
        np.testing.assert_allclose(_host(got), want, rtol=1e-5, atol=1e-3)
        total = x.sum().compute(scheduler="threads", num_workers=4)
        np.testing.assert_allclose(float(_host(total)), want.sum(), rtol=1e-5, atol=1e-2)
