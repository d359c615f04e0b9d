"""NumPy's ``numpy.testing`` assertions, taking DArrays and NumPy arrays alike.

Each function copies DArrays to the host (``x.get()``) and calls NumPy's function of the same name.
Differs from NumPy: ``strict=True`` checks shape and dtype for every function (NumPy has it on
some), and a failure message ends with where each DArray argument lived and its layout (place,
dtype, shape, strides and offset in bytes, contiguity), as :func:`describe` writes it.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.testing import assert_raises, assert_raises_regex

from .._array import DArray

__all__ = [
    "describe", "assert_allclose", "assert_array_equal", "assert_array_almost_equal", "assert_array_less",
    "assert_array_max_ulp", "assert_array_almost_equal_nulp", "assert_equal", "assert_almost_equal",
    "assert_approx_equal", "assert_raises", "assert_raises_regex",
]


def describe(x: DArray, /) -> str:
    """``x``'s place and layout in one line: ``DArray on cl:0, float64, shape (3, 4), strides (-8, 32),
    offset 88, non-contiguous``. Strides and the offset into its allocation are in bytes, as NumPy's strides."""
    flags = x.flags
    if x.size and any(s == 0 and n > 1 for s, n in zip(x.strides, x.shape)):
        kind = "broadcast"
    elif flags.c_contiguous:
        kind = "C-contiguous"
    else:
        kind = "F-contiguous" if flags.f_contiguous else "non-contiguous"
    return (f"DArray on {x.place}, {x.dtype}, shape {x.shape}, strides {x.strides}, "
            f"offset {x._dim.offset * x.itemsize}, {kind}")


