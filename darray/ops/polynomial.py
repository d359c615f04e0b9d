"""Polynomials in NumPy's power-series form (highest power first): poly, polyval, polyfit, roots,
polyder, polyint, polyadd, polysub, polymul, polydiv and the poly1d class.

polyval runs Horner's rule on the device (one fused kernel); polyadd/sub/mul/der/int are device
ops on the coefficients. Differs from NumPy: ``polyfit`` (least squares), ``roots`` (companion
eigenvalues), ``poly`` and ``polydiv`` compute on the host through NumPy (a copy each way).
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..place import parse
from ..transfer.convert import asarray, from_numpy, to_numpy
from . import elementwise as E
from .creation import arange, zeros
from .manipulation import concat, reshape
from .mathfuncs import convolve


def _coefficients(p: Any, place: Any = None) -> DArray:
    c = p.coeffs if isinstance(p, poly1d) else p
    c = c if isinstance(c, DArray) else asarray(c, device=place)
    if c.ndim == 0:
        c = reshape(c, (1,))
    return c


def _host(p: Any) -> np.ndarray:
    c = p.coeffs if isinstance(p, poly1d) else p
    return to_numpy(c) if isinstance(c, DArray) else np.asarray(c)


def _place(*xs: Any) -> Any:
    return next((x.place for x in xs if isinstance(x, DArray)),
                next((x.coeffs.place for x in xs if isinstance(x, poly1d)), None))


def _default() -> Any:
    return parse(None)


def polyval(p: Any, x: Any) -> DArray:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by Horner's rule.
    See also: numpy.polyval."""
    place = _place(p, x)
    if not isinstance(p, poly1d) and np.ndim(p) == 0:
        raise TypeError("darray polyval: iteration over a 0-d array (p must be a sequence of coefficients)")
    c = _coefficients(p, place)
    v = x if isinstance(x, DArray) else asarray(x, device=place)
    if isinstance(p, poly1d) and isinstance(x, poly1d):
        return polyval(p, x.coeffs)
    # NumPy: Horner's rule from zeros_like(x) (0 * inf is NaN), so no coefficients give zeros of x's dtype
    out: Any = zeros(v.shape, dtype=_dt.result_type(v.dtype, c.dtype) if c.size else v.dtype, device=v.place)
    for k in range(c.size):
        out = E.apply("add", E.apply("multiply", out, v), c[k])
    return out


def poly(seq_of_zeros: Any) -> DArray:
    """The coefficients of the monic polynomial with the given roots (of a square matrix: its
    characteristic polynomial). See also: numpy.poly."""
    place = _place(seq_of_zeros)
    return from_numpy(np.asarray(np.poly(_host(seq_of_zeros))), place or _default())  # no zeros: NumPy's 1.0


def roots(p: Any) -> DArray:
    """The roots of the polynomial (companion-matrix eigenvalues, on the host). See also: numpy.roots."""
    return from_numpy(np.roots(_host(p)), _place(p) or _default())


def polyfit(x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
            cov: Any = False) -> Any:
    """Least-squares polynomial fit of degree ``deg`` (NumPy's, on the host); the arrays it returns
    come back to the place of ``x``. See also: numpy.polyfit."""
    place = _place(x, y, w) or _default()
    got = np.polyfit(_host(x), _host(y), deg, rcond, cast(Any, full), None if w is None else _host(w), cov)
    if isinstance(got, tuple):
        return tuple(from_numpy(np.asarray(g), place) if isinstance(g, np.ndarray) else g for g in got)
    return from_numpy(got, place)


def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative's coefficients. See also: numpy.polyder."""
    if m < 0:
        raise ValueError("darray polyder: Order of derivative must be positive (see polyint)")
    c = _coefficients(p, _place(p))
    for _ in range(m):  # NumPy: a constant's derivative is empty (of the promoted dtype, as every step's)
        c = E.apply("multiply", c[:-1], arange(c.size - 1, 0, -1, device=c.place))
    return poly1d(c) if isinstance(p, poly1d) else c


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative's coefficients, with integration constants ``k``. See also: numpy.polyint."""
    if m < 0:
        raise ValueError("darray polyint: Order of integral must be positive (see polyder)")
    c = _coefficients(p, _place(p))
    ks = np.zeros(m) if k is None else np.atleast_1d(np.asarray(k, dtype=np.float64))
    if ks.size == 1 and m > 1:
        ks = np.full(m, ks[0])
    if ks.size < m:
        raise ValueError("darray polyint: k must be a scalar or a rank-1 array of length 1 or >m.")
    for step in range(m):
        n = c.size
        scaled = E.apply("divide", c, arange(n, 0, -1, device=c.place).astype(_dt.float64))
        c = concat([scaled, asarray([ks[step]], device=c.place).astype(scaled.dtype)])
    return poly1d(c) if isinstance(p, poly1d) else c


