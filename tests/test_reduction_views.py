"""Every reduction over strided, reversed, offset and transposed views, against NumPy.

The net that ``tests/test_reduction.py`` lacked (a strided float sum read past its view in the
``chunked`` form on AVX-512 machines, issue 24): hypothesis draws views of rank 1 to 3 with
steps 2, 3, 7, -1, -2 (and 1000 in the long cases), a random start and axis order, sides
around every lane and block boundary of the kernels (8 lanes, blocks of 16 and 128, runs of
2048, chunks of 4096 and 65536), reduced axes first, last, several or all, and every dtype
kind. ``.ci/run`` runs this module in every kernel form, under ``DARRAY_CHECK_BOUNDS=1`` (a
read outside a view sees NaN or -1), and with Intel's vectoriser forced on every loop (as its
cost model does on AVX-512 machines).

Values are random with a few specials (NaN, inf, -0.0, large integers). Float results are
compared with a float64 reference to a tolerance scaled by the sum of magnitudes (the
summation order differs from NumPy's); integer results must be equal.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da

STEPS = [1, 2, 3, 7, -1, -2]
SIDES = list(range(1, 18)) + [0, 31, 32, 33, 63, 64, 65, 127, 128, 129]
LONG = [255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097]
REL = {"e": 2e-2, "f": 2e-5, "d": 1e-12, "F": 2e-5, "D": 1e-12}  # times the sum of magnitudes


def _call(xp, op: str, x, axis, y=None):
    if op == "dot":
        return (x * y).sum(axis=axis)
    if op.startswith("norm"):
        return xp.linalg.vector_norm(x, axis=axis, ord={"norm2": 2, "norm1": 1, "norminf": xp.inf}[op])
    if op.startswith("cumulative"):
        return getattr(xp, op)(x, axis=axis)
    return getattr(xp, op)(x, axis=axis)


# (op, dtypes): every reduction with every dtype kind it takes
CELLS = [("sum", ["float16", "float32", "float64", "complex64", "int8", "int64", "uint64"]),
         ("prod", ["float32", "float64", "complex128", "int64"]),
         ("mean", ["float32", "float64", "complex64", "int32"]),
         ("var", ["float32", "float64", "complex64"]), ("std", ["float32", "float64"]),
         ("max", ["float16", "float32", "float64", "int64", "uint8"]), ("min", ["float32", "int16"]),
         ("argmax", ["float32", "float64", "int16", "complex64"]), ("argmin", ["float32", "uint32"]),
         ("any", ["bool", "float32", "int32"]), ("all", ["bool", "float64", "int8"]),
         ("norm2", ["float32", "float64", "complex64"]), ("norm1", ["float32"]), ("norminf", ["float64"]),
         ("cumulative_sum", ["float32", "float64", "int32", "complex64"]), ("cumulative_prod", ["float64", "int64"]),
         ("dot", ["float32", "float64", "int32"])]
PARAMS = [(op, dt) for op, dts in CELLS for dt in dts]
SINGLE_AXIS = {"argmax", "argmin", "cumulative_sum", "cumulative_prod"}


def _values(rng: np.random.Generator, dtype: np.dtype, n: int, special: bool, op: str) -> np.ndarray:
    """``n`` random values of ``dtype``; with ``special``, a few NaN/inf/-0.0 (floats) or extremes
    (64-bit integers, which wrap as NumPy's do)."""
    if dtype.kind == "b":
        return rng.random(n) < (0.97 if op == "all" else 0.03)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        hi = 3 if op in ("prod", "cumulative_prod") else min(info.max, 1000)
        x = rng.integers(max(info.min, -hi), hi + 1, n).astype(dtype)
        if special and dtype.itemsize == 8 and n:
            x[rng.integers(0, n, 3)] = [info.max, info.min, info.max // 3]
        return x
    real = np.dtype(dtype).type(0).real.dtype
    scale = 1.0 if op not in ("prod", "cumulative_prod") else 0.05
    x = (1 + scale * rng.standard_normal(n) if "prod" in op else rng.standard_normal(n)).astype(real)
    if dtype.kind == "c":
        x = x + 1j * scale * rng.standard_normal(n).astype(real)
    x = x.astype(dtype)
    if special and n:
        picks = rng.integers(0, n, 3)
        # complex products with infinities depend on the order of the products (inf * 0 in a cross term): NaN only
        specials = [np.nan] if dtype.kind == "c" and "prod" in op else [np.nan, np.inf, -np.inf, -0.0]
        x[picks] = rng.choice(np.array(specials, dtype=real), 3)
    return x


def _slice(length: int, n: int, step: int, start: int) -> slice:
    """``n`` elements ``step`` apart from ``start`` (counted from the far end when ``step < 0``)."""
    if n == 0:
        return slice(start, start, 1)
    if step > 0:
        return slice(start, start + (n - 1) * step + 1, step)
    first = length - 1 - start
    stop = first + (n - 1) * step - 1
    return slice(first, stop if stop >= 0 else None, step)


@st.composite
def views(draw, op: str):
    """(base shape, index, axes order, axis): a view of a random base array and the axis to reduce."""
    rank = draw(st.integers(1, 3), label="rank")
    sides = st.sampled_from(SIDES + LONG) if rank == 1 else st.sampled_from(SIDES)
    shape = [draw(sides, label="side") for _ in range(rank)]
    while rank > 1 and np.prod(shape) > 40000:
        shape[int(np.argmax(shape))] //= 4
    base, index = [], []
    for n in shape:
        step, start = draw(st.sampled_from(STEPS), label="step"), draw(st.integers(0, 2), label="start")
        length = start + max(n - 1, 0) * abs(step) + (1 if n else 0) + draw(st.integers(0, 2), label="extra")
        base.append(length)
        index.append(_slice(length, n, step, start))
    order = draw(st.permutations(range(rank)), label="order")
    if op in SINGLE_AXIS:
        axis = draw(st.sampled_from([0, -1] + ([None] if rank == 1 or "arg" in op else [])), label="axis")
    else:
        several = [(0, 1), (0, rank - 1)] if rank > 1 else []
        axis = draw(st.sampled_from([None, 0, -1] + several), label="axis")
    return tuple(base), tuple(index), tuple(order), axis


def _scale(op: str, x: np.ndarray, want: np.ndarray, axis) -> np.ndarray:
    """The magnitude a float result's rounding error is measured against (see the module docstring)."""
    finite = np.nan_to_num(x, nan=0, posinf=0, neginf=0)  # NaN and inf are compared apart
    a = np.abs(finite.real.astype(np.float64)) + (np.abs(finite.imag) if x.dtype.kind == "c" else 0)
    count = max(1, a.size // max(1, want.size))
    if op in ("prod", "cumulative_prod"):
        return 4 * count * np.abs(want.astype(np.complex128))
    if op == "norm2":
        return np.abs(want)
    if op.startswith("cumulative"):
        return np.cumsum(a, axis=axis)
    if op in ("var", "std"):
        v = np.mean(a * a, axis=axis)
        return v  # std: compared as variances
    return np.sum(a, axis=axis) / (count if op == "mean" else 1)


def _compare(got, want, dtype: np.dtype, x: np.ndarray, op: str, axis) -> None:
    got = got.get() if isinstance(got, da.DArray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind not in "fc" or op in ("max", "min", "any", "all", "norminf") or "arg" in op:
        np.testing.assert_array_equal(got, want)
        return
    scale = np.broadcast_to(_scale(op, x, want, axis), want.shape)
    tol = REL[want.dtype.char] * np.nan_to_num(scale, nan=0, posinf=np.inf)
    if op == "std":  # compare the variances: a small std has a relatively large rounding error
        got, want = got.astype(np.float64) ** 2, want.astype(np.float64) ** 2
    if want.dtype.kind == "c":  # real and imaginary parts apart
        got, want = (np.stack([a.real, a.imag], -1) for a in (got, want))
        tol = tol[..., None]
    nan, inf = np.isnan(want), np.isinf(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=f"{op}: NaN placement")
    np.testing.assert_array_equal(got[inf], want[inf], err_msg=f"{op}: infinities")
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    ok = ~(nan | inf)
    assert np.all(err[ok] <= np.broadcast_to(tol, want.shape)[ok] + 1e-30), f"{op}: max error {err[ok].max()}"


def _check(op: str, dtype: str, base: tuple, index: tuple, order: tuple, axis, seed: int, special: bool) -> None:
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    size = int(np.prod(base))
    hx = _values(rng, dtype, size, special, op).reshape(base)
    xv = hx[index].transpose(order)
    x = da.asarray(hx)[index].transpose(order)
    y = hy = None
    if op == "dot":
        hy = _values(rng, dtype, size, special, op).reshape(base)
        y = da.asarray(hy)[index].transpose(order)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = _call(np, op, xv, axis, None if hy is None else hy[index].transpose(order))
        except (ValueError, TypeError) as err:
            with pytest.raises(type(err)):
                _call(da, op, x, axis, y)
            return
        got = _call(da, op, x, axis, y)
    if op == "dot":
        xv = xv * hy[index].transpose(order)
    _compare(got, want, dtype, xv, op, axis)


@pytest.mark.parametrize("op, dtype", PARAMS, ids=[f"{o}-{d}" for o, d in PARAMS])
@settings(max_examples=12)
@given(data=st.data())
def test_views(op, dtype, data, cl_place):
    """A drawn view of a random array: the reduction equals NumPy's (see the module docstring)."""
    place = da.place.default()  # (DARRAY_DEVICE picks it; cl_place: an OpenCL device is required)
    if dtype == "float16" and isinstance(place, da.CLPlace) and not da.place.devices()[place.index].fp16:
        pytest.skip("no float16 on this device")
    base, index, order, axis = data.draw(views(op), label="view")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    special = data.draw(st.booleans(), label="special")
    _check(op, dtype, base, index, order, axis, seed, special)


LONG_OPS = [("sum", "float32"), ("sum", "float64"), ("mean", "float32"), ("max", "float32"), ("argmax", "float64"),
            ("sum", "int32"), ("dot", "float32")]
LONG_CASES = [(op, dt, n, step) for n in (100_003, 4_000_037) for step in (2, 3, 7, -1, -2, 1000)
              for op, dt in LONG_OPS + ([("cumulative_sum", "float32")] if n < 200_000 else [])]


@pytest.mark.parametrize("op, dtype, n, step", LONG_CASES, ids=[f"{o}-{d}-{n}-{s}" for o, d, n, s in LONG_CASES])
def test_long_views(op, dtype, n, step, cl_place):
    """Long runs: partial results per output (several work-items), as 1-D and as rows of a matrix."""
    idx = slice(None, None, step)
    _check(op, dtype, (n,), (idx,), (0,), None if op != "cumulative_sum" else 0, n + abs(step), False)
    rows = 3 if n < 200_000 else 2
    cols = n // rows
    _check(op, dtype, (rows, cols), (slice(None), idx), (0, 1), -1, n, True)
    _check(op, dtype, (rows, cols), (slice(None), idx), (1, 0), 0 if op != "dot" else None, n, False)


UNIT_ROWS = [((37, 300), (slice(2, 35), slice(5, 290)), None), ((9, 5000), (slice(None), slice(1, 4999)), None),
             ((9, 5000), (slice(None), slice(1, 4999)), 1), ((40, 70), (slice(None, None, -1), slice(3, 60)), None),
             ((5, 6, 400), (slice(1, 4), slice(None), slice(7, 399)), (1, 2)),
             ((2, 2100), (slice(None), slice(1, 2098)), 0)]


@pytest.mark.parametrize("shape, index, axis", UNIT_ROWS, ids=[str(s) for s, _, _ in UNIT_ROWS])
def test_unit_stride_rows_fold_as_the_strided_walk(shape, index, axis, cl_place):
    """Float32 sums over views whose rows have unit stride (float8 loads, e.g. Dask's chunks) and over
    the same values at stride 2 (the scalar walk) give NumPy's values within the tolerance. The two
    walks fold in the same order in the source, but the bits are not promised: Intel's CPU compiler
    vectorises the scalar walk by its cost model (on AVX-512 machines it does, reordering adds)."""
    h = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    wide = np.zeros(shape[:-1] + (2 * shape[-1],), np.float32)
    wide[..., ::2] = h
    unit, spaced = da.asarray(h, device=cl_place)[index], da.asarray(wide, device=cl_place)[..., ::2][index]
    for fn in (lambda a: a.sum(axis=axis), lambda a: (a * 0.5 + 1).sum(axis=axis), lambda a: a.mean(axis=axis)):
        want = fn(h[index].astype(np.float64))
        for got in (np.asarray(fn(unit).get()), np.asarray(fn(spaced).get())):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(h).sum())
