"""Reductions (darray/ops/reduction.py, darray/lazy/reduce.py) against NumPy.

Kernel budget: every distinct (op, dtype, collapsed rank, contiguity pattern) compiles a
kernel, so the ops x dtype grid is parametrized and hypothesis varies shapes, views, axes,
keepdims and values inside each cell.

Exactness: the random float values are small powers of two, +-0, +-inf and NaN, so sums
(at these sizes), products, extrema and means are exact in any summation order and can be
compared bit for bit (NaN to NaN); float accuracy on real data is tested separately against a
float64 reference.
"""
from __future__ import annotations

import dataclasses
import inspect
import warnings

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, assert_exact, assert_same, complex_values, viewed
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import darray as da
from darray.lazy.table import FOLDS

# conftest runs this module lazily and eagerly. Tests whose inputs are materialised arrays
# launch the same reduction kernels in both modes, so they are marked ``lazy_only`` and run
# once; tests with pending elementwise chains (var, std, count_nonzero, methods, dtype casts)
# run in both.


BASIC = ["sum", "prod", "max", "min", "mean", "any", "all", "argmax", "argmin"]
ALL_OPS = BASIC + ["var", "std", "count_nonzero"]
ARG = {"argmax", "argmin"}
COMPLEX_OPS = ["sum", "prod", "mean", "var", "std", "any", "all", "count_nonzero", "max", "argmax"]
EXACT_F = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, np.inf, -np.inf, np.nan]


def _np(op, x, **kw):
    """NumPy's answer (warnings about empty slices silenced), or the exception it raises."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return getattr(np, op)(x, **kw)
        except Exception as err:  # noqa: BLE001
            return err


def _same_or_raises(op, xd, xn, tol=None, **kw):
    """darray gives NumPy's result (shape, dtype, values), or raises NumPy's exception class."""
    want = _np(op, xn, **kw)
    if isinstance(want, Exception):
        with pytest.raises(type(want)):
            getattr(da, op)(xd, **kw)
        return
    got = getattr(da, op)(xd, **kw)
    assert isinstance(got, da.DArray), type(got)
    assert got.place == xd.place
    assert_same(got, np.asarray(want), **(tol or {}))


def _bcast(xp, a, shape):
    """A stride-0 broadcast view (darray: a view of the same allocation)."""
    if xp is np:
        return np.broadcast_to(a, shape)
    fn = getattr(da, "broadcast_to", None)
    return fn(a, shape) if fn is not None else a._view(a._dim.broadcast_to(shape))


def _view(xp, a, kind):
    """The same view of a NumPy or darray array: transposed, reversed, stepped or broadcast."""
    if kind == "T":
        return a.T
    if kind == "flip":
        return a[(slice(None, None, -1),) * a.ndim]
    if kind == "step":
        return a[(slice(None), slice(None, None, -2))[-a.ndim:]] if a.ndim else a
    if kind == "bcast":  # the first row repeated along axis 0 (stride 0)
        return _bcast(xp, a[:1], a.shape) if a.ndim and a.shape[0] else a
    return a


@st.composite
def _axis(draw, ndim, single=False):
    """None, an int or a tuple of distinct axes (negative ones mixed in, any order)."""
    if ndim == 0:  # axis 0 of a 0-d array: see test_zero_d
        return draw(st.sampled_from([None] if single else [None, ()]))
    pick = st.integers(-ndim, ndim - 1)
    if single:
        return draw(st.none() | pick)
    axes = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    axes = [a - ndim if draw(st.booleans()) else a for a in axes]
    return draw(st.sampled_from([None, tuple(axes), axes[0] if axes else None]))


def _values(dtype):
    if dtype.kind == "f":
        return st.sampled_from(EXACT_F)
    return st.integers(-3, 3)


# (op, dtype) cells of the hypothesis test: every op once, sum and mean with both kinds
CELLS = [("sum", "float32"), ("sum", "int16"), ("prod", "float32"), ("max", "float32"), ("min", "int16"),
         ("mean", "float32"), ("mean", "int16"), ("any", "float32"), ("all", "int16"), ("argmax", "float32"),
         ("argmin", "int16")]


@pytest.mark.lazy_only
@pytest.mark.parametrize("op, dtype", CELLS, ids=[f"{o}-{d}" for o, d in CELLS])
@given(data=st.data())
def test_matches_numpy(op, dtype, data):
    """Every basic reduction over random shapes (0-d, empty), views, axes and keepdims.
    Shapes stay under 32 elements per output, so one work-item per output suffices (partial
    results are tested on long inputs below)."""
    dtype = np.dtype(dtype)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3), label="shape")
    x = data.draw(hnp.arrays(dtype, shape, elements=_values(dtype)), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step", "bcast"]), label="view")
    xn, xd = _view(np, x, kind), _view(da, da.asarray(x), kind)
    axis = data.draw(_axis(xn.ndim, single=op in ARG), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    tol = {"rtol": 1e-6, "atol": 0.0} if op == "mean" else None
    _same_or_raises(op, xd, xn, tol, axis=axis, keepdims=keepdims)


def _sample(dtype, shape, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind == "c":
        return (rng.integers(-3, 4, shape) + 1j * rng.integers(-3, 4, shape)).astype(dtype) / 2
    if dtype.kind == "f":
        return rng.integers(-8, 9, shape).astype(dtype) / 4
    lo = 0 if dtype.kind == "u" else -5
    return rng.integers(lo, 6, shape).astype(dtype)


ROTATE = ["prod", "max", "min", "mean", "any", "all", "argmax", "argmin", "count_nonzero"]
ROTATE_C = ["prod", "mean", "any", "all", "count_nonzero", "max", "argmax", "var", "std"]


@pytest.mark.parametrize("index, dtype", list(enumerate(DEVICE_DTYPES)), ids=[str(d) for d in DEVICE_DTYPES])
def test_every_dtype(index, dtype):
    """Values per dtype: sum (its widening rule) and two more ops per dtype, rotated so that
    every op meets about three dtypes of different kinds (one kernel per op and dtype; all of them
    would be ~150 compiles). Result dtypes of every op x dtype are checked in test_result_dtypes."""
    rng = np.random.default_rng(7)
    x = _sample(dtype, (3, 5), rng)
    xd = da.asarray(x)
    rotate = ROTATE_C if np.dtype(dtype).kind == "c" else ROTATE
    for op in ["sum"] + [rotate[(2 * index + j) % len(rotate)] for j in range(2)]:
        for axis in (None, -1):
            tol = {"rtol": 1e-5, "atol": 1e-6} if op in ("mean", "var", "std") else None
            _same_or_raises(op, xd, x, tol, axis=axis)


@pytest.mark.parametrize("dtype", DEVICE_DTYPES, ids=str)
def test_result_dtypes(dtype):
    """NumPy's exact result dtype for every op (sum of int32 is int64, of uint8 uint64, of bool
    int64; mean of ints float64; var of complex real; argmax int64; any/all bool), from empty
    outputs, which need no kernel."""
    x = np.zeros((0, 3), dtype)
    xd = da.asarray(x)
    for op in ALL_OPS:
        want = _np(op, x, axis=1)
        got = getattr(da, op)(xd, axis=1)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), op
        if op in ("sum", "prod", "mean"):
            for dt in ("float64", "int8", "complex128"):
                want = _np(op, x, axis=1, dtype=dt)
                assert getattr(da, op)(xd, axis=1, dtype=dt).dtype == want.dtype, (op, dt)


def test_result_dtypes_and_place():
    """Results stay on the device as DArrays; full reductions are 0-d."""
    x = da.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    for op in ALL_OPS:
        r = getattr(da, op)(x)
        assert isinstance(r, da.DArray) and r.shape == () and r.place == x.place, op
        assert r.dtype == _np(op, np.arange(12, dtype=np.int32).reshape(3, 4)).dtype, op
    assert da.sum(x, axis=1).shape == (3,)
    assert da.max(x, axis=(0, 1), keepdims=True).shape == (1, 1)


# -- empty and 0-d ------------------------------------------------------------------------------

@pytest.mark.lazy_only
@pytest.mark.parametrize("op", ALL_OPS)
def test_empty(op):
    """Empty sums are 0, products 1, any False, all True, mean NaN; max/min/argmax/argmin of an
    empty reduced axis raise ValueError, but an empty output over a non-empty axis does not."""
    for shape, axes in [((0,), [None, 0]), ((0, 3), [None, 0, 1, (0, 1)]), ((3, 0), [0, 1, -1]),
                        ((2, 0, 3), [1, (0, 2), (1, 2)])]:
        x = np.zeros(shape, np.float32)
        xd = da.asarray(x)
        for axis in axes:
            if op in ARG and isinstance(axis, tuple):
                continue
            for keepdims in (False, True):
                _same_or_raises(op, xd, x, axis=axis, keepdims=keepdims)
    if op in ("max", "min", "argmax", "argmin"):
        with pytest.raises(ValueError, match=op):
            getattr(da, op)(da.zeros((0,), dtype=da.float32))


def test_empty_values():
    e = da.zeros((0, 2), dtype=da.int32)
    assert da.sum(e).get() == 0 and da.sum(e).dtype == np.int64
    assert da.prod(e, axis=0).get().tolist() == [1, 1]
    assert not da.any(e).get() and da.all(e).get()
    assert np.isnan(da.mean(e).get())
    assert da.max(e, axis=1).shape == (0,)
    assert da.argmin(e, axis=1).shape == (0,)


@pytest.mark.lazy_only
@pytest.mark.parametrize("op", ALL_OPS)
def test_zero_d(op):
    """0-d input reduces over axis None or () to a 0-d result. Deliberate difference: axis 0 or
    -1 of a 0-d array is an AxisError for every op (the Array API rule, and NumPy's for mean, var
    and std), where NumPy's ufunc reductions and argmax accept it as a legacy quirk."""
    x = np.asarray(np.float32(2.5))
    xd = da.asarray(x)
    for axis in ([None] if op in ARG else [None, ()]):
        for keepdims in (False, True):
            _same_or_raises(op, xd, x, axis=axis, keepdims=keepdims)
    for axis in (0, -1, 1, (0,)):
        with pytest.raises((AxisError, TypeError) if op in ARG else AxisError):
            getattr(da, op)(xd, axis=axis)


