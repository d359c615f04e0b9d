"""darray.testing.strategies: pairs in every layout, equal to their NumPy side, shrinking to the simplest
layout that fails; and darray as a hypothesis array-API namespace."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import darray as da
import darray.testing as dt
from darray.testing import strategies as dts

QUICK = settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _first(strategy):
    """The first example hypothesis draws: its simplest."""
    return find(strategy, lambda _: True, settings=settings(database=None, phases=[Phase.generate], max_examples=1))


def _same(pair):
    """The pair holds equal values; the DArray has the NumPy view's strides (where NumPy has them too)."""
    a, x = pair
    dt.assert_array_equal(x, a, strict=True)
    if a.size > 1 and pair.layout != "broadcast":
        assert x.strides == a.strides, pair
    assert (pair.layout == "broadcast") == (0 in a.strides and a.size > 1) == (not a.flags.writeable), pair


def test_every_layout_is_drawn(cl_place):
    seen: Counter[str] = Counter()

    @QUICK
    @given(dts.array_pairs(dts.dtypes("numeric"), dts.shapes(min_dims=0, max_dims=3, min_side=0)))
    def draw(pair):
        seen[pair.layout] += 1
        _same(pair)
        contiguous = pair.darray.flags.c_contiguous
        assert contiguous if pair.layout in ("contiguous", "offset") else not contiguous, pair
        assert (pair.darray._dim.offset > 0) >= (pair.layout == "offset"), pair
        assert pair.darray.place == cl_place

    draw()
    assert set(seen) == set(dts.LAYOUTS), seen


def test_memory_outside_the_view_is_poisoned():
    pair = _first(dts.array_pairs("float32", (3, 2), layouts="strided"))
    a = pair.numpy
    assert np.isnan(a.base).sum() == a.base.size - a.size  # the NumPy base: NaN outside the view
    assert dt.describe(pair.darray) in repr(pair) and "layout='strided'" in repr(pair)
    ints = _first(dts.array_pairs("uint8", (4,), layouts="offset")).numpy
    assert ints.base[0] == 255


@pytest.mark.parametrize("layout", dts.LAYOUTS)
def test_layouts_can_be_chosen(layout):
    @QUICK
    @given(dts.array_pairs(st.sampled_from(["int16", "complex64", "bool"]), dts.shapes(min_dims=2, min_side=2),
                           layouts=[layout]))
    def draw(pair):
        assert pair.layout == layout
        _same(pair)

    draw()


def test_shape_that_fits_no_chosen_layout_is_contiguous():
    assert _first(dts.array_pairs("int8", (1, 1), layouts=["transposed"])).layout == "contiguous"
    assert _first(dts.array_pairs("int8", 4, layouts="transposed")).numpy.shape == (4,)
    with pytest.raises(ValueError, match="layouts 'diagonal'"):
        dts.array_pairs("int8", 4, layouts="diagonal")


def test_sides_are_independent(cl_place):
    a, x = _first(dts.array_pairs("float32", (2, 3), layouts="strided", place="cpu"))
    x[...] = 7
    assert not (a == 7).any() and x.place == da.CPUPlace()


def _broken_sum(x):
    """A port that goes wrong on arrays that are not C-contiguous."""
    return da.sum(x) if x.flags.c_contiguous else da.sum(x) + 1


def _broken_abs(x):
    """A port that goes wrong on broadcast views."""
    return da.abs(x) * (2 if 0 in x.strides else 1)


def test_a_broken_port_shrinks_to_the_simplest_failing_layout():
    pairs = dts.array_pairs(dts.dtypes("real floating"), dts.shapes(max_dims=3),
                            elements={"allow_nan": False, "allow_infinity": False, "min_value": -4, "max_value": 4})
    found = find(pairs, lambda p: not np.allclose(_broken_sum(p.darray).get(), p.numpy.sum()))
    assert found.layout == "strided" and found.numpy.shape == (2,) and found.numpy.dtype == np.float32
    found = find(pairs, lambda p: not np.allclose(_broken_abs(p.darray).get(), np.abs(p.numpy)))
    assert found.layout == "broadcast" and found.numpy.size == 2, found


def test_a_failing_given_test_reports_the_layout():
    @settings(max_examples=100, database=None, derandomize=True)
    @given(dts.array_pairs(dts.dtypes("real floating"), dts.shapes(max_dims=3), elements={"max_value": 1e6}))
    def test_port(pair):
        a, x = pair
        dt.assert_allclose(_broken_abs(x), np.abs(a))

    with pytest.raises(AssertionError) as err:
        test_port()
    notes = "\n".join(getattr(err.value, "__notes__", []))
    assert "Falsifying example: test_port(" in notes and "Pair(layout='broadcast'" in notes, notes
    assert "actual: DArray on cl:" in str(err.value)  # the result's layout; the example names the input's


def test_dtypes_and_shapes():
    @QUICK
    @given(dts.dtypes(["real floating", "bool"]), dts.shapes(min_dims=2, max_dims=4, max_side=3))
    def draw(dtype, shape):
        assert dtype in (np.float32, np.float64, np.bool_)
        assert 2 <= len(shape) <= 4 and all(1 <= n <= 3 for n in shape)

    draw()
    assert find(dts.dtypes("numeric"), lambda d: True) == np.int32
    assert find(dts.dtypes("real floating"), lambda d: True) == np.float32


def test_elements_and_strategy_arguments():
    @QUICK
    @given(dts.array_pairs(st.just(np.float64), st.just((5,)), elements={"min_value": 0, "max_value": 1}),
           dts.array_pairs("int8", (3,), elements=st.integers(-2, 2)))
    def draw(floats, ints):
        assert ((floats.numpy >= 0) & (floats.numpy <= 1)).all()
        assert (np.abs(ints.numpy) <= 2).all() and ints.darray.dtype == np.int8

    draw()


def test_broadcastable_pairs():
    @settings(QUICK, max_examples=50)
    @given(dts.broadcastable_pairs(dts.dtypes("integral"), num_shapes=3, base_shape=(2, 3)))
    def draw(pairs):
        assert len(pairs) == 3 and len({p.numpy.dtype for p in pairs}) == 1
        np.broadcast_shapes((2, 3), *(p.numpy.shape for p in pairs))
        for pair in pairs:
            _same(pair)
        dt.assert_array_equal(pairs[0].darray + pairs[1].darray * pairs[2].darray,
                              pairs[0].numpy + pairs[1].numpy * pairs[2].numpy)

    draw()


def test_darray_is_an_array_api_namespace_for_hypothesis():
    xps = make_strategies_namespace(da)
    assert xps.api_version == "2024.12"

    @QUICK
    @given(xps.arrays(xps.scalar_dtypes(), xps.array_shapes(max_dims=3)), xps.floating_dtypes())
    def draw(x, dtype):
        assert isinstance(x, da.DArray)
        assert da.astype(x, dtype).dtype == dtype

    draw()
