"""The host engine against the kernels (``darray/lazy/host.py``: ``view``, ``now``, ``fresh``, and the
families' at-once paths): the same bits, over strided, reversed, offset and transposed views, on
both sides of the engine's size limit, and ordered after pending work.

The suite runs with the engine off (``conftest.lazy_mode``: the kernels are what it checks); each
test here computes its body twice, with the engine at its default limit and with it off
(``host.LIMIT = 0``: the path a GPU takes), and compares both with each other bit for bit and with
NumPy. ``.ci/run`` runs this module in every kernel form.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from helpers import assert_same, in_threads, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.lazy import host

ON = 32768  # the engine's default limit (DARRAY_HOST_WORK)
SPECIAL = st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.25, 1e300, 7.0])
DTYPES = ["float64", "float32", "int64", "int32", "uint8", "bool", "complex128"]


def _host(dtype: str) -> Any:
    return SPECIAL if np.dtype(dtype).kind in "fc" else None


def _bits(x: Any) -> Any:
    a = np.asarray(x.get() if isinstance(x, da.DArray) else x)
    return a.dtype, a.shape, a.tobytes()


def _same_bits(a: Any, b: Any) -> None:
    x, y = (np.asarray(v.get() if isinstance(v, da.DArray) else v) for v in (a, b))
    assert x.dtype == y.dtype and x.shape == y.shape
    assert x.tobytes() == y.tobytes() or np.array_equal(x, y, equal_nan=True), (x, y)


@contextmanager
def limit(n: int) -> Iterator[None]:
    """The engine at limit ``n`` (0: off) for the block."""
    old, host.LIMIT = host.LIMIT, n
    try:
        yield
    finally:
        host.LIMIT = old


def both(body: Callable[[Any, list[Any]], Any], bases: list[np.ndarray], place: Any) -> None:
    """``body(xp, arrays)`` (it may write into the arrays; its result and the arrays afterwards are
    compared) with the engine on, with it off, and with NumPy; exceptions must be of one class."""
    outcomes = []
    for xp, n in ((da, ON), (da, 0), (np, 0)):
        arrays = [da.asarray(b, device=place) for b in bases] if xp is da else [b.copy() for b in bases]
        try:
            with np.errstate(all="ignore"), limit(n):
                res = body(xp, arrays)
            outcomes.append((res, [np.asarray(a.get() if xp is da else a) for a in arrays]))
        except Exception as err:  # both sides must raise alike
            outcomes.append(type(err))
    on, off, want = outcomes
    if isinstance(want, type):
        assert on is not None and isinstance(on, type) and isinstance(off, type), (on, off, want)
        assert issubclass(on, want) or issubclass(want, on), (on, want)
        return
    assert not isinstance(on, type) and not isinstance(off, type), (on, off)
    for a, b, w in zip(on[1], off[1], want[1]):
        _same_bits(a, b)
        assert_same(a, w)
    if on[0] is not None:
        _same_bits(on[0], off[0])
        assert_same(on[0], want[0])


def _index(draw: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(draw(st.integers(-n, n - 1)) for n in shape)


@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_scalar_reads(dtype, data, cl_place):
    """``float(x[i, j])``, ``int``, ``bool``, ``.item()`` of an element of a view."""
    base, view = data.draw(viewed(dtype, 1, 3, 5, elements=_host(dtype)))
    if view(base).size == 0:
        return
    key = _index(data.draw, view(base).shape)
    convert = data.draw(st.sampled_from(["item", "bool"] + (["float", "int"] if dtype != "complex128" else [])))

    def body(xp: Any, a: list[Any]) -> Any:
        e = view(a[0])[key]
        value = e.item() if convert == "item" else {"bool": bool, "float": float, "int": int}[convert](e)
        return np.asarray(value)

    if convert == "int" and np.dtype(dtype).kind == "f" and not np.isfinite(view(base)[key]):
        return  # int(nan): NumPy's ValueError and OverflowError, as darray's (both raise; classes vary by value)
    both(body, [base], cl_place)


@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_elements_are_copies(dtype, data, cl_place):
    """``e = x[i, j]`` is a copy, as NumPy's scalar: writing ``x[i, j]`` or updating ``e`` in place
    (``e += e``) after it leaves the other as it was (``x[i, j, ...]`` stays a view, in darray and NumPy)."""
    base, view = data.draw(viewed(dtype, 1, 3, 5, elements=_host(dtype)))
    if view(base).size == 0:
        return
    key = _index(data.draw, view(base).shape)

    def body(xp: Any, a: list[Any]) -> Any:
        x = view(a[0])
        e, kept = x[key], x[key + (Ellipsis,)]
        x[key] = 1
        e += e  # (of e's dtype: NumPy's scalar rebinds, darray's 0-d array updates in place)
        return xp.stack([xp.asarray(e), xp.asarray(kept)]) if xp is np else da.stack([e, kept])

    both(body, [base], cl_place)


@given(dtype=st.sampled_from(DTYPES), value=st.sampled_from([0, 1, -1, 7, 300, True, 2.5, -0.0, np.nan, 1e300,
                                                            np.float32(3.25), np.int8(-3), 1 + 2j]),
       data=st.data())
def test_element_and_basic_writes_of_scalars(dtype, value, data, cl_place):
    """``x[i, j] = s`` and ``x[key] = s`` into views: NumPy's casts and errors (OverflowError,
    TypeError for complex into real), the rest of the allocation untouched."""
    base, view = data.draw(viewed(dtype, 1, 3, 5, elements=_host(dtype)))
    if view(base).size == 0:
        return
    element = data.draw(st.booleans())
    key = _index(data.draw, view(base).shape) if element else (slice(data.draw(st.integers(0, 2)), None,
                                                                     data.draw(st.sampled_from([1, 2, -1]))),)

    def body(xp: Any, a: list[Any]) -> None:
        view(a[0])[key] = value

    if isinstance(value, complex) and np.dtype(dtype).kind != "c":
        return  # NumPy: TypeError; darray: TypeError too, checked in test_indexing
    both(body, [base], cl_place)


@given(dtype=st.sampled_from(DTYPES), src=st.sampled_from(DTYPES), data=st.data())
def test_basic_writes_of_arrays(dtype, src, data, cl_place):
    """``x[key] = y`` with ``y`` an array of another view (casts, broadcasting, overlap with ``x``)."""
    base, view = data.draw(viewed(dtype, 1, 2, 6, elements=_host(dtype)))
    v = view(base)
    if v.size == 0:
        return
    overlap = data.draw(st.booleans()) and src == dtype and v.ndim == 1 and v.shape[0] > 1
    other = np.random.default_rng(data.draw(st.integers(0, 99))).random(v.shape[-1:]) * 50 - 25
    other = other.astype(src) if np.dtype(src).kind != "b" else other > 0

    def body(xp: Any, a: list[Any]) -> None:
        x = view(a[0])
        if overlap:
            x[1:] = x[:-1]
        else:
            x[...] = a[1]

    if np.dtype(src).kind == "c" and np.dtype(dtype).kind != "c":
        return  # ComplexWarning territory: checked in test_convert
    both(body, [base, other], cl_place)


_INPLACE = ["+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "**="]


@given(dtype=st.sampled_from(["float64", "float32", "int64", "int32", "uint8"]), op=st.sampled_from(_INPLACE),
       operand=st.sampled_from(["scalar", "array", "0-d", "self"]), data=st.data())
def test_inplace_operators(dtype, op, operand, data, cl_place):
    """``x op= y`` on views: a scalar, a broadcast row, a 0-d element of ``x`` itself, an overlapping
    shifted view of ``x``; NumPy's same-kind casting errors."""
    base, view = data.draw(viewed(dtype, 1, 2, 6, elements=_host(dtype)))
    if view(base).size == 0:
        return
    shape = view(base).shape
    row = (np.arange(shape[-1]) % 5 + 1).astype(dtype)

    def body(xp: Any, a: list[Any]) -> None:
        x = view(a[0])
        y: Any = {"scalar": 3, "array": a[1], "0-d": x[(0,) * x.ndim]}.get(operand)
        if operand == "self":
            x, y = (x[1:], x[:-1]) if x.shape[0] > 1 else (x, x)
        exec(f"x {op} y", {}, {"x": x, "y": y})

    if op in ("&=", "|=") and np.dtype(dtype).kind == "f":
        return  # TypeError on both sides (covered by test_elementwise)
    both(body, [base, row], cl_place)


