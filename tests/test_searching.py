"""searchsorted (darray.ops.searching) against NumPy: every real dtype and complex, NaN/inf/-0.0 and
duplicates, both sides, a sorter, scalar and N-d values, strided x1, both places; bad input."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import PARTS, arrays, assert_exact, assert_same, complex_values, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da

DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint8", "int32", "uint64", "int64", "float32", "float64")]


def _fp64_ok(place, dtype) -> bool:
    return place.kind == "cpu" or dtype != np.float64 or da.place.get_device_properties(place.index)["fp64"]


@given(dtype=st.sampled_from(DTYPES), side=st.sampled_from(["left", "right"]), data=st.data())
def test_matches_numpy(any_place, dtype, side, data):
    if not _fp64_ok(any_place, dtype):
        return
    a = np.sort(data.draw(arrays(dtype, shapes(1, 1, max_side=40))))
    v = data.draw(arrays(dtype, shapes(0, 3)))
    got = da.searchsorted(da.asarray(a, device=any_place), da.asarray(v, device=any_place), side=side)
    assert_same(got, np.searchsorted(a, v, side=side).astype(np.int64))


@given(side=st.sampled_from(["left", "right"]), data=st.data())
def test_sorter_scalars_and_strided(any_place, side, data):
    a = data.draw(arrays(np.float32, shapes(1, 1, max_side=30)))
    sorter = np.argsort(a, kind="stable")
    x1 = da.asarray(a, device=any_place)
    value = data.draw(st.floats(-5, 5, width=32))
    assert_same(da.searchsorted(x1, value, side=side, sorter=sorter),
                np.asarray(np.searchsorted(a, np.float32(value), side=side, sorter=sorter), np.int64))
    assert_same(da.searchsorted(x1, da.asarray(a[::-1], device=any_place)[::2], side=side,
                                sorter=da.asarray(sorter, device=any_place)),
                np.searchsorted(a, a[::-1][::2], side=side, sorter=sorter).astype(np.int64))
    base = np.sort(np.concatenate([a, a]))
    strided = da.asarray(base, device=any_place)[::2]  # a sorted view with a step
    assert_same(da.searchsorted(strided, np.float32(0.5), side=side),
                np.asarray(np.searchsorted(base[::2], np.float32(0.5), side=side), np.int64))


@given(dtype=st.sampled_from([np.complex64, np.complex128]), side=st.sampled_from(["left", "right"]),
       data=st.data())
def test_complex_matches_numpy(any_place, dtype, side, data):
    """Complex in NumPy's order (real, then imaginary part; NaN in either part as ``sort`` places
    them; -0.0 equal to 0.0): sorted ``a`` or a ``sorter``, complex or real values, N-d and
    transposed values, an empty ``a``."""
    a = data.draw(hnp.arrays(dtype, shapes(1, 1, 0, 24), elements=complex_values()), label="a")
    real = data.draw(st.booleans(), label="real values")
    v = data.draw(hnp.arrays(np.float32 if real else dtype, shapes(0, 2, 0, 5),
                             elements=st.sampled_from(PARTS) if real else complex_values()), label="v")
    ordered, sorter = np.sort(a), np.argsort(a, kind="stable")
    vd = da.asarray(v, device=any_place)
    assert_exact(da.searchsorted(da.asarray(ordered, device=any_place), vd.T, side),
                 np.searchsorted(ordered, v.T, side))
    assert_exact(da.asarray(a, device=any_place).searchsorted(vd, side, da.asarray(sorter, device=any_place)),
                 a.searchsorted(v, side, sorter))


def test_mixed_dtypes_and_empty(any_place):
    a = da.asarray(np.array([1, 3, 5], np.int8), device=any_place)
    assert_same(da.searchsorted(a, da.asarray(np.array([2.5, 6.0], np.float32), device=any_place)),
                np.searchsorted(np.array([1, 3, 5], np.int8), np.array([2.5, 6.0], np.float32)).astype(np.int64))
    empty = da.asarray(np.zeros(0, np.float32), device=any_place)
    assert_same(da.searchsorted(empty, da.asarray(np.ones(3, np.float32), device=any_place)), np.zeros(3, np.int64))
    assert_same(da.searchsorted(a, da.asarray(np.zeros((2, 0), np.int8), device=any_place)),
                np.zeros((2, 0), np.int64))


@pytest.mark.parametrize("call,err", [
    (lambda p: da.searchsorted(da.ones((2, 2), device=p), 1.0), ValueError),
    (lambda p: da.searchsorted(da.asarray(1.0, device=p), 1.0), ValueError),
    (lambda p: da.searchsorted(da.ones(3, device=p), 1.0, side="middle"), ValueError),
    (lambda p: da.searchsorted(da.ones(3, device=p), 1.0, sorter=[0, 1, 5]), IndexError),
])
def test_bad_input(any_place, call, err):
    with pytest.raises(err, match="searchsorted|out of bounds"):
        call(any_place)
    assert_same(da.searchsorted(da.asarray([1.0, 2.0], device=any_place), 1.5), np.asarray(1, np.int64))


def test_numpy_signature(any_place):
    """NumPy's positional ``side`` and ``sorter``; ``np.searchsorted`` on a DArray runs darray's."""
    a = np.array([5.0, 1.0, 3.0])
    sorter = np.argsort(a)
    ad = da.asarray(a, device=any_place)
    assert_same(da.searchsorted(ad, [3.0, 6.0], "right", sorter), np.searchsorted(a, [3.0, 6.0], "right", sorter))
    got = np.searchsorted(da.sort(ad), da.asarray([2.0], device=any_place), side="left")
    assert isinstance(got, da.DArray)
    assert_same(got, np.searchsorted(np.sort(a), [2.0]))
