"""Reductions: sum, prod, min, max, mean, var, std, argmin, argmax, any, all, count_nonzero.

On OpenCL places the input's pending elementwise chain fuses into the reduction kernel
(``(a * b).sum()`` reads a and b once, with no temporary); on CPU devices every reduction is
one launch (see ``darray/lazy/reduce.py``). Float sums accumulate blockwise (lanes of blocks
within a work-item's chunk, blocks of rows for axis-0 sums, then the lanes, then the partial
results), which is as accurate as NumPy's pairwise sum; small sums of settled arrays on
host-backed devices whose compiler keeps that order run through NumPy in it (``lazy/host_sum.py``).
Results stay on the device; full reductions are 0-d.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from math import prod as _prod
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._typing import ArrayLike, DTypeLike
from ..dim import Dim, normalize_axes
from ..lazy import at_once, host, host_sum
from ..lazy.reduce import reduce as _device_reduce
from ..lazy.table import FOLDS
from ..place import CLPlace
from ..transfer.convert import asarray, from_numpy, input_term
from . import _dispatch as D
from . import elementwise as E
from ._out import finish, reduced
from .creation import full

__all__ = ["sum", "prod", "min", "max", "amin", "amax", "mean", "var", "std", "argmin", "argmax", "any", "all",
           "count_nonzero", "ptp"]



def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's default accumulator for sum/prod: small ints widen to the 64-bit int of their sign."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _dt.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return _dt.uint64
    return dt


def _dtypes(op: str, dt: np.dtype, dtype: Any) -> np.dtype:
    if dtype is not None:
        return _dt.as_dtype(dtype, op)
    if op in ("sum", "prod"):
        return _sum_dtype(dt)
    if op == "mean":
        return _dt.float64 if dt.kind in "biu" else dt
    if op in ("any", "all"):
        return _dt.bool_
    if op in ("argmax", "argmin"):
        return _dt.int64
    return dt


@lru_cache(maxsize=1024)
def _layout(op: str, shape: tuple[int, ...], dt: np.dtype, axis: Any, keepdims: bool, dtype: Any
            ) -> tuple[tuple[int, ...], np.dtype, tuple[int, ...], int, int]:
    """(axes, result dtype, result shape, reduced count k, output count m) of a reduction."""
    axes = normalize_axes(axis, len(shape), op)
    out_dt = _dtypes(op, dt, dtype)
    kept = tuple(n for a, n in enumerate(shape) if a not in axes)
    out_shape = tuple(1 if a in axes else n for a, n in enumerate(shape)) if keepdims else kept
    return axes, out_dt, out_shape, _prod(shape[a] for a in axes), _prod(kept)


def _ints(axes: tuple) -> bool:
    """Whether every entry is a plain int (this module's ``all`` is the reduction)."""
    for a in axes:
        if type(a) is not int:
            return False
    return True


def _reduce(op: str, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> DArray:
    x = x if isinstance(x, DArray) else asarray(x)
    if op in ("argmax", "argmin") and axis is not None and not isinstance(axis, (int, np.integer)):
        raise TypeError(f"darray {op}: axis must be an int or None, got {axis!r}")
    plain = dtype is None and (axis is None or type(axis) is int or (type(axis) is tuple and _ints(axis)))
    layout = _layout if plain else _layout.__wrapped__  # cache plain ints only (True == 1 must still raise)
    axes, out_dt, shape, k, m = layout(op, x.shape, x.dtype, axis, bool(keepdims), dtype)
    if k == 0 and FOLDS[op].empty is None:  # NumPy: an empty reduced axis raises, even for an empty output
        what = f"attempt to get {op} of an empty sequence" if op.startswith("arg") else \
            f"zero-size array to reduction operation {FOLDS[op].ufunc} which has no identity"
        raise ValueError(f"darray {op}: {what}")
    return D.implementation("reduce", x.place)(op, x, axis, axes, out_dt, shape, k, m, keepdims)


@D.register("reduce", "cpu")
def _reduce_cpu(op: str, x: DArray, axis: Any, axes: tuple[int, ...], out_dt: np.dtype, shape: tuple[int, ...],
                k: int, m: int, keepdims: bool) -> DArray:
    """Reduction ``op`` through NumPy (``axis`` as given, ``axes`` normalised; ``shape``: the result's,
    ``k`` elements reduced into each of ``m``)."""
    with np.errstate(all="ignore"):
        res = _on_host(op, axis, axes, out_dt, keepdims, x._host_view())
    return from_numpy(np.asarray(res).astype(out_dt, copy=False), x.place)


@D.register("reduce", "cl")
def _reduce_cl(op: str, x: DArray, axis: Any, axes: tuple[int, ...], out_dt: np.dtype, shape: tuple[int, ...],
               k: int, m: int, keepdims: bool) -> DArray:
    """Reduction ``op`` in one kernel that the input's pending chain fuses into (arguments as
    :func:`_reduce_cpu`'s)."""
    if op == "mean" and out_dt.kind in "biu" and m and k:
        # NumPy: sum in ``dtype`` (wrapping), true-divide in float64, cast back (truncating)
        total = _reduce("sum", x, axes, keepdims, out_dt)
        return E.apply("divide", total, float(k)).astype(out_dt)
    if m == 0 or k == 0:
        empty = FOLDS[op].empty
        fill: complex = 0 if empty is None else empty  # (None: an empty output of one that raises on none)
        if op == "mean" and out_dt.kind == "c":
            fill = complex(np.nan, np.nan)  # NumPy: 0 / 0 in both parts
        return full(shape, fill, dtype=out_dt, device=x.place)
    place = cast(CLPlace, x.place)
    if op in ("sum", "mean") and out_dt.kind in "fc":  # settled and small: the row kernel's order on the host
        summed = host_sum.reduce(x, axes, out_dt, shape, k, m, mean=op == "mean")
        if summed is not None:
            return summed
    if _exact(op, x.dtype) and (x._node is None or x._node.host) and host.usable(place, x.size):
        v = host.view(x)
        if v is not None and not shape:  # settled, to one value: held as it (``at_once.held``)
            return at_once.held(host.quietly(_on_host, op, axis, axes, out_dt, keepdims, v), out_dt, place)
        made = at_once.fresh(place, shape, out_dt) if v is not None else None
        if made is not None:  # settled: NumPy on its memory as it is called
            made[1][...] = host.quietly(_on_host, op, axis, axes, out_dt, keepdims, v)
            return made[0]
        return from_numpy(np.asarray(host.call(op, partial(_on_host, op, axis, axes, out_dt, keepdims), place,
                                               [input_term(x)]), out_dt), place)
    # complex max/min: which NaN is the first one (NumPy's) the lanes of a max kernel cannot tell; argmax can
    via_arg = op in ("max", "min") and out_dt.kind == "c"
    acc = D.device_dtype(x.dtype if op.startswith("arg") or via_arg else out_dt, x.place)
    dev_dt = D.device_dtype(out_dt, x.place)
    term = x._node if x._node is not None else input_term(x)
    kernel_op = "sum" if op == "mean" else "arg" + op if via_arg else op
    alloc = _device_reduce([term], x.shape, axes, kernel_op, acc, dev_dt, place,
                           divisor=k if op == "mean" else None, values=via_arg)
    return DArray(alloc, Dim.trusted(shape), dev_dt, x.place)


def _exact(op: str, dt: np.dtype) -> bool:
    """Whether NumPy's ``op`` over ``dt`` gives the kernel's bits whatever the order it folds in, so it
    runs through NumPy on host-backed devices (``lazy.host.usable``): ``any``/``all``; max, min and
    their args over real dtypes (a maximum is the same value in any order; of equal zeros, which one
    is found may differ); integer and bool sums and products (exact in wrapping arithmetic)."""
    if op in ("any", "all"):
        return True
    if dt.kind == "c":
        return False
    return op in ("max", "min", "argmax", "argmin") or (op in ("sum", "prod") and dt.kind in "biu")


def _on_host(op: str, axis: Any, axes: tuple[int, ...], out_dt: np.dtype, keepdims: bool, v: np.ndarray) -> Any:
    """NumPy's ``op`` over the host view ``v`` (arguments as :func:`_reduce_cpu`'s)."""
    f = FOLDS[op]
    if f.combine is None:  # argmax, argmin
        return f.numpy(v, axis=None if axis is None else axes[0], keepdims=keepdims)
    return f.numpy(v, axis=axes, keepdims=keepdims, **({"dtype": out_dt} if f.accumulates else {}))


def _masked(op: str, x: DArray, where: Any, initial: Any) -> DArray:
    """``x`` with the elements ``where`` masks out replaced by the reduction's identity (or ``initial``,
    which max and min need, as NumPy), broadcast to the mask's shape."""
    f = FOLDS[op]
    fill = initial if f.identity is None else f.identity  # initial joins the result once, after the reduction
    if fill is None:
        raise ValueError(f"darray {op}: reduction operation {f.ufunc!r} does not have an identity, so to "
                         "use a where mask one has to specify 'initial'")
    return E.apply("where", where, x, fill)


def _numpy_reduce(op: str, x: Any, axis: Any, dtype: Any, out: Any, keepdims: bool, initial: Any,
                  where: Any) -> DArray:
    """A reduction with NumPy's extras: ``where`` masks elements out, ``initial`` joins the
    reduction (and stands for an empty one), ``out`` receives the result."""
    x = x if isinstance(x, DArray) else asarray(x)
    if where is not True:
        x = _masked(op, x, where, initial)
    if initial is not None and op in ("max", "min"):
        axes = normalize_axes(axis, x.ndim, op)
        if not _prod(x.shape[a] for a in axes):  # an empty reduction is ``initial``
            shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape)) if keepdims else \
                tuple(n for a, n in enumerate(x.shape) if a not in axes)
            return reduced(op, full(shape, initial, dtype=x.dtype, device=x.place), out)
    result = _reduce(op, x, axis, keepdims, dtype)
    if initial is not None:
        result = E.apply(cast(str, FOLDS[op].combine), result, initial).astype(result.dtype, copy=False)
    return reduced(op, result, out)


