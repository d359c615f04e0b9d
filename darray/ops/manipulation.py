"""Shape manipulation: reshape, axes (permute_dims, transpose, swapaxes, moveaxis, squeeze,
expand_dims), broadcasting, flip, ravel, joining (concat, stack) and splitting (unstack,
split, array_split).

Views share their input's Allocation and launch nothing (``Dim`` view math): everything
here but concat, stack, and reshape/ravel of a layout that needs a copy. Copies go through
``transfer.convert``'s strided copy (``astype``, ``assign``): one generated kernel per piece on
OpenCL places, NumPy on the CPU place. Array arguments may be lazy: a view materialises its
input first, as any non-elementwise consumer does.
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise
from typing import Any, TypeVar

import numpy as np

from .. import dtypes as _dt
from .._array import READ_ONLY, DArray
from ..dim import Dim, broadcast_shapes, check_nbytes, normalize_axes, normalize_axis
from ..place import Place
from ..transfer.convert import asarray, assign, astype, empty
from . import _dispatch as D
from ._out import finish

__all__ = ["array_split", "broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
           "permute_dims", "ravel", "reshape", "split", "squeeze", "stack", "swapaxes", "transpose", "unstack"]

F = TypeVar("F", bound=Callable[..., Any])


def named(fn: F) -> F:
    """Bad input raised inside ``fn`` (a ValueError, TypeError, IndexError or OverflowError,
    AxisError included) is re-raised with the same class and a message naming ``darray <fn>``."""
    prefix = f"darray {fn.__name__}"

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (ValueError, TypeError, IndexError, OverflowError) as err:
            if str(err).startswith(prefix):
                raise
            try:
                renamed = type(err)(f"{prefix}: {err}")
            except Exception:  # an exception class that cannot be built from a message
                raise err from None
            raise renamed from None
    return op  # type: ignore[return-value]


def arrays_of(op: str, xs: Sequence[Any]) -> tuple[list[DArray], Place]:
    """``xs`` as DArrays on one place (NumPy arrays, lists and scalars are copied to the place of
    the DArrays, else the current one); ValueError naming both places when they differ."""
    args, place = D.operands(op, tuple(xs))
    return [a if isinstance(a, DArray) else asarray(a, device=place) for a in args], place


def one(op: str, x: Any) -> DArray:
    """``x`` as a DArray (see :func:`arrays_of`)."""
    return x if isinstance(x, DArray) else arrays_of(op, (x,))[0][0]


def along(axis: int, key: Any) -> tuple[Any, ...]:
    """The index selecting ``key`` along ``axis`` and everything along the axes before it."""
    return (slice(None),) * axis + (key,)


# -- shapes and axes (views) ---------------------------------------------------------------

@named
def reshape(a: Any, /, shape: Any = None, order: str = "C", *, newshape: Any = None,
            copy: bool | None = None) -> DArray:
    """``x`` with a new shape (one size may be -1), its elements read and placed in C order, or in
    Fortran order for ``order="F"`` (``"A"``: Fortran for Fortran-contiguous input).

    A view when the strides allow it, else a contiguous copy; ``copy=True`` always copies,
    ``copy=False`` raises ValueError when a view is impossible. See also: numpy.reshape.
    """
    a = one("reshape", a)
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("reshape() missing required argument 'shape'")
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', got {order!r}")
    if order == "F" or (order == "A" and a._dim.is_f_contiguous and not a._dim.is_c_contiguous):
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
        return transpose(reshape(transpose(a), shape[::-1], copy=copy))
    dim = a._dim.reshape(shape)
    if not a.size:  # sizes that multiply to 0 can still be too big for an array (NumPy's rule)
        check_nbytes(dim.shape, a.itemsize, "reshape")
    if dim is not None and not copy:
        return a._view(dim)
    if copy is False:
        raise ValueError(f"cannot reshape {a.shape} into {shape} without copying (copy=False)")
    flat = astype(a, a._dtype, copy=True)
    dim = flat._dim.reshape(shape)
    assert dim is not None  # a C-contiguous array reshapes without a copy
    return flat._view(dim)


@named
def ravel(a: Any, order: str = "C") -> DArray:
    """``x`` as a contiguous 1-D array, in C order (``order="F"``: Fortran order).

    A view when ``x`` is C-contiguous, else a copy. See also: numpy.ravel.
    """
    a = one("ravel", a)
    if order == "F" or (order == "A" and a._dim.is_f_contiguous and not a._dim.is_c_contiguous):
        a = transpose(a)
    return reshape(a, -1, copy=None if a._dim.is_c_contiguous else True)


@named
def permute_dims(a: Any, axes: Sequence[int] | None = None) -> DArray:
    """The axes of ``x`` in the order ``axes`` (a view).

    See also: numpy.permute_dims.
    """
    a = one("permute_dims", a)
    return a._view(a._dim.transpose(axes))


@named
def transpose(a: Any, axes: Sequence[int] | None = None) -> DArray:
    """The axes permuted (a view); ``axes=None`` reverses them.

    See also: numpy.transpose.
    """
    a = one("transpose", a)
    return a._view(a._dim.transpose(axes))


@named
def swapaxes(a: Any, axis1: int, axis2: int) -> DArray:
    """Two axes exchanged (a view).

    See also: numpy.swapaxes.
    """
    a = one("swapaxes", a)
    return a._view(a._dim.swapaxes(axis1, axis2))


@named
def moveaxis(a: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> DArray:
    """Axes ``source`` moved to positions ``destination`` (a view).

    The other axes keep their order. See also: numpy.moveaxis.
    """
    a = one("moveaxis", a)
    src, dst = normalize_axes(source, a.ndim), normalize_axes(destination, a.ndim)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a._view(a._dim.transpose(order))


@named
def squeeze(a: Any, axis: int | Sequence[int] | None = None) -> DArray:
    """Size-1 axes removed (a view).

    All of them, or those of ``axis`` (ValueError when one is not of size 1).
    See also: numpy.squeeze. Differs from NumPy: a 0-d array has no axis 0 or -1 (NumPy
    accepts them there).
    """
    a = one("squeeze", a)
    return a._view(a._dim.squeeze(axis))


@named
def expand_dims(a: Any, axis: int | Sequence[int] = 0) -> DArray:
    """Size-1 axes inserted (a view).

    ``axis``: an int or a tuple of positions in the result. See also: numpy.expand_dims.
    """
    a = one("expand_dims", a)
    rank = a.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    axes = normalize_axes(axis, rank)
    sizes = iter(a.shape)
    return a._view(a._dim.reshape(tuple(1 if i in axes else next(sizes) for i in range(rank))))


@named
def broadcast_to(array: Any, shape: Any, subok: bool = False) -> DArray:
    """``x`` broadcast to ``shape`` (a view, stride 0 along the broadcast axes).

    See also: numpy.broadcast_to. Read-only, as NumPy's (``flags.writeable = True`` is allowed where
    ``array`` is writeable: a write then lands in every element sharing the memory).
    """
    array = one("broadcast_to", array)
    dim = array._dim.broadcast_to(shape)
    check_nbytes(dim.shape, array.itemsize, "broadcast_to")
    return array._view(dim, readonly=READ_ONLY)


@named
def broadcast_arrays(*args: Any, subok: bool = False) -> tuple[DArray, ...]:
    """The arrays broadcast against each other (views).

    See also: numpy.broadcast_arrays. A tuple, as NumPy 2 returns (the Array API says a list).
    """
    xs, _ = arrays_of("broadcast_arrays", args)
    shape = broadcast_shapes(*[x.shape for x in xs])
    for x in xs:
        check_nbytes(shape, x.itemsize, "broadcast_arrays")
    return tuple(x._view(x._dim.broadcast_to(shape)) for x in xs)


@named
def flip(m: Any, axis: int | Sequence[int] | None = None) -> DArray:
    """The elements in reverse order along ``axis`` (a negative-step view).

    ``axis``: None (all axes), an int or a tuple. See also: numpy.flip.
    """
    m = one("flip", m)
    axes = normalize_axes(axis, m.ndim)
    return m._view(m._dim.getitem(tuple(slice(None, None, -1 if i in axes else 1) for i in range(m.ndim))))


# -- joining (copies) ----------------------------------------------------------------------

def _join(xs: list[DArray], place: Place, shape: tuple[int, ...], targets: Callable[[Dim, int], Dim]) -> DArray:
    """A new array of ``shape`` and the promoted dtype of ``xs``, each ``xs[k]`` copied into the
    view ``targets(out_dim, k)`` (one strided copy per non-empty input)."""
    out = empty(shape, _dt.result_type(*[x._dtype for x in xs]), place)
    for k, x in enumerate(xs):
        if x.size:
            assign(out, targets(out._dim, k), x)
    return out


def cast_joined(op: str, xs: list[DArray], dtype: Any, casting: str, out: Any = None) -> list[DArray]:
    """``xs`` as NumPy's concatenate joins them: cast to ``dtype`` or to ``out``'s dtype (one of them at
    most) under the ``casting`` rule; unchanged when neither is given."""
    if out is not None and dtype is not None:
        raise TypeError(f"darray {op}: concatenate() only takes `out` or `dtype` as an argument, but both were "
                        "provided.")
    dtype = out.dtype if isinstance(out, DArray) else dtype
    if dtype is None:
        return xs
    dt = _dt.as_dtype(dtype, op)
    bad = [x.dtype for x in xs if not _dt.can_cast(x.dtype, dt, casting=casting)]
    if bad:
        raise TypeError(f"darray {op}: Cannot cast array data from {bad[0]} to {dt} according to the rule "
                        f"{casting!r}")
    return [x.astype(dt, copy=False) for x in xs]


@named
def concat(arrays: Sequence[Any], /, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> DArray:
    """The arrays joined along ``axis``, in their promoted dtype (or ``dtype``, cast under ``casting``),
    written into ``out`` when given (a new array).

    ``axis=None`` joins the flattened arrays. See also: numpy.concatenate.
    """
    if out is not None or dtype is not None:
        return finish("concat", concat(cast_joined("concat", arrays_of("concat", list(arrays))[0], dtype, casting,
                                                   out), axis), out)
    xs, place = arrays_of("concat", list(arrays))
    if not xs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        ends = list(accumulate(x.size for x in xs))

        def target(d: Dim, k: int) -> Dim:
            run = d.getitem(slice(ends[k] - xs[k].size, ends[k])).reshape(xs[k].shape)
            assert run is not None  # a run of the contiguous 1-D result reshapes without a copy
            return run

        return _join(xs, place, (ends[-1],), target)
    first = xs[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, first.ndim)
    for k, x in enumerate(xs):
        if x.ndim != first.ndim:
            raise ValueError(f"all the input arrays must have same number of dimensions, but the array at index 0 "
                             f"has {first.ndim} dimension(s) and the array at index {k} has {x.ndim} dimension(s)")
        for a, (m, n) in enumerate(zip(first.shape, x.shape)):
            if a != axis and m != n:
                raise ValueError(f"all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {a}, the array at index 0 has size {m} and the "
                                 f"array at index {k} has size {n}")
    ends = list(accumulate(x.shape[axis] for x in xs))
    shape = first.shape[:axis] + (ends[-1],) + first.shape[axis + 1:]
    return _join(xs, place, shape, lambda d, k: d.getitem(along(axis, slice(ends[k] - xs[k].shape[axis], ends[k]))))


@named
def stack(arrays: Sequence[Any], axis: int = 0, out: Any = None, *, dtype: Any = None,
          casting: str = "same_kind") -> DArray:
    """The arrays (all of one shape) joined along a new axis, in their promoted dtype (or ``dtype``,
    cast under ``casting``), written into ``out`` when given.

    A new array; ``axis`` is the new axis' position in it. See also: numpy.stack.
    """
    if out is not None or dtype is not None:
        return finish("stack", stack(cast_joined("stack", arrays_of("stack", list(arrays))[0], dtype, casting, out),
                                     axis), out)
    xs, place = arrays_of("stack", list(arrays))
    if not xs:
        raise ValueError("need at least one array to stack")
    shape = xs[0].shape
    if any(x.shape != shape for x in xs):
        raise ValueError(f"all input arrays must have the same shape, got {[x.shape for x in xs]}")
    axis = normalize_axis(axis, len(shape) + 1)
    return _join(xs, place, shape[:axis] + (len(xs),) + shape[axis:], lambda d, k: d.getitem(along(axis, k)))


# -- splitting (views) ---------------------------------------------------------------------

@named
def unstack(x: Any, /, *, axis: int = 0) -> tuple[DArray, ...]:
    """The slices of ``x`` along ``axis`` (a tuple of views).

    See also: numpy.unstack.
    """
    x = one("unstack", x)
    axis = normalize_axis(axis, x.ndim)
    return tuple(x._view(x._dim.getitem(along(axis, k))) for k in range(x.shape[axis]))


def _pieces(x: DArray, spec: Any, axis: int, equal: bool) -> list[DArray]:
    """The views ``numpy.split`` (``equal``) or ``numpy.array_split`` cut ``x`` into: ``spec``
    a number of sections or the sorted indices at which to cut."""
    axis = normalize_axis(axis, x.ndim)
    n = x.shape[axis]
    spec = np.asarray(spec)
    if spec.ndim == 0:
        sections = operator.index(spec.item())
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if equal and n % sections:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(n, sections)
        bounds = [0, *accumulate([q + 1] * r + [q] * (sections - r))]
    else:
        bounds = [0, *(operator.index(i) for i in spec.tolist()), n]
    return [x._view(x._dim.getitem(along(axis, slice(a, b)))) for a, b in pairwise(bounds)]


@named
def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[DArray]:
    """``x`` cut along ``axis`` into equal sections or at indices (a list of views).

    ``indices_or_sections``: a number of sections (ValueError when they cannot be equal) or
    the sorted indices at which to cut. See also: numpy.split.
    """
    return _pieces(one("split", ary), indices_or_sections, axis, True)


@named
def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[DArray]:
    """As :func:`split`, but sections may differ in size by one (the first ones larger).

    See also: numpy.array_split.
    """
    return _pieces(one("array_split", ary), indices_or_sections, axis, False)
