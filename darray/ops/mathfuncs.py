"""NumPy's mathematical functions beyond the ufuncs, on the array's place: around, fix, nan_to_num,
real_if_close, angle, unwrap, sinc, i0, convolve, correlate, interp, gradient, ediff1d,
trapezoid, cross (NumPy's form), kron, inner, vdot, and the main namespace's dot, outer, trace
and diagonal in NumPy's forms (``darray.linalg`` keeps the Array API's).

convolve and correlate multiply a sliding-window view of the longer input by the reversed
shorter one (one matmul); i0 sums its power series (an asymptotic series for |x| > 30) in one
fused kernel.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import Dim, normalize_axis
from ..transfer.convert import asarray
from . import elementwise as E
from . import reduction as R
from ._out import finish
from .arrange import diff
from .creation import default_float, zeros
from .linalg import diagonal as _last_two_diagonal
from .linalg import dot as _dot
from .linalg import matmul, tensordot
from .linalg import outer as _outer
from .manipulation import concat, moveaxis, reshape, stack, transpose
from .padding import pad
from .scan import cumulative_sum
from .searching import searchsorted
from .taking import take


def _array(x: Any, place: Any = None) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def _place(*xs: Any) -> Any:
    """The place of the first DArray among ``xs`` (None: the default place)."""
    return next((x.place for x in xs if isinstance(x, DArray)), None)


def _inexact(x: DArray) -> DArray:
    return x if x.dtype.kind in "fc" else x.astype(default_float(x.place))


def around(a: Any, decimals: int = 0, out: Any = None) -> DArray:
    """Round half to even to ``decimals`` places. See also: numpy.around."""
    return finish("around", E.round(_array(a), decimals), out)


def fix(x: Any, out: Any = None) -> DArray:
    """Round towards zero. See also: numpy.fix."""
    return finish("fix", E.apply("trunc", _array(x)), out)


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> DArray:
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (the dtype's extremes by
    default), per part for complex; ``copy=False`` writes into ``x``. See also: numpy.nan_to_num."""
    v = _array(x)
    if v.dtype.kind not in "fc":
        return v if not copy else v.copy()

    def fill(part: DArray) -> DArray:
        info = np.finfo(part.dtype)
        hi, lo = info.max if posinf is None else posinf, info.min if neginf is None else neginf
        part = E.apply("where", E.apply("isnan", part), nan, part)
        return E.apply("where", E.apply("isinf", part), E.apply("where", E.apply("greater", part, 0), hi, lo), part)

    result = fill(v) if v.dtype.kind == "f" else E.apply(
        "add", fill(E.apply("real", v)), E.apply("multiply", fill(E.apply("imag", v)), 1j)).astype(v.dtype)
    if not copy:
        v[...] = result
        return v
    return result.astype(v.dtype, copy=False)


def real_if_close(a: Any, tol: float = 100) -> DArray:
    """The real part when every imaginary part is within ``tol`` machine epsilons of zero. See also:
    numpy.real_if_close."""
    v = _array(a)
    if v.dtype.kind != "c":
        return v
    limit = tol * float(np.finfo(v.dtype).eps) if tol > 1 else tol
    small = R.all(E.apply("less", E.apply("abs", E.apply("imag", v)), limit))
    return E.apply("real", v) if bool(small) else v


def angle(z: Any, deg: bool = False) -> DArray:
    """The argument of complex ``z`` (radians, degrees with ``deg``). See also: numpy.angle."""
    v = _array(z)
    a = E.apply("atan2", E.apply("imag", v), E.apply("real", v)) if v.dtype.kind == "c" else \
        E.apply("atan2", 0, v)  # NumPy's arctan2(0, z): a weak 0 (int16 gives float32)
    return E.apply("multiply", a, 180 / math.pi) if deg else a