def _make(op: str, doc: str) -> Any:
    fn: Callable[..., DArray]
    if op in ("sum", "prod"):
        def fn(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike = None, out: Any = None,
               keepdims: bool = False, initial: Any = None, where: Any = True) -> DArray:
            if out is None and initial is None and where is True:
                return _reduce(op, a, axis, keepdims, dtype)
            return _numpy_reduce(op, a, axis, dtype, out, keepdims, initial, where)
    elif op in ("max", "min"):
        def fn(a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: Any = None, keepdims: bool = False,
               initial: Any = None, where: Any = True) -> DArray:
            if out is None and initial is None and where is True:
                return _reduce(op, a, axis, keepdims)
            return _numpy_reduce(op, a, axis, None, out, keepdims, initial, where)
    else:  # any, all
        def fn(a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: Any = None, keepdims: bool = False,
               *, where: Any = True) -> DArray:
            if out is None and where is True:
                return _reduce(op, a, axis, keepdims)
            return _numpy_reduce(op, a, axis, None, out, keepdims, None, where)

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"{doc}\n\nSee also: numpy.{op}"
    return fn


sum = _make("sum", "Sum over ``axis`` (None: all); ``dtype=`` sets the accumulator. Empty sums are 0.")  # noqa: A001
prod = _make("prod", "Product over ``axis``; empty products are 1.")
max = _make("max", "Maximum over ``axis``; NaN propagates; empty input raises ValueError.")  # noqa: A001
min = _make("min", "Minimum over ``axis``; NaN propagates; empty input raises ValueError.")  # noqa: A001
amax, amin = max, min
any = _make("any", "True where any element over ``axis`` is non-zero.")  # noqa: A001
all = _make("all", "True where every element over ``axis`` is non-zero.")  # noqa: A001


