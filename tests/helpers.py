"""Test helpers: run one body with NumPy and with darray, and compare results."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
import darray.testing as dt
from darray.testing import strategies as dts

DEVICE_DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                       "uint64", "float32", "float64", "complex64", "complex128")]


def tolerance(dtype: np.dtype) -> dict[str, float]:
    """rtol/atol that fit a dtype (exact for integers and bool)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        eps = np.finfo(dtype).eps
        return {"rtol": float(eps) * 64, "atol": float(eps) * 64}
    return {"rtol": 0.0, "atol": 0.0}


def assert_same(got: Any, want: Any, **tol: float) -> None:
    """``got`` (darray or scalar) equals ``want`` (NumPy): shape, dtype, values and NaN placement (a
    failure names ``got``'s place and layout)."""
    tol = tol or tolerance(np.asarray(want).dtype)
    if tol["rtol"] == 0 and tol["atol"] == 0:
        dt.assert_array_equal(got, want, strict=True)
    else:
        dt.assert_allclose(got, want, equal_nan=True, strict=True, **tol)


def check(body: Callable[..., Any], *arrays: np.ndarray, place: Any = None, **tol: float) -> None:
    """Run ``body(xp, *arrays)`` with ``xp=numpy`` and ``xp=darray`` (arrays moved to ``place``) and compare."""
    want = body(np, *arrays)
    got = body(da, *(da.asarray(a, device=place) for a in arrays))
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            assert_same(g, w, **tol)
    else:
        assert_same(got, want, **tol)


def check_outcome(body: Callable[..., Any], *arrays: np.ndarray, rtol: float = 1e-9, atol: float = 1e-9,
                  place: Any = None, view: View | None = None) -> None:
    """``body(xp, *arrays)`` with NumPy and with darray (the arrays on ``place``, each seen through
    ``view`` when given): NumPy's exception class, or each result's dtype, shape and values (a tuple
    compared item by item; where NumPy gives a NumPy scalar, darray a 0-d DArray or a NumPy scalar of
    the same type, as ``lstsq``'s rank)."""
    def see(a: Any) -> Any:
        return a if view is None else view(a)

    ours = [see(da.asarray(a, device=place)) for a in arrays]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = body(np, *map(see, arrays))
        except (TypeError, ValueError, ZeroDivisionError, AttributeError, np.linalg.LinAlgError) as err:
            with pytest.raises(type(err)):
                body(da, *ours)
            return
        got = body(da, *ours)
    for g, w in zip(got, want, strict=True) if isinstance(want, tuple) else [(got, want)]:
        if isinstance(w, np.generic) and not isinstance(g, da.DArray):
            assert type(g) is type(w), (type(g), type(w))
        small = np.asarray(w).dtype in (np.float16, np.float32, np.complex64)
        assert_same(g, np.asarray(w), rtol=max(rtol, 1e-2 * small), atol=max(atol, 1e-2 * small))


def shapes(min_dims: int = 0, max_dims: int = 4, min_side: int = 0, max_side: int = 5) -> st.SearchStrategy:
    """``darray.testing.strategies.shapes``, from rank 0 and empty sides up by default."""
    return dts.shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def arrays(dtype: Any, shape: Any, **kw: Any) -> st.SearchStrategy:
    """NumPy arrays of ``dtype`` with special values (NaN, inf, -0.0, extremes) in the mix."""
    return hnp.arrays(np.dtype(dtype), shape, **kw)


@dataclass(frozen=True)
class View:
    """A view recipe applied alike to a NumPy array and a DArray: per-axis slices (steps of 1, 2, 3,
    -1, -2 and random starts: strided, reversed and offset views), then an axis order (transposed)."""

    keys: tuple[slice, ...]
    axes: tuple[int, ...]

    def __call__(self, x: Any) -> Any:
        return x[(*self.keys, Ellipsis)].transpose(self.axes)  # a view (an array) even at 0-d


@st.composite
def viewed(draw: Any, dtype: Any, min_dims: int = 0, max_dims: int = 3, max_side: int = 6,
           elements: Any = None, min_side: int = 0) -> tuple[np.ndarray, View]:
    """(base, view): a NumPy array and a view recipe for it. Test ``body(np, view(base))`` against
    ``body(da, view(da.asarray(base)))`` (``check_view``) so darray reads a real strided view."""
    base = draw(arrays(dtype, shapes(min_dims, max_dims, min_side, max_side), elements=elements))
    keys = tuple(slice(draw(st.integers(0, max(n - 1, 0))) if step > 0 else None, None, step)
                 for n, step in ((n, draw(st.sampled_from([1, 1, 2, 3, -1, -2]))) for n in base.shape))
    return base, View(keys, tuple(draw(st.permutations(range(base.ndim)))))


def check_view(body: Callable[..., Any], base: np.ndarray, view: View, place: Any = None, **tol: float) -> None:
    """``check`` on a view: ``body(xp, view(base))`` with NumPy and with darray (base moved to ``place``)."""
    want = body(np, view(base))
    got = body(da, view(da.asarray(base, device=place)))
    for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
        assert_same(g, w, **tol)


def run_threads(work: Callable[[int], Any], n: int, timeout: float = 120) -> None:
    """``work(k)`` for k in range(n), each in its own thread, all started before any is joined."""
    import threading

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)


def in_threads(work: Callable[[int], None], n: int = 4) -> None:
    """Run ``work(k)`` for k in range(n), each on its own thread; re-raise the first failure."""
    import threading

    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            work(k)
        except BaseException as err:  # reported by the calling thread
            errors.append(err)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


PARTS = [0.0, -0.0, 1.0, -1.5, 2.0, np.inf, -np.inf, np.nan]  # complex parts: ties, signed zeros, inf, NaN


def complex_values() -> st.SearchStrategy:
    """Complex numbers of :data:`PARTS` (NaN, inf and -0.0 in either part, many equal real parts)."""
    return st.builds(complex, st.sampled_from(PARTS), st.sampled_from(PARTS))


def assert_exact(got: Any, want: Any) -> None:
    """``got`` (darray or NumPy) is ``want`` bit for bit but for NaN payloads: shape, dtype, values
    part by part (which part of a complex is NaN) and the sign of every zero and infinity."""
    g, w = (x.get() if isinstance(x, da.DArray) else np.asarray(x) for x in (got, want))
    assert g.shape == w.shape and g.dtype == w.dtype, f"{g.dtype}{g.shape} != {w.dtype}{w.shape}"
    for part in ("real", "imag") if w.dtype.kind == "c" else ("real",):
        gp, wp = getattr(g, part), getattr(w, part)
        np.testing.assert_array_equal(gp, wp, err_msg=f"{part} parts:\n{g}\n{w}")
        if wp.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(gp) & ~np.isnan(gp), np.signbit(wp) & ~np.isnan(wp),
                                          err_msg=f"signs of the {part} parts:\n{g}\n{w}")
