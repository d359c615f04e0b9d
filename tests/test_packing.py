"""packbits and unpackbits against NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, check_view, viewed
from hypothesis import assume, given
from hypothesis import strategies as st

import darray as da


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data(), dtype=st.sampled_from(["bool", "uint8", "int32", "int64"]),
       bitorder=st.sampled_from(["big", "little"]))
def test_packbits(place, data, dtype, bitorder) -> None:
    base, view = data.draw(viewed(dtype, min_dims=1, max_side=11, elements=st.integers(-2, 2) if dtype[0] == "i"
                                  else None))
    axis = data.draw(st.sampled_from([None, *range(-base.ndim, base.ndim)]))
    check_view(lambda xp, x: xp.packbits(x, axis=axis, bitorder=bitorder), base, view, place=place)
    check_view(lambda xp, x: xp.packbits(x, axis, bitorder), base, view, place=place)


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data(), bitorder=st.sampled_from(["big", "little"]))
def test_unpackbits(place, data, bitorder) -> None:
    base, view = data.draw(viewed("uint8", min_dims=1, max_side=5))
    axis = data.draw(st.sampled_from([None, *range(base.ndim)]))
    n = view(base).size * 8 if axis is None else view(base).shape[axis] * 8
    count = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 3)))
    assume(view(base).size or not count)  # NumPy pads an empty input with uninitialised bytes
    if count is not None and count < -n:
        with pytest.raises(ValueError, match="darray unpackbits"):
            da.unpackbits(view(da.asarray(base, device=place)), axis=axis, count=count)
        return
    check_view(lambda xp, x: xp.unpackbits(x, axis=axis, count=count, bitorder=bitorder), base, view, place=place)


def test_errors_and_round_trip() -> None:
    with pytest.raises(TypeError, match="darray packbits"):
        da.packbits(da.asarray([1.5]))
    with pytest.raises(TypeError, match="darray unpackbits"):
        da.unpackbits(da.asarray([1], dtype=da.int32))
    with pytest.raises(ValueError, match="bitorder"):
        da.packbits(da.asarray([1]), bitorder="middle")
    bits = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], np.uint8)
    assert_same(da.unpackbits(da.packbits(da.asarray(bits)), count=9), bits)