def test_empty_axis_tuple_is_identity():
    x = np.arange(6, dtype=np.int8).reshape(2, 3)
    for op in ("sum", "max", "mean", "any"):
        _same_or_raises(op, da.asarray(x), x, axis=())


# -- special values -----------------------------------------------------------------------------

@pytest.mark.lazy_only
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_nan_inf_small(dtype):
    x = np.array([[1, np.nan, 3, 3], [np.inf, -np.inf, 2, 2], [-0.0, 0.0, np.nan, -1],
                  [np.inf, np.inf, -np.inf, np.nan], [5, 5, -5, -5]], dtype)
    xd = da.asarray(x)
    for op in ("sum", "prod", "max", "min", "mean", "argmax", "argmin"):
        for axis in (None, 0, 1):
            _same_or_raises(op, xd, x, axis=axis)


@pytest.mark.lazy_only
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@given(data=st.data())
def test_nan_and_ties_across_chunks(dtype, data):
    """Long inputs reduce in chunks whose partial results are folded again (by the last chunk of
    an output on CPU devices): NaN still propagates, argmax/argmin return the first NaN, else
    the first of tied extremes, wherever they fall."""
    n = 70_000
    x = np.zeros(n, dtype)
    picks = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True), label="positions")
    special = data.draw(st.sampled_from([np.nan, np.inf, -np.inf, 7.0, -7.0]), label="value")
    x[picks] = special
    if data.draw(st.booleans(), label="nan too"):
        x[data.draw(st.integers(0, n - 1), label="nan at")] = np.nan
    xd = da.asarray(x)
    for op in ("sum", "max", "min", "mean", "argmax", "argmin"):
        _same_or_raises(op, xd, x)
    x2 = x.reshape(70, 1000)
    x2d = da.asarray(x2)
    for op in ("argmax", "argmin", "max"):
        _same_or_raises(op, x2d, x2, axis=1)
        _same_or_raises(op, x2d.T, x2.T, axis=0)
        _same_or_raises(op, x2d, x2, axis=0)  # kept axis innermost: the column kernel


