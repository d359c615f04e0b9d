"""The argument rules of darray.fft and its transforms on OpenCL places (the cpu place: numpy.fft).

A transform over ``axes`` with output lengths ``lengths`` (NumPy's ``s``) runs as:

1. ``fit``: crop (a slice) or zero-pad (zeros + slice assignment) each axis on the device and
   cast to the transform's dtype, in one new C-contiguous array; the input itself when it is
   already that (materialised, contiguous, aligned for a sub-buffer, right dtype).
2. axes of length 1 are dropped (their transform is the identity); for r2c/c2r the real axis
   is moved last with a copy when it is not (VkFFT's halved axis is the fast one) and the
   result is a view with it moved back.
3. the axes go to VkFFT apps in as few passes as fit its dimension limit after
   non-transformed neighbours collapse (one pass almost always): ``passes``; an r2c app takes
   the real axis and the others. c2r runs the other axes first, drops the imaginary parts of
   bins 0 and n/2 as numpy.fft does, then a 1-D c2r.
4. "ortho" and "forward" scale the result lazily (the multiply fuses into what reads it);
   the inverse with "backward" divides inside VkFFT.

Repeated axes run one transform per entry, in NumPy's order, as numpy.fft does.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..alloc import allocate
from ..dim import Dim, normalize_axis
from ..ops import _dispatch as D
from ..ops.creation import default_float, zeros
from ..ops.elementwise import real
from ..ops.manipulation import moveaxis
from ..place import CLPlace, Place
from ..transfer.convert import asarray, astype, empty, from_numpy
from . import _plan

NORMS = ("backward", "ortho", "forward")
SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}  # numpy.fft's table


def check_norm(norm: Any, op: str, *, swapped: bool = False) -> str:
    """``norm`` (None: "backward"), or ValueError naming the choices; ``swapped``: looked up in
    :data:`SWAP` as numpy.fft's inverse transforms, hfft and ihfft look it up (TypeError for an
    unhashable one, as theirs)."""
    try:
        known = norm in (SWAP if swapped else (None, *NORMS))
    except TypeError as err:
        raise TypeError(f"darray fft.{op}: invalid norm value {norm!r} ({err})") from None
    if not known:
        raise ValueError(f'darray fft.{op}: invalid norm value {norm!r}; should be "backward", "ortho" or "forward"')
    return "backward" if norm is None else norm


def complex_of(dt: np.dtype, place: Place) -> np.dtype:
    """The complex dtype a transform of ``dt`` computes in (NumPy's; integers: the place's default float)."""
    if dt.kind == "c":
        return dt
    if dt in (_dt.float16, _dt.float32) or (dt.kind != "f" and default_float(place) == _dt.float32):
        return _dt.complex64
    return _dt.complex128


def real_of(dt: np.dtype, place: Place) -> np.dtype:
    """The real dtype a c2r transform of ``dt`` computes in."""
    return _dt.float32 if complex_of(dt, place) == _dt.complex64 else _dt.float64


def result_of(kind: str, dt: np.dtype, place: Place, naxes: int) -> np.dtype:
    """NumPy's result dtype of a transform ``kind`` of ``dt`` over ``naxes`` axes: complex, or for
    irfft real; a float16 input of a 1-axis irfft (hfft too) gives float16, computed in float32 and
    rounded as numpy.fft's single-precision loop does (over more axes, NumPy's first passes are
    complex64, and so the result float32)."""
    if kind != "irfft":
        return complex_of(dt, place)
    return _dt.float16 if dt == _dt.float16 and naxes == 1 else real_of(dt, place)


def cook(op: str, x: DArray, s: Sequence[Any] | None, axes: Sequence[Any] | None, norm: Any, *,
         c2r: bool = False, lookup: bool = False, first: bool = False) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """(axes in [0, ndim), output length per axis, norm) as numpy.fft's rules give them, checked in
    its order: the axes when ``s`` is or holds None, ``norm`` here if ``first`` (hfft, ihfft), ``s``
    and ``axes`` of different lengths (ValueError), the length of NumPy's first 1-d pass (ValueError
    below 1), ``norm`` (``lookup``: as the inverse transforms look it up, see :func:`check_norm`),
    the other lengths, the axes (AxisError), then each length an integer (TypeError, a bool too).

    ``axes`` None: the last ``len(s)`` axes, or all; ``s`` None or an entry None: the axis
    length (``c2r``, the last: ``2 * (length - 1)``).
    """
    where = f"darray fft.{op}"
    if s is None or None in s:  # NumPy reads the default lengths off the axes first
        if axes is None:
            axes = range(x.ndim) if s is None else range(-len(s), 0)
        axes = tuple(normalize_axis(a, x.ndim, where) for a in axes)
    if first:
        norm = check_norm(norm, op, swapped=True)
    given: list[Any] = [None] * len(axes or ()) if s is None else list(s)
    if axes is not None and len(given) != len(axes):
        raise ValueError(f"{where}: shape and axes have different lengths ({len(given)} and {len(axes)})")
    lead = 0 if c2r else len(given) - 1  # NumPy's first 1-d pass: the first axis of irfftn, the last of others
    for k in [lead] * bool(given) + [k for k in range(len(given)) if k != lead]:
        if given[k] is not None and given[k] < 1:
            raise ValueError(f"{where}: invalid number of FFT data points ({given[k]}) specified")
        if k == lead:
            norm = check_norm(norm, op, swapped=lookup)
    if not given:
        norm = check_norm(norm, op, swapped=lookup)
    axes = tuple(normalize_axis(a, x.ndim, where) for a in (range(-len(given), 0) if axes is None else axes))
    lengths = []
    for i, (a, n) in enumerate(zip(axes, given)):
        if n is None:
            n = 2 * (x.shape[a] - 1) if c2r and i == len(axes) - 1 else x.shape[a]
            if n < 1:
                raise ValueError(f"{where}: invalid number of FFT data points ({n}) specified along axis {a}")
        if isinstance(n, (bool, np.bool_)):
            raise TypeError(f"{where}: an integer is required for the number of FFT data points, got {n!r}")
        lengths.append(operator.index(n))
    return axes, tuple(lengths), norm


class Recipe(NamedTuple):
    """A transform that is one VkFFT call on its input as it is: the plan, the output's Dim, bytes
    and dtype, the direction, the launch's name and the norm's factor (None: 1)."""

    plan: _plan.Plan
    dim: Dim
    nbytes: int
    dtype: np.dtype
    inverse: bool
    name: str
    factor: float | None


def transform(kind: str, op: str, x: Any, s: Sequence[Any] | None, axes: Sequence[Any] | None,
              norm: Any, *, swap: bool = False) -> DArray:
    """``numpy.fft.<kind>n`` of ``x`` on its place (``kind``: fft, ifft, rfft or irfft; ``swap``:
    with the opposite ``norm``, as hfft and ihfft): the arguments checked in numpy.fft's order
    (:func:`cook`, then a complex input of rfft). A call whose arguments made one
    VkFFT call on the input as it is before does that again at once (``_plan.recipes``)."""
    key = None
    if type(x) is DArray and type(x._place) is CLPlace:
        try:
            key = (x._place, kind, x._dim.shape, x._dtype, None if s is None else tuple(s),
                   None if axes is None else tuple(axes), norm, swap)
            found = _plan.recipes.get(key)
        except TypeError:  # an unhashable argument: the full path (which rejects it or takes it)
            key = found = None
        if found is not None and _plan.aligned(x):
            return _apply(found, x)
    x = x if isinstance(x, DArray) else asarray(x)
    axes, lengths, norm = cook(op, x, s, axes, norm, c2r=kind == "irfft", lookup=swap or kind in ("ifft", "irfft"),
                               first=swap)
    norm = SWAP[norm] if swap else norm
    if not axes:  # as numpy.fft: the input itself; a real transform has no last axis to halve
        if kind in ("rfft", "irfft"):
            raise IndexError(f"darray fft.{op}: a real transform needs at least one axis")
        return x
    if kind == "rfft" and x.dtype.kind == "c":
        raise TypeError(f"darray fft.{op}: the input must be real, got {x.dtype}")
    out_dt = result_of(kind, x.dtype, x.place, len(axes))
    if key is not None and _plan.aligned(x) and len(set(axes)) == len(axes):
        found = _recipe(kind, x, axes, lengths, norm)
        if found is not None:
            if len(_plan.recipes) >= 4 * _plan.MAX_PLANS:
                _plan.recipes.clear()
            _plan.recipes[key] = found
            return _apply(found, x)
    y = D.implementation("fft.transform", x.place)(kind, op, x, axes, lengths, norm)
    return y if y.dtype == out_dt else astype(y, out_dt, copy=False)


def _recipe(kind: str, x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...], norm: str) -> Recipe | None:
    """The one VkFFT call of a c2c or r2c transform of ``x`` (materialised, contiguous, aligned)
    over distinct ``axes`` where ``fit`` takes ``x`` as it is and one app takes every axis; None
    otherwise (the steps of the module docstring)."""
    place = cast(CLPlace, x.place)
    if kind == "irfft" or x.size == 0 or any(x.shape[a] != n for a, n in zip(axes, lengths)):
        return None
    inverse = kind == "ifft"
    if kind == "rfft":
        if x.dtype != real_of(x.dtype, place) or axes[-1] != x.ndim - 1 or lengths[-1] == 1:
            return None
        group, rest = _split(x.ndim, [a for a, n in zip(axes[:-1], lengths[:-1]) if n > 1])
        if rest:
            return None
        plan = _plan.plan(place, x.shape, x.dtype, group, r2c=True, norm=0)
        shape, dtype, name = x.shape[:-1] + (lengths[-1] // 2 + 1,), complex_of(x.dtype, place), "fft r2c"
    else:
        active = [a for a, n in zip(axes, lengths) if n > 1]
        passes_ = groups(x.ndim, active)
        if x.dtype != complex_of(x.dtype, place) or len(passes_) != 1:
            return None
        plan = _plan.plan(place, x.shape, x.dtype, passes_[0], r2c=False, norm=int(inverse and norm == "backward"))
        shape, dtype, name = x.shape, x.dtype, "ifft c2c" if inverse else "fft c2c"
    size = math.prod(lengths)
    factor = 1 / math.sqrt(size) if norm == "ortho" else 1 / size if norm == "forward" and not inverse else None
    return Recipe(plan, Dim.contiguous(shape), math.prod(shape) * dtype.itemsize, dtype, inverse, name, factor)


def _apply(r: Recipe, x: DArray) -> DArray:
    """``r``'s transform of ``x``, into a new array from the place's pool."""
    out = DArray(allocate(x.place, r.nbytes), r.dim, r.dtype, x.place)
    _plan.run(r.plan, x, out, inverse=r.inverse, name=r.name)
    return out if r.factor is None else out * r.factor


@D.register("fft.transform", "cpu")
def _transform_cpu(kind: str, op: str, x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...],
                   norm: str) -> DArray:
    """:func:`transform` through numpy.fft (``axes`` and output ``lengths`` as :func:`cook` gives them)."""
    host = getattr(np.fft, kind + "n")(x._host_view(), s=lengths, axes=axes, norm=norm)
    return from_numpy(np.ascontiguousarray(host), x.place)


@D.register("fft.transform", "cl")
def _transform_cl(kind: str, op: str, x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...],
                  norm: str) -> DArray:
    """:func:`transform` through VkFFT (the steps of the module docstring)."""
    if len(set(axes)) < len(axes):
        return _one_by_one(kind, op, x, axes, lengths, norm)
    inverse = kind in ("ifft", "irfft")
    if kind == "fft" or kind == "ifft":
        y = _c2c(x, axes, lengths, inverse, norm)
    elif kind == "rfft":
        y = _r2c(x, axes, lengths)
    else:
        y = _c2r(x, axes, lengths, norm)
    return _scale(y, math.prod(lengths), norm, inverse)


def _one_by_one(kind: str, op: str, x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...],
                norm: str) -> DArray:
    """Repeated axes: one transform per entry, in numpy.fft's order."""
    pairs = list(zip(axes, lengths))
    if kind == "irfft":
        for a, n in pairs[:-1]:
            x = transform("ifft", op, x, (n,), (a,), norm)
        return transform("irfft", op, x, (pairs[-1][1],), (pairs[-1][0],), norm)
    if kind == "rfft":
        x = transform("rfft", op, x, (pairs[-1][1],), (pairs[-1][0],), norm)
        pairs, kind = pairs[:-1], "fft"
    for a, n in reversed(pairs):
        x = transform(kind, op, x, (n,), (a,), norm)
    return x