def _count(x: DArray, axes: tuple[int, ...], keepdims: bool, where: Any) -> Any:
    """How many elements each result reduces: an int, or a DArray under a ``where`` mask."""
    if where is True:
        return int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    mask = E.apply("logical_and", where, full(x.shape, True, dtype=_dt.bool_, device=x.place))
    return _reduce("sum", mask, axes, keepdims, _dt.int64)


def mean(a: ArrayLike, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike = None, out: Any = None,
         keepdims: bool = False, *, where: Any = True) -> DArray:
    """Arithmetic mean over ``axis`` (float64 for integer input; ``dtype=`` as NumPy's); ``where``
    averages the selected elements only. See also: numpy.mean"""
    if where is True:
        return reduced("mean", _reduce("mean", a, axis, keepdims, dtype), out)
    a = a if isinstance(a, DArray) else asarray(a)
    axes = normalize_axes(axis, a.ndim, "mean")
    total = _reduce("sum", _masked("sum", a, where, None), axes, keepdims, _dtypes("mean", a.dtype, dtype))
    return reduced("mean", E.apply("divide", total, _count(a, axes, keepdims, where)).astype(total.dtype), out)


_mean = mean  # for var, whose ``mean=`` parameter hides the function


def _indices(name: str, result: DArray, out: Any) -> DArray:
    """argmax's/argmin's ``out``, as NumPy's: an array that casts safely to int64 (the indices written
    into it by any cast)."""
    if isinstance(out, DArray) and not _dt.can_cast(out.dtype, _dt.int64):
        raise TypeError(f"darray {name}: Cannot cast array data from {out.dtype!r} to dtype('int64') according to "
                        "the rule 'safe'")
    return reduced(name, result, out)