def test_argmax_ties_first_index():
    x = np.array([[1, 3, 3, 1], [2, 2, 2, 2], [0, -1, -1, 0]], np.int32)
    for op in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            _same_or_raises(op, da.asarray(x), x, axis=axis)
    for extreme in (np.iinfo(np.int64).min, np.iinfo(np.int64).max):
        x = np.full(1000, extreme, np.int64)
        _same_or_raises("argmax", da.asarray(x), x)
        _same_or_raises("argmin", da.asarray(x), x)
    x = np.full(1000, np.iinfo(np.uint64).max, np.uint64)
    _same_or_raises("argmin", da.asarray(x), x)
    _same_or_raises("max", da.asarray(x), x)


def test_signed_zero():
    """-0.0 compares equal to 0.0: sums of -0.0 are +0.0 (NumPy's identity), products keep -0.0."""
    x = np.array([-0.0, -0.0], np.float32)
    assert not np.signbit(da.sum(da.asarray(x)).get())
    assert np.signbit(da.prod(da.asarray(x[:1])).get())
    assert da.max(da.asarray(x)).get() == 0.0
    assert da.argmax(da.asarray(np.array([-0.0, 0.0]))).get() == 0


def test_integer_wraparound():
    """Integer sums and products wrap modulo 2**64 like NumPy's; narrow dtype= wraps narrower."""
    x = np.full(1000, 2**62, np.int64)
    _same_or_raises("sum", da.asarray(x), x)
    u = np.full(1000, 3 * 2**62, np.uint64)
    _same_or_raises("sum", da.asarray(u), u)
    _same_or_raises("prod", da.asarray(np.full(100, 3, np.int64)), np.full(100, 3, np.int64))
    i8 = np.full(100, 100, np.int8)
    _same_or_raises("sum", da.asarray(i8), i8, dtype=np.int8)
    assert da.sum(da.asarray(i8)).get() == 10_000
    b = np.ones(300, bool)
    _same_or_raises("sum", da.asarray(b), b)
    _same_or_raises("prod", da.asarray(b), b)
    _same_or_raises("mean", da.asarray(np.full(100, 2**60, np.int64)), np.full(100, 2**60, np.int64))


@pytest.mark.parametrize("op", ["sum", "prod", "mean"])
def test_dtype_argument(op):
    x = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    xd = da.asarray(x)
    for dtype in (np.int16, np.float64) if op != "sum" else (np.int16, np.float64, np.uint8):
        for axis in (None, 1):  # an integer mean truncates, like NumPy's (float64 division, then cast)
            _same_or_raises(op, xd, x, {"rtol": 1e-6, "atol": 0.0}, axis=axis, dtype=dtype)
    if op == "mean":
        _same_or_raises(op, xd - 7, x - 7, axis=1, dtype=np.uint8)  # wraps, then truncates
    f = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    _same_or_raises(op, da.asarray(f), f, {"rtol": 1e-12, "atol": 1e-12}, axis=1, dtype=np.float64)
    with pytest.raises(TypeError):
        da.max(xd, dtype=np.float32)


def test_complex():
    rng = np.random.default_rng(3)
    z = (rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7))).astype(np.complex64)
    zd = da.asarray(z)
    tol = {"rtol": 1e-5, "atol": 1e-5}
    for op in ("sum", "prod", "mean", "var", "std"):
        for axis in (None, 0, 1):
            _same_or_raises(op, zd, z, tol, axis=axis)
    z[2, 3] = complex(np.nan, 0)
    _same_or_raises("sum", da.asarray(z), z, tol, axis=1)
    w = np.array([[0, 1j], [0, 0], [1, 1j]], np.complex128)
    for op in ("any", "all", "count_nonzero"):
        for axis in (None, 0, 1):
            _same_or_raises(op, da.asarray(w), w, axis=axis)
    assert da.var(zd).dtype == np.float32 and da.std(zd, axis=0).dtype == np.float32


@given(data=st.data())
def test_complex_order(data):
    """max, min, argmax, argmin of complex in NumPy's order, bit for bit: the first NaN (in either
    part) wins, else the first of equal values (0j or -0j); views, an axis, keepdims, a pending
    chain. First in C order: NumPy's max walks a transposed or reversed view in its memory's order
    (and several axes in an order of its own), so its reference is a C-contiguous copy."""
    dtype = data.draw(st.sampled_from([np.complex64, np.complex128]), label="dtype")
    base, view = data.draw(viewed(dtype, min_dims=0, elements=complex_values()), label="x")
    xn = view(base).copy(order="C")
    if not xn.size:
        return
    x = view(da.asarray(base))
    x = da.negative(da.negative(x)) if data.draw(st.booleans(), label="pending") else x
    keepdims = data.draw(st.booleans(), label="keepdims")
    axis = data.draw(_axis(xn.ndim, single=True), label="axis")
    for op in ("max", "min", "argmax", "argmin"):
        assert_exact(getattr(da, op)(x, axis=axis, keepdims=keepdims), getattr(np, op)(xn, axis=axis,
                                                                                         keepdims=keepdims))


# -- accuracy -----------------------------------------------------------------------------------

@pytest.mark.lazy_only
def test_float32_sum_accuracy():
    """A float32 sum of 1e6 values is blockwise (not serial): its error relative to sum(|x|) is
    close to NumPy's pairwise error; a serial float32 loop would be off by ~1e-4 here."""
    rng = np.random.default_rng(11)
    for x in (rng.random(10**6, dtype=np.float32), rng.standard_normal(10**6).astype(np.float32),
              (rng.random(10**6) + 1000).astype(np.float32)):
        ref = np.sum(x, dtype=np.float64)
        scale = np.sum(np.abs(x), dtype=np.float64)
        err = abs(float(da.sum(da.asarray(x)).get()) - ref) / scale
        np_err = abs(float(np.sum(x)) - ref) / scale
        assert err <= 4 * np_err + 4 * 2.0**-24, (err, np_err)  # a few roundings of the result
    x = rng.standard_normal((2000, 300)).astype(np.float32)
    for axis in (0, 1):
        ref = x.sum(axis=axis, dtype=np.float64)
        scale = np.abs(x).sum(axis=axis, dtype=np.float64)
        got = da.sum(da.asarray(x), axis=axis).get()
        assert np.max(np.abs(got - ref) / scale) < 1e-6
        assert np.max(np.abs(da.mean(da.asarray(x), axis=axis).get() - ref / x.shape[axis]) * x.shape[axis]
                      / scale) < 1e-6