def _aligned(a: Any, b: Any) -> tuple[DArray, DArray]:
    place = _place(a, b)
    x, y = _coefficients(a, place), _coefficients(b, place)
    n = max(x.size, y.size)
    pad = [zeros(n - v.size, dtype=v.dtype, device=x.place) for v in (x, y)]
    return concat([pad[0], x]), concat([pad[1], y])


def _wrap(a: Any, b: Any, c: DArray) -> Any:
    return poly1d(c) if isinstance(a, poly1d) or isinstance(b, poly1d) else c


def polyadd(a1: Any, a2: Any) -> Any:
    """The coefficients of the sum. See also: numpy.polyadd."""
    x, y = _aligned(a1, a2)
    return _wrap(a1, a2, E.apply("add", x, y))


def polysub(a1: Any, a2: Any) -> Any:
    """The coefficients of the difference. See also: numpy.polysub."""
    x, y = _aligned(a1, a2)
    return _wrap(a1, a2, E.apply("subtract", x, y))


def polymul(a1: Any, a2: Any) -> Any:
    """The coefficients of the product (a convolution of the operands without their leading zeros, as
    NumPy's). See also: numpy.polymul."""
    place = _place(a1, a2)
    return _wrap(a1, a2, convolve(poly1d(_coefficients(a1, place)).coeffs, poly1d(_coefficients(a2, place)).coeffs))


def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """(quotient, remainder) of polynomial division (NumPy's, on the host). See also: numpy.polydiv."""
    place = _place(u, v) or _default()
    q, r = np.polydiv(_host(u), _host(v))
    q, r = from_numpy(q, place), from_numpy(r, place)
    return (poly1d(q), poly1d(r)) if isinstance(u, poly1d) or isinstance(v, poly1d) else (q, r)


class poly1d:  # noqa: N801  (NumPy's name)
    """A polynomial (NumPy's ``poly1d``): coefficients highest power first, as a DArray; calling it
    evaluates on the device; arithmetic with polynomials and scalars, ``deriv``, ``integ``,
    ``roots``, ``order``. See also: numpy.poly1d."""

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            c: Any = c_or_r.coeffs
        elif r:
            c = poly(c_or_r)
        else:
            c = _coefficients(c_or_r)
        host_nz = np.flatnonzero(_host(c) != 0) if c.size else np.array([], dtype=np.int64)
        if c.ndim != 1:
            raise ValueError("darray poly1d: Polynomial must be 1d only.")
        c = c[int(host_nz[0]):] if host_nz.size else zeros(1, dtype=c.dtype, device=c.place)
        self.coeffs: DArray = c
        self.variable = variable or "x"

    @property
    def order(self) -> int:
        return self.coeffs.size - 1

    o = order

    @property
    def coef(self) -> DArray:
        return self.coeffs

    c = coefficients = coef

    @property
    def roots(self) -> DArray:
        return roots(self)

    r = roots

    def __call__(self, val: Any) -> Any:
        return polyval(self, val)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        host = to_numpy(self.coeffs)
        return host if dtype is None else host.astype(dtype)

    def __len__(self) -> int:
        return self.order

    def __repr__(self) -> str:
        return f"darray.poly1d({to_numpy(self.coeffs).tolist()!r})"

    def __str__(self) -> str:
        return str(np.poly1d(to_numpy(self.coeffs), variable=self.variable))

    def __getitem__(self, power: int) -> Any:
        return self.coeffs[self.order - power] if 0 <= power <= self.order else 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, poly1d) and np.array_equal(_host(self), _host(other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> poly1d:
        return poly1d(E.apply("negative", self.coeffs))

    def __pos__(self) -> poly1d:
        return self

    def _other(self, other: Any) -> poly1d:
        """``other`` as a polynomial, on this one's place (a scalar or a list is, a DArray stays where it is)."""
        return other if isinstance(other, poly1d) else poly1d(_coefficients(other, self.coeffs.place))

    def __add__(self, other: Any) -> poly1d:
        return polyadd(self, self._other(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> poly1d:
        return polysub(self, self._other(other))

    def __rsub__(self, other: Any) -> poly1d:
        return polysub(self._other(other), self)

    def __mul__(self, other: Any) -> poly1d:
        if np.ndim(other) == 0 and not isinstance(other, (poly1d, DArray)):
            return poly1d(E.apply("multiply", self.coeffs, other))
        return polymul(self, other)

    __rmul__ = __mul__

    def __pow__(self, n: int) -> poly1d:
        if not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError("darray poly1d: Power to non-negative integers only.")
        out = self._other([1])
        for _ in range(int(n)):
            out = out * self
        return out

    def __truediv__(self, other: Any) -> Any:
        if np.ndim(other) == 0 and not isinstance(other, (poly1d, DArray)):
            return poly1d(E.apply("divide", self.coeffs, other))
        return polydiv(self, other)

    def deriv(self, m: int = 1) -> poly1d:
        return poly1d(polyder(self.coeffs, m))

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        return poly1d(polyint(self.coeffs, m, k))


__all__ = ["poly", "polyval", "polyfit", "roots", "polyder", "polyint", "polyadd", "polysub", "polymul", "polydiv",
           "poly1d"]
