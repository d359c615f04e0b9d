"""darray.testing's comparison decorators (darray/testing/_decorators.py): each passes on equal results and
fails on each kind of mismatch; they compose with pytest's parametrize, fixtures, the dtype parametrizers
and hypothesis."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import darray as da
import darray.testing as dt

DECORATORS = [dt.numpy_darray_allclose, dt.numpy_darray_array_equal]
IDS = ["allclose", "array_equal"]


def _fails(body, match: str) -> str:
    """``body()`` raises an AssertionError matching ``match``; its message."""
    with pytest.raises(AssertionError, match=match) as err:
        body()
    return str(err.value)


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_equal_results_pass(decorator):
    @decorator()
    def body(xp):
        x = xp.arange(12, dtype=xp.int32).reshape(3, 4)
        return x.T, (x.sum(), [x[::-1, 1], 2]), x.dtype.itemsize

    body()


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_values_mismatch_fails_naming_the_layout(decorator):
    @decorator()
    def body(xp):
        return (xp.arange(12.0) + (xp is da)).reshape(3, 4)[:, ::-2]

    message = _fails(body, r"\(result\)")
    assert "actual: DArray on" in message and "strides (32, -16)" in message


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_dtype_mismatch(decorator):
    def body(xp):
        return xp.arange(3, dtype=xp.float32 if xp is da else xp.float64)

    _fails(decorator()(body), "dtypes differ: darray float32, NumPy float64")
    decorator(type_check=False)(body)()


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_shape_mismatch(decorator):
    @decorator()
    def body(xp):
        return xp.ones(3) if xp is np else xp.ones(())

    _fails(body, r"shapes differ: darray \(\), NumPy \(3,\)")


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_structure_mismatch(decorator):
    @decorator()
    def pair(xp):
        return (xp.ones(2), xp.ones(2)) if xp is np else (xp.ones(2),)

    @decorator()
    def host(xp):
        return np.ones(2)  # a port that left the computation on the host

    @decorator()
    def item(xp):
        return [xp.zeros(2), xp.ones(2) * (2 if xp is da else 1)]

    _fails(pair, "NumPy returned a tuple of 2")
    _fails(host, "NumPy returned an array, darray returned ndarray")
    _fails(item, r"\(result\[1\]\)")


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_contiguous_check(decorator):
    def body(xp):
        x = xp.arange(6.0).reshape(2, 3)
        return x.T.copy().T if xp is da else x  # darray's result: F-contiguous

    message = _fails(decorator()(body), "NumPy's result is C-contiguous, darray's is not")
    assert "result: DArray on" in message and "F-contiguous" in message
    decorator(contiguous_check=False)(body)()


def test_strides_check():
    @dt.numpy_darray_array_equal(strides_check=True, contiguous_check=False)
    def body(xp):
        x = xp.arange(6.0).reshape(2, 3)
        return x.T.copy() if xp is da else x.T

    _fails(body, r"strides differ: darray \(16, 8\), NumPy \(8, 24\)")


def test_tolerances_by_dtype():
    def body(xp):
        return xp.asarray([1.0], dtype=xp.float32) + (1e-4 if xp is da else 0)

    dt.numpy_darray_allclose(rtol={np.float32: 1e-3, "default": 1e-9})(body)()
    dt.numpy_darray_allclose(rtol={"float64": 1e-3}, atol={"default": 2e-4})(body)()
    _fails(dt.numpy_darray_allclose(rtol={np.float64: 1e-3, "default": 1e-6})(body), "rtol=1e-06")


@pytest.mark.parametrize("decorator", DECORATORS, ids=IDS)
def test_errors(decorator):
    def raises(np_error, da_error):
        def body(xp):
            error = np_error if xp is np else da_error
            if error is not None:
                raise error("from " + xp.__name__)
            return xp.ones(1)
        return body

    decorator(accept_error=True)(raises(ValueError, ValueError))()
    decorator(accept_error=ValueError)(raises(ValueError, np.exceptions.AxisError))()  # darray's: a subclass
    decorator(accept_error=(KeyError, IndexError))(raises(IndexError, IndexError))()
    with pytest.raises(TypeError, match="from darray"):  # not accepted: the error itself
        decorator()(raises(TypeError, TypeError))()
    with pytest.raises(TypeError, match="from darray"):
        decorator(accept_error=ValueError)(raises(TypeError, TypeError))()
    message = _fails(decorator(accept_error=True)(raises(ValueError, None)), "only NumPy raised ValueError")
    assert "darray returned ndarray of float64, shape (1,)" not in message  # darray's result is a DArray
    assert "darray returned DArray of float64, shape (1,)" in message and "ValueError: from numpy" in message
    message = _fails(decorator(accept_error=True)(raises(None, KeyError)), "only darray raised KeyError")
    assert "NumPy returned ndarray of float64" in message and "KeyError: 'from darray'" in message
    message = _fails(decorator(accept_error=True)(raises(ValueError, TypeError)),
                     "NumPy raised ValueError, darray raised TypeError")
    assert "ValueError: from numpy" in message and "TypeError: from darray" in message
    assert message.count("Traceback (most recent call last)") == 2


def test_real_darray_errors_match_numpys():
    @dt.numpy_darray_array_equal(accept_error=ValueError)
    def body(xp):
        return xp.ones(6).reshape(4, 2)

    @dt.numpy_darray_array_equal(accept_error=True)
    def axis(xp):
        return xp.ones((2, 3)).sum(axis=5)

    body()
    axis()


def test_signature_leaves_xp_out():
    @dt.numpy_darray_allclose(name="mod")
    def body(mod, n, *, dtype="float32"):
        """Docstring."""
        return mod.ones(n, dtype=dtype)

    assert list(inspect.signature(body).parameters) == ["n", "dtype"]
    assert body.__name__ == "body" and body.__doc__ == "Docstring."
    body(3, dtype="int8")
    with pytest.raises(TypeError, match="takes no 'xp' argument"):
        dt.numpy_darray_allclose()(lambda n: n)


# composed with pytest (parametrize, fixtures), the parametrizers and hypothesis, as a user's test module would

@pytest.mark.parametrize("n", [1, 5])
@dt.for_float_dtypes(no_float16=True)
@dt.numpy_darray_allclose(rtol=1e-6)
def test_with_parametrize_and_dtypes(xp, n, dtype, request):
    assert request.node.callspec.params["n"] == n
    return xp.cumsum(xp.linspace(0, 1, n, dtype=dtype))


@dt.numpy_darray_array_equal()
@pytest.mark.parametrize("axis", [0, 1])
def test_parametrize_below(xp, axis):
    return xp.argsort(xp.asarray([[3, 1, 2], [0, 5, 4]]), axis=axis)


@dt.for_signed_dtypes(name="int_type")
@dt.numpy_darray_array_equal(accept_error=(ValueError, TypeError))
def test_named_dtype_argument(xp, int_type):
    return xp.arange(-5, 5, dtype=int_type) // 3


@given(n=st.integers(0, 6))
@dt.numpy_darray_allclose()
def test_under_given(xp, n):
    return xp.arange(n) * 2.0