@pytest.mark.lazy_only
def test_large_outputs_and_inputs():
    """Partial reductions with many outputs, tall axis-0 reductions and non-adjacent axes."""
    rng = np.random.default_rng(5)
    x = rng.integers(-50, 50, (3000, 70)).astype(np.int32)
    xd = da.asarray(x)
    for op in ("sum", "max", "argmin"):
        for axis in (0, 1):
            _same_or_raises(op, xd, x, axis=axis)
    _same_or_raises("argmax", xd, x)
    _same_or_raises("argmax", xd.T, x.T)
    y = rng.integers(-5, 5, (20, 30, 40)).astype(np.int32)
    _same_or_raises("sum", da.asarray(y), y, axis=(0, 2))
    _same_or_raises("max", da.asarray(y)[::-1, ::3], y[::-1, ::3], axis=(2, 0), keepdims=True)


KEPT_INNER = [("sum", "int32"), ("sum", "float32"), ("max", "float32"), ("argmin", "float32"), ("mean", "int32"),
              ("all", "int32")]


@pytest.mark.lazy_only
@pytest.mark.parametrize("op, dtype", KEPT_INNER, ids=[f"{o}-{d}" for o, d in KEPT_INNER])
@given(data=st.data())
def test_kept_axis_innermost(op, dtype, data):
    """Reductions that keep the innermost memory axis (``sum(x, axis=0)``) run the column kernel
    on CPU devices (a task streams blocks of rows of a stripe of outputs, float8 at a time where
    it can, then the rest): output counts that are and are not multiples of 8, strided and
    reversed views (row and column offsets from coordinates)."""
    dtype = np.dtype(dtype)
    inner = data.draw(st.integers(16, 40), label="inner")
    outer = data.draw(st.lists(st.integers(1, 40), min_size=1, max_size=2), label="outer")
    shape = tuple(outer) + (inner,)
    elements = st.sampled_from(EXACT_F) if dtype.kind == "f" else st.integers(-3, 3)
    x = data.draw(hnp.arrays(dtype, shape, elements=elements), label="x")
    kind = data.draw(st.sampled_from(["", "flip", "step"]), label="view")
    xn, xd = _view(np, x, kind), _view(da, da.asarray(x), kind)
    if op in ARG:
        axis = 0
    else:
        axes = data.draw(st.lists(st.integers(0, xn.ndim - 2), min_size=1, unique=True), label="axes")
        axis = tuple(axes)
    tol = {"rtol": 1e-6, "atol": 0.0} if op == "mean" else None
    _same_or_raises(op, xd, xn, tol, axis=axis, keepdims=data.draw(st.booleans(), label="keepdims"))


@pytest.mark.lazy_only
def test_kept_axis_innermost_long():
    """A long reduced axis with the kept axis innermost: bands of rows whose [P, M] partials the
    last band folds; rows wider than one stripe (4096 outputs)."""
    rng = np.random.default_rng(8)
    w = rng.integers(-9, 9, (40, 8192 + 37)).astype(np.float32)
    for op in ("sum", "max", "argmin"):
        _same_or_raises(op, da.asarray(w), w, axis=0)
    x = rng.integers(-1000, 1000, (5000, 37)).astype(np.int64)
    xd = da.asarray(x)
    for op in ("sum", "argmax", "min"):
        _same_or_raises(op, xd, x, axis=0)
    f = rng.standard_normal((3000, 50)).astype(np.float32)
    ref = f.sum(axis=0, dtype=np.float64)
    got = da.sum(da.asarray(f), axis=0).get()
    assert np.max(np.abs(got - ref) / np.abs(f).sum(axis=0, dtype=np.float64)) < 1e-6
    assert_same(da.mean(da.asarray(f)[:, ::2], axis=0), f[:, ::2].mean(axis=0), rtol=1e-5, atol=1e-6)
    assert_same(da.var(da.asarray(f), axis=0), f.var(axis=0), rtol=1e-5, atol=1e-6)  # (x - mean)**2 fused


FILLS = ("reduce_scratch", "bounds_guard")  # a stream's one-time scratch fill; DARRAY_CHECK_BOUNDS's guard fills


def _launch_names(fn):
    """Names of what ``fn`` launches (fills of new allocations left out: see FILLS)."""
    with da.profile() as p:
        fn().eval()
        da.synchronize()
    return [rec.name for rec in p.launches if rec.name not in FILLS]


@pytest.mark.lazy_only
def test_one_launch_on_cpu(monkeypatch):
    """In the CPU forms every reduction is one launch: row kernels whose last chunk of an output
    folds the partials, column kernels whose last band folds a stripe. The counters are zero
    again after each launch, so reductions of other shapes and ops in a row stay right, and
    the scratch grows when an op needs more counters or partials. (Forced on any device.)"""
    import darray.lazy.reduce as reduce_mod

    monkeypatch.setattr(reduce_mod, "_chunked", lambda place: True)
    rng = np.random.default_rng(12)
    cases = [(rng.standard_normal(300_000).astype(np.float32), None),
             (rng.standard_normal((3, 70_000)).astype(np.float32), 1),
             (rng.standard_normal((2000, 70)).astype(np.float32), 0),
             (rng.integers(-9, 9, (5000, 4100)).astype(np.int8), 1),  # 5000 counters: the scratch grows
             (rng.integers(-9, 9, (9000, 40)).astype(np.int64), 0)]
    for _ in range(2):
        for x, axis in cases:
            xd = da.asarray(x)
            for op in ("sum", "argmax", "min", "mean"):
                names = _launch_names(lambda op=op, xd=xd, axis=axis: getattr(da, op)(xd, axis=axis))
                assert names == [op], (op, x.shape, axis)
                _same_or_raises(op, xd, x, {"rtol": 1e-5, "atol": 1e-5} if op == "mean" else None, axis=axis)


