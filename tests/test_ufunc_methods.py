"""darray's ufunc objects (``darray/ops/ufunc.py``, ``ufunc_methods.py``) against NumPy's: attributes,
``__call__`` keywords and the methods reduce, accumulate, outer, at, reduceat, over views and places."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]
FLOAT_UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum", "divide", "fmax", "fmin", "hypot", "power",
                "logaddexp"]
INT_UFUNCS = ["add", "multiply", "bitwise_or", "bitwise_xor", "gcd", "maximum", "subtract", "logical_and",
              "logical_or"]
TOL = {"rtol": 1e-6, "atol": 1e-6}


def _numpy(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _case(data, place, name):
    dtype = "int32" if name in INT_UFUNCS and name not in FLOAT_UFUNCS else data.draw(st.sampled_from(["float64",
                                                                                                       "int32"]))
    if name in ("gcd", "bitwise_or", "bitwise_xor"):
        dtype = "int32"
    if name in ("divide", "hypot", "fmax", "fmin", "logaddexp", "power") and dtype == "int32":
        dtype = "float64"
    base, view = data.draw(viewed(dtype, min_dims=1, elements=st.integers(-4, 4) if dtype == "int32"
                                  else st.floats(-3, 3, allow_nan=False, width=64)))
    return view(base), view(da.asarray(base, device=place))


def test_attributes() -> None:
    assert isinstance(da.add, da.ufunc) and da.add.nin == 2 and da.add.nout == 1 and da.add.nargs == 3
    assert da.add.identity == 0 and da.multiply.identity == 1 and da.maximum.identity is None
    assert da.sin.nin == 1 and da.divmod.nout == 2 and da.modf.nin == 1 and da.add.__name__ == "add"
    assert da.power.__name__ == "power" and da.absolute.__name__ == "absolute"
    assert "numpy.add" in da.add.__doc__ and repr(da.add) == "<darray ufunc 'add'>"
    for name in [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and n not in ("isnat", "matmul",
                                                                                            "vecdot", "matvec",
                                                                                            "vecmat")]:
        assert isinstance(getattr(da, name), da.ufunc), name


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(["add", "multiply", "maximum", "subtract", "fmod", "hypot", "gcd"]))
def test_call_keywords(place, data, name) -> None:
    a, x = _case(data, place, name if name != "fmod" else "add")
    if name == "gcd" and a.dtype.kind == "f":
        a, x = a.astype(np.int32), x.astype(np.int32)
    u, nu = getattr(da, name), getattr(np, name)
    want = _numpy(nu, a, a[..., :1])
    out = da.zeros(want.shape, dtype=want.dtype, device=place)
    assert u(x, x[..., :1], out=out) is out
    assert_same(out, want, **TOL)
    mask = a > 0
    prev = np.zeros(want.shape, want.dtype)
    out = da.zeros(want.shape, dtype=want.dtype, device=place)
    got = u(x, x[..., :1], out=(out,), where=da.asarray(mask, device=place))
    assert_same(got[0] if isinstance(got, tuple) else got, _numpy(nu, a, a[..., :1], out=prev, where=mask), **TOL)
    if a.dtype.kind == "f" and name not in ("gcd",):
        assert_same(u(x, 2, dtype=np.float32), _numpy(nu, a, 2, dtype=np.float32), rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="Cannot cast"):
        u(x, x, out=da.zeros(a.shape, dtype=da.int8, device=place), casting="safe")


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(FLOAT_UFUNCS + INT_UFUNCS))
def test_reduce(place, data, name) -> None:
    a, x = _case(data, place, name)
    u, nu = getattr(da, name), getattr(np, name)
    axis = data.draw(st.sampled_from([0, -1, None, tuple(range(a.ndim))]))
    keep = data.draw(st.booleans())
    try:
        want = _numpy(nu.reduce, a, axis=axis, keepdims=keep)
    except ValueError as err:
        with pytest.raises(ValueError, match=str(err).split(" ")[0]):
            u.reduce(x, axis=axis, keepdims=keep)
        return
    assert_same(u.reduce(x, axis=axis, keepdims=keep), want, **TOL)
    if nu.identity is not None or name in ("maximum", "minimum", "fmax", "fmin"):
        init = 1
        mask = np.asarray(a > 0)
        assert_same(u.reduce(x, axis=0, initial=init, where=da.asarray(mask, device=place)),
                    _numpy(nu.reduce, a, axis=0, initial=init, where=mask), **TOL)
    assert_same(nu.reduce(x, axis=axis, keepdims=keep), want, **TOL)  # NumPy's own, through __array_ufunc__


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(FLOAT_UFUNCS + INT_UFUNCS))
def test_accumulate(place, data, name) -> None:
    a, x = _case(data, place, name)
    u, nu = getattr(da, name), getattr(np, name)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    want = _numpy(nu.accumulate, a, axis=axis)
    assert_same(u.accumulate(x, axis), want, **TOL)
    assert_same(nu.accumulate(x, axis=axis), want, **TOL)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(["add", "subtract", "maximum", "power", "less", "logical_xor"]))
def test_outer(place, data, name) -> None:
    a, x = _case(data, place, "subtract")
    b = np.arange(3, dtype=a.dtype)
    assert_same(getattr(da, name).outer(x, da.asarray(b, device=place)), _numpy(getattr(np, name).outer, a, b),
                **TOL)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum", "bitwise_or"]))
def test_at_accumulates_repeated_indices(place, data, name) -> None:
    a, x = _case(data, place, name)
    a = a.astype(np.int32).copy()
    x = da.asarray(a, device=place)[...]
    flat = a.reshape(-1) if a.flags.c_contiguous else None
    n = a.shape[0]
    if not n:
        return
    idx = data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=8))
    vals = data.draw(st.sampled_from([2, [1, 2, 3, 4, 5, 6, 7, 8][:len(idx)]]))
    if isinstance(vals, list) and a.ndim > 1:
        vals = 3
    getattr(np, name).at(a, idx, vals)
    getattr(da, name).at(x, idx, vals)
    assert_same(x, a)
    del flat
    b = np.arange(6.0)
    y = da.asarray(b, device=place)
    np.negative.at(b, [0, 0, 2])
    da.negative.at(y, [0, 0, 2])
    assert_same(y, b)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), name=st.sampled_from(["add", "multiply", "maximum", "subtract", "bitwise_or"]))
def test_reduceat(place, data, name) -> None:
    a, x = _case(data, place, name if name != "bitwise_or" else "gcd")
    n = a.shape[0]
    if not n:
        return
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5))
    assert_same(getattr(da, name).reduceat(x, idx), _numpy(getattr(np, name).reduceat, a, idx), **TOL)
    with pytest.raises(IndexError):
        getattr(da, name).reduceat(x, [n])


_R = np.arange(8.0)
_R2 = np.arange(8.0).reshape(2, 4)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("ufunc,x,indices,kw", [
    ("add", _R, [[0, 3]], {}), ("add", _R, 3, {}), ("add", _R, np.array([[0, 3]]), {}),  # indices must be 1-d
    ("add", _R, [0, 8], {}), ("add", _R, [0, -1], {}), ("add", np.zeros(0), [0], {}),  # out of range
    ("add", _R2, [0, 4], {"axis": 1}), ("add", _R2, [0, 2], {"axis": -1}), ("add", _R2, [1], {"axis": 0}),
    ("add", _R, [0.0, 3.0], {}), ("add", _R, [True, False], {}), ("add", _R, [], {}), ("add", _R, [5, 2], {}),
    ("add", _R, np.array([0.0, 3.0]), {}), ("add", _R, np.array([0, 3], np.uint64), {}),  # arrays: safe casts only
    ("add", _R, np.array([0, 3], np.int32), {}), ("add", _R, [2**63], {}), ("add", _R, ["a"], {}),
    ("add", _R, [0], {"axis": 1}), ("add", _R, [0], {"axis": None}), ("add", _R2, [0], {"axis": None}),
    ("add", _R, [0], {"axis": (0,)}), ("add", _R2, [0], {"axis": (0, 1)}), ("add", _R, [0], {"axis": 0.0}),
    ("add", np.float64(1.0), [0], {}), ("negative", _R, [0], {}), ("multiply", _R2, [0, 1], {"axis": 0}),
])
def test_reduceat_validation_as_numpy(place, ufunc, x, indices, kw) -> None:
    """reduceat's indices (1-d only; arrays cast safely to intp; lists element by element), their
    bounds, its axis (one only; None or a 1-tuple allowed) and a 0-d array raise NumPy's class; else
    NumPy's result (issue 38)."""
    def run(xp, arr, idx):
        try:
            return getattr(xp, ufunc).reduceat(arr, idx, **kw), None
        except (ValueError, TypeError, IndexError, OverflowError) as err:
            return None, type(err)

    want, want_err = run(np, x, indices)
    got, got_err = run(da, da.asarray(x, device=place), indices)
    assert got_err is want_err or (got_err and want_err and issubclass(got_err, want_err)), (got_err, want_err)
    if want_err is None:
        assert_same(got, want)
    if isinstance(indices, np.ndarray):  # the indices as a DArray
        got, got_err = run(da, da.asarray(x, device=place), da.asarray(indices, device=place))
        assert got_err is want_err or (got_err and want_err and issubclass(got_err, want_err)), (got_err, want_err)


