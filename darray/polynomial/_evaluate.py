"""Evaluation on DArrays for any basis: ``val`` (Clenshaw), ``vander``, their 2-D and 3-D forms, ``fit``,
``weight``, ``gauss`` and the Chebyshev points, through darray's ops (one fused kernel per evaluation on an
OpenCL place). Coefficients and points may be DArrays or anything ``darray.asarray`` takes; results are
DArrays on the place of the first DArray argument (else the default place).
"""
from __future__ import annotations

import functools
import operator
import warnings
from collections.abc import Callable, Sequence
from numbers import Number
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..ops import elementwise as E
from ..ops.creation import arange, zeros
from ..ops.linalg_np import lstsq
from ..ops.manipulation import reshape, stack
from ..ops.reduction import prod
from ..ops.reduction import sum as _sum
from ..place import parse
from ..transfer.convert import asarray, from_numpy, to_numpy
from . import _algebra as A
from ._basis import Basis

_ARRAYS = (DArray, np.ndarray, list, tuple, Number, np.generic)


def place_of(*xs: Any) -> Any:
    """The place of the first DArray among ``xs``, else the default place."""
    return next((x.place for x in xs if isinstance(x, DArray)), None) or parse(None)


def as_darray(x: Any, place: Any) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def _coefficients(c: Any, place: Any, name: str) -> DArray:
    c = as_darray(c, place)
    c = reshape(c, (1,)) if c.ndim == 0 else c
    if c.shape[0] == 0:
        raise IndexError(f"{name}: the coefficient array is empty (index -1 is out of bounds for axis 0 with size 0)")
    return c.astype(_dt.float64) if c.dtype.kind in "biu" else c


def val(b: Basis, x: Any, c: Any, tensor: bool, name: str) -> Any:
    """The series ``c`` (axis 0 the degree; more axes: several series) at ``x``. With ``tensor``, every
    series at every x (shape ``c.shape[1:] + x.shape``), else ``c.shape[1:]`` broadcast against ``x``.
    An ``x`` that is not array-like (a series object) is composed with the series on the host."""
    if not isinstance(x, _ARRAYS):  # a convenience class instance: its arithmetic, the coefficients as numbers
        return A.clenshaw(b, list(A.floated(to_numpy(c) if isinstance(c, DArray) else c)), x)
    place = place_of(x, c)
    if isinstance(x, (list, tuple, np.ndarray)):
        x = asarray(x, device=place)
    c = _coefficients(c, place, name)
    if isinstance(x, DArray) and tensor:
        c = reshape(c, c.shape + (1,) * x.ndim)
    return A.clenshaw(b, [c[k] for k in range(c.shape[0])], x)


def _same_shape(points: Sequence[Any], place: Any) -> list[DArray]:
    arrays = [as_darray(p, place) for p in points]
    if any(a.shape != arrays[0].shape for a in arrays[1:]):
        raise ValueError(f"{', '.join('xyz'[:len(arrays)])} are incompatible" if len(arrays) < 4 else
                         "ordinates are incompatible")
    return arrays


def valnd(b: Basis, c: Any, points: Sequence[Any], name: str) -> Any:
    """The series of ``len(points)`` variables ``c`` at the points (x, y[, z]) of one shape."""
    place = place_of(c, *points)
    try:
        arrays = _same_shape(points, place)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
    out = val(b, arrays[0], c, True, name)
    for p in arrays[1:]:
        out = val(b, p, out, False, name)
    return out


def gridnd(b: Basis, c: Any, points: Sequence[Any], name: str) -> Any:
    """The series of ``len(points)`` variables ``c`` on the Cartesian product of the points."""
    place = place_of(c, *points)
    out = c
    for p in points:
        out = val(b, as_darray(p, place) if isinstance(p, (list, tuple, np.ndarray)) else p, out, True, name)
    return out


def _points(x: Any, place: Any) -> DArray:
    x = as_darray(x, place)
    return E.apply("add", reshape(x, (1,)) if x.ndim == 0 else x, 0.0)