@pytest.mark.lazy_only
def test_column_kernel_arg_blocks():
    """argmax/argmin/max/min over axis 0 of a tall matrix: float8 blocks of rows, the scalar tail
    columns, several bands; the first NaN, else the first of tied extremes, wherever they fall
    (inside a block, on block and band edges). The transposed copy checks the row kernel's float8
    lanes the same way (ties and NaN in different lanes, an all -inf row)."""
    rng = np.random.default_rng(13)
    x = rng.integers(-3, 4, (5003, 37 + 64)).astype(np.float32)
    x[[0, 7, 8, 2047, 2048, 5002], 5] = 9  # ties across blocks and bands: the first wins
    x[[9, 17, 25, 4000], 70] = np.nan  # the same row-kernel lane, the same band in different blocks
    x[[1, 3], 71] = np.nan  # one block of rows
    x[[16, 17], 99] = -9
    x[3001, 99] = np.nan
    x[:, 40] = -np.inf
    xd = da.asarray(x)
    xt = np.ascontiguousarray(x.T)  # the same rows for the row kernel (float8 lanes, then the tail)
    xtd = da.asarray(xt)
    for op in ("argmax", "argmin", "max", "min"):
        _same_or_raises(op, xd, x, axis=0)
        _same_or_raises(op, xd[1:], x[1:], axis=0)
        _same_or_raises(op, xtd, xt, axis=1)
        _same_or_raises(op, xtd[:, 3:], xt[:, 3:], axis=1)
        for row in (5, 40, 70, 99):
            _same_or_raises(op, xtd[row], xt[row])


@pytest.mark.lazy_only
def test_column_kernel_fewer_groups(monkeypatch):
    """The column kernel loops over its tasks, so it is right with fewer work-groups than tasks
    (a launch whose work-group size differs from the one the plan assumed)."""
    import darray.lazy.reduce as reduce_mod

    monkeypatch.setattr(reduce_mod, "_chunked", lambda place: True)  # the CPU plan, in every form
    rng = np.random.default_rng(15)
    x = rng.integers(-9, 9, (3000, 40)).astype(np.float32)
    xd = da.asarray(x)
    ops = ("sum", "argmin", "max")
    reduce_mod._cpu_plan.cache_clear()
    try:
        rt = da.place.runtime(xd.place)
        with monkeypatch.context() as mp:  # plans made for one work-item per group ...
            mp.setattr(rt, "info", dataclasses.replace(rt.info, work_group=1))
            for op in ops:
                getattr(da, op)(xd, axis=0).eval()
        # ... launched in groups of 16: fewer groups than tasks
        monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, work_group=16))
        for op in ops:
            _same_or_raises(op, xd, x, axis=0)
    finally:
        reduce_mod._cpu_plan.cache_clear()


@pytest.mark.lazy_only
def test_column_sum_accuracy():
    """A tall float32 axis-0 sum is blocked (rows, then blocks, then bands): no worse than NumPy's."""
    rng = np.random.default_rng(14)
    x = (rng.random((200_000, 24)) + 100).astype(np.float32)
    ref = x.sum(axis=0, dtype=np.float64)
    err = np.max(np.abs(da.sum(da.asarray(x), axis=0).get() - ref) / ref)
    np_err = np.max(np.abs(x.sum(axis=0) - ref) / ref)
    assert err <= max(np_err, 1e-6), (err, np_err)


def _rows_with_edges(rng):
    """A 40x3000 float32 matrix (NumPy and darray) whose rows hold ties in different lanes (row
    2 and 5: the first wins), NaN (row 7) and all -inf (row 9)."""
    x = rng.integers(-3, 4, (40, 3000)).astype(np.float32)
    x[[2, 5], [17, 2999]] = 9
    x[7, [33, 1000, 2000]] = np.nan
    x[9, :] = -np.inf
    return x, da.asarray(x)


def _check_long_tasks(rng, axes) -> None:
    """Checks the work-group forms share: NaN and first-index ties across the tasks of a long
    vector, 64-bit and 8-bit integers over ``axes``, complex, fused and strided inputs, and the
    float32 accuracy of a long sum."""
    n = np.zeros(300_000, np.float32)
    n[[777, 150_000, 299_999]] = np.nan
    n[[5, 200_000]] = 3
    for op in ("argmax", "max", "argmin", "min", "sum", "mean"):
        _same_or_raises(op, da.asarray(n), n)
        _same_or_raises(op, da.asarray(-n), -n)
    i = rng.integers(-2**40, 2**40, (3, 5000))
    for op in ("sum", "max", "argmin"):
        for axis in axes:
            _same_or_raises(op, da.asarray(i), i, axis=axis)
            _same_or_raises(op, da.asarray(i.astype(np.int8)), i.astype(np.int8), axis=axis)
    c = (rng.standard_normal((2, 4000)) + 1j * rng.standard_normal((2, 4000))).astype(np.complex64)
    _same_or_raises("sum", da.asarray(c), c, {"rtol": 1e-5}, axis=1)
    _same_or_raises("argmax", da.asarray(c), c, axis=1)
    a = rng.standard_normal((600, 500)).astype(np.float32)
    b = rng.standard_normal((600, 500)).astype(np.float32)
    ad, bd = da.asarray(a), da.asarray(b)
    assert_same(da.sum(ad.T * 2 + bd.T, axis=1), (a.T * 2 + b.T).sum(axis=1), rtol=1e-4, atol=1e-3)
    assert_same(da.sum(ad[::2, ::3] * bd[::2, ::3]), (a[::2, ::3] * b[::2, ::3]).sum(), rtol=1e-4)
    assert_same(da.argmin(ad[:, ::-1], axis=1), a[:, ::-1].argmin(axis=1))
    f = rng.random(2 * 10**6, dtype=np.float32)
    ref, scale = f.sum(dtype=np.float64), np.abs(f).sum(dtype=np.float64)
    err = abs(float(da.sum(da.asarray(f)).get()) - ref) / scale
    assert err <= 4 * abs(float(f.sum()) - ref) / scale + 4 * 2.0**-24, err