def test_errors_name_the_ufunc_and_the_next_call_works() -> None:
    x = da.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="sin.reduce"):
        da.sin.reduce(x)
    with pytest.raises(ValueError, match="identity"):
        da.maximum.reduce(da.zeros((0,)))
    with pytest.raises(TypeError, match="takes 2"):
        da.add(x)
    with pytest.raises(ValueError, match="second operand"):
        da.add.at(x, [0])
    assert_same(da.add.reduce(x), np.float64(3.0))


@pytest.mark.parametrize("place", PLACES)
def test_two_output_ufuncs(place) -> None:
    a = np.array([-7.5, -2.0, -0.0, 0.3, 8.0, np.inf, -np.inf, np.nan, 1e-310])
    x = da.asarray(a, device=place)
    for name in ("modf", "frexp"):
        for g, w in zip(getattr(da, name)(x), getattr(np, name)(a), strict=True):
            assert_same(g, w)
        for g, w in zip(getattr(np, name)(x), getattr(np, name)(a), strict=True):
            assert_same(g, w)
    i = np.array([7, -7, 5, -5, 0])
    for g, w in zip(da.divmod(da.asarray(i, device=place), 3), np.divmod(i, 3), strict=True):
        assert_same(g, w)
    q, r = da.empty(5, dtype=da.int64, device=place), da.empty(5, dtype=da.int64, device=place)
    assert da.divmod(da.asarray(i, device=place), 3, out=(q, r)) == (q, r)
    assert_same(r, i % 3)