def unwrap(p: Any, discont: float | None = None, axis: int = -1, *, period: float = 2 * math.pi) -> DArray:
    """Phases with jumps larger than ``discont`` (period / 2 by default) shifted by multiples of
    ``period`` along ``axis``. See also: numpy.unwrap."""
    v = _inexact(_array(p))
    axis = normalize_axis(axis, v.ndim)
    half = period / 2
    discont = half if discont is None else max(discont, half)
    dd = diff(v, axis=axis)
    ddmod = E.apply("subtract", E.apply("remainder", E.apply("add", dd, half), period), half)
    ddmod = E.apply("where", E.apply("logical_and", E.apply("equal", ddmod, -half), E.apply("greater", dd, 0)), half,
                    ddmod)
    correct = E.apply("where", E.apply("less", E.apply("abs", dd), discont), 0.0, E.apply("subtract", ddmod, dd))
    head = v[(slice(None),) * axis + (slice(0, 1),)]
    return concat([head, E.apply("add", v[(slice(None),) * axis + (slice(1, None),)],
                                 cumulative_sum(correct, axis=axis))], axis=axis).astype(v.dtype, copy=False)


def sinc(x: Any) -> DArray:
    """sin(pi x) / (pi x), 1 at 0. See also: numpy.sinc."""
    v = _inexact(_array(x))
    y = E.apply("multiply", math.pi, E.apply("where", E.apply("equal", v, 0), 1.0e-20, v))
    return E.apply("divide", E.apply("sin", y), y)


_I0_TERMS = 64     # power-series terms (|x| <= 30)
_I0_ASYMPTOTIC = 12  # asymptotic-series terms (|x| > 30)


def i0(x: Any) -> DArray:
    """The modified Bessel function of the first kind, order 0 (NumPy's accuracy, one fused kernel).
    See also: numpy.i0."""
    v = _inexact(_array(x))
    if v.dtype.kind == "c":
        raise TypeError("darray i0: complex input is not supported")
    a = E.apply("abs", v)
    quarter = E.apply("multiply", E.apply("multiply", a, a), 0.25)
    term = E.apply("add", E.apply("multiply", a, 0.0), 1.0)
    total = term
    for k in range(1, _I0_TERMS):
        term = E.apply("multiply", term, E.apply("divide", quarter, float(k * k)))
        total = E.apply("add", total, term)
    inv = E.apply("divide", 1.0, E.apply("multiply", a, 8.0))
    coef, series = 1.0, E.apply("add", E.apply("multiply", a, 0.0), 1.0)
    power = series
    for k in range(1, _I0_ASYMPTOTIC):
        coef *= (2 * k - 1) ** 2 / k
        power = E.apply("multiply", power, inv)
        series = E.apply("add", series, E.apply("multiply", power, coef))
    big = E.apply("multiply", E.apply("divide", E.apply("exp", a), E.apply("sqrt", E.apply("multiply", a,
                                                                                          2 * math.pi))), series)
    return E.apply("where", E.apply("greater", a, 30.0), big, total)


def _windows(long: DArray, m: int, fill: Any = 0) -> DArray:
    """The ``long.size + m - 1`` windows of ``m`` values of ``long`` padded with ``m - 1`` ``fill`` on each side."""
    padded = pad(long, (m - 1, m - 1), constant_values=fill)
    d = padded._dim
    return padded._view(Dim((long.size + m - 1, m), (d.strides[0], d.strides[0]), d.offset))


def _full_convolution(a: DArray, v: DArray) -> DArray:
    """The full discrete convolution of 1-D ``a`` and ``v``: windows of the longer input times the
    reversed shorter one (a matmul). With inf or NaN in either, the padding takes no part (NumPy
    sums only the overlaps: no 0 * inf): the products outside the overlap are masked, then summed."""
    long, short = (a, v) if a.size >= v.size else (v, a)
    m = short.size
    windows = _windows(long, m)
    if all(x.dtype.kind not in "fc" or bool(R.all(E.apply("isfinite", x))) for x in (long, short)):
        return matmul(windows, short[::-1])
    outside = _windows(zeros(long.size, dtype=_dt.bool_, device=long.place), m, True)
    terms = E.apply("where", outside, 0, E.apply("multiply", windows, short[::-1]))
    return R.sum(terms, axis=1, dtype=terms.dtype)


