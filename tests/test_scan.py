"""cumulative_sum / cumulative_prod (darray/ops/scan.py, kernels/scan.cl) against NumPy 2's
``np.cumulative_sum`` / ``np.cumulative_prod``.

The device scans each row in chunks, scans the chunk totals the same way (recursively for
long rows) and adds them back, so the order of float operations differs from NumPy's serial
loop: random float values are small powers of two, +-0, +-inf and NaN (exact in any order);
long float inputs carry integer values.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import darray as da

OPS = {"sum": (da.cumulative_sum, np.cumulative_sum), "prod": (da.cumulative_prod, np.cumulative_prod)}
EXACT_F = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, np.inf, -np.inf, np.nan]


def _check(op, xd, xn, **kw):
    """darray's scan equals NumPy's (shape, dtype, values; -0.0 signs too), or raises its exception class."""
    fd, fn = OPS[op]
    try:
        want = fn(xn, **kw)
    except Exception as err:  # noqa: BLE001
        with pytest.raises(type(err)):
            fd(xd, **kw)
        return
    got = fd(xd, **kw)
    assert isinstance(got, da.DArray) and got.place == xd.place
    tol = {"rtol": 1e-12, "atol": 0.0} if want.dtype.kind in "fc" and want.dtype.itemsize >= 8 else {}
    assert_same(got, want, **tol)
    if want.dtype.kind == "b":  # a bool is stored as 0 or 1, never another byte
        assert got.get().view(np.uint8).max(initial=0) <= 1
    if want.dtype.kind == "f":
        zeros = want == 0
        np.testing.assert_array_equal(np.signbit(got.get()[zeros]), np.signbit(want[zeros]))


def _view(xp_arr, kind):
    if kind == "T":
        return xp_arr.T
    if kind == "flip":
        return xp_arr[(slice(None, None, -1),) * xp_arr.ndim]
    if kind == "step":
        return xp_arr[(slice(None), slice(None, None, -2))[-xp_arr.ndim:]]
    return xp_arr


CELLS = [("sum", "int32"), ("sum", "float32"), ("prod", "float64"), ("prod", "int16")]


@pytest.mark.parametrize("op, dtype", CELLS, ids=[f"{o}-{d}" for o, d in CELLS])
@given(data=st.data())
def test_matches_numpy(op, dtype, data):
    """Random shapes (empty axes too), views, axes (negative too) and include_initial."""
    dtype = np.dtype(dtype)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6), label="shape")
    elements = st.sampled_from(EXACT_F) if dtype.kind == "f" else st.integers(-3, 3)
    x = data.draw(hnp.arrays(dtype, shape, elements=elements), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    xn, xd = _view(x, kind), _view(da.asarray(x), kind)
    axis = data.draw(st.integers(-xn.ndim, xn.ndim - 1) | (st.none() if xn.ndim == 1 else st.nothing()),
                     label="axis")
    include_initial = data.draw(st.booleans(), label="include_initial")
    _check(op, xd, xn, axis=axis, include_initial=include_initial)


def test_axis_rules():
    """axis may be omitted for 1-D (and 0-d, as a 1-element array) input; N-D input needs it."""
    for op in OPS:
        v = np.arange(1, 6, dtype=np.int32)
        _check(op, da.asarray(v), v)
        _check(op, da.asarray(v), v, include_initial=True)
        s = np.asarray(np.int32(5))
        _check(op, da.asarray(s), s)
        _check(op, da.asarray(s), s, include_initial=True)
        m = np.ones((2, 3), np.int32)
        with pytest.raises(ValueError, match="axis"):
            OPS[op][0](da.asarray(m))
        for axis in (2, -3):
            with pytest.raises(AxisError) as info:
                OPS[op][0](da.asarray(m), axis=axis)
            assert isinstance(info.value, ValueError) and isinstance(info.value, IndexError)
        _check(op, da.asarray(m), m, axis=-1)  # the next call works


def test_dtypes():
    """Integer and bool input widens like sum/prod (int8 -> int64, uint16 -> uint64, bool -> int64);
    ``dtype=`` chooses the result dtype (narrow ones wrap); complex sums and products."""
    x = np.array([100, 100, 100, -7], np.int8)
    for op in OPS:
        _check(op, da.asarray(x), x)
        _check(op, da.asarray(x), x, dtype=np.int8)
        _check(op, da.asarray(x), x, dtype=np.float64)
    u = np.full(300, 65535, np.uint16)
    _check("sum", da.asarray(u), u)
    _check("sum", da.asarray(u), u, dtype=np.uint16)
    b = np.array([True, False, True, True])
    _check("sum", da.asarray(b), b)
    _check("prod", da.asarray(b), b, include_initial=True)
    long_b = np.ones(300, bool)
    long_b[5] = False
    for op in OPS:  # dtype=bool: logical or / and (a running count would wrap to False at 256)
        _check(op, da.asarray(long_b), long_b, dtype=bool)
        _check(op, da.asarray(long_b), long_b, dtype=bool, include_initial=True)
    f = np.array([0.5, 1.5, -2.0], np.float32)
    _check("sum", da.asarray(f), f, dtype=np.float64)
    z = np.array([1 + 1j, 0.5 - 2j, -1j, 2], np.complex64)
    for op in OPS:
        _check(op, da.asarray(z), z)
        _check(op, da.asarray(z), z, include_initial=True)
    zz = np.array([[1 + 1j, 0.5 - 2j], [-1j, 2]], np.complex128)
    _check("prod", da.asarray(zz), zz, axis=0)
    assert da.cumulative_sum(da.asarray(np.ones(3, np.int32))).dtype == np.int64


def test_signed_zero_and_special_values():
    """A run of -0.0 stays -0.0 (NumPy starts from the first element), also after an initial 0."""
    z = np.array([-0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 2.0, np.nan, 3.0])
    for include_initial in (False, True):
        _check("sum", da.asarray(z), z, include_initial=include_initial)
        _check("prod", da.asarray(z), z, include_initial=include_initial)
    c = np.array([complex(-0.0, -0.0), complex(-0.0, 1.0)], np.complex128)
    _check("sum", da.asarray(c), c)


def test_long_1d():
    """Rows longer than 100k elements are scanned in chunks whose totals are scanned again
    (several levels), then added back."""
    rng = np.random.default_rng(4)
    n = 300_001
    x = rng.integers(-100, 100, n).astype(np.int32)
    _check("sum", da.asarray(x), x)
    _check("sum", da.asarray(x.astype(np.float64)), x.astype(np.float64))
    _check("sum", da.asarray(x)[::-3], x[::-3], include_initial=True)
    p = rng.choice(np.array([1, -1], np.int64), n)
    _check("prod", da.asarray(p), p)
    f = np.ones(n, np.float32)
    _check("sum", da.asarray(f), f)  # exact up to 2**24
    big = rng.integers(0, 2, 2_000_001).astype(np.int8)
    _check("sum", da.asarray(big), big)


def test_many_short_rows():
    rng = np.random.default_rng(6)
    rows = rng.integers(-100, 100, (5000, 7)).astype(np.int16)
    rd = da.asarray(rows)
    for axis in (1, 0, -1):
        _check("sum", rd, rows, axis=axis)
    _check("sum", rd[::-2, 1:].T, rows[::-2, 1:].T, axis=1)
    _check("sum", rd.T, rows.T, axis=0, include_initial=True)
    cube = rng.integers(-3, 4, (40, 30, 20)).astype(np.int64)
    for axis in (0, 1, 2):
        _check("prod", da.asarray(cube), cube, axis=axis)


def test_empty():
    for shape, axis in [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((2, 0, 4), 1), ((2, 0, 4), 2)]:
        x = np.zeros(shape, np.float32)
        for op in OPS:
            for include_initial in (False, True):
                _check(op, da.asarray(x), x, axis=axis, include_initial=include_initial)


def test_pending_input():
    """A lazy elementwise input is evaluated first; the scan sees its values."""
    x = np.arange(10, dtype=np.int32)
    xd = da.asarray(x)
    assert_same(da.cumulative_sum(xd * 2 + 1), np.cumulative_sum(x * 2 + 1))


def test_any_place(any_place):
    x = np.array([[1, 2, 3], [4, -5, 6]], np.int32)
    xd = da.asarray(x, device=any_place)
    for op in OPS:
        for axis in (0, 1):
            for include_initial in (False, True):
                got = OPS[op][0](xd, axis=axis, include_initial=include_initial)
                assert got.place == any_place
                assert_same(got, OPS[op][1](x, axis=axis, include_initial=include_initial))
        with pytest.raises(ValueError):
            OPS[op][0](xd)
    assert_same(da.cumulative_sum(xd, axis=1, dtype=da.int8), np.cumulative_sum(x, axis=1, dtype=np.int8))
    v = np.array([-0.0, -0.0])
    assert np.signbit(da.cumulative_sum(da.asarray(v, device=any_place)).get()).all()


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@given(data=st.data(), dtype=st.sampled_from(["int8", "int32", "float32", "float64", "complex64"]))
def test_numpy_form_flattens_and_writes_out(place, name, data, dtype) -> None:
    base, view = data.draw(viewed(dtype, elements=st.integers(-3, 3)))
    a, x = view(base), view(da.asarray(base, device=place))
    tol = {"rtol": 1e-5, "atol": 1e-5}
    assert_same(getattr(da, name)(x), getattr(np, name)(a), **tol)
    assert_same(getattr(x, name)(), getattr(a, name)(), **tol)
    if a.ndim:
        axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
        assert_same(getattr(da, name)(x, axis), getattr(np, name)(a, axis), **tol)
        assert_same(getattr(da, name)(x, axis, "float64"), getattr(np, name)(a, axis, "float64"), **tol)
        want = getattr(np, name)(a, axis)
        out = da.empty(want.shape, dtype=want.dtype, device=place)
        assert getattr(da, name)(x, axis, out=out) is out
        assert_same(out, want, **tol)


def test_rows_read_where_they_lie():
    """Rows that are contiguous but spaced wider than they are long (a column slice), and inputs converted as they
    are read (int8 -> int64, bool -> int64, float32 -> float64), across the chunk boundaries of long rows."""
    rng = np.random.default_rng(9)
    base = rng.integers(-100, 100, (3, 70_007)).astype(np.int8)
    for make in (lambda b: b[:, 1:-5], lambda b: b[::-1, 3:], lambda b: (b > 0)[:, 2:]):
        _check("sum", make(da.asarray(base)), make(base), axis=1)
    f = rng.standard_normal((2, 50_001)).astype(np.float32)
    got = da.cumsum(da.asarray(f)[:, 7:], axis=1, dtype=np.float64)
    np.testing.assert_allclose(got.get(), np.cumsum(f[:, 7:], axis=1, dtype=np.float64), rtol=1e-9, atol=1e-9)