@pytest.mark.lazy_only
@pytest.mark.parametrize("local,units", [(256, 132), (64, 2), (1, 2)])
def test_tree_form(monkeypatch, local, units):
    """The GPU plan (tree kernels: teams of lanes, a local-memory tree, the last task of an output
    folds the partials), run on whatever device is here with the work-group size and compute
    units of an H100 and of smaller devices: one task per output (stage ``tree``) and several
    (``trees``), teams of one lane on neighbouring outputs (``sum(x, axis=0)``) and of many,
    NaN and first-index ties across lanes, teams and tasks, integers, complex, mean, strided
    and fused inputs, float32 accuracy."""
    import darray.lazy.reduce as reduce_mod

    place = da.place.current()
    monkeypatch.setattr(reduce_mod, "_chunked", lambda place: False)
    rt = da.place.runtime(place)
    monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, work_group=local, compute_units=units))
    real_plan = reduce_mod._gpu_plan
    real_plan.cache_clear()
    try:
        rng = np.random.default_rng(9)
        plans = set()
        monkeypatch.setattr(reduce_mod, "_gpu_plan",
                            lambda *a: plans.add((real_plan(*a)[4].stage, real_plan(*a)[4].team)) or real_plan(*a))
        x, xd = _rows_with_edges(rng)
        for op in ("sum", "prod", "max", "min", "argmax", "argmin", "mean", "any", "all"):
            tol = {"rtol": 1e-5} if op in ("mean", "prod") else None
            for axis in (None, 0, 1):
                _same_or_raises(op, xd, x, tol, axis=axis)
            _same_or_raises(op, xd[:, 5:], x[:, 5:], tol, axis=1)
            _same_or_raises(op, xd.T, x.T, tol, axis=0)
        _check_long_tasks(rng, (0, 1))
        stages = {stage for stage, _ in plans}
        assert {"tree", "trees"} <= stages, plans
        assert local == 1 or {1, local} <= {team for _, team in plans}, plans
    finally:
        real_plan.cache_clear()


@pytest.mark.lazy_only
@pytest.mark.parametrize("local", [16, 4])
def test_group_form(monkeypatch, local):
    """The work-group row form (Intel's CPU runtime: the first SIMD group of a work-group walks
    its task interleaved, a local-memory tree, the last task folds the partials), run on
    whatever device is here: one task per output (stage ``group``) and several (``groups``),
    NaN and first-index ties across lanes and tasks, integers, complex, mean, strided and fused
    inputs, float32 accuracy; ``local=4``: work-groups smaller than a SIMD group (several lanes
    per work-item)."""
    import darray.lazy.reduce as reduce_mod

    place = da.place.current()
    monkeypatch.setattr(reduce_mod, "_chunked", lambda place: True)
    monkeypatch.setattr(reduce_mod, "_grouped", lambda place: True)
    # every op and strided inputs too (the plan keeps the form to dense sums and products)
    monkeypatch.setattr(reduce_mod, "GROUP_OPS", ("sum", "prod", "max", "min", "any", "all", "argmax", "argmin"))
    monkeypatch.setattr(reduce_mod, "_dense", lambda inputs, shape: True)
    monkeypatch.setattr(reduce_mod, "_columns", {})
    rt = da.place.runtime(place)  # two compute units, as on the CPU machines the plans were tuned on
    monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, work_group=local, compute_units=2))
    real_plan = reduce_mod._cpu_plan
    real_plan.cache_clear()
    try:
        rng = np.random.default_rng(31)
        stages = set()
        monkeypatch.setattr(reduce_mod, "_cpu_plan", lambda *a: stages.add(real_plan(*a)[4].stage) or real_plan(*a))
        x, xd = _rows_with_edges(rng)
        for op in ("sum", "prod", "max", "min", "argmax", "argmin", "mean", "any", "all"):
            _same_or_raises(op, xd, x, {"rtol": 1e-5} if op in ("mean", "prod") else None, axis=1)
            _same_or_raises(op, xd[:, 5:], x[:, 5:], {"rtol": 1e-5} if op in ("mean", "prod") else None, axis=1)
            for row in (2, 5, 7, 9):
                _same_or_raises(op, xd[row], x[row], {"rtol": 1e-5} if op == "mean" else None)
        _check_long_tasks(rng, (1,))
        assert {"group", "groups"} <= stages, stages
    finally:
        real_plan.cache_clear()


# -- var, std, count_nonzero, methods -----------------------------------------------------------

@given(data=st.data())
def test_var_std(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=5), label="shape")
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-100, 100)), label="x")
    axis = data.draw(_axis(x.ndim), label="axis")
    correction = data.draw(st.sampled_from([0, 1, 1.5]), label="correction")
    keepdims = data.draw(st.booleans(), label="keepdims")
    tol = {"rtol": 1e-9, "atol": 1e-9}
    for op in ("var", "std"):
        want = _np(op, x, axis=axis, ddof=correction, keepdims=keepdims)
        got = getattr(da, op)(da.asarray(x), axis=axis, correction=correction, keepdims=keepdims)
        assert_same(got, np.asarray(want), **tol)
        got = getattr(da.asarray(x), op)(axis, ddof=correction, keepdims=keepdims)
        assert_same(got, np.asarray(want), **tol)


def test_var_int_and_large_correction():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    _same_or_raises("var", da.asarray(x), x, {"rtol": 1e-12, "atol": 0}, axis=1)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.var(np.arange(3.0), ddof=5)
    assert_same(da.var(da.asarray(np.arange(3.0)), correction=5), want)
    f = np.arange(6, dtype=np.float32)
    assert_same(da.std(da.asarray(f)), np.std(f), rtol=1e-6, atol=0)


def test_count_nonzero():
    x = (np.arange(60).reshape(3, 4, 5) % 3).astype(np.int16)
    xd = da.asarray(x)
    for axis in (None, 0, (0, 2), -1):
        for keepdims in (False, True):
            _same_or_raises("count_nonzero", xd, x, axis=axis, keepdims=keepdims)
    f = np.array([0, np.nan, -0.0, np.inf])
    _same_or_raises("count_nonzero", da.asarray(f), f)
    assert da.count_nonzero(xd).dtype == np.int64


def test_methods():
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5) / 7
    xd = da.asarray(x)
    tol = {"rtol": 1e-6, "atol": 1e-6}
    assert_same(xd.sum(axis=0), x.sum(axis=0), **tol)
    assert_same(xd.sum(0), x.sum(0), **tol)
    assert_same(xd.max(), x.max())
    assert_same(xd.min(axis=(1, 2), keepdims=True), x.min(axis=(1, 2), keepdims=True))
    assert_same(xd.mean(1), x.mean(1), **tol)
    assert_same(xd.prod(axis=2), x.prod(axis=2), **tol)
    assert_same(xd.var(ddof=1), x.var(ddof=1), **tol)
    assert_same(xd.std(axis=-1, ddof=2), x.std(axis=-1, ddof=2), **tol)
    assert_same(xd.var(correction=1), x.var(ddof=1), **tol)
    assert_same(xd.argmax(), x.argmax())
    assert_same(xd.argmin(axis=1), x.argmin(axis=1))
    assert_same((xd > 1).any(axis=0), (x > 1).any(axis=0))
    assert_same((xd > 1).all(), (x > 1).all())
    assert_same(xd.sum(dtype=da.float64), x.sum(dtype=np.float64), **tol)