@pytest.mark.parametrize("n", [7, 8, 9, 127, 128, 129, 2047, 2048, 2049])
@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "bitwise_or", "logaddexp"])
def test_reduce_and_accumulate_at_block_boundaries(name, n) -> None:
    """Lengths around the kernels' lane and block sizes, read through a reversed strided view."""
    rng = np.random.default_rng(n)
    base = rng.integers(-50, 50, (3, 2 * n + 1)).astype(np.int64 if name == "bitwise_or" else np.float64)
    a, x = base[::-1, ::-2], da.asarray(base)[::-1, ::-2]
    u, nu = getattr(da, name), getattr(np, name)
    tol = {"rtol": 1e-9, "atol": 1e-6}
    assert_same(u.reduce(x, axis=1), _numpy(nu.reduce, a, axis=1), **tol)
    assert_same(u.reduce(x.T, axis=0), _numpy(nu.reduce, a.T, axis=0), **tol)
    assert_same(u.accumulate(x, axis=1), _numpy(nu.accumulate, a, axis=1), **tol)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", ["hypot", "gcd", "lcm", "logaddexp", "arctan2", "logical_xor", "bitwise_and", "equal"])
def test_reduce_of_one_element(place, name) -> None:
    """One element: NumPy starts hypot's and gcd's reduce from their identity 0 (its magnitude), lcm (no identity)
    gives the element itself, in the dtype the ufunc computes it in (logaddexp of ints: float64; logical_xor: bool);
    a ufunc without a loop for the dtype (bitwise_and of floats), or a comparison of non-bools, is a TypeError."""
    for a in (np.array([[-4], [6]]), np.array([[-4.0], [6.0]]), np.array([[True], [False]])):
        try:
            want = getattr(np, name).reduce(a, axis=1)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(da, name).reduce(da.asarray(a, device=place), axis=1)
            continue
        assert_same(getattr(da, name).reduce(da.asarray(a, device=place), axis=1), want)