def _scale(y: DArray, size: int, norm: str, inverse: bool) -> DArray:
    """``y`` times the norm's factor (lazy); VkFFT did the inverse's "backward" division."""
    if norm == "ortho":
        return y * (1 / math.sqrt(size))
    if norm == "forward" and not inverse:
        return y * (1 / size)
    return y


def fit(x: DArray, axes: Sequence[int], lengths: Sequence[int], dt: np.dtype, *, copy: bool = False) -> DArray:
    """``x`` cropped or zero-padded to ``lengths`` along ``axes`` and cast to ``dt``, in a layout
    VkFFT takes; ``x`` itself when it already is all that and ``copy`` is False."""
    shape, key = list(x.shape), [slice(None)] * x.ndim
    for a, n in zip(axes, lengths):
        shape[a], key[a] = n, slice(0, min(n, x.shape[a]))
    if tuple(shape) == x.shape and not copy and x.dtype == dt and _plan.aligned(x):
        return x
    view = x[tuple(key)] if tuple(shape) != x.shape else x
    if view.shape == tuple(shape):
        return astype(view, dt, copy=True)
    out = zeros(tuple(shape), dtype=dt, device=x.place)
    out[tuple(key)] = view
    return out


def groups(ndim: int, axes: Sequence[int]) -> list[tuple[int, ...]]:
    """``axes`` split into passes of one VkFFT app each, fastest axes first: an app takes
    ``_plan.max_dims()`` axes once runs of non-transformed axes collapse into one."""
    limit = _plan.max_dims()
    out: list[list[int]] = []
    for a in sorted(axes, reverse=True):
        if out and _vk_dims(ndim, out[-1] + [a]) <= limit:
            out[-1].append(a)
        else:
            out.append([a])
    return [tuple(sorted(g)) for g in out]