# -- fusion -------------------------------------------------------------------------------------

@pytest.mark.lazy_only
def test_fusion_one_launch():
    """A pending elementwise chain runs inside the reduction: no elementwise launch, and exactly
    one pass over the inputs: one launch in every form."""
    rng = np.random.default_rng(2)
    a_n, b_n = rng.random(20).astype(np.float32), rng.random(20).astype(np.float32)
    x_n = rng.random((6, 20)).astype(np.float32)
    a, b, x = da.asarray(a_n), da.asarray(b_n), da.asarray(x_n)
    m = x.mean(axis=1, keepdims=True).eval()
    da.synchronize()
    cases = [("sum", lambda: (a * b).sum(), np.sum(a_n * b_n)),
             ("mean", lambda: ((x - m) ** 2).mean(axis=1), ((x_n - x_n.mean(axis=1, keepdims=True)) ** 2).mean(axis=1)),
             ("max", lambda: da.abs(a - b).max(), np.abs(a_n - b_n).max())]
    for name, fn, want in cases:
        with da.profile() as p:
            r = fn()
            r.eval()
        names = [rec.name for rec in p.launches if rec.name not in FILLS]
        assert names == [name], (name, names)
        assert_same(r, np.asarray(want, np.float32), rtol=1e-5, atol=1e-6)

    n = 300_000
    big_a, big_b = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    a, b = da.asarray(big_a), da.asarray(big_b)
    xb_n = rng.standard_normal((100, 3000)).astype(np.float32)
    xb = da.asarray(xb_n)
    mb = xb.mean(axis=1, keepdims=True).eval()
    da.synchronize()
    cases = [("sum", lambda: (a * b).sum(), np.sum(big_a.astype(np.float64) * big_b)),
             ("mean", lambda: ((xb - mb) ** 2).mean(axis=1),
              ((xb_n - xb_n.mean(axis=1, keepdims=True)) ** 2).mean(axis=1)),
             ("max", lambda: da.abs(xb).max(), np.abs(xb_n).max())]
    for name, fn, want in cases:
        with da.profile() as p:
            r = fn()
            r.eval()
        launches = [rec.name for rec in p.launches if rec.name not in FILLS]  # (a scratch that grows is filled)
        assert launches == [name], [(rec.name, rec.nbytes) for rec in p.launches]
        assert_same(r, np.asarray(want, np.float32), rtol=1e-4, atol=1e-5)


# -- places -------------------------------------------------------------------------------------

def test_any_place(any_place):
    """The same results on the OpenCL device and on the CPU place (through NumPy)."""
    x = np.array([[1, 5, -2, 5], [0, 0, 3, -7], [2, 2, 2, 2]], np.int32)
    xd = da.asarray(x, device=any_place)
    for op in ALL_OPS:
        for axis in ([None, 1, -2] if op in ARG else [None, 1, (0, 1), (-1,)]):
            for keepdims in (False, True):
                got = getattr(da, op)(xd, axis=axis, keepdims=keepdims)
                assert got.place == any_place
                assert_same(got, np.asarray(_np(op, x, axis=axis, keepdims=keepdims)), rtol=1e-12, atol=0)
    e = da.asarray(np.zeros((0, 3), np.float32), device=any_place)
    with pytest.raises(ValueError):
        da.max(e, axis=0)
    assert da.max(e, axis=1).shape == (0,)
    assert_same(da.sum(xd, dtype=da.int8), np.sum(x, dtype=np.int8))
    assert_same(da.mean(xd, axis=0, dtype=da.float32), np.mean(x, axis=0, dtype=np.float32), rtol=1e-6, atol=0)


# -- bad input ----------------------------------------------------------------------------------

def test_bad_axis():
    x = da.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    for op in ALL_OPS:
        for axis in (2, -3, (0, 2)):
            if op in ARG and isinstance(axis, tuple):
                continue
            with pytest.raises(AxisError) as info:
                getattr(da, op)(x, axis=axis)
            assert isinstance(info.value, ValueError) and isinstance(info.value, IndexError)
        if op not in ARG:
            with pytest.raises(ValueError, match="repeated axis"):
                getattr(da, op)(x, axis=(0, -2))
        assert_same(getattr(da, op)(x, axis=0), np.asarray(_np(op, np.arange(6, dtype=np.float32).reshape(2, 3),
                                                                 axis=0)), rtol=1e-6, atol=1e-6)
    for op in ARG:
        with pytest.raises(TypeError):
            getattr(da, op)(x, axis=(0,))
        with pytest.raises(TypeError):
            getattr(da, op)(x, axis=(0, 1))
    with pytest.raises(TypeError):
        da.sum(x, axis=1.0)
    with pytest.raises(TypeError):
        da.sum(x, bogus=1)
    with pytest.raises(AxisError):
        da.sum(da.asarray(np.float32(1)), axis=0)
    assert da.sum(x).get() == 15.0


# -- prepared launches ----------------------------------------------------------------------------

def _reuse_cases(xp, a, b, k, s):
    """Reductions of one structure each, whose offsets (k) and fused scalar (s) change per call."""
    return [xp.sum(a[k:k + 100]), xp.mean(a[k:k + 100]), xp.argmax(a[k:k + 100]), xp.max(a[k:k + 100] * s + 1),
            xp.sum(b[k:k + 20], axis=0), xp.min(b[k:k + 20].T, axis=1), xp.argmin(b[:, k:k + 30], axis=0),
            xp.sum((b[k:k + 20] - s) * s, axis=1)]