@given(dtype=st.sampled_from(["float64", "float32", "int32", "bool", "complex128"]),
       kind=st.sampled_from(["vv", "mv", "vm", "mm"]), data=st.data())
def test_small_products(dtype, kind, data, cl_place):
    """``a @ b`` and ``dot`` of 1-d and 2-d views (slices of one matrix, as loop code takes them)."""
    base, view = data.draw(viewed(dtype, 2, 2, 7, elements=_host(dtype)))
    m = view(base)
    if 0 in m.shape:
        return
    i, j = data.draw(st.integers(0, m.shape[0] - 1)), data.draw(st.integers(0, m.shape[1] - 1))

    def body(xp: Any, a: list[Any]) -> Any:
        x = view(a[0])
        k = min(x.shape)
        left = x[i, :k] if kind in ("vv", "vm") else x[:, :k]
        right = x[:k, j] if kind in ("vv", "mv") else x[:k, :]
        return xp.dot(left, right) if kind == "vv" else left @ right

    both(body, [base], cl_place)


@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_gathers(dtype, data, cl_place):
    """``x[idx]`` and ``x[:, idx]`` with an integer DArray (negative indices; out of range: IndexError)."""
    base, view = data.draw(viewed(dtype, 1, 2, 6, elements=_host(dtype)))
    v = view(base)
    if v.size == 0:
        return
    axis = data.draw(st.integers(0, v.ndim - 1))
    n = v.shape[axis]
    idx = np.array(data.draw(st.lists(st.integers(-n - 1 if data.draw(st.booleans()) else -n, n - 1), max_size=6)),
                   np.int64)

    def body(xp: Any, a: list[Any]) -> Any:
        return view(a[0])[(slice(None),) * axis + (a[1],)]

    both(body, [base, idx], cl_place)