def argmax(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> DArray:
    """Index of the first maximum (flat index for axis=None; the first NaN wins). See also: numpy.argmax."""
    return _indices("argmax", _reduce("argmax", a, axis, keepdims), out)


def argmin(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> DArray:
    """Index of the first minimum (flat index for axis=None; the first NaN wins). See also: numpy.argmin."""
    return _indices("argmin", _reduce("argmin", a, axis, keepdims), out)


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> DArray:
    """Number of non-zero elements over ``axis`` (int64). See also: numpy.count_nonzero."""
    return _reduce("sum", E.apply("not_equal", a, 0), axis, keepdims, _dt.int64)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> DArray:
    """Range (maximum - minimum) over ``axis``, in the input's dtype (wrapping for integers, as NumPy).
    See also: numpy.ptp"""
    a = a if isinstance(a, DArray) else asarray(a)
    hi, lo = _reduce("max", a, axis, keepdims), _reduce("min", a, axis, keepdims)
    if out is not None:  # NumPy's: the maximum into out (any cast), then subtract(out, lo, out) (same_kind)
        hi = reduced("ptp", hi, out)
    return finish("ptp", E.apply("subtract", hi, lo), out)


def _ddof(op: str, ddof: float, correction: float | None) -> float:
    if correction is not None and ddof != 0:
        raise ValueError(f"darray {op}: ddof and correction can't be provided simultaneously")
    return ddof if correction is None else correction


def var(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: float | None = None) -> DArray:
    """Variance with ``ddof`` (NumPy) or ``correction`` (Array API); the deviation chain fuses into the
    sum; ``mean=`` a precomputed mean (with keepdims=True); ``where`` selects the elements. ``dtype=`` as
    NumPy's: the mean and the sum of squares accumulate in it and the result has it (float64 for
    integers and bool; complex input gives its real dtype unless ``dtype=`` is complex). See also: numpy.var."""
    a = a if isinstance(a, DArray) else asarray(a)
    dt = _dt.as_dtype(dtype, "var") if dtype is not None else _dt.float64 if a.dtype.kind in "biu" else None
    axes = normalize_axes(axis, a.ndim, "var")
    n = _count(a, axes, keepdims, where)
    if mean is None:
        mean = _mean(a, axes, dt, keepdims=True, where=where)
    centred = E.apply("subtract", a, mean)
    square = E.apply("real", E.apply("multiply", centred, E.apply("conj", centred))) if centred.dtype.kind == "c" \
        else E.apply("multiply", centred, centred)
    if where is not True:
        square = _masked("sum", square, where, None)
    total = _reduce("sum", square, axes, keepdims, dt)
    d = _ddof("var", ddof, correction)
    if isinstance(n, DArray):
        denominator = E.apply("maximum", E.apply("subtract", n, d), 0)
        return reduced("var", E.apply("divide", total, denominator).astype(total.dtype, copy=False), out)
    return reduced("var", E.apply("divide", total, float(n - d) if n - d > 0 else 0.0).astype(total.dtype, copy=False),
                  out)


def std(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: float | None = None) -> DArray:
    """Standard deviation (the square root of :func:`var`, same parameters). See also: numpy.std."""
    v = var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)  # (out: into it)
    root = E.apply("sqrt", v)
    if (v.ndim or out is not None) and not _dt.can_cast(root.dtype, v.dtype, "same_kind"):  # NumPy's sqrt(v, out=v)
        raise TypeError(f"darray std: Cannot cast ufunc 'sqrt' output from {root.dtype!r} to {v.dtype!r} with "
                        "casting rule 'same_kind'")
    return reduced("std", root.astype(v.dtype, copy=False), out)