def vander(b: Basis, x: Any, deg: Any, name: str) -> DArray:
    """V[..., k] = P[k](x) for k = 0..deg, by the basis's recurrence; ``x`` of at least one dimension,
    integers as float64."""
    n = A.as_int(deg, "deg", name)
    if n < 0:
        raise ValueError(f"{name}: deg must be non-negative")
    x = _points(x, place_of(x))
    cols: list[Any] = [x * 0 + 1]
    for k in range(n):
        alpha, beta, gamma, delta = b.step(k)
        v = cols[k] * x
        if alpha != 1:
            v = v * alpha
        if beta:
            v = v + cols[k] * beta
        if gamma and k:
            v = v - cols[k - 1] * gamma
        cols.append(v / delta if delta != 1 else v)
    return stack(cols, axis=-1)


def vander_nd(b: Basis, points: Sequence[Any], degrees: Sequence[Any], name: str) -> DArray:
    """The pseudo-Vandermonde matrix of several variables, the products flattened in the last axis
    (x's degree slowest)."""
    if len(points) != len(degrees):
        raise ValueError(f"{name}: Expected {len(points)} dimensions of sample points, got {len(degrees)}")
    place = place_of(*points)
    try:
        arrays = _same_shape(points, place)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
    dtype = _dt.result_type(*arrays, 0.0)
    arrays = [a.astype(dtype) for a in arrays]
    nd = len(arrays)
    parts = [reshape(v, v.shape[:-1] + tuple(v.shape[-1] if j == i else 1 for j in range(nd)))
             for i, v in enumerate(vander(b, a, d, name) for a, d in zip(arrays, degrees, strict=True))]
    out = functools.reduce(operator.mul, parts)
    return reshape(out, out.shape[:-nd] + (-1,))