@pytest.mark.lazy_only
@pytest.mark.parametrize("form", ["device", "tree"])
def test_prepared_reduction_reuse(monkeypatch, form):
    """A reduction whose structure was launched before reuses execute's prepared launch: slices
    of one array at new offsets, new scalars in a fused input, new outputs (and scratch) give
    NumPy's results, and the repeated calls fuse and compile nothing and launch the same kernels."""
    import darray.lazy.reduce as reduce_mod
    from darray.lazy import execute

    if form == "tree":
        monkeypatch.setattr(reduce_mod, "_chunked", lambda place: False)
    monkeypatch.setattr(execute, "_prepared", {})  # a fresh cache: a full one (4096 entries) is cleared mid-test
    rng = np.random.default_rng(21)
    a = rng.integers(-9, 9, 1000).astype(np.float32)  # small integers: exact in any order, argmax ties
    b = rng.integers(-9, 9, (64, 70)).astype(np.float32)
    ad, bd = da.asarray(a), da.asarray(b)

    def check(k, s):
        with da.profile() as p:
            got = _reuse_cases(da, ad, bd, k, s)
            da.eval(*got)
            da.synchronize()
        for g, w in zip(got, _reuse_cases(np, a, b, k, s)):
            assert_same(g, np.asarray(w))
        return p

    first = check(0, 2.0)
    fused = []
    real_fuse = execute.fuse
    monkeypatch.setattr(execute, "fuse", lambda *a, **kw: fused.append(1) or real_fuse(*a, **kw))
    prepared, kernels = len(execute._prepared), len(execute._kernels)
    for k, s in [(1, -3.0), (17, 0.5), (40, 4.0), (7, -1.0)]:
        p = check(k, s)
        assert p.compiles == [] and fused == [], (k, s)
        skip = ("reduce_scratch", "bounds_guard")  # a fresh buffer's guard bytes (DARRAY_CHECK_BOUNDS) are set once
        assert [r.name for r in p.launches if r.name not in skip] == [r.name for r in first.launches
                                                                      if r.name not in skip]
    assert (len(execute._prepared), len(execute._kernels)) == (prepared, kernels)


# -- NumPy's signatures: positional axis, out=, where=, initial=, ddof=, amax/amin, ptp -----------------
_NP_OPS = ["sum", "prod", "max", "min", "amax", "amin", "mean", "any", "all", "var", "std", "ptp", "argmax",
           "argmin"]


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("op", _NP_OPS)
@given(data=st.data(), dtype=st.sampled_from(["int16", "int64", "float32", "float64"]))
def test_numpy_signature_forms(place, op, data, dtype) -> None:
    base, view = data.draw(viewed(dtype, min_dims=1, elements=st.integers(-9, 9)))
    a, x = view(base), view(da.asarray(base, device=place))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    if not a.shape[axis] and op in ("max", "min", "amax", "amin", "ptp", "argmax", "argmin"):
        return
    tol = {"rtol": 1e-5, "atol": 1e-5}
    assert_same(getattr(da, op)(x, axis), getattr(np, op)(a, axis), **tol)
    if op in ("argmax", "argmin"):
        out = da.empty(np.delete(a.shape, axis % a.ndim).tolist(), dtype=da.int64, device=place)
        assert getattr(da, op)(x, axis, out) is out
        assert_same(out, getattr(np, op)(a, axis))
        return
    assert_same(getattr(da, op)(x, axis, keepdims=True), getattr(np, op)(a, axis, keepdims=True), **tol)
    method = op[1:] if op in ("amax", "amin") else op
    assert_same(getattr(x, method)(axis), getattr(np, op)(a, axis), **tol)
    want = getattr(np, op)(a, axis)
    out = da.empty(want.shape, dtype=want.dtype, device=place)
    assert getattr(da, op)(x, axis, out=out) is out
    assert_same(out, want, **tol)


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min", "mean", "any", "all", "var", "std"])
@given(data=st.data(), dtype=st.sampled_from(["int32", "float64"]))
def test_where_and_initial(place, op, data, dtype) -> None:
    base, view = data.draw(viewed(dtype, elements=st.integers(-5, 5)))
    a, x = view(base), view(da.asarray(base, device=place))
    mask = data.draw(hnp.arrays(np.bool_, a.shape[data.draw(st.integers(0, a.ndim)):]))
    kw = {"initial": 3} if op in ("sum", "prod", "max", "min") else {}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, op)(a, where=mask, **kw)
        if a.ndim:
            want_axis = getattr(np, op)(a, axis=0, where=mask, **kw)
    assert_same(getattr(da, op)(x, where=da.asarray(mask, device=place), **kw), want, rtol=1e-9, atol=1e-9)
    if a.ndim:
        assert_same(getattr(da, op)(x, axis=0, where=da.asarray(mask, device=place), **kw), want_axis, rtol=1e-9,
                    atol=1e-9)
    if op in ("max", "min"):
        with pytest.raises(ValueError, match="initial"):
            getattr(da, op)(x, where=da.asarray(mask, device=place))
        assert_same(getattr(da, op)(da.zeros((0, 2), device=place), axis=0, initial=4), np.full(2, 4.0))


def test_ddof_and_correction() -> None:
    a = np.arange(10.0).reshape(2, 5)
    x = da.asarray(a)
    assert_same(da.var(x, 1, ddof=1), np.var(a, 1, ddof=1))
    assert_same(da.std(x, axis=1, correction=1), np.std(a, axis=1, ddof=1))
    assert_same(da.var(x, 1, mean=da.mean(x, 1, keepdims=True)), np.var(a, 1, mean=np.mean(a, 1, keepdims=True)))
    assert_same(x.var(None, None, None, 2), np.var(a, ddof=2))
    with pytest.raises(ValueError, match="ddof and correction"):
        da.var(x, ddof=1, correction=1)
    assert_same(da.sum(x), np.sum(a))  # the next call works


@pytest.mark.parametrize("op", sorted(FOLDS))
def test_fold_rows_agree_with_numpy(op):
    """Each row of ``lazy.table.FOLDS`` states NumPy's facts: the combining ufunc's identity, an empty
    reduction's result (or NumPy's ValueError), whether NumPy takes ``initial=`` and ``dtype=``."""
    f = FOLDS[op]
    if f.combine is not None and f.identity is not None:
        assert getattr(np, f.combine).identity == f.identity
    if f.ufunc:
        assert f.ufunc == f.combine
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            empty = f.numpy(np.zeros(0))
        except ValueError:
            empty = None
    assert (empty is None) == (f.empty is None)
    if empty is not None:
        np.testing.assert_equal(empty, f.empty)
    params = inspect.signature(f.numpy).parameters
    assert ("initial" in params) == f.initial and ("dtype" in params) == f.accumulates
