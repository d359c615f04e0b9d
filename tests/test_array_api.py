"""Property tests driven by ``hypothesis.extra.array_api.make_strategies_namespace(darray)``:
hypothesis builds DArrays through darray's own Array API (``asarray``, ``full``, dtypes,
``__array_namespace_info__``), and elementwise functions, reductions, manipulation and
creation are compared with NumPy on the host copies. Shapes stay small (a kernel per structure).
"""
from __future__ import annotations

import warnings

import numpy as np
from helpers import assert_same, tolerance
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import darray as da
from darray.ops._table import TABLE

xps = make_strategies_namespace(da, api_version="2024.12")
SHAPES = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)

UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
         "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10", "negative", "positive", "round", "sign",
         "signbit", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "equal", "not_equal", "less", "greater_equal",
          "logical_and", "logical_xor"]


def _numpy(name: str, *args: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(TABLE[name].ref(*args))


def _close(got: da.DArray, want: np.ndarray) -> None:
    """NumPy's dtype and shape; values within the dtype's tolerance (transcendental functions
    are the device's, a few ulps from NumPy's)."""
    tol = tolerance(want.dtype)
    if want.dtype.kind == "f":
        tol = {"rtol": max(tol["rtol"], 4e-6 if want.dtype == np.float32 else 1e-13), "atol": tol["atol"]}
    assert_same(got, want, **tol)


@given(name=st.sampled_from(UNARY), x=xps.arrays(xps.floating_dtypes(), SHAPES))
def test_unary(name: str, x: da.DArray) -> None:
    _close(getattr(da, name)(x), _numpy(name, x.get()))


@given(name=st.sampled_from(BINARY), data=st.data(), dtypes=st.tuples(xps.real_dtypes(), xps.real_dtypes()),
       shapes=xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=3))
def test_binary_broadcast_and_promotion(name: str, data: st.DataObject, dtypes: tuple, shapes) -> None:
    """Two arrays of any real dtypes and broadcastable shapes: NumPy 2's promotion and values."""
    x1 = data.draw(xps.arrays(dtypes[0], shapes.input_shapes[0]), label="x1")
    x2 = data.draw(xps.arrays(dtypes[1], shapes.input_shapes[1]), label="x2")
    _close(getattr(da, name)(x1, x2), _numpy(name, x1.get(), x2.get()))


@given(data=st.data(), op=st.sampled_from(["sum", "prod", "max", "min", "mean", "any", "all"]),
       dtype=xps.real_dtypes(), shape=xps.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
       keepdims=st.booleans())
def test_reductions(data: st.DataObject, op: str, dtype: np.dtype, shape: tuple[int, ...], keepdims: bool) -> None:
    bounds = None if dtype == da.bool else {"allow_nan": False, "min_value": 0 if dtype.kind == "u" else -100,
                                            "max_value": 100}
    x = data.draw(xps.arrays(dtype, shape, elements=bounds), label="x")
    axis = data.draw(st.none() | xps.valid_tuple_axes(x.ndim, min_size=1), label="axis")
    if op == "mean" and x.dtype.kind in "biu":
        x = da.astype(x, da.float64)
    got = getattr(da, op)(x, axis=axis, keepdims=keepdims)
    host = x.get()
    with np.errstate(all="ignore"):
        want = np.asarray(getattr(np, op)(host, axis=axis, keepdims=keepdims))
    if op in ("sum", "prod") and host.dtype.kind == "f":
        assert_same(got, want, rtol=1e-4, atol=1e-3)
    else:
        _close(got, want)


MANIPULATIONS = {
    "flip": lambda xp, x, k: xp.flip(x, axis=k % x.ndim if x.ndim else None),
    "permute_dims": lambda xp, x, k: xp.permute_dims(x, tuple(reversed(range(x.ndim)))),
    "roll": lambda xp, x, k: xp.roll(x, k - 2, axis=k % x.ndim if x.ndim else None),
    "expand_dims": lambda xp, x, k: xp.expand_dims(x, axis=k % (x.ndim + 1)),
    "concat": lambda xp, x, k: xp.concat([x, x], axis=k % x.ndim) if x.ndim else xp.concat([x, x], axis=None),
    "stack": lambda xp, x, k: xp.stack([x, x], axis=k % (x.ndim + 1)),
    "reshape": lambda xp, x, k: xp.reshape(x, (-1,)),
    "squeeze": lambda xp, x, k: xp.squeeze(xp.expand_dims(x, axis=0), axis=0),
    "tile": lambda xp, x, k: xp.tile(x, (2,) * max(x.ndim, 1)),
}


def _numpy_manipulation(name: str, x: np.ndarray, k: int) -> np.ndarray:
    class NP:  # NumPy under the standard's names
        concat, permute_dims = staticmethod(np.concatenate), staticmethod(np.transpose)

        def __getattr__(self, n: str):
            return getattr(np, n)

    return MANIPULATIONS[name](NP(), x, k)


@given(name=st.sampled_from(sorted(MANIPULATIONS)), x=xps.arrays(xps.scalar_dtypes(), SHAPES),
       k=st.integers(0, 4))
def test_manipulation(name: str, x: da.DArray, k: int) -> None:
    assert_same(MANIPULATIONS[name](da, x, k), _numpy_manipulation(name, x.get(), k))


@given(data=st.data(), shape=SHAPES, dtype=xps.scalar_dtypes())
def test_creation(data: st.DataObject, shape: tuple[int, ...], dtype: np.dtype) -> None:
    fill = data.draw(xps.from_dtype(dtype), label="fill")
    assert_same(da.full(shape, fill, dtype=dtype), np.full(shape, fill, dtype=dtype))
    assert_same(da.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype))
    assert_same(da.ones_like(da.empty(shape, dtype=dtype)), np.ones(shape, dtype=dtype))
    n = data.draw(st.integers(0, 5), label="n")
    assert_same(da.eye(n, n + 1, k=1, dtype=dtype), np.eye(n, n + 1, k=1, dtype=dtype))
    if dtype.kind in "iuf":
        assert_same(da.arange(n, dtype=dtype), np.arange(n, dtype=dtype))
    if dtype.kind == "f":
        assert_same(da.linspace(-1, 2, n, dtype=dtype), np.linspace(-1, 2, n, dtype=dtype))