def fit(b: Basis, x: Any, y: Any, deg: Any, rcond: Any, full: bool, w: Any, name: str) -> Any:
    """Least-squares fit of the series of degree ``deg`` (or of the listed degrees only) to (x, y), optionally
    weighted; ``full`` adds [residuals, rank, singular values, rcond]. The Vandermonde matrix and its column
    scaling are computed on the device. Differs from NumPy: the least-squares solve is NumPy's lstsq on the host
    (``darray.linalg.lstsq``)."""
    place = place_of(x, y, w)
    x, y = E.apply("add", as_darray(x, place), 0.0), E.apply("add", as_darray(y, place), 0.0)
    degs = np.asarray(deg)
    if degs.ndim > 1 or degs.dtype.kind not in "iu" or degs.size == 0:
        raise TypeError(f"{name}: deg must be an int or non-empty 1-D array of int")
    if degs.min() < 0:
        raise ValueError(f"{name}: expected deg >= 0")
    if x.ndim != 1:
        raise TypeError(f"{name}: expected 1D vector for x")
    if x.size == 0:
        raise TypeError(f"{name}: expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError(f"{name}: expected 1D or 2D array for y")
    if len(x) != len(y):
        raise TypeError(f"{name}: expected x and y to have same length")
    lmax = int(degs.max())
    van = vander(b, x, lmax, name)
    if degs.ndim:
        degs = np.sort(degs)
        van = van[:, degs]
    if w is not None:
        w = E.apply("add", as_darray(w, place), 0.0)
        if w.ndim != 1:
            raise TypeError(f"{name}: expected 1D vector for w")
        if len(x) != len(w):
            raise TypeError(f"{name}: expected x and w to have same length")
        van, y = van * reshape(w, (-1, 1)), y * (w if y.ndim == 1 else reshape(w, (-1, 1)))
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    sq = van.real * van.real + van.imag * van.imag if van.dtype.kind == "c" else van * van
    scl = E.apply("sqrt", _sum(sq, axis=0))
    scl = E.apply("where", E.apply("equal", scl, 0), 1, scl)
    c, resids, rank, s = lstsq(van / scl, y, rcond)
    c = c / (scl if c.ndim == 1 else reshape(scl, (-1, 1)))
    if degs.ndim:
        full_c = zeros((lmax + 1, *c.shape[1:]), dtype=c.dtype, device=c.place)
        full_c[degs] = c
        c = full_c
    if rank != (len(degs) if degs.ndim else lmax + 1) and not full:
        warnings.warn(f"{name}: The fit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=3)
    return (c, [resids, rank, s, rcond]) if full else c


def weight(b: Basis, x: Any) -> DArray:
    """The weight function of the basis at ``x``."""
    assert b.weight is not None
    return b.weight(as_darray(x, place_of(x)))


def gauss(b: Basis, deg: Any, name: str) -> tuple[DArray, DArray]:
    """Gauss quadrature nodes and weights (exact for degree 2 deg - 1 against the basis's weight), on the host:
    Golub-Welsch (the eigenvalues of the symmetric companion matrix of P[deg]), one Newton step on the nodes,
    Christoffel weights from the orthonormal recurrence scaled to the weight's integral; symmetrised for an
    even weight. Differs from NumPy: computed by NumPy on the host (eigvalsh) and copied to the default place."""
    n = A.as_int(deg, "deg", name)
    if n <= 0:
        raise ValueError(f"{name}: deg must be a positive integer")
    if b.gauss is not None:
        x, w = b.gauss(n)
    else:
        jac = A.companion(b, [0] * (n + 1) + [1], name)  # symmetric: its off-diagonals are the orthonormal betas
        diag, off = np.diag(jac), np.diag(jac, 1)
        x = np.linalg.eigvalsh(jac[:n, :n])
        p, dp = _orthonormal(diag, off, x, n + 1)
        x = x - p[n] / dp[n]  # one Newton step on p(n)
        w = 1.0 / np.sum(np.square(_orthonormal(diag, off, x, n)[0]), axis=0)
        if b.even:
            x, w = (x - x[::-1]) / 2, (w + w[::-1]) / 2
        w = w * (b.mu0 / w.sum())
    place = parse(None)
    return from_numpy(np.asarray(x, dtype=np.float64), place), from_numpy(np.asarray(w, dtype=np.float64), place)


def _orthonormal(diag: np.ndarray, off: np.ndarray, x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The values and derivatives of p0..p(n-1) at ``x`` by the orthonormal (Jacobi) recurrence
    off[k] p(k+1) = (x - diag[k]) p(k) - off[k-1] p(k-1), up to one common factor."""
    p, dp = [np.ones_like(x)], [np.zeros_like(x)]
    for k in range(n - 1):
        prev, dprev = (p[k - 1], dp[k - 1]) if k else (0.0, 0.0)
        down = off[k - 1] if k else 0.0
        p.append(((x - diag[k]) * p[k] - down * prev) / off[k])
        dp.append((p[k] + (x - diag[k]) * dp[k] - down * dprev) / off[k])
    return np.array(p), np.array(dp)


def valfromroots(x: Any, r: Any, tensor: bool, name: str) -> DArray:
    """prod(x - r) over the roots (axis 0 of ``r``), on the device."""
    place = place_of(x, r)
    r = _coefficients(r, place, name) if as_darray(r, place).size else as_darray(r, place).astype(_dt.float64)
    if isinstance(x, (list, tuple, np.ndarray)):
        x = asarray(x, device=place)
    if isinstance(x, DArray):
        if tensor:
            r = reshape(r, r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError(f"{name}: x.ndim must be < r.ndim when tensor == False")
    return prod(E.apply("subtract", x, r), axis=0)


def chebpts(npts: Any, kind: int, name: str) -> DArray:
    """Chebyshev points of the first kind (``kind`` 1: sin(pi k / (2 n)), k = -n+1, -n+3, ..., n-1) or the
    second (cos(pi k / (n - 1)) from -1 to 1), on the default place."""
    n = int(npts)
    if n != npts:
        raise ValueError(f"{name}: npts must be integer")
    if n < kind:
        raise ValueError(f"{name}: npts must be >= {kind}")
    place = parse(None)
    if kind == 1:
        return E.apply("sin", arange(-n + 1, n + 1, 2, device=place) * (0.5 * np.pi / n))
    return E.apply("cos", arange(n, device=place) * (np.pi / (n - 1)) - np.pi)


def chebinterpolate(func: Callable[..., Any], deg: Any, args: tuple[Any, ...], vander_of: Callable[..., DArray],
                    name: str) -> DArray:
    """The Chebyshev series of degree ``deg`` interpolating ``func`` at the Chebyshev points of the first kind."""
    d = np.asarray(deg)
    if d.ndim > 0 or d.dtype.kind not in "iu" or d.size == 0:
        raise TypeError(f"{name}: deg must be an int")
    if d < 0:
        raise ValueError(f"{name}: expected deg >= 0")
    order = int(d) + 1
    xs = chebpts(order, 1, name)
    m = vander_of(xs, int(d))
    c = m.T @ as_darray(func(xs, *args), xs.place)
    scale = reshape(asarray([1.0 / order] + [2.0 / order] * (order - 1), device=xs.place), (-1,) + (1,) * (c.ndim - 1))
    return c * scale
