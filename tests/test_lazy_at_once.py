"""The host engine's at-once lane (``darray.lazy.at_once``): element reads without index plans and
0-d ops over held values give NumPy's values, dtypes and errors, over strided, reversed, offset and
transposed views, and step aside (a pending copy, a recorded op) where the engine may not run now."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from helpers import viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.lazy import at_once, graph, host

ON = 32768  # the engine's default limit (the suite runs with it off: ``conftest.lazy_mode``)


@contextmanager
def engine(limit: int = ON) -> Iterator[None]:
    """The host engine at ``limit`` elements (0: off) for the block."""
    old, host.LIMIT = host.LIMIT, limit
    try:
        yield
    finally:
        host.LIMIT = old


_DTYPES = ["float64", "float32", "int64", "int8", "uint8", "uint64", "bool"]


def _keys(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple:
    """A key of one int per axis, in range (negative ones too) or, now and then, one past it; as
    Python or NumPy ints."""
    key = []
    for n in shape:
        k = draw(st.integers(-n - 1, n) if n else st.integers(-1, 1))
        key.append(draw(st.sampled_from([int, np.int64, np.intp, np.int8]))(k) if -128 <= k < 128 else k)
    return tuple(key)


@given(st.data(), st.sampled_from(_DTYPES))
def test_element_reads_are_numpys_over_views(data, dtype):
    with engine():
        _element_read(data, dtype)


def _element_read(data: st.DataObject, dtype: str) -> None:
    base, view = data.draw(viewed(dtype, min_dims=1, max_dims=3))
    want_x = view(base)
    got_x = view(da.asarray(base))
    da.synchronize()  # the upload done: the engine may read the memory now
    key = _keys(data.draw, want_x.shape)
    keyed = key[0] if len(key) == 1 and data.draw(st.booleans()) else key  # a vector's index on its own
    try:
        want = want_x[keyed]
    except IndexError:
        with pytest.raises(IndexError):
            got_x[keyed]
        return
    got = got_x[keyed]
    assert got.shape == () and got.dtype == want.dtype
    assert graph.known_value(got._node) is not None  # read at once: held as its value
    np.testing.assert_array_equal(got.get(), want)
    assert float(got) == float(want) or (np.isnan(float(got)) and np.isnan(float(want)))


def test_element_reads_step_aside_where_the_engine_may_not(monkeypatch):
    monkeypatch.setattr(host, "LIMIT", ON)
    h = np.arange(12.0).reshape(3, 4)
    x = da.asarray(h)
    assert at_once.element_at(x, (1, 2)) is not None
    assert at_once.element_at(x, (1, slice(None))) is None  # not one int per axis
    assert at_once.element_at(x, (3, 0)) is None  # out of range: the general path raises
    assert at_once.element_at(x, 1) is None  # one int for a matrix: a row view
    y = da.exp(x)  # inexact on the host: pending
    assert at_once.element_at(y, (1, 2)) is None
    assert float(y[1, 2]) == pytest.approx(np.exp(h[1, 2]))
    with da.profile():  # a profile lists host work: the element is a pending copy
        z = x[2, 3]
        assert graph.known_value(z._node) is None
        assert float(z) == 11.0
    monkeypatch.setattr(host, "LIMIT", 0)  # the engine off (a GPU's path)
    w = x[0, 1]
    assert graph.known_value(w._node) is None and float(w) == 1.0


_OPS = ["add", "subtract", "multiply", "divide", "floor_divide", "maximum", "less", "equal", "power", "arctan2"]


@given(st.sampled_from(_OPS), st.sampled_from(["float64", "float32", "int64", "int16", "uint8", "bool"]),
       st.sampled_from(["float64", "int32", "py_int", "py_float", "py_bool"]),
       st.one_of(st.floats(-1e3, 1e3), st.sampled_from([np.nan, np.inf, -np.inf, -0.0])), st.integers(-100, 100))
def test_0d_ops_over_held_values_are_numpys(op, left, right, fa, ib):
    a = np.array(fa if np.dtype(left).kind == "f" else int(fa) if np.isfinite(fa) else 0).astype(left)
    b = {"py_int": ib, "py_float": float(ib) / 7, "py_bool": bool(ib % 2)}.get(right)
    b = np.array(ib).astype(right) if b is None else b
    if op in ("power", "floor_divide", "divide") and np.dtype(left).kind in "iub" and np.asarray(b).dtype.kind in "iub":
        return  # NumPy's integer errors (negative powers, division by zero) are the op tests' concern
    with np.errstate(all="ignore"):
        try:
            want = getattr(np, op)(a[()], b)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(da, op)(da.asarray(a), b)
            return
    for limit in (ON, 0):  # held values through NumPy's scalar math; the kernels (engine off)
        with engine(limit):
            x = da.asarray(np.stack([a, a]))
            y = da.asarray(np.stack([b, b])) if isinstance(b, np.ndarray) else b
            da.synchronize()
            got = getattr(da, op)(x[1], y[0] if isinstance(b, np.ndarray) else y)
            held = graph.known_value(got._node) is not None
            assert held == bool(limit) if op in at_once._SCALAR_MATH else not held or limit
            assert got.dtype == np.asarray(want).dtype
            if op in ("power", "arctan2"):  # the device's libm: within a few ulps of NumPy's
                np.testing.assert_allclose(got.get(), want, rtol=1e-5)
            else:
                np.testing.assert_array_equal(got.get(), want)


def test_in_place_into_a_held_value_holds_the_result(monkeypatch):
    monkeypatch.setattr(host, "LIMIT", ON)
    x = da.asarray(np.array([1.5, 2.5]))[0]
    keep = x * 1.0  # another array over the held value keeps its own
    x += 2.0
    assert graph.known_value(x._node) == 3.5 and float(keep) == 1.5


def test_element_reads_of_memory_not_typed_as_the_dtype(monkeypatch):
    """Where the segment is not typed as the dtype (``host._typed`` None), the element is read through
    a 0-d NumPy view of its bytes: the same values over strided, reversed and transposed views."""
    monkeypatch.setattr(host, "LIMIT", ON)
    monkeypatch.setattr(at_once, "_typed", lambda a, dtype: None)
    h = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = da.asarray(h)
    da.synchronize()
    for view in (lambda a: a, lambda a: a[:, ::-1, 1::2], lambda a: a.transpose(2, 0, 1), lambda a: a[1, ::-2]):
        want, got_x = view(h), view(x)
        for key in np.ndindex(*want.shape):
            got = got_x[key]
            assert graph.known_value(got._node) == want[key] and got.dtype == want.dtype