def _vk_dims(ndim: int, group: Sequence[int]) -> int:
    """The dimensions pyvkfft gives VkFFT for ``group``: each transformed axis and each run of
    others (the batch before the slowest transformed axis counts too)."""
    count, run = 0, False
    for a in range(ndim):
        if a in group:
            count, run = count + 1, False
        elif not run:
            count, run = count + 1, True
    return count


def passes(y: DArray, axes: Sequence[int], *, inverse: bool, norm: int) -> DArray:
    """c2c transforms of the contiguous complex ``y`` over ``axes`` (lengths above 1), each
    pass into a new array."""
    for group in groups(y.ndim, axes):
        out = empty(y.shape, y.dtype, y.place)
        plan = _plan.plan(cast(CLPlace, y.place), y.shape, y.dtype, group, r2c=False, norm=norm)
        _plan.run(plan, y, out, inverse=inverse, name="ifft c2c" if inverse else "fft c2c")
        y = out
    return y


def _c2c(x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...], inverse: bool, norm: str) -> DArray:
    active = [a for a, n in zip(axes, lengths) if n > 1]
    y = fit(x, axes, lengths, complex_of(x.dtype, x.place), copy=not active)
    if y.size == 0:
        return empty(y.shape, y.dtype, y.place)
    return passes(y, active, inverse=inverse, norm=int(inverse and norm == "backward"))