def _mode(full: DArray, n: int, m: int, mode: str, op: str) -> DArray:
    big, small = max(n, m), min(n, m)
    if mode == "full":
        return full
    if mode == "same":
        start = (small - 1) // 2
        return full[start:start + big]
    if mode == "valid":
        return full[small - 1:big]
    raise ValueError(f"darray {op}: mode must be one of 'valid', 'same', or 'full' (got {mode!r})")


def _one_d(op: str, a: Any, v: Any) -> tuple[DArray, DArray]:
    x = reshape(_array(a), (-1,)) if np.ndim(a) == 0 else _array(a)
    y = reshape(_array(v, x.place), (-1,)) if np.ndim(v) == 0 else _array(v, x.place)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"darray {op}: object too deep for desired array")
    if not x.size:
        raise ValueError(f"darray {op}: a cannot be empty")
    if not y.size:
        raise ValueError(f"darray {op}: v cannot be empty")
    dt = _dt.result_type(x.dtype, y.dtype)
    return x.astype(dt, copy=False), y.astype(dt, copy=False)


def convolve(a: Any, v: Any, mode: str = "full") -> DArray:
    """The discrete linear convolution of two 1-D sequences ('full', 'same' or 'valid'). See also:
    numpy.convolve."""
    x, y = _one_d("convolve", a, v)
    return _mode(_full_convolution(x, y), x.size, y.size, mode, "convolve")


def correlate(a: Any, v: Any, mode: str = "valid") -> DArray:
    """The cross-correlation of two 1-D sequences, ``sum(a[n + k] * conj(v[n]))``. See also: numpy.correlate."""
    x, y = _one_d("correlate", a, v)
    def conj(z: DArray) -> DArray:
        return E.apply("conj", z) if z.dtype.kind == "c" else z

    if y.size > x.size:  # NumPy swaps the inputs, then reverses (and conjugates) the result
        return conj(_mode(_full_convolution(y, conj(x)[::-1]), x.size, y.size, mode, "correlate"))[::-1]
    return _mode(_full_convolution(x, conj(y)[::-1]), x.size, y.size, mode, "correlate")


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None) -> DArray:
    """Piecewise-linear interpolation of the points (xp, fp) at ``x`` (xp increasing); ``period``
    for angles. See also: numpy.interp."""
    v = _array(x)
    px, py = _array(xp, v.place), _array(fp, v.place)
    if px.ndim != 1 or py.ndim != 1 or px.size != py.size:
        raise ValueError("darray interp: fp and xp are not of the same length.")
    if not px.size:
        raise ValueError("darray interp: array of sample points is empty")
    for name, a in (("x", v), ("xp", px)):
        if not _dt.can_cast(a.dtype, _dt.float64):
            raise TypeError(f"darray interp: cannot cast {name} from {a.dtype} to float64 according to the rule "
                            "'safe'")
    v = v.astype(_dt.float64)
    px = px.astype(_dt.float64)
    py = py.astype(_dt.complex128 if py.dtype.kind == "c" else _dt.float64)
    if period is not None:
        if period == 0:
            raise ValueError("darray interp: period must be a non-zero value")
        period = abs(period)
        v, px = E.apply("remainder", v, period), E.apply("remainder", px, period)
        order = np.argsort(px.get(), kind="stable")
        idx = asarray(order, device=v.place)
        px, py = take(px, idx), take(py, idx)
        px = concat([E.apply("subtract", px[-1:], period), px, E.apply("add", px[:1], period)])
        py = concat([py[-1:], py, py[:1]])
        left = right = None
    n = px.size
    if n == 1:
        result = E.apply("add", zeros(v.shape, dtype=py.dtype, device=v.place), py[0])
    else:
        j = E.apply("clip", E.apply("subtract", searchsorted(px, v, side="right"), 1), 0, n - 2)
        x0, x1, y0, y1 = take(px, j), take(px, E.apply("add", j, 1)), take(py, j), take(py, E.apply("add", j, 1))
        slope = E.apply("divide", E.apply("subtract", y1, y0), E.apply("subtract", x1, x0))
        result = E.apply("add", E.apply("multiply", slope, E.apply("subtract", v, x0)), y0)
        result = E.apply("where", E.apply("equal", v, x0), y0, E.apply("where", E.apply("equal", v, x1), y1, result))
    low = py[0] if left is None else left
    high = py[-1] if right is None else right
    result = E.apply("where", E.apply("less", v, px[0]), low, E.apply("where", E.apply("greater", v, px[-1]), high,
                                                                          result))
    if n > 1:  # NumPy: NaN in, NaN out (one sample point: its value, whatever x)
        result = E.apply("where", E.apply("isnan", v), np.nan, result)
    return result.astype(py.dtype, copy=False)