def _host(obj: Any) -> Any:
    """``obj`` with every DArray (also inside tuples, lists and dicts) copied to a NumPy array."""
    if isinstance(obj, DArray):
        return obj.get()
    if isinstance(obj, (tuple, list)):
        return type(obj)(_host(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _host(v) for k, v in obj.items()}
    return obj


def _layouts(name: str, obj: Any) -> Iterator[str]:
    """``name: <describe>`` for each DArray in ``obj`` (an array, or tuples, lists and dicts of them)."""
    if isinstance(obj, DArray):
        yield f"{name}: {describe(obj)}"
    elif isinstance(obj, (tuple, list)):
        for i, o in enumerate(obj):
            yield from _layouts(f"{name}[{i}]", o)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _layouts(f"{name}[{k!r}]", v)


@contextlib.contextmanager
def located(**arrays: Any) -> Iterator[None]:
    """An AssertionError raised inside the block gets a line per DArray of ``arrays`` naming its
    place and layout (``actual: DArray on cl:0, ...``)."""
    try:
        yield
    except AssertionError as err:
        lines = [line for name, obj in arrays.items() for line in _layouts(name, obj)]
        if lines:
            err.args = ("\n".join([str(err.args[0]) if err.args else "", *lines]), *err.args[1:])
        raise


def _check_strict(actual: Any, desired: Any, err_msg: str) -> None:
    """AssertionError unless ``actual`` and ``desired`` (arrays, scalars, or nested tuples, lists
    and dicts of them) have the same shapes and dtypes."""
    if isinstance(actual, (tuple, list)) and isinstance(desired, (tuple, list)):
        for a, d in zip(actual, desired):
            _check_strict(a, d, err_msg)
    elif isinstance(actual, dict) and isinstance(desired, dict):
        for k in actual.keys() & desired.keys():
            _check_strict(actual[k], desired[k], err_msg)
    else:
        a, d = np.asarray(actual), np.asarray(desired)
        for what, x, y in (("shape", a.shape, d.shape), ("dtype", a.dtype, d.dtype)):
            if x != y:
                note = f"\n{err_msg}" if err_msg else ""
                raise AssertionError(f"\nArrays are not equal (strict=True): {what} mismatch{note}\n"
                                     f" ACTUAL: {x}\n DESIRED: {y}")


def _compare(check: Callable[..., Any], actual: Any, desired: Any, strict: bool, names: tuple[str, str] = (
        "actual", "desired"), **options: Any) -> Any:
    """``check(actual, desired, **options)`` on host copies, after the ``strict`` check; a failure
    names the DArrays' layouts (the arguments called ``names``)."""
    with located(**dict(zip(names, (actual, desired)))):
        a, d = _host(actual), _host(desired)
        if strict:
            _check_strict(a, d, options.get("err_msg", ""))
        return check(a, d, **options)


def assert_allclose(actual: Any, desired: Any, rtol: float = 1e-7, atol: float = 0.0, equal_nan: bool = True,
                    err_msg: str = "", verbose: bool = True, *, strict: bool = False) -> None:
    """``|actual - desired| <= atol + rtol * |desired|`` elementwise. See also: numpy.testing.assert_allclose."""
    _compare(np.testing.assert_allclose, actual, desired, strict, rtol=rtol, atol=atol, equal_nan=equal_nan,
             err_msg=err_msg, verbose=verbose)


def assert_array_equal(actual: Any, desired: Any, err_msg: str = "", verbose: bool = True, *,
                       strict: bool = False) -> None:
    """Equal shapes and elements (NaNs in the same places). See also: numpy.testing.assert_array_equal."""
    _compare(np.testing.assert_array_equal, actual, desired, strict, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal(actual: Any, desired: Any, decimal: int = 6, err_msg: str = "", verbose: bool = True,
                              *, strict: bool = False) -> None:
    """``|desired - actual| < 1.5 * 10**-decimal`` elementwise. See also: numpy.testing.assert_array_almost_equal."""
    _compare(np.testing.assert_array_almost_equal, actual, desired, strict, decimal=decimal, err_msg=err_msg,
             verbose=verbose)


def assert_array_less(x: Any, y: Any, err_msg: str = "", verbose: bool = True, *, strict: bool = False) -> None:
    """``x < y`` elementwise. See also: numpy.testing.assert_array_less."""
    _compare(np.testing.assert_array_less, x, y, strict, ("x", "y"), err_msg=err_msg, verbose=verbose)


def assert_array_max_ulp(a: Any, b: Any, maxulp: int = 1, dtype: Any = None, *, strict: bool = False) -> np.ndarray:
    """Elements differ by at most ``maxulp`` units in the last place; returns the differences.
    See also: numpy.testing.assert_array_max_ulp."""
    result: np.ndarray = _compare(np.testing.assert_array_max_ulp, a, b, strict, ("a", "b"), maxulp=maxulp, dtype=dtype)
    return result


def assert_array_almost_equal_nulp(x: Any, y: Any, nulp: int = 1, *, strict: bool = False) -> None:
    """``|x - y| <= nulp * spacing(max(|x|, |y|))`` elementwise.
    See also: numpy.testing.assert_array_almost_equal_nulp."""
    _compare(np.testing.assert_array_almost_equal_nulp, x, y, strict, ("x", "y"), nulp=nulp)


def assert_equal(actual: Any, desired: Any, err_msg: str = "", verbose: bool = True, *, strict: bool = False) -> None:
    """Equal objects: arrays, scalars, and tuples, lists and dicts of them, compared item by item.
    See also: numpy.testing.assert_equal."""
    _compare(np.testing.assert_equal, actual, desired, strict, err_msg=err_msg, verbose=verbose)


def assert_almost_equal(actual: Any, desired: Any, decimal: int = 7, err_msg: str = "", verbose: bool = True, *,
                        strict: bool = False) -> None:
    """``|desired - actual| < 1.5 * 10**-decimal``. See also: numpy.testing.assert_almost_equal."""
    _compare(np.testing.assert_almost_equal, actual, desired, strict, decimal=decimal, err_msg=err_msg,
             verbose=verbose)


def assert_approx_equal(actual: Any, desired: Any, significant: int = 7, err_msg: str = "", verbose: bool = True, *,
                        strict: bool = False) -> None:
    """Scalars equal to ``significant`` digits. See also: numpy.testing.assert_approx_equal."""
    _compare(np.testing.assert_approx_equal, actual, desired, strict, significant=significant, err_msg=err_msg,
             verbose=verbose)
