"""The gpu plan of the device sort (darray/ops/radix_gpu.py, kernels/radix_gpu.cl) against NumPy's
stable sort, forced on whatever device runs the tests (``DARRAY_SORT=gpu``).

Rows longer than ``sorting.SHORT_ROW`` take it: one work-group tile (fewer keys than a group
holds, or exactly that many) and several tiles per row (the look-back), several rows at once (the
segments), axis sorts on strided, reversed and transposed views, every real dtype with its
specials and many ties (the stability of argsort).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_sorting import REAL, SPECIAL_F, check, view

import darray as da
from darray.ops import radix_gpu, sorting


@contextmanager
def forced(mode: str = "gpu") -> Iterator[None]:
    """DARRAY_SORT=mode inside the block (hypothesis tests cannot take monkeypatch)."""
    old = os.environ.get("DARRAY_SORT")
    os.environ["DARRAY_SORT"] = mode
    try:
        yield
    finally:
        if old is None:
            del os.environ["DARRAY_SORT"]
        else:
            os.environ["DARRAY_SORT"] = old


def pool(dtype: np.dtype, rng: np.random.Generator, distinct: int) -> np.ndarray:
    """``distinct`` values of ``dtype`` plus its specials (NaN, inf, -0.0, the extremes)."""
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind == "f":
        return np.array(SPECIAL_F + list(rng.standard_normal(distinct) * 1e3), dtype)
    info = np.iinfo(dtype)
    drawn = rng.integers(info.min, info.max, distinct, dtype, endpoint=True)
    return np.concatenate([np.array([info.min, info.max, 0, 1], dtype), drawn])


LENGTHS = [129, 255, 256, 257, 1000, 4095, 4096, 4097, 9000, 20_000]


@given(dtype=st.sampled_from(REAL + [np.dtype(np.float16)]), rows=st.integers(1, 3),
       k=st.sampled_from(LENGTHS) | st.integers(129, 12_000), distinct=st.sampled_from([1, 3, 1000]),
       kind=st.sampled_from(["", "T", "flip", "step"]), descending=st.booleans(), seed=st.integers(0, 2**16))
def test_matches_numpy(cl_place, dtype, rows, k, distinct, kind, descending, seed):
    """Long rows of every dtype, with ties, sorted along either axis of a 2-D view."""
    if dtype == np.float16 and not da.place.runtime(cl_place).info.fp16:
        dtype = np.dtype(np.float32)
    rng = np.random.default_rng(seed)
    base = rng.choice(pool(dtype, rng, distinct), (rows, k * (2 if kind == "step" else 1)))
    if kind == "T":
        base = np.ascontiguousarray(base.T)
    xn, xd = view(base, kind), view(da.asarray(base, device=cl_place), kind)
    with forced():
        check(xd, xn, 0 if kind == "T" else -1, descending)


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.uint8], ids=str)
def test_many_rows(cl_place, dtype):
    """Segments: many rows of several tiles each, along a middle axis of a 3-D array."""
    x = np.random.default_rng(1).integers(-50, 50, (2, 9000, 5)).astype(dtype)
    with forced():
        check(da.asarray(x, device=cl_place), x, 1)
        check(da.asarray(x, device=cl_place)[:, ::-1], x[:, ::-1], 1, True)


def test_empty_short_and_constant(cl_place):
    """Rows of 0 and 1 keys, short rows (the insertion sort in both plans) and rows whose digits
    never vary (every pass skipped but one)."""
    with forced():
        for x in (np.zeros((2, 0), np.float32), np.ones((3, 1), np.int64), np.arange(100, 0, -1, dtype=np.int16),
                  np.full(10_000, 7, np.uint64), np.full(5000, -0.0, np.float32), np.full(6000, np.nan)):
            check(da.asarray(x, device=cl_place), x)


def test_keywords_and_next_call(cl_place):
    """stable= and kind= change nothing; a bad axis raises NumPy's class; the next call works."""
    x = np.random.default_rng(2).integers(0, 4, 3000).astype(np.float32)
    xd = da.asarray(x, device=cl_place)
    with forced():
        np.testing.assert_array_equal(da.argsort(xd, stable=False).get(), np.argsort(x, kind="stable"))
        np.testing.assert_array_equal(da.sort(xd, kind="heapsort").get(), np.sort(x))
        with pytest.raises(np.exceptions.AxisError, match="darray sort"):
            da.sort(xd, axis=1)
        check(xd, x, descending=True)


def test_plans_agree(cl_place):
    """Both radix plans give the same bits (values and indices) on one input."""
    x = np.random.default_rng(3).standard_normal((2, 7000)).astype(np.float32)
    x[:, ::7] = -0.0
    x[:, ::11] = np.nan
    xd = da.asarray(x, device=cl_place)
    got = {}
    for mode in ("chunked", "gpu"):
        with forced(mode):
            got[mode] = (da.sort(xd).get(), da.argsort(xd).get())
    np.testing.assert_array_equal(got["chunked"][0].view(np.uint32), got["gpu"][0].view(np.uint32))
    np.testing.assert_array_equal(got["chunked"][1], got["gpu"][1])


def test_jit_replays_every_pass(cl_place):
    """Under da.jit the varying digits cannot be read back: every pass runs, the result is the same."""
    step = da.jit(lambda a: da.argsort(a))
    rng = np.random.default_rng(4)
    with forced():
        for _ in range(2):  # the trace, then a replay on new values
            x = rng.integers(0, 300, 5000).astype(np.int32)
            np.testing.assert_array_equal(step(da.asarray(x, device=cl_place)).get(), np.argsort(x, kind="stable"))


def test_plan_choice(cl_place):
    """The gpu plan takes rows it fits: below 2**30 keys, on devices with groups of 256."""
    assert radix_gpu.fits(cl_place, 10_000, np.dtype(np.float64), True) == (
        da.place.runtime(cl_place).info.max_work_group_size >= radix_gpu.GROUP)
    assert not radix_gpu.fits(cl_place, radix_gpu.MAX_ROW, np.dtype(np.int8), False)
    with forced():
        assert sorting.plan(cl_place) == "gpu"
    with forced("chunked"):
        assert sorting.plan(cl_place) == "chunked"