def _along(f: DArray, axis: int, key: slice) -> DArray:
    return f[(slice(None),) * axis + (key,)]


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """The gradient by central differences inside and one-sided ones (first or second order) at the
    edges, along each axis; spacings as NumPy's (scalars or coordinate arrays). See also: numpy.gradient."""
    v = _array(f)
    if v.dtype == _dt.bool_:  # NumPy differences the bools themselves
        raise TypeError("darray gradient: numpy boolean subtract, the `-` operator, is not supported")
    v = _inexact(v)
    axes = tuple(range(v.ndim)) if axis is None else tuple(normalize_axis(a, v.ndim) for a in np.atleast_1d(axis))
    if edge_order not in (1, 2):
        raise ValueError("darray gradient: 'edge_order' greater than 2 not supported")
    if len(varargs) == len(axes):
        spacing = list(varargs)
    elif len(varargs) <= 1:
        spacing = [varargs[0] if varargs else 1.0] * len(axes)
    else:
        raise TypeError("darray gradient: invalid number of arguments")
    out = []
    for ax, h in zip(axes, spacing):
        n = v.shape[ax]
        if n < edge_order + 1:
            raise ValueError("darray gradient: Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")
        shape = tuple(-1 if k == ax else 1 for k in range(v.ndim))
        if np.ndim(h) == 0:
            dx = [float(h)] * (n - 1)
            d = asarray(np.asarray(dx), device=v.place)
        else:
            coords = _array(h, v.place).astype(_dt.float64)
            if coords.ndim != 1 or coords.size != n:
                raise ValueError("darray gradient: when 1d, distances must match the length of the corresponding "
                                 "dimension")
            d = diff(coords)
        d1, d2 = reshape(d[:-1], shape), reshape(d[1:], shape)
        f0, f1, f2 = _along(v, ax, slice(None, -2)), _along(v, ax, slice(1, -1)), _along(v, ax, slice(2, None))
        inner = E.apply("add", E.apply("add", E.apply("multiply", E.apply("divide", E.apply("negative", d2),
                                                                           E.apply("multiply", d1,
                                                                                   E.apply("add", d1, d2))), f0),
                                   E.apply("multiply", E.apply("divide", E.apply("subtract", d2, d1),
                                                               E.apply("multiply", d1, d2)), f1)),
                        E.apply("multiply", E.apply("divide", d1, E.apply("multiply", d2, E.apply("add", d1, d2))),
                                f2))
        first, last = _edges(v, ax, d, edge_order)
        out.append(concat([first, inner, last], axis=ax).astype(v.dtype, copy=False))
    return out[0] if len(out) == 1 else tuple(out)


