"""Hypothesis strategies: NumPy arrays paired with DArrays holding the same values in drawn layouts.

``array_pairs`` draws a :class:`Pair` ``(numpy_array, darray)``: the DArray is contiguous, strided
(steps of either sign), offset into a larger allocation, transposed, or broadcast (a read-only
view with zero strides, as ``numpy.broadcast_to``), and the NumPy array is the same view of a
NumPy base wherever NumPy has one, so layout-sensitive code sees the same strides. Memory outside
the view holds NaN (integers: -1 or the maximum; bool: True), so a read past the view shows.
Layouts shrink in :data:`LAYOUTS` order (contiguous first): a failing example is reported in the
earliest layout that hypothesis's shrinker found failing. darray itself is also a namespace for
``hypothesis.extra.array_api.make_strategies_namespace(darray)``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da

from .._array import DArray
from ..place import PlaceLike
from ._asserts import describe
from ._dtypes import select

__all__ = ["LAYOUTS", "Pair", "shapes", "dtypes", "array_pairs", "broadcastable_pairs"]

LAYOUTS: tuple[str, ...] = ("contiguous", "strided", "offset", "transposed", "broadcast")
_STEPS = (-1, 2, -2, 3, 1)  # per axis of a strided view, shrinking towards -1 (reversed)


class Pair(tuple[np.ndarray, DArray]):
    """``(numpy_array, darray)`` with the same values and, where NumPy can, the same layout; its
    repr names the layout (``Pair(layout='strided', ...)``), which is what a falsifying example shows."""

    layout: str

    def __new__(cls, numpy: np.ndarray, darray: DArray, layout: str) -> Pair:
        self = super().__new__(cls, (numpy, darray))
        self.layout = layout
        return self

    @property
    def numpy(self) -> np.ndarray:
        return self[0]

    @property
    def darray(self) -> DArray:
        return self[1]

    def __repr__(self) -> str:
        return f"Pair(layout={self.layout!r}, numpy={np.array_repr(self[0])}, darray=<{describe(self[1])}>)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis's pretty printer
        printer.text(repr(self))


def shapes(*, min_dims: int = 1, max_dims: int = 3, min_side: int = 1, max_side: int = 6) -> st.SearchStrategy[
        tuple[int, ...]]:
    """Array shapes (``hypothesis.extra.numpy.array_shapes``); ``min_side=0`` adds empty arrays."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def dtypes(kinds: Any = "numeric", *, place: PlaceLike = None) -> st.SearchStrategy[np.dtype]:
    """dtypes of ``kinds`` that ``place`` (default: the current place) can do: an Array API kind name
    (``"bool"``, ``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``...), a
    dtype, or a sequence of these. Shrinks towards int32, float32, complex64.

    Differs from NumPy's kinds: as in the Array API, kind names leave float16 out (name it to get it)."""
    return st.sampled_from(select(kinds, place))


def _value(draw: st.DrawFn, value: Any) -> Any:
    return draw(value) if isinstance(value, st.SearchStrategy) else value