@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin", "sum", "prod", "any", "all"])
@given(dtype=st.sampled_from(["float64", "float32", "int64", "int8", "uint32", "bool"]), data=st.data())
def test_reductions(op, dtype, data, cl_place):
    """Reductions the engine takes (and float sums, which it leaves to the kernels or computes in
    their order) over views, whole and along an axis, also past the engine's limit."""
    base, view = data.draw(viewed(dtype, 1, 3, 7, elements=_host(dtype)))
    if data.draw(st.booleans()):  # past the limit: the kernel either way
        base = np.tile(base, (ON // max(base.size, 1) + 1,) + (1,) * (base.ndim - 1))
    v = view(base)
    axis = data.draw(st.sampled_from([None, *range(v.ndim)]))
    if v.size == 0 or (axis is not None and v.shape[axis] == 0):
        return
    if op == "sum" and np.dtype(dtype).kind == "f":
        return  # float sums: test_host_sum (the kernels' order)

    def body(xp: Any, a: list[Any]) -> Any:
        return getattr(xp, op)(view(a[0]), axis=axis)

    both(body, [base], cl_place)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cumulative_sum"])
@given(dtype=st.sampled_from(["float64", "float32", "int64", "int8", "uint16", "bool", "complex128"]),
       data=st.data())
def test_scans(op, dtype, data, cl_place):
    """Scans over views along each axis (rows shorter and longer than one kernel chunk: float scans of
    several chunks stay on the kernels), with ``include_initial``. (Complex products of infinities
    differ from NumPy's in the kernels' complex multiply: finite values there.)"""
    finite = st.complex_numbers(max_magnitude=10, allow_nan=False, allow_infinity=False)
    base, view = data.draw(viewed(dtype, 1, 3, 6, elements=finite if dtype == "complex128" else _host(dtype)))
    if data.draw(st.booleans()):  # rows of several chunks
        base = np.tile(base, (1,) * (base.ndim - 1) + (200 // max(base.shape[-1], 1) + 1,))
    v = view(base)
    axis = data.draw(st.integers(0, v.ndim - 1))
    initial = op == "cumulative_sum" and data.draw(st.booleans())

    def body(xp: Any, a: list[Any]) -> Any:
        x = view(a[0])
        return xp.cumulative_sum(x, axis=axis, include_initial=initial) if initial else getattr(xp, op)(x, axis=axis)

    both(body, [base], cl_place)


@given(dtype=st.sampled_from(["float64", "float32", "int64", "int8", "bool", "complex128"]),
       use=st.sampled_from(["reshape", "stack", "astype", "asarray", "setitem", "iadd", "kernel", "chain", "index"]),
       data=st.data())
def test_zero_d_results_held_as_values(dtype, use, data, cl_place):
    """0-d results the engine computes at once (an element's arithmetic, an inner product, a
    reduction: held as their value, without memory) used as arrays: reshaped, stacked, cast, read by
    NumPy, written into an array, updated in place, read by a kernel past the limit, chained."""
    base, view = data.draw(viewed(dtype, 1, 1, 6, elements=_host(dtype)))
    if view(base).size < 2:
        return
    make = data.draw(st.sampled_from(["element", "dot", "max", "sum"]))
    big = np.arange(ON + 5) % 7 == 1 if dtype == "bool" else (np.arange(ON + 5) % 7).astype(dtype)

    def body(xp: Any, a: list[Any]) -> Any:
        v = view(a[0])
        s = {"element": lambda: v[0] * v[1], "dot": lambda: xp.dot(v, v), "max": lambda: v.max(),
             "sum": lambda: xp.sum(v)}[make]()
        if use == "reshape":
            return s.reshape(1, 1)
        if use == "stack":
            return xp.stack([s, s])
        if use == "astype":
            return s.astype(np.float32) if xp is np else s.astype(da.float32)
        if use == "asarray":
            return np.asarray(s.get() if xp is da else s)
        if use == "setitem":
            v[-1] = s
            return None
        if use == "iadd":
            t = s.copy() if xp is np else s
            t += v[0]
            return t
        if use == "kernel":
            return a[1] * s
        if use == "chain":
            return (s + v[0]) == s
        return v[xp.asarray(v[0] != v[1]).astype(np.int64)]

    both(body, [base, big], cl_place)


@pytest.mark.parametrize("n", [ON - 1, ON, ON + 1])
def test_writes_on_both_sides_of_the_limit(n, cl_place):
    """Fills, slice copies and in-place operators of ``n`` elements either side of the limit."""
    base = np.arange(n + 3, dtype=np.float64)

    def body(xp: Any, a: list[Any]) -> None:
        x = a[0]
        x[1:n + 1] = 2.5
        x[2:] *= 3
        x[: n // 2] = x[n // 2: 2 * (n // 2)]
        x[n] += x[0]

    both(body, [base], cl_place)


def test_writes_wait_for_pending_work(cl_place, monkeypatch):
    """An element write, an in-place operator and a scalar read see pending kernels through: a graph
    reading ``x`` (pending: past the limit) keeps the old values, a write still queued on another
    stream is waited for."""
    monkeypatch.setattr(host, "LIMIT", ON)
    big = da.arange(2 * ON, dtype=da.float64, device=cl_place)
    doubled = big * 2.0  # pending, reads big
    big[3] = -1.0
    big[4:8] += 100.0
    assert float(doubled[3]) == 6.0 and float(doubled[5]) == 10.0
    assert float(big[3]) == -1.0 and float(big[5]) == 105.0
    s = da.Stream(cl_place)
    with da.stream(s):
        big[...] = da.ones(2 * ON, device=cl_place) * 7.0  # a kernel on another stream
    assert float(big[9]) == 7.0
    big[9] = 1.0
    assert float(big[9]) == 1.0
    with da.stream(s):
        total = float(big.sum())
    assert total == 7.0 * (2 * ON - 1) + 1.0


def test_threads_write_and_read_their_own_arrays(cl_place, monkeypatch):
    """Threads each updating and reading their own small arrays through the engine at once."""
    monkeypatch.setattr(host, "LIMIT", ON)

    def work(k: int) -> None:
        x = da.zeros(64, device=cl_place)
        for i in range(200):
            x[i % 64] += 1.0
            x[: k + 1] *= 1.0
        assert float(x.sum()) == 200.0 and int(x.argmax()) == 0

    in_threads(work, 4)
