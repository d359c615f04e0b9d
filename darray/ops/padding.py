"""pad: numpy.pad's modes on the array's place.

The output starts as an uninitialised array holding the input in its middle; each axis is then
padded in turn over the full (padded) extent of the axes before it and the original extent of
those after it, NumPy's order (later axes pad over the padding of earlier ones). Every piece is
``transfer.convert``'s strided copy of a view of the output into another view of it (one kernel
per piece on OpenCL places, NumPy on the CPU place), a scalar fill, or a reduction over the edge
(the statistic modes); the arguments are read as ``numpy.pad`` reads them, errors included.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._array import DArray
from ..transfer.convert import assign, empty, from_numpy
from . import elementwise as E
from . import reduction as R
from .manipulation import along, named, one
from .statistics import median

__all__ = ["pad"]

# mode -> the keyword arguments it takes (numpy.pad's table)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "empty": (), "edge": (), "wrap": (), "constant": ("constant_values",), "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}
_STATS: dict[str, Callable[..., DArray]] = {"maximum": R.max, "minimum": R.min, "mean": R.mean, "median": median}


def _host(value: Any) -> Any:
    """``value`` with a DArray read back (the arguments other than the array are host data)."""
    return value.get() if isinstance(value, DArray) else value


def _as_pairs(x: Any, ndim: int, as_index: bool = False) -> Any:
    """``x`` (None, a scalar, a pair or one pair per axis) as one (before, after) pair per axis,
    as numpy.pad's ``_as_pairs`` makes them (``as_index``: rounded to integers, none negative)."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(_host(x))
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x[0] < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _widths(pad_width: Any, ndim: int) -> Any:
    """``pad_width`` (an int, a pair, one pair per axis, or a dict {axis: int or pair}) as pairs."""
    if isinstance(pad_width, dict):
        seq: list[Any] = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2 and all(isinstance(w, int) for w in width):
                seq[axis] = width
            else:
                raise TypeError(f"a pad_width dict takes an int or a pair of ints per axis, got {width!r}")
        pad_width = seq
    widths = np.asarray(_host(pad_width))
    if widths.dtype.kind != "i":
        raise TypeError(f"`pad_width` must be of integral type, got {pad_width!r}")
    return _as_pairs(widths, ndim, as_index=True)


def _scalar(value: Any, dtype: np.dtype) -> Any:
    """``value`` converted as NumPy's ``padded[region] = value`` converts it (its errors and warnings)."""
    host = np.empty((), dtype)
    host[()] = _host(value)
    return host[()]


class _Padding:
    """The output of ``pad``, the slices of the original values in it, and the fills of one axis.

    ``at``/``put`` read and write along ``axis`` over the region the axis pads (numpy.pad's
    ``_view_roi``): the padded extent of the axes up to it, the original extent of those after it.
    """

    def __init__(self, out: DArray, center: tuple[slice, ...]) -> None:
        self.out, self.center = out, center

    def at(self, axis: int, key: slice) -> DArray:
        """The view of ``key`` along ``axis``."""
        return self.out[along(axis, key) + self.center[axis + 1:]]

    def put(self, axis: int, key: slice, value: Any) -> None:
        """``value`` (a scalar or an array) copied into ``key`` along ``axis``."""
        region = self.out._dim.getitem(along(axis, key) + self.center[axis + 1:])
        if region.size:
            assign(self.out, region, value)

    def sides(self, axis: int, before: int, after: int, pair: tuple[Any, Any]) -> None:
        """``pair``'s values written into the ``before`` and ``after`` padding of ``axis``."""
        self.put(axis, slice(0, before), pair[0])
        self.put(axis, slice(self.out.shape[axis] - after, None), pair[1])

    def edges(self, axis: int, before: int, after: int) -> tuple[DArray, DArray]:
        """The first and last values inside the padding of ``axis`` (size 1 along it)."""
        end = self.out.shape[axis] - after
        return self.at(axis, slice(before, before + 1)), self.at(axis, slice(end - 1, end))

    def reflect(self, axis: int, before: int, after: int, n: int, edge: int, odd: bool) -> None:
        """Fill the padding of ``axis`` with mirrored runs of what is filled so far, growing outwards
        until none is left (numpy.pad's reflect/symmetric loop): each step copies at most a whole
        number of periods of the original ``n`` values (``edge``: the edge value is mirrored too;
        ``odd``: each run is reflected about its edge value, ``2 * edge - run``)."""
        size = self.out.shape[axis]
        left, right = before, after
        while left or right:
            filled = size - left - right
            chunk = filled // n * n if edge else (filled - 1) // (n - 1) * (n - 1)
            if left:
                k = min(chunk, left)
                stop = left - edge
                run = self.at(axis, slice(stop + k, stop, -1))
                if odd:
                    run = E.apply("subtract", E.apply("multiply", 2, self.at(axis, slice(left, left + 1))), run)
                self.put(axis, slice(left - k, left), run)
                left -= k
            if right:
                k = min(chunk, right)
                start = edge - right - 2  # counted from the end of the axis
                run = self.at(axis, slice(start, start - k, -1))
                if odd:
                    last = self.at(axis, slice(size - right - 1, size - right))
                    run = E.apply("subtract", E.apply("multiply", 2, last), run)
                self.put(axis, slice(size - right, size - right + k), run)
                right -= k

    def wrap(self, axis: int, before: int, after: int) -> None:
        """Fill the padding of ``axis`` with copies of the other end, a whole number of periods of
        the original values per step (numpy.pad's wrap loop)."""
        size = self.out.shape[axis]
        period0 = size - before - after
        left, right = before, after
        while left or right:
            period = (size - left - right) // period0 * period0
            if left:
                k = min(period, left)
                self.put(axis, slice(left - k, left), self.at(axis, slice(left + period - k, left + period)))
                left -= k
            if right:
                k = min(period, right)
                start = size - right - period
                self.put(axis, slice(size - right, size - right + k), self.at(axis, slice(start, start + k)))
                right -= k

    def ramps(self, axis: int, before: int, after: int, ends: tuple[Any, Any]) -> tuple[DArray, DArray]:
        """numpy.pad's linear ramps from ``ends`` to the edges of ``axis`` (``numpy.linspace`` of the
        edges read back: its float arithmetic and integer flooring)."""
        place, dtype = self.out.place, self.out.dtype
        ramps = []
        for end, edge, width in zip(ends, self.edges(axis, before, after), (before, after)):
            ramps.append(np.linspace(end, edge.get().squeeze(axis), width, endpoint=False, dtype=dtype, axis=axis))
        return from_numpy(ramps[0], place), from_numpy(np.ascontiguousarray(np.flip(ramps[1], axis)), place)

    def stats(self, axis: int, before: int, after: int, lengths: tuple[Any, Any], name: str) -> tuple[Any, Any]:
        """The statistic ``name`` of the first and last ``lengths`` values inside the padding of
        ``axis`` (all of them for None or more), rounded for an integer output (numpy.pad's)."""
        start, stop = before, self.out.shape[axis] - after
        full = stop - start
        left, right = (full if n is None or full < n else int(n) for n in lengths)
        if (left == 0 or right == 0) and name in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        pair = []
        for key in (slice(start, start + left), slice(stop - right, stop)):
            value = _STATS[name](self.at(axis, key), axis=axis, keepdims=True)
            pair.append(E.round(value) if self.out.dtype.kind in "iu" else value)
            if left == right == full:
                return pair[0], pair[0]
        return pair[0], pair[1]