def _poison(dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """A base array for views, filled with what a read outside the view would make visible."""
    if dtype.kind in "fc":
        fill: Any = np.nan
    elif dtype.kind == "b":
        fill = True
    else:
        fill = -1 if dtype.kind == "i" else np.iinfo(dtype).max
    return np.full(shape, fill, dtype)


@dataclass(frozen=True)
class _Plan:
    """Every layout's parameters, drawn whatever the layout, so each layout costs hypothesis the same number
    of choices and shrinking ranks failing examples by their layout's place in LAYOUTS first."""

    steps: tuple[int, ...]  # strided: the step of each axis (a fix-up keeps one that is not 1)
    pads: tuple[int, ...]  # strided: spare elements of each base axis ...
    starts: tuple[int, ...]  # ... of which the view skips these (at most the pad)
    offset: int  # offset: elements before the view ...
    tail: int  # ... and after it
    axes: tuple[int, ...]  # transposed: the view's axes in the base (a fix-up moves two long axes)
    kept: tuple[bool, ...]  # broadcast: the source has the axis (False: size 1, stretched) ...
    lead: int  # ... and lacks this many leading axes

    @classmethod
    def draw(cls, draw: st.DrawFn, ndim: int) -> _Plan:
        def each(strategy: st.SearchStrategy[Any]) -> tuple[Any, ...]:
            return tuple(draw(strategy) for _ in range(ndim))

        return cls(steps=each(st.sampled_from(_STEPS)), pads=each(st.integers(0, 2)), starts=each(st.integers(0, 2)),
                   offset=draw(st.integers(1, 8)), tail=draw(st.integers(0, 3)),
                   axes=tuple(draw(st.permutations(range(ndim)))), kept=each(st.booleans()),
                   lead=draw(st.integers(0, ndim)))


# Each layout: (plan, values, place) -> (NumPy view, DArray view) holding ``values``.

def _contiguous(plan: _Plan, v: np.ndarray, place: PlaceLike) -> tuple[Any, Any]:
    return v, da.asarray(v, device=place, copy=True)


def _strided(plan: _Plan, v: np.ndarray, place: PlaceLike) -> tuple[Any, Any]:
    steps = list(plan.steps) if any(s != 1 for s in plan.steps) else [-1, *plan.steps[1:]]
    keys, base_shape = [], []
    for n, step, pad, skip in zip(v.shape, steps, plan.pads, plan.starts):
        size = (n - 1) * abs(step) + 1 + pad
        start = min(skip, pad) if step > 0 else size - 1 - min(skip, pad)
        stop = start + (n - 1) * step + (1 if step > 0 else -1)
        keys.append(slice(start, None if stop < 0 else stop, step))
        base_shape.append(size)
    key = tuple(keys)
    base = _poison(v.dtype, tuple(base_shape))
    base[key] = v
    return base[key], da.asarray(base, device=place, copy=True)[key]


def _offset(plan: _Plan, v: np.ndarray, place: PlaceLike) -> tuple[Any, Any]:
    view = slice(plan.offset, plan.offset + v.size)
    flat = _poison(v.dtype, (view.stop + plan.tail,))
    flat[view] = v.ravel()
    return flat[view].reshape(v.shape), da.asarray(flat, device=place, copy=True)[view].reshape(v.shape)


def _transposed(plan: _Plan, v: np.ndarray, place: PlaceLike) -> tuple[Any, Any]:
    axes = list(plan.axes)
    long = [i for i, n in enumerate(v.shape) if n > 1]
    if all(axes[i] < axes[j] for i, j in zip(long, long[1:])):  # still C-contiguous: swap two long axes
        axes[long[0]], axes[long[1]] = axes[long[1]], axes[long[0]]
    base = np.empty([v.shape[axes.index(a)] for a in range(v.ndim)], v.dtype)
    view = base.transpose(axes)
    view[...] = v
    return view, da.asarray(base, device=place, copy=True).transpose(axes)


def _broadcast(plan: _Plan, v: np.ndarray, place: PlaceLike) -> tuple[Any, Any]:
    kept, lead, shape = list(plan.kept), plan.lead, v.shape
    if all(k or n == 1 for k, n in zip(kept, shape)) and all(n == 1 for n in shape[:lead]):
        kept[next(i for i, n in enumerate(shape) if n > 1)] = False
    source = v[tuple(slice(None) if k else slice(0, 1) for k in kept)][(0,) * lead]
    return np.broadcast_to(source, shape), da.broadcast_to(da.asarray(source, device=place, copy=True), shape)


_BUILD = {"contiguous": _contiguous, "strided": _strided, "offset": _offset, "transposed": _transposed,
          "broadcast": _broadcast}


def _fits(layout: str, shape: tuple[int, ...]) -> bool:
    """Whether ``shape`` has a view of ``layout`` that NumPy does not call C-contiguous."""
    long = sum(n > 1 for n in shape) if math.prod(shape) else -1  # every empty array is contiguous
    return layout == "contiguous" or long >= {"strided": 1, "offset": 0, "transposed": 2, "broadcast": 1}[layout]


def _layouts(layouts: str | Sequence[str]) -> tuple[str, ...]:
    chosen = LAYOUTS if layouts == "all" else (layouts,) if isinstance(layouts, str) else tuple(layouts)
    unknown = [name for name in chosen if name not in LAYOUTS]
    if unknown or not chosen:
        raise ValueError(f"darray.testing.strategies: layouts {layouts!r}: expected 'all' or names from {LAYOUTS}")
    return tuple(name for name in LAYOUTS if name in chosen)


def array_pairs(dtype: Any, shape: Any, *, elements: Any = None, layouts: str | Sequence[str] = "all",
                place: PlaceLike = None) -> st.SearchStrategy[Pair]:
    """:class:`Pair`\\ s ``(numpy_array, darray)`` of ``dtype`` and ``shape`` (values or strategies: see
    :func:`dtypes`, :func:`shapes`) with equal values, the DArray on ``place`` (default: the current
    place) in one of ``layouts`` (``"all"``, or names from :data:`LAYOUTS`; a shape with no such view,
    as a transposed 1-d array, is drawn contiguous).

    ``elements``: a strategy for the values, or a dict of ``hypothesis.extra.numpy.from_dtype``
    options (``{"allow_nan": False, "min_value": -10, "max_value": 10}``); default: any value of the
    dtype, NaN, infinities and extremes included (as ``hypothesis.extra.numpy.arrays``)."""
    names = _layouts(layouts)

    @st.composite
    def pairs(draw: st.DrawFn) -> Pair:
        dt = np.dtype(_value(draw, dtype))
        drawn = _value(draw, shape)
        shp = (drawn,) if isinstance(drawn, int) else tuple(drawn)
        elems = elements if isinstance(elements, st.SearchStrategy) else hnp.from_dtype(dt, **(elements or {}))
        fitting = [name for name in names if _fits(name, shp)] or ["contiguous"]
        layout = draw(st.sampled_from(fitting))
        plan = _Plan.draw(draw, len(shp))
        a, x = _BUILD[layout](plan, draw(hnp.arrays(dt, shp, elements=elems)), place)
        return Pair(a, x, layout)

    return pairs()


def broadcastable_pairs(dtype: Any, *, num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3, min_side: int = 1,
                        max_side: int = 5, base_shape: tuple[int, ...] = (), elements: Any = None,
                        layouts: str | Sequence[str] = "all", place: PlaceLike = None) -> st.SearchStrategy[
                            tuple[Pair, ...]]:
    """``num_shapes`` :class:`Pair`\\ s of one drawn ``dtype`` whose shapes broadcast together
    (``hypothesis.extra.numpy.mutually_broadcastable_shapes``), each in its own drawn layout;
    ``elements``, ``layouts`` and ``place`` as :func:`array_pairs`."""
    @st.composite
    def pairs(draw: st.DrawFn) -> tuple[Pair, ...]:
        dt = np.dtype(_value(draw, dtype))
        drawn = draw(hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, base_shape=base_shape,
                                                        min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                                                        max_side=max_side))
        return tuple(draw(array_pairs(dt, s, elements=elements, layouts=layouts, place=place))
                     for s in drawn.input_shapes)

    return pairs()
