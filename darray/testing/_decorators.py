"""Comparison decorators in CuPy's style: run a test body with ``xp=numpy`` and ``xp=darray``, compare.

The decorated function takes an ``xp`` argument (renamed with ``name=``) and returns what to
compare: an array, a scalar, or tuples and lists of them. The wrapper's signature leaves ``xp``
out, so pytest (fixtures, ``parametrize``) and hypothesis (``@given``) see only the other arguments.
The NumPy run goes first; both get the same arguments.
"""
from __future__ import annotations

import functools
import inspect
import traceback
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np

import darray

from .._array import DArray
from ._asserts import assert_allclose, assert_array_equal, located

__all__ = ["numpy_darray_allclose", "numpy_darray_array_equal"]

F = TypeVar("F", bound=Callable[..., Any])
Tolerance = float | Mapping[Any, float]
Accept = bool | type[BaseException] | tuple[type[BaseException], ...]


def _tolerance(tol: Tolerance, dtype: np.dtype, default: float) -> float:
    """``tol`` itself, or its entry for ``dtype`` (else its ``"default"`` entry, else ``default``)."""
    if not isinstance(tol, Mapping):
        return float(tol)
    for key, value in tol.items():
        if not (isinstance(key, str) and key == "default") and np.dtype(key) == dtype:
            return float(value)
    return float(tol.get("default", default))


def _accepted(err: BaseException, accept: Accept) -> bool:
    if isinstance(accept, bool):
        return accept
    return isinstance(err, accept)


def _call(impl: Callable[..., Any], sig: inspect.Signature, given: dict[str, Any], name: str,
          xp: Any) -> tuple[Any, Exception | None]:
    """``impl`` called with the arguments ``given`` by name, and ``xp`` as ``name``: (result, None) or
    (None, the exception it raised)."""
    arguments = {**given, name: xp}
    bound = inspect.BoundArguments(sig, {p: arguments[p] for p in sig.parameters if p in arguments})
    try:
        return impl(*bound.args, **bound.kwargs), None
    except Exception as err:  # compared with the other run's outcome
        return None, err


def _summary(result: Any) -> str:
    """A short account of a run's result (an array by its dtype and shape)."""
    if isinstance(result, (DArray, np.ndarray)):
        return f"{type(result).__name__} of {result.dtype}, shape {result.shape}"
    text = repr(result)
    return text if len(text) <= 200 else text[:200] + "..."


def _trace(err: BaseException) -> str:
    return "".join(traceback.format_exception(type(err), err, err.__traceback__))


def _errors(np_err: Exception | None, da_err: Exception | None, np_result: Any, da_result: Any,
            accept: Accept) -> None:
    """Fail unless both runs raised compatible errors that ``accept`` allows; re-raise darray's when
    both raised one of NumPy's class that ``accept`` does not allow."""
    if np_err is None and da_err is not None:
        raise AssertionError(f"only darray raised {type(da_err).__name__}; NumPy returned {_summary(np_result)}\n\n"
                             f"darray's traceback:\n{_trace(da_err)}")
    if da_err is None and np_err is not None:
        raise AssertionError(f"only NumPy raised {type(np_err).__name__}; darray returned {_summary(da_result)}\n\n"
                             f"NumPy's traceback:\n{_trace(np_err)}")
    assert np_err is not None and da_err is not None
    if not isinstance(da_err, type(np_err)):
        raise AssertionError(f"NumPy raised {type(np_err).__name__}, darray raised {type(da_err).__name__} (not a "
                             f"subclass of it)\n\nNumPy's traceback:\n{_trace(np_err)}\n"
                             f"darray's traceback:\n{_trace(da_err)}")
    if not _accepted(np_err, accept):
        raise da_err


