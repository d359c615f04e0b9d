"""NumPy ufuncs on DArrays (``darray/interop/ufunc.py``): every ufunc of the op table, with
DArray, NumPy and scalar arguments mixed, returns a DArray equal to NumPy's result; ``out=``,
the methods (``tests/test_ufunc_methods.py`` tests them in depth); an unsupported ufunc is a TypeError naming it.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same

import darray as da
from darray.interop.ufunc import ufuncs

_A = np.array([[-2.5, -0.0, 0.5], [1.0, 3.0, np.nan]])
_B = np.array([1.5, -2.0, 4.0])


def _inputs(ufunc: np.ufunc) -> tuple[np.ndarray, ...]:
    if "bitwise" in ufunc.__name__ or "shift" in ufunc.__name__ or ufunc in (np.invert, np.gcd, np.lcm):
        return (np.array([[3, -4, 7], [0, 1, 2]]), np.array([1, 2, 3]))[:ufunc.nin]
    if ufunc is np.ldexp:
        return _A, np.array([1, -2, 3])
    return (_A, _B)[:ufunc.nin]


@pytest.mark.parametrize("ufunc", sorted(ufuncs(), key=lambda u: u.__name__), ids=lambda u: u.__name__)
def test_every_table_ufunc(ufunc: np.ufunc) -> None:
    """The first argument a DArray, the second a NumPy array (copied to its place)."""
    args = _inputs(ufunc)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = ufunc(*args)
        got = ufunc(da.asarray(args[0]), *args[1:])
    for g, w in zip(got, want, strict=True) if ufunc.nout == 2 else [(got, want)]:
        assert isinstance(g, da.DArray)
        assert_same(g, w)


@pytest.mark.parametrize("body", [
    lambda a, b: a + b, lambda a, b: b * a, lambda a, b: np.add(a, 2) - b, lambda a, b: np.subtract(3.5, a) / b,
    lambda a, b: np.maximum(b, a), lambda a, b: a > b, lambda a, b: np.matmul(a, b.reshape(3, 1)),
    lambda a, b: np.vecdot(a, b), lambda a, b: np.power(a, np.float32(2)) + b, lambda a, b: np.hypot(b, a)],
    ids=["ndarray+DArray", "DArray*ndarray", "scalar", "reflected", "maximum", "compare", "matmul", "vecdot",
         "numpy-scalar", "hypot"])
def test_mixed_arguments(body) -> None:
    """Each argument a DArray in turn (the other a NumPy array), then both."""
    a = np.nan_to_num(_A)
    want = body(a, _B)
    for got in (body(da.asarray(a), _B), body(a, da.asarray(_B)), body(da.asarray(a), da.asarray(_B))):
        assert isinstance(got, da.DArray)
        assert_same(got, want)


def test_out() -> None:
    x, y = da.asarray(_B), da.asarray(np.ones(3))
    out = da.empty(3)
    assert np.multiply(x, y, out=out) is out and np.add(x, 1, out=(out,)) is out
    assert_same(out, _B + 1)
    m = da.empty((2, 1))
    np.matmul(da.asarray(np.nan_to_num(_A)), da.asarray(_B.reshape(3, 1)), out=m)
    assert_same(m, np.nan_to_num(_A) @ _B.reshape(3, 1))
    ints = da.zeros(3, dtype=da.int32)
    with pytest.raises(TypeError, match="same_kind"):
        np.add(x, y, out=ints)
    with pytest.raises(TypeError, match="DArray"):
        np.add(x, y, out=np.empty(3))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"])
def test_reduce(name: str) -> None:
    ufunc = getattr(np, name)
    a = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    for kw in ({}, {"axis": 1}, {"axis": None}, {"axis": 0, "keepdims": True}):
        got = ufunc.reduce(da.asarray(a), **kw)
        assert isinstance(got, da.DArray)
        assert_same(got, ufunc.reduce(a, **kw))
    assert_same(np.add.reduce(da.asarray(np.arange(6, dtype=np.int8))), np.add.reduce(np.arange(6, dtype=np.int8)))


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_accumulate(dtype: str) -> None:
    a = np.arange(1, 7, dtype=dtype).reshape(2, 3)
    for ufunc in (np.add, np.multiply):
        for axis in (0, 1):
            assert_same(ufunc.accumulate(da.asarray(a), axis=axis), ufunc.accumulate(a, axis=axis))


def test_unsupported_raises_naming_it() -> None:
    with pytest.raises(TypeError, match="numpy.isnat"):
        np.isnat(da.asarray(np.array([1.0, 2.0])))
    assert_same(np.add(da.asarray(_B), 1), _B + 1)  # the next call works


def test_call_dtype_casts_the_inputs() -> None:
    x = da.asarray(np.array([1.5, 2.25, 1e-9]))
    for want_dtype in (np.float32, np.float64):
        got = np.add(x, 1, dtype=want_dtype)
        assert got.dtype == want_dtype
        assert_same(got, np.add(np.array([1.5, 2.25, 1e-9]), 1, dtype=want_dtype))


def test_defaults_spelled_out_are_fine() -> None:
    x = da.asarray(_B)
    assert_same(np.add(x, x, casting="same_kind", where=True, dtype=None, order="K"), _B + _B)


@pytest.mark.parametrize("name", ["expm1", "log1p", "cbrt", "exp2"])
def test_foreign_ufuncs_run_darrays_of_their_name(name: str) -> None:
    """SciPy's ufuncs (not NumPy's objects) run darray's ufunc of the same name on the array's place."""
    special = pytest.importorskip("scipy.special")
    theirs = getattr(special, name)
    assert theirs is not getattr(np, name)
    got = theirs(da.asarray(np.abs(_B)))
    assert isinstance(got, da.DArray)
    assert_same(got, theirs(np.abs(_B)))


def test_foreign_ufunc_methods_follow_the_match() -> None:
    """A matched foreign ufunc's methods are darray's (a unary one has no reduce, as in NumPy); an
    unmatched one's methods name it too."""
    special = pytest.importorskip("scipy.special")
    with pytest.raises(ValueError):
        special.expm1.reduce(da.asarray(_B))
    with pytest.raises(TypeError, match=r"scipy\.special\.xlogy"):
        special.xlogy.reduce(da.asarray(_B))


def test_foreign_ufunc_darray_lacks_names_its_module() -> None:
    special = pytest.importorskip("scipy.special")
    with pytest.raises(TypeError, match=r"darray: scipy\.special\.erf is not supported"):
        special.erf(da.asarray(_B))
