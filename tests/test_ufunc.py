"""NumPy ufuncs on DArrays (``darray/interop/ufunc.py``): every ufunc of the op table, with
DArray, NumPy and scalar arguments mixed, returns a DArray equal to NumPy's result; ``out=``,
the methods (``tests/test_ufunc_methods.py`` tests them in depth); an unsupported ufunc is a TypeError naming it.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da
import darray.ops.ufunc
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


# dtype=, casting= and out= against NumPy 2 over every darray ufunc (NEP 50 for Python scalars)
_UFUNC_NAMES = sorted(n for n, u in da.ops.ufunc.UFUNCS.items() if u.numpy is not None)
_KW_DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                                    "float32", "float64", "complex64", "complex128")]
_DEVICE_KINDS = "buif"  # darray's table ops lacking complex (fmax, fmin, exp2) refuse it: compared where both run


@st.composite
def _operand(draw):
    """A Python bool/int/float/complex, a NumPy scalar, a 0-d or an n-d array of a drawn dtype."""
    kind = draw(st.sampled_from(["py", "np", "0d", "nd"]))
    if kind == "py":
        return draw(st.sampled_from([True, False, 3, -2, 0, 2.5, -0.0, float("nan"), 1.5 + 2j]))
    dtype = draw(st.sampled_from(_KW_DTYPES))
    values = np.array([3, 1, 2, 0, 5], dtype=np.int64).astype(dtype)
    if kind == "np":
        return values[draw(st.integers(0, 4))]
    if kind == "0d":
        return values[1:2].reshape(())
    return values[draw(st.sampled_from([slice(None), slice(None, None, -2), slice(0, 0)]))]


def _ufunc_call(xp, name, args, **kw):
    fn = getattr(np, da.ops.ufunc.UFUNCS[name].numpy.__name__) if xp is np else da.ops.ufunc.UFUNCS[name]
    args = [da.asarray(a) if xp is da and isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kw)
        except (TypeError, ValueError, OverflowError) as err:
            return err


def _same_outcome(got, want) -> None:
    if isinstance(want, Exception):
        assert isinstance(got, TypeError if isinstance(want, TypeError) else type(want)), (got, want)
        return
    assert not isinstance(got, Exception), (got, want)
    for g, w in zip(got, want, strict=True) if isinstance(want, tuple) else [(got, want)]:
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_allclose(np.asarray(g).astype(w.dtype), w, rtol=1e-2, atol=1e-3, equal_nan=True)


def _runs(args, kw) -> bool:
    dtypes = [np.asarray(a).dtype for a in args] + [kw.get("dtype") or np.dtype("b")]
    return all(d.kind in _DEVICE_KINDS for d in dtypes)


@settings(max_examples=300)
@given(name=st.sampled_from(_UFUNC_NAMES), data=st.data(), dtype=st.sampled_from([None, *_KW_DTYPES]),
       casting=st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]))
def test_dtype_and_casting_keywords_as_numpy(name, data, dtype, casting) -> None:
    """``ufunc(*operands, dtype=, casting=)``: NumPy's loop (``elementwise.loop``), result dtype,
    values and exception class, Python scalars weak (NEP 50) as in NumPy 2."""
    nin = da.ops.ufunc.UFUNCS[name].nin
    args = [data.draw(_operand()) for _ in range(nin)]
    want = _ufunc_call(np, name, args, dtype=dtype, casting=casting)
    got = _ufunc_call(da, name, args, dtype=dtype, casting=casting)
    if isinstance(got, TypeError) and "not supported for dtype" in str(got) and not isinstance(want, Exception):
        assert not _runs(args, {"dtype": dtype})  # only complex where darray's table lacks it
        return
    _same_outcome(got, want)


def test_dtype_of_python_scalars() -> None:
    """The issue's case: Python scalars computed in the loop ``dtype=`` names."""
    got = da.floor_divide(3, 2, dtype=np.float64)
    assert got.dtype == np.float64 and float(got) == 1.0
    assert da.add(True, 2, dtype=np.float32).dtype == np.float32
    assert da.equal(1, 2, dtype=bool).dtype == np.bool_
    assert da.ldexp(np.float32(1.5), 3, dtype=np.float64).dtype == np.float64
    with pytest.raises(OverflowError):
        da.add(-1, 2, dtype=np.uint8)
    with pytest.raises(TypeError, match="add"):
        da.add(2.5, 1, dtype=np.int64)


@settings(max_examples=120)
@given(name=st.sampled_from(["add", "floor_divide", "sqrt", "equal", "ldexp", "logical_and", "divmod", "negative",
                             "true_divide", "maximum", "modf"]),
       data=st.data(), out_dtype=st.sampled_from([np.dtype(t) for t in ("bool", "int8", "int64", "uint16",
                                                                        "float32", "float64")]),
       out_shape=st.sampled_from([(3,), (2, 3), (), (4,)]), dtype=st.sampled_from([None, np.float64, np.int32]),
       casting=st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]))
def test_out_of_another_dtype_and_shape_as_numpy(name, data, out_dtype, out_shape, dtype, casting) -> None:
    """``out=`` of any dtype under ``casting=``, of a shape the result broadcasts to or not: NumPy's
    values in ``out`` or its exception class."""
    u = da.ops.ufunc.UFUNCS[name]
    pool = [2.5, 3, True, np.arange(1, 4, dtype=np.int16), np.linspace(0.5, 2, 3, dtype=np.float32)]
    args = [data.draw(st.sampled_from(pool)) for _ in range(u.nin)]
    if name == "ldexp":
        args[-1] = data.draw(st.sampled_from([3, np.arange(1, 4, dtype=np.int16)]))
    want_out = tuple(np.zeros(out_shape, out_dtype) for _ in range(u.nout))
    got_out = tuple(da.zeros(out_shape, dtype=out_dtype) for _ in range(u.nout))
    want = _ufunc_call(np, name, args, out=want_out, dtype=dtype, casting=casting)
    got = _ufunc_call(da, name, args, out=got_out, dtype=dtype, casting=casting)
    if isinstance(want, Exception):
        _same_outcome(got, want)
        return
    assert not isinstance(got, Exception), (got, want)
    for g, w in zip(got_out, want_out):
        assert_same(g, w, rtol=1e-6, atol=1e-6) if w.dtype.kind == "f" else assert_same(g, w)