def _last(y: DArray, ar: int, others: list[int]) -> tuple[DArray, list[int]]:
    """``y`` with axis ``ar`` moved last (a contiguous copy when it was not), and ``others``
    renumbered to match."""
    if ar == y.ndim - 1:
        return y, others
    return astype(moveaxis(y, ar, -1), y.dtype, copy=True), [a - (a > ar) for a in others]


def _split(ndim: int, others: list[int]) -> tuple[tuple[int, ...], list[int]]:
    """(the axes of one r2c/c2r app: the last and as many of ``others`` as fit, the rest)."""
    first = groups(ndim, [*others, ndim - 1])[0]
    return first, [a for a in others if a not in first]


def _r2c(x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...]) -> DArray:
    place, ar, n = x.place, axes[-1], lengths[-1]
    cdt = complex_of(x.dtype, place)
    others = [a for a, m in zip(axes[:-1], lengths[:-1]) if m > 1]
    if n == 1:  # the transform of one value is that value
        y = fit(x, axes, lengths, cdt, copy=True)
        return y if y.size == 0 else passes(y, others, inverse=False, norm=0)
    y = fit(x, axes, lengths, real_of(x.dtype, place))
    if y.size == 0:
        return empty(y.shape[:ar] + (n // 2 + 1,) + y.shape[ar + 1:], cdt, place)
    y, others = _last(y, ar, others)
    group, rest = _split(y.ndim, others)
    out = empty(y.shape[:-1] + (n // 2 + 1,), cdt, place)
    plan = _plan.plan(cast(CLPlace, place), y.shape, y.dtype, group, r2c=True, norm=0)  # the OpenCL path
    _plan.run(plan, y, out, inverse=False, name="fft r2c")
    out = passes(out, rest, inverse=False, norm=0)
    return out if ar == x.ndim - 1 else moveaxis(out, -1, ar)


def _c2r(x: DArray, axes: tuple[int, ...], lengths: tuple[int, ...], norm: str) -> DArray:
    """The inverse over the other axes, then a 1-D c2r along the last: numpy.fft ignores the
    imaginary parts of bins 0 and n/2 after the former, VkFFT's own n-D c2r would not."""
    place, ar, n = x.place, axes[-1], lengths[-1]
    cdt, rdt = complex_of(x.dtype, place), real_of(x.dtype, place)
    vknorm = int(norm == "backward")
    others = [a for a, m in zip(axes[:-1], lengths[:-1]) if m > 1]
    # the passes write new arrays; without them, a copy: the bins are fixed in place, and c2r overwrites
    y = fit(x, axes, (*lengths[:-1], n // 2 + 1), cdt, copy=not others)
    if y.size == 0:
        return empty(y.shape[:ar] + (n,) + y.shape[ar + 1:], rdt, place)
    y = passes(y, others, inverse=True, norm=vknorm)
    if n == 1:  # one value: its real part
        return real(y)
    for k in {0, n // 2} if n % 2 == 0 else {0}:
        key = (slice(None),) * ar + (k,)
        y[key] = real(y[key])
    y, _ = _last(y, ar, [])
    out = empty(y.shape[:-1] + (n,), rdt, place)
    plan = _plan.plan(cast(CLPlace, place), out.shape, rdt, (y.ndim - 1,), r2c=True, norm=vknorm)  # the OpenCL path
    _plan.run(plan, y, out, inverse=True, name="ifft c2r", clobbers=True)
    return out if ar == x.ndim - 1 else moveaxis(out, -1, ar)