@named
def pad(array: Any, pad_width: Any, mode: str | Callable[..., Any] = "constant", **kwargs: Any) -> DArray:
    """``array`` padded along each axis (a new array).

    ``pad_width``: an int, a (before, after) pair, one pair per axis, or a dict {axis: width};
    ``mode``: every mode of NumPy's ('constant', 'edge', 'linear_ramp', 'maximum', 'mean',
    'median', 'minimum', 'reflect', 'symmetric', 'wrap', 'empty') with its keywords
    (``constant_values``, ``end_values``, ``stat_length``, ``reflect_type``), or a callable.
    See also: numpy.pad. Differs from NumPy: a callable ``mode`` and the ramps of 'linear_ramp' are
    computed on the host (NumPy's code on a copy); a bad width in a dict is a TypeError (NumPy:
    AssertionError).
    """
    array = one("pad", array)
    widths = _widths(pad_width, array.ndim)
    if callable(mode):
        return from_numpy(np.pad(array.get(), _host(pad_width), mode, **kwargs), array.place)
    try:
        unsupported = set(kwargs) - set(_KEYWORDS[mode])
    except KeyError:
        raise ValueError(f"mode {mode!r} is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode {mode!r}: {unsupported}")
    p = _Padding(empty(tuple(n + b + a for n, (b, a) in zip(array.shape, widths)), array.dtype, array.place),
                 tuple(slice(b, b + n) for n, (b, _) in zip(array.shape, widths)))
    if array.size:
        assign(p.out, p.out._dim.getitem(p.center), array)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), array.ndim)
        for axis, ((before, after), pair) in enumerate(zip(widths, values)):
            p.sides(axis, before, after, (_scalar(pair[0], array.dtype), _scalar(pair[1], array.dtype)))
        return p.out
    if mode == "empty":
        return p.out
    if array.size == 0:
        for axis, (n, w) in enumerate(zip(array.shape, widths)):
            if n == 0 and any(w):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
        return p.out
    ends = _as_pairs(kwargs.get("end_values", 0), array.ndim) if mode == "linear_ramp" else None
    lengths = _as_pairs(kwargs.get("stat_length"), array.ndim, as_index=True) if mode in _STATS else None
    odd = kwargs.get("reflect_type", "even") == "odd"
    for axis, (n, (before, after)) in enumerate(zip(array.shape, widths)):
        if mode == "edge" or (mode in ("reflect", "symmetric") and n == 1):
            p.sides(axis, before, after, p.edges(axis, before, after))
        elif ends is not None:
            p.sides(axis, before, after, p.ramps(axis, before, after, ends[axis]))
        elif lengths is not None:
            p.sides(axis, before, after, p.stats(axis, before, after, lengths[axis], str(mode)))
        elif mode == "wrap":
            p.wrap(axis, before, after)
        else:
            p.reflect(axis, before, after, n, int(mode == "symmetric"), odd)
    return p.out