def _edges(v: DArray, ax: int, d: DArray, order: int) -> tuple[DArray, DArray]:
    """One-sided differences at both ends of ``ax`` (NumPy's first- and second-order formulas)."""
    def at(k: int) -> DArray:
        return _along(v, ax, slice(k, k + 1 if k != -1 else None))

    if order == 1:
        return (E.apply("divide", E.apply("subtract", at(1), at(0)), d[0]),
                E.apply("divide", E.apply("subtract", at(-1), at(-2)), d[-1]))
    dx1, dx2 = d[0], d[1]
    s = E.apply("add", dx1, dx2)
    a = E.apply("negative", E.apply("divide", E.apply("add", E.apply("multiply", dx1, 2.0), dx2),
                                    E.apply("multiply", dx1, s)))
    b = E.apply("divide", s, E.apply("multiply", dx1, dx2))
    c = E.apply("negative", E.apply("divide", dx1, E.apply("multiply", dx2, s)))
    first = E.apply("add", E.apply("add", E.apply("multiply", a, at(0)), E.apply("multiply", b, at(1))),
                    E.apply("multiply", c, at(2)))
    dx1, dx2 = d[-2], d[-1]
    s = E.apply("add", dx1, dx2)
    a = E.apply("divide", dx2, E.apply("multiply", dx1, s))
    b = E.apply("negative", E.apply("divide", s, E.apply("multiply", dx1, dx2)))
    c = E.apply("divide", E.apply("add", E.apply("multiply", dx2, 2.0), dx1), E.apply("multiply", dx2, s))
    last = E.apply("add", E.apply("add", E.apply("multiply", a, at(-3)), E.apply("multiply", b, at(-2))),
                   E.apply("multiply", c, at(-1)))
    return first, last


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> DArray:
    """Differences of the flattened array, with values put before and after. See also: numpy.ediff1d."""
    v = reshape(_array(ary), (-1,))
    begin, end = (None if e is None else reshape(_array(e, v.place), (-1,)) for e in (to_begin, to_end))
    for e, name in ((begin, "to_begin"), (end, "to_end")):
        if e is not None and not _dt.can_cast(e.dtype, v.dtype, "same_kind"):
            raise TypeError(f"darray ediff1d: dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
    middle = E.apply("subtract", v[1:], v[:-1]) if v.size else v  # (NumPy's subtract: bool raises)
    return concat([e.astype(v.dtype) for e in (begin, middle, end) if e is not None])


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> DArray:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (sample points ``x`` or spacing
    ``dx``). See also: numpy.trapezoid."""
    v = _array(y)
    axis = normalize_axis(axis, v.ndim)
    if x is None:
        d: Any = dx
    else:
        xs = _array(x, v.place)
        d = diff(xs) if xs.ndim == 1 else diff(xs, axis=axis)
        if xs.ndim == 1:
            d = reshape(d, tuple(-1 if k == axis else 1 for k in range(v.ndim)))
    sums = E.apply("add", _along(v, axis, slice(1, None)), _along(v, axis, slice(None, -1)))
    return R.sum(E.apply("divide", E.apply("multiply", d, sums), 2.0), axis=axis)  # NumPy's order and dtypes


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None) -> DArray:
    """The cross product of 2- or 3-component vectors along the given axes (2-D ones give the z
    component). See also: numpy.cross."""
    if axis is not None:
        axisa = axisb = axisc = axis
    x = _array(a, _place(a, b))
    x, y = moveaxis(x, axisa, -1), moveaxis(_array(b, x.place), axisb, -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("darray cross: incompatible dimensions for cross product (dimension must be 2 or 3)")
    a0, a1 = x[..., 0], x[..., 1]
    b0, b1 = y[..., 0], y[..., 1]
    z = E.apply("subtract", E.apply("multiply", a0, b1), E.apply("multiply", a1, b0))
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return z
    a2 = x[..., 2] if x.shape[-1] == 3 else E.apply("multiply", a0, 0)
    b2 = y[..., 2] if y.shape[-1] == 3 else E.apply("multiply", b0, 0)
    c = stack([E.apply("subtract", E.apply("multiply", a1, b2), E.apply("multiply", a2, b1)),
               E.apply("subtract", E.apply("multiply", a2, b0), E.apply("multiply", a0, b2)), z], axis=-1)
    return moveaxis(c, -1, axisc)


def kron(a: Any, b: Any) -> DArray:
    """The Kronecker product: blocks of ``b`` scaled by each element of ``a``. See also: numpy.kron."""
    x = _array(a, _place(a, b))
    y = _array(b, x.place)
    nd = max(x.ndim, y.ndim)
    x, y = reshape(x, (1,) * (nd - x.ndim) + x.shape), reshape(y, (1,) * (nd - y.ndim) + y.shape)
    prod = E.apply("multiply", reshape(x, x.shape + (1,) * nd), reshape(y, (1,) * nd + y.shape))
    order = [k for pair in zip(range(nd), range(nd, 2 * nd)) for k in pair]
    return reshape(transpose(prod, order), tuple(m * n for m, n in zip(x.shape, y.shape)))


def inner(a: Any, b: Any, /) -> DArray:
    """Sum of products over the last axes (a product for 0-d inputs). See also: numpy.inner."""
    x = _array(a, _place(a, b))
    y = _array(b, x.place)
    if x.ndim == 0 or y.ndim == 0:
        return E.apply("multiply", x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"darray inner: shapes {x.shape} and {y.shape} not aligned: {x.shape[-1]} (dim "
                         f"{x.ndim - 1}) != {y.shape[-1]} (dim {y.ndim - 1})")
    return tensordot(x, y, axes=([x.ndim - 1], [y.ndim - 1]))


def vdot(a: Any, b: Any, /) -> DArray:
    """The dot product of the flattened inputs, the first conjugated. See also: numpy.vdot."""
    x = reshape(_array(a, _place(a, b)), (-1,))
    y = reshape(_array(b, x.place), (-1,))
    if x.size != y.size:
        raise ValueError("darray vdot: vectors have different lengths")
    return matmul(E.apply("conj", x) if x.dtype.kind == "c" else x, y)


def matvec(x1: Any, x2: Any, /, out: Any = None) -> DArray:
    """Matrix-vector products over the last axes (a stack of ``x1 @ x2``). See also: numpy.matvec."""
    x = _array(x1, _place(x1, x2))
    v = _array(x2, x.place)
    return finish("matvec", matmul(x, reshape(v, v.shape + (1,)))[..., 0], out)


def vecmat(x1: Any, x2: Any, /, out: Any = None) -> DArray:
    """Vector-matrix products over the last axes, the vector conjugated. See also: numpy.vecmat."""
    v = _array(x1, _place(x1, x2))
    m = _array(x2, v.place)
    v = E.apply("conj", v) if v.dtype.kind == "c" else v
    return finish("vecmat", matmul(reshape(v, v.shape[:-1] + (1, v.shape[-1])), m)[..., 0, :], out)


def dot(a: Any, b: Any, out: Any = None) -> DArray:
    """NumPy's ``dot`` (products of 0-d, inner of 1-D, matmul of 2-D, sums over the last and
    second-to-last axes otherwise). See also: numpy.dot."""
    result = _dot(a, b)
    blas = result.dtype in (_dt.float32, _dt.float64, _dt.complex64, _dt.complex128)
    if out is not None and (blas or (np.ndim(a) and np.ndim(b))) and getattr(out, "dtype", None) != result.dtype:
        # NumPy's dot casts nothing into out (but of integers or float16 with a 0-d operand: multiply's out=)
        raise ValueError("darray dot: output array is not acceptable (must have the right datatype, number of "
                         f"dimensions, and be a C-Array): {result.dtype} wanted")
    return finish("dot", result, out)


def outer(a: Any, b: Any, out: Any = None) -> DArray:
    """The outer product of the flattened inputs. See also: numpy.outer."""
    return finish("outer", _outer(a, b), out)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> DArray:
    """The ``offset`` diagonal of the plane ``(axis1, axis2)`` as a view, its axis last (NumPy's
    form; ``darray.linalg.diagonal`` takes the last two axes). See also: numpy.diagonal."""
    x = _array(a)
    if x.ndim < 2:
        raise ValueError("darray diagonal: diag requires an array of at least two dimensions")
    i, j = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    if i == j:
        raise ValueError("darray diagonal: axis1 and axis2 cannot be the same")
    return _last_two_diagonal(moveaxis(x, (i, j), (-2, -1)), offset=offset)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> DArray:
    """The sum of the ``offset`` diagonal of the plane ``(axis1, axis2)``. See also: numpy.trace."""
    return finish("trace", R.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype), out)


__all__ = ["around", "fix", "nan_to_num", "real_if_close", "angle", "unwrap", "sinc", "i0", "convolve", "correlate",
           "interp", "gradient", "ediff1d", "trapezoid", "cross", "kron", "inner", "vdot", "dot", "outer",
           "diagonal", "trace", "matvec", "vecmat"]
