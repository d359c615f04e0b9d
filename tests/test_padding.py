"""pad against numpy.pad (darray.ops.padding): every mode and its keywords, the forms of
``pad_width``, ``constant_values``, ``end_values`` and ``stat_length``, over ranks 0-3 (empty
sides too), dtypes and strided, reversed and transposed views; NumPy's exception class for bad
arguments. The OpenCL place draws from fewer dtypes (each is a few copy kernels to compile).
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]
CL_DTYPES = ["bool", "uint8", "int64", "float32", "float64", "complex64"]
MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap",
         "empty"]
PAIRS = st.tuples(st.integers(0, 4), st.integers(0, 4))


def _widths(ndim: int) -> st.SearchStrategy:
    """Every form of ``pad_width``: an int, a pair, one pair per axis, a dict, a (2, 1) column (2-d)."""
    per_axis = st.lists(PAIRS, min_size=ndim, max_size=ndim)
    forms = [st.integers(0, 5), PAIRS, per_axis, per_axis,
             st.dictionaries(st.integers(-ndim, ndim - 1), st.one_of(st.integers(0, 3), PAIRS)) if ndim else per_axis]
    if ndim == 2:
        forms.append(st.lists(st.integers(0, 3), min_size=2, max_size=2).map(lambda v: [[v[0]], [v[1]]]))
    return st.one_of(*forms)


def _values(ndim: int, scalar: st.SearchStrategy) -> st.SearchStrategy:
    """A scalar, a pair or one pair per axis of ``scalar``."""
    pair = st.tuples(scalar, scalar)
    return st.one_of(scalar, pair, st.lists(pair, min_size=ndim, max_size=ndim))


def _keywords(data: st.DataObject, mode: str, ndim: int) -> dict[str, Any]:
    small = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, 1.5, -2.5, True]))
    if mode == "constant":
        return data.draw(st.sampled_from([{}, {"constant_values": data.draw(_values(ndim, small))}]), label="kw")
    if mode == "linear_ramp":
        return data.draw(st.sampled_from([{}, {"end_values": data.draw(_values(ndim, small))}]), label="kw")
    if mode in ("maximum", "mean", "median", "minimum"):
        lengths = st.one_of(st.none(), _values(ndim, st.one_of(st.integers(1, 5), st.just(2.4))))
        return data.draw(st.sampled_from([{}, {"stat_length": data.draw(lengths)}]), label="kw")
    if mode in ("reflect", "symmetric"):
        return data.draw(st.sampled_from([{}, {"reflect_type": "even"}, {"reflect_type": "odd"}]), label="kw")
    return {}


def _quiet(fn: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn()


def compare(body: Any, host: np.ndarray, x: da.DArray, *, center: Any = None) -> None:
    """``body(numpy, host)`` against ``body(darray, x)``: NumPy's exception class, or the same
    result (``center``: mode 'empty', the key of the original values, the only ones compared)."""
    try:
        want = _quiet(lambda: body(np, host))
    except Exception as err:
        with pytest.raises(type(err)):
            _quiet(lambda: body(da, x))
        return
    got = _quiet(lambda: body(da, x))
    if center is not None:
        assert got.shape == want.shape and got.dtype == want.dtype
        got, want = got[center(want.ndim)], want[center(want.ndim)]
    small = want.dtype in (np.float16, np.float32, np.complex64)
    assert_same(got, want, **({"rtol": 1e-2, "atol": 1e-2} if small else {}))


@settings(max_examples=150)
@given(data=st.data())
def test_modes_on_the_cpu(data: st.DataObject) -> None:
    """Every mode and keyword form over views of every dtype (the CPU place)."""
    run(data, DTYPES, da.CPUPlace())


@settings(max_examples=60)
@given(data=st.data())
def test_modes_on_opencl(cl_place: Any, data: st.DataObject) -> None:
    """The same on the OpenCL place."""
    run(data, CL_DTYPES, cl_place)


def run(data: st.DataObject, dtypes: list[str], place: Any) -> None:
    dtype = np.dtype(data.draw(st.sampled_from(dtypes), label="dtype"))
    elements = st.booleans() if dtype.kind == "b" else st.integers(0 if dtype.kind == "u" else -50, 50)
    rank = data.draw(st.sampled_from([0, 1, 1, 2, 2, 3]), label="rank")
    min_side = data.draw(st.sampled_from([1, 1, 1, 1, 0]), label="min_side")  # empty sides now and then
    base, view = data.draw(viewed(dtype, rank, rank, 5, elements, min_side), label="base, view")
    ramp = np.arange(base.size).reshape(base.shape) * 5 % 13  # distinct neighbours (drawn arrays repeat a fill)
    base = base ^ (ramp % 3 == 0) if dtype.kind == "b" else (base + ramp.astype(dtype)).astype(dtype)
    host = view(base)
    mode = data.draw(st.sampled_from(MODES), label="mode")
    width = data.draw(_widths(host.ndim), label="pad_width")
    kw = _keywords(data, mode, host.ndim)
    x = view(da.asarray(base, device=place))

    def center(ndim: int) -> tuple[slice, ...]:
        return tuple(slice(b, b + n) for (b, _), n in zip(np.asarray(_pairs(width, ndim)), host.shape))

    compare(lambda xp, a: xp.pad(a, width, mode, **kw), host, x, center=center if mode == "empty" else None)


def _pairs(width: Any, ndim: int) -> Any:
    """``pad_width`` as one (before, after) pair per axis (NumPy's dict form resolved)."""
    if isinstance(width, dict):
        seq = [(0, 0)] * ndim
        for axis, w in width.items():
            seq[axis] = (w, w) if isinstance(w, int) else w
        return seq
    return np.broadcast_to(np.asarray(width).reshape(-1, 2) if np.size(width) == 2 and np.shape(width) != (2, 1)
                           else np.asarray(width), (ndim, 2))


def test_callable_mode(any_place: Any) -> None:
    """A callable ``mode`` gets each 1-d run, its widths, the axis and the keywords, as in NumPy."""
    def fill(vector: np.ndarray, width: tuple[int, int], axis: int, kwargs: dict) -> None:
        vector[:width[0]] = kwargs.get("padder", 10) + axis
        if width[1]:
            vector[-width[1]:] = -1

    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    for kw in ({}, {"padder": 7}):
        assert_same(da.pad(da.asarray(host, device=any_place), (1, 2), fill, **kw), np.pad(host, (1, 2), fill, **kw))


def test_large_widths_repeat_periods(any_place: Any) -> None:
    """reflect, symmetric and wrap wider than the array repeat it (several passes of the loop)."""
    host = np.arange(1, 4, dtype=np.float64)
    for mode in ("reflect", "symmetric", "wrap"):
        for kw in ({}, {"reflect_type": "odd"}) if mode != "wrap" else ({},):
            assert_same(da.pad(da.asarray(host, device=any_place), (11, 7), mode, **kw),
                        np.pad(host, (11, 7), mode, **kw))


BAD = [
    lambda xp, a: xp.pad(a, -1),
    lambda xp, a: xp.pad(a, 1.5),
    lambda xp, a: xp.pad(a, [1.0, 2.0]),
    lambda xp, a: xp.pad(a, np.uint8(1)),
    lambda xp, a: xp.pad(a, True),
    lambda xp, a: xp.pad(a, []),
    lambda xp, a: xp.pad(a, "1"),
    lambda xp, a: xp.pad(a, [[1, 2]] * 3),
    lambda xp, a: xp.pad(a, [[[1]]]),
    lambda xp, a: xp.pad(a, [[1, -2], [0, 0]]),
    lambda xp, a: xp.pad(a, {5: 1}),
    lambda xp, a: xp.pad(a, {"a": 1}),
    lambda xp, a: xp.pad(a, [(1, 2), (3,)]),
    lambda xp, a: xp.pad(a, 1, mode="wrapped"),
    lambda xp, a: xp.pad(a, 1, mode=["edge"]),
    lambda xp, a: xp.pad(a, 1, mode=None),
    lambda xp, a: xp.pad(a, 1, mode="edge", constant_values=1),
    lambda xp, a: xp.pad(a, 1, mode="constant", stat_length=1),
    lambda xp, a: xp.pad(a, 1, mode="reflect", end_values=1),
    lambda xp, a: xp.pad(a, 1, mode="empty", reflect_type="odd"),
    lambda xp, a: xp.pad(a, 1, bogus=1),
    lambda xp, a: xp.pad(a[:, :0], 1, mode="edge"),
    lambda xp, a: xp.pad(a[:, :0], 1, mode="wrap"),
    lambda xp, a: xp.pad(a[:, :0], ((1, 1), (0, 0)), mode="maximum"),
    lambda xp, a: xp.pad(a[:, :0], ((1, 1), (0, 0)), mode="empty"),
    lambda xp, a: xp.pad(a.astype(np.int8), 1, constant_values=300),
    lambda xp, a: xp.pad(a.astype(np.uint8), 1, constant_values=-1),
    lambda xp, a: xp.pad(a.astype(np.uint8), 1, constant_values=[[1, -1], [2, 3]]),
    lambda xp, a: xp.pad(a.astype(np.int8), 1, constant_values=np.nan),
    lambda xp, a: xp.pad(a.astype(np.int8), 0, constant_values=300),
    lambda xp, a: xp.pad(a, 1, constant_values=None),
    lambda xp, a: xp.pad(a.astype(np.int64), 1, constant_values=None),
    lambda xp, a: xp.pad(a, 1, constant_values="a"),
    lambda xp, a: xp.pad(a, 1, constant_values="2.5"),
    lambda xp, a: xp.pad(a, 1, constant_values=[[[1]]]),
    lambda xp, a: xp.pad(a, 1, constant_values=[1, 2, 3]),
    lambda xp, a: xp.pad(a, 1, constant_values=1 + 2j),
    lambda xp, a: xp.pad(a, 1, mode="maximum", stat_length=0),
    lambda xp, a: xp.pad(a, 0, mode="minimum", stat_length=0),
    lambda xp, a: xp.pad(a, 1, mode="mean", stat_length=0),
    lambda xp, a: xp.pad(a.astype(np.int32), 1, mode="median", stat_length=((0, 1), (1, 0))),
    lambda xp, a: xp.pad(a, 1, mode="mean", stat_length=-1),
    lambda xp, a: xp.pad(a, 1, mode="mean", stat_length="2"),
    lambda xp, a: xp.pad(a, 1, mode="mean", stat_length=[1, 2, 3]),
    lambda xp, a: xp.pad(a, 1, mode="maximum", stat_length=1.6),
    lambda xp, a: xp.pad(a, 1, mode="linear_ramp", end_values=[1, 2, 3]),
    lambda xp, a: xp.pad(a.astype(np.uint8), 2, mode="linear_ramp", end_values=-5),
    lambda xp, a: xp.pad(a, 2, mode="reflect", reflect_type="bogus"),
    lambda xp, a: xp.pad(a, 2, mode="symmetric", reflect_type="odd"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_arguments_as_numpy(any_place: Any, k: int) -> None:
    """Odd and bad arguments: NumPy's result or exception class (a message naming darray pad)."""
    host = np.arange(6, dtype=np.float64).reshape(2, 3)
    compare(BAD[k], host, da.asarray(host, device=any_place))
    try:
        _quiet(lambda: BAD[k](np, host))
    except Exception as err:
        with pytest.raises(type(err), match="darray pad"):
            _quiet(lambda: BAD[k](da, da.asarray(host, device=any_place)))