class _Check:
    """Compares one run's results item by item: types, dtype, shape, contiguity, strides, then values."""

    def __init__(self, values: Callable[[Any, Any, str], None], type_check: bool, contiguous_check: bool,
                 strides_check: bool) -> None:
        self.values, self.type_check = values, type_check
        self.contiguous_check, self.strides_check = contiguous_check, strides_check

    def __call__(self, got: Any, want: Any, where: str = "result") -> None:
        if isinstance(want, (tuple, list)):
            if not isinstance(got, (tuple, list)) or len(got) != len(want):
                raise AssertionError(f"{where}: NumPy returned a {type(want).__name__} of {len(want)}, darray "
                                     f"returned {_summary(got)}")
            for i, (g, w) in enumerate(zip(got, want)):
                self(g, w, f"{where}[{i}]")
            return
        with located(**{where: got}):
            self._metadata(got, want, where)
        self.values(got, want, where)

    def _metadata(self, got: Any, want: Any, where: str) -> None:
        if isinstance(want, np.ndarray) and not isinstance(got, DArray):
            raise AssertionError(f"{where}: NumPy returned an array, darray returned {type(got).__name__}")
        g, w = np.asarray(got) if not isinstance(got, DArray) else got, np.asarray(want)
        if g.shape != w.shape:
            raise AssertionError(f"{where}: shapes differ: darray {g.shape}, NumPy {w.shape}")
        if self.type_check and g.dtype != w.dtype:
            raise AssertionError(f"{where}: dtypes differ: darray {g.dtype}, NumPy {w.dtype}")
        if isinstance(want, np.ndarray) and isinstance(got, DArray):
            if self.contiguous_check and want.flags.c_contiguous and not got.flags.c_contiguous:
                raise AssertionError(f"{where}: NumPy's result is C-contiguous, darray's is not")
            if self.strides_check and got.strides != want.strides:
                raise AssertionError(f"{where}: strides differ: darray {got.strides}, NumPy {want.strides}")


def _comparing(check: _Check, name: str, accept_error: Accept) -> Callable[[F], F]:
    def decorate(impl: F) -> F:
        sig = inspect.signature(impl)
        if name not in sig.parameters:
            raise TypeError(f"darray.testing: {impl.__qualname__} takes no {name!r} argument to run with NumPy "
                            "and darray")

        public = sig.replace(parameters=[p for p in sig.parameters.values() if p.name != name])

        @functools.wraps(impl)
        def test(*args: Any, **kwargs: Any) -> None:
            given = dict(public.bind(*args, **kwargs).arguments)
            want, np_err = _call(impl, sig, given, name, np)
            got, da_err = _call(impl, sig, given, name, darray)
            if np_err is not None or da_err is not None:
                _errors(np_err, da_err, want, got, accept_error)
                return
            check(got, want)

        test.__signature__ = public  # type: ignore[attr-defined]
        return test  # type: ignore[return-value]

    return decorate


def numpy_darray_allclose(rtol: Tolerance = 1e-7, atol: Tolerance = 0.0, err_msg: str = "", verbose: bool = True,
                          name: str = "xp", type_check: bool = True, accept_error: Accept = False,
                          contiguous_check: bool = True, equal_nan: bool = True) -> Callable[[F], F]:
    """The decorated test's results with ``xp=darray`` are close to those with ``xp=numpy``
    (:func:`assert_allclose`); ``rtol``/``atol`` may map dtypes to tolerances (``{"float16": 1e-3,
    "default": 1e-6}``, chosen by NumPy's result dtype).

    ``type_check``: dtypes equal; ``contiguous_check``: darray's result is C-contiguous where NumPy's
    is; ``accept_error``: True, or exception classes both runs may raise (darray's may be a subclass of
    NumPy's class, e.g. NumPy's ``AxisError`` for its ``ValueError``); a test where only one run raises
    fails, showing the traceback. A NumPy array result must come back from darray as a DArray.
    """
    def values(got: Any, want: Any, where: str) -> None:
        dtype = np.asarray(want).dtype
        assert_allclose(got, want, rtol=_tolerance(rtol, dtype, 1e-7), atol=_tolerance(atol, dtype, 0.0),
                        equal_nan=equal_nan, err_msg=f"{err_msg} ({where})".lstrip(), verbose=verbose)

    return _comparing(_Check(values, type_check, contiguous_check, False), name, accept_error)


def numpy_darray_array_equal(err_msg: str = "", verbose: bool = True, name: str = "xp", type_check: bool = True,
                             accept_error: Accept = False, contiguous_check: bool = True,
                             strides_check: bool = False) -> Callable[[F], F]:
    """The decorated test's results with ``xp=darray`` equal those with ``xp=numpy``
    (:func:`assert_array_equal`); ``strides_check``: their strides are equal too. The other
    options as :func:`numpy_darray_allclose`."""
    def values(got: Any, want: Any, where: str) -> None:
        assert_array_equal(got, want, err_msg=f"{err_msg} ({where})".lstrip(), verbose=verbose)

    return _comparing(_Check(values, type_check, contiguous_check, strides_check), name, accept_error)
