"""Coefficient algebra of any basis, derived from its recurrence (``_basis.Basis``).

These work on host coefficient vectors (NumPy arrays: a series of degree n has n + 1 numbers) and are
called through ``_bind`` with DArrays in and out. Differs from NumPy: every result is computed in double
precision (complex128 for complex input) and cast to NumPy's result dtype, so float32 results can differ
from NumPy's in the last bit. The derivative and integral matrices are derived exactly (``Fraction``) from
the recurrence once per basis and size.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ._basis import Basis

_INTEGER = "?bBhHiIlLqQpP"  # NumPy's integer and bool type codes: such coefficients become float64


def as_int(value: Any, what: str, name: str) -> int:
    """``value`` as a Python int (``operator.index``), else NumPy's TypeError naming ``name`` and ``what``."""
    try:
        return operator.index(value)
    except TypeError as e:
        raise TypeError(f"{name}: {what} must be an integer, received {value}") from e


def trimseq(seq: np.ndarray) -> np.ndarray:
    """``seq`` without its trailing zeros, at least one element kept."""
    nz = np.flatnonzero(seq)
    return seq[:max(int(nz[-1]) + 1 if nz.size else 1, 1)] if len(seq) else seq


def as_series(alist: Sequence[Any], trim: bool = True, name: str = "as_series") -> list[np.ndarray]:
    """1-D float (or complex) copies of the coefficient vectors, of their common type (``numpy.common_type``),
    trailing zeros trimmed when ``trim``."""
    arrays = [np.array(a, ndmin=1) for a in alist]
    if any(a.size == 0 for a in arrays):
        raise ValueError(f"{name}: Coefficient array is empty")
    if any(a.ndim != 1 for a in arrays):
        raise ValueError(f"{name}: Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = np.common_type(*arrays)
    except TypeError as e:
        raise ValueError(f"{name}: Coefficient arrays have no common type") from e
    return [np.array(a, dtype=dtype) for a in arrays]


def floated(c: Any) -> np.ndarray:
    """``c`` as an array of at least one dimension, integers and bools as float64 (NumPy's rule for der, int, val)."""
    c = np.array(c, ndmin=1)
    return c.astype(np.float64) if c.dtype.char in _INTEGER else c


def _wide(dtype: np.dtype) -> np.dtype:
    return np.result_type(dtype, np.float64)


def _frac_mulx(b: Basis, c: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(c) + 1)
    for k, ck in enumerate(c):
        if ck:
            up, mid, down = b.x_terms(k)
            out[k + 1] += ck * up
            out[k] += ck * mid
            if k:
                out[k - 1] += ck * down
    return out


@lru_cache(maxsize=64)
def _derivative_exact(b: Basis, n: int) -> tuple[tuple[Fraction, ...], ...]:
    """Columns k < n: the coefficients (length n) of P[k]' in the basis, from differentiating the recurrence:
    delta P[k+1]' = alpha P[k] + (alpha x + beta) P[k]' - gamma P[k-1]'."""
    cols = [[Fraction(0)] * n]
    for k in range(n - 1):
        alpha, beta, gamma, delta = b.step(k)
        xd = _frac_mulx(b, cols[k])
        prev = cols[k - 1] if k else [Fraction(0)] * n
        col = [(alpha * (xd[j] + (j == k)) + beta * cols[k][j] - gamma * prev[j]) / delta for j in range(n)]
        cols.append(col)
    return tuple(tuple(c) for c in cols)


@lru_cache(maxsize=64)
def derivative_matrix(b: Basis, n: int) -> np.ndarray:
    """D (n x n): ``D @ c`` is the derivative of the series ``c`` (the last row is zero)."""
    return np.array(_derivative_exact(b, n), dtype=np.float64).T


@lru_cache(maxsize=64)
def integral_matrix(b: Basis, n: int) -> np.ndarray:
    """Q ((n + 1) x n): ``Q @ c`` is an antiderivative of ``c`` with no P[0] term (the inverse of D's
    upper-triangular block P[1..n] -> P[0..n-1], by exact back substitution)."""
    d = _derivative_exact(b, n + 1)  # d[k][j]: P[j] coefficient of P[k]'
    q = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for k in range(n):  # solve sum_i q_i P[i]' = P[k], q_i for i = k+1 down to 1
        rhs = [Fraction(int(j == k)) for j in range(n)]
        for i in range(k + 1, 0, -1):
            q[k][i] = rhs[i - 1] / d[i][i - 1]
            for j in range(i - 1):
                rhs[j] -= q[k][i] * d[i][j]
    return np.array(q, dtype=np.float64).T


def _times_x(b: Basis, c: np.ndarray) -> np.ndarray:
    """x times the series ``c`` (len(c) + 1 coefficients, in double precision, nothing trimmed)."""
    out = np.zeros(len(c) + 1, dtype=_wide(c.dtype))
    for k, ck in enumerate(c):
        up, mid, down = b.x_terms(k)
        out[k + 1] += ck * float(up)
        if mid:
            out[k] += ck * float(mid)
        if k and down:
            out[k - 1] += ck * float(down)
    return out


def mulx(b: Basis, c: Any, name: str) -> np.ndarray:
    """The series times x."""
    [c] = as_series([c], name=name)
    return c if len(c) == 1 and c[0] == 0 else _times_x(b, c).astype(c.dtype)


def _products(b: Basis, c: np.ndarray, m: int) -> list[np.ndarray]:
    """[P[0] c, P[1] c, ..., P[m-1] c] (P[k] c has len(c) + k coefficients), by the recurrence."""
    out = [c]
    for k in range(m - 1):
        alpha, beta, gamma, delta = b.step(k)
        nxt = _times_x(b, out[k]) * float(alpha) if alpha != 1 else _times_x(b, out[k])
        if beta:
            nxt[:-1] += out[k] * float(beta)
        if gamma and k:
            nxt[:-2] -= out[k - 1] * float(gamma)
        out.append(nxt / float(delta) if delta != 1 else nxt)
    return out


def add(c1: Any, c2: Any, name: str, sign: int = 1) -> np.ndarray:
    """The sum (``sign`` -1: the difference) of two series, trailing zeros trimmed."""
    c1, c2 = as_series([c1, c2], name=name)
    out = np.zeros(max(len(c1), len(c2)), dtype=c1.dtype)
    out[:len(c1)] = c1
    out[:len(c2)] += c2 if sign > 0 else -c2
    return trimseq(out)


def mul(b: Basis, c1: Any, c2: Any, name: str) -> np.ndarray:
    """The product of two series: sum over k of c2[k] (P[k] c1)."""
    c1, c2 = as_series([c1, c2], name=name)
    wide = _wide(c1.dtype)
    out = np.zeros(len(c1) + len(c2) - 1, dtype=wide)
    for ck, pc in zip(c2, _products(b, c1.astype(wide), len(c2)), strict=True):
        if ck:
            out[:len(pc)] += ck * pc
    return trimseq(out.astype(_widened(b, c1.dtype, min(len(c1), len(c2)) == 1)))


def _widened(b: Basis, dtype: np.dtype, when: bool) -> np.dtype:
    """``dtype``, in double precision where NumPy's algorithm for the basis widens it (``Basis.widens``)."""
    return np.result_type(dtype, np.float64) if b.widens and when else dtype


def div(b: Basis, c1: Any, c2: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(quotient, remainder) of series division, by long division against P[i] c2."""
    c1, c2 = as_series([c1, c2], name=name)
    if c2[-1] == 0:
        raise ZeroDivisionError(f"{name}: division by the zero series")
    n1, n2 = len(c1), len(c2)
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    wide = _wide(c1.dtype)
    rem, quo = c1.astype(wide), np.empty(n1 - n2 + 1, dtype=wide)
    products = _products(b, c2.astype(wide), n1 - n2 + 1)
    for i in range(n1 - n2, -1, -1):
        q = rem[-1] / products[i][-1]
        rem = rem[:-1] - q * products[i][:-1]
        quo[i] = q
    return quo.astype(c1.dtype), trimseq(rem.astype(_widened(b, c1.dtype, True)))


def power(b: Basis, c: Any, pow: Any, maxpower: int | None, name: str) -> np.ndarray:  # noqa: A002
    """The series to a non-negative integer power, by repeated multiplication."""
    [c] = as_series([c], name=name)
    n = int(pow)
    if n != pow or n < 0:
        raise ValueError(f"{name}: Power must be a non-negative integer.")
    if maxpower is not None and n > maxpower:
        raise ValueError(f"{name}: Power is too large")
    if n < 2:
        return c if n else np.ones(1, dtype=c.dtype)
    out = c
    for _ in range(n - 1):
        out = mul(b, out, c, name)
    return out


def _axis_first(c: np.ndarray, axis: Any, name: str) -> tuple[np.ndarray, int]:
    iaxis = as_int(axis, "the axis", name)
    return np.moveaxis(c, np.lib.array_utils.normalize_axis_index(iaxis, c.ndim), 0), iaxis % c.ndim


def der(b: Basis, c: Any, m: Any, scl: Any, axis: Any, name: str) -> np.ndarray:
    """The ``m``-th derivative along ``axis``, each differentiation multiplied by ``scl``."""
    c = floated(c)
    cnt = as_int(m, "the order of derivation", name)
    if cnt < 0:
        raise ValueError(f"{name}: The order of derivation must be non-negative")
    moved, iaxis = _axis_first(c, axis, name)
    if cnt == 0:
        return c
    n = len(moved)
    if cnt >= n:
        return np.moveaxis(moved[:1] * 0, 0, iaxis)
    d = derivative_matrix(b, n)
    flat = moved.reshape(n, -1).astype(_wide(c.dtype))
    for _ in range(cnt):
        flat = (d[:len(flat) - 1, :len(flat)] @ flat) * scl
    return np.moveaxis(flat.astype(c.dtype).reshape((n - cnt, *moved.shape[1:])), 0, iaxis)


def integ(b: Basis, c: Any, m: Any, k: Any, lbnd: Any, scl: Any, axis: Any, name: str) -> np.ndarray:
    """The ``m``-th antiderivative along ``axis``: each step multiplies by ``scl``, integrates and adds the
    constant that makes its value at ``lbnd`` the next of ``k`` (default 0)."""
    c = floated(c)
    ks = list(k) if np.iterable(k) else [k]
    cnt = as_int(m, "the order of integration", name)
    if cnt < 0:
        raise ValueError(f"{name}: The order of integration must be non-negative")
    if len(ks) > cnt:
        raise ValueError(f"{name}: Too many integration constants")
    if np.ndim(lbnd) != 0:
        raise ValueError(f"{name}: lbnd must be a scalar.")
    if np.ndim(scl) != 0:
        raise ValueError(f"{name}: scl must be a scalar.")
    moved, iaxis = _axis_first(c, axis, name)
    if cnt == 0:
        return c
    rest, dtype = moved.shape[1:], c.dtype
    flat = moved.reshape(len(moved), -1).astype(_wide(dtype))
    for kc in ks + [0] * (cnt - len(ks)):
        flat = flat * scl
        if len(flat) == 1 and np.all(flat[0] == 0):
            flat[0] += kc
            continue
        flat = integral_matrix(b, len(flat)) @ flat
        flat[0] += kc - clenshaw(b, list(flat), lbnd)
    return np.moveaxis(flat.astype(dtype).reshape((len(flat), *rest)), 0, iaxis)


def clenshaw(b: Basis, c: Sequence[Any], x: Any) -> Any:
    """sum c[k] P[k](x) by Clenshaw's recurrence (Horner's rule for the power basis), with Python operators:
    ``c[k]`` and ``x`` may be numbers, NumPy arrays, DArrays or series objects. The first step is
    ``c[n] + x * 0`` (x's shape and NaNs, as NumPy's). Terms with a zero factor are left out (no 0 * inf)."""
    b1: Any = c[-1] + x * 0
    b2: Any = 0
    for k in range(len(c) - 2, -1, -1):
        alpha, beta, _, delta = b.step(k)
        term = b1 * x
        if alpha != delta:
            term = term * float(Fraction(alpha) / delta)
        if beta:
            term = term + b1 * float(Fraction(beta) / delta)
        gamma_next, delta_next = b.step(k + 1)[2], b.step(k + 1)[3]
        if gamma_next and k + 2 < len(c):
            term = term - b2 * float(Fraction(gamma_next) / delta_next)
        b1, b2 = c[k] + term, b1
    return b1


def line(b: Basis, off: Any, scl: Any) -> np.ndarray:
    """The series off + scl x (just ``[off]`` when scl is 0); integer input stays integer where the basis's x
    has integer coefficients, as NumPy's."""
    x0, x1 = (_frac_mulx(b, [Fraction(1)]) + [Fraction(0)])[:2]

    def times(v: Any, f: Fraction) -> Any:
        return v if f == 1 else -v if f == -1 else v * int(f) if f.denominator == 1 else v * f.numerator / f.denominator
    if scl == 0:
        return np.array([off])
    return np.array([off + times(scl, x0) if x0 else off, times(scl, x1)])


def companion(b: Basis, c: Any, name: str) -> np.ndarray:
    """The companion (comrade) matrix of ``c``: multiplication by x modulo the series, scaled by a diagonal
    similarity to be symmetric where the basis allows (as NumPy's), for a better conditioned eigenproblem."""
    [c] = as_series([c], name=name)
    n = len(c) - 1
    if n < 1:
        raise ValueError(f"{name}: Series must have maximum degree of at least 1.")
    terms = [b.x_terms(k) for k in range(n)]
    scale = [1.0]
    for k in range(n - 1):  # (s[k+1] / s[k])^2 = up_k / down_(k+1): symmetric when both are non-zero
        up, down = terms[k][0], terms[k + 1][2]
        scale.append(scale[-1] * (float(np.sqrt(float(up / down))) if down and up / down > 0 else 1.0))
    s = np.array(scale)
    mat = np.zeros((n, n), dtype=_wide(c.dtype))
    for k, (up, mid, down) in enumerate(terms):
        mat[k, k] = float(mid)
        if k + 1 < n:
            mat[k + 1, k] = float(up) * s[k] / s[k + 1]
        if k:
            mat[k - 1, k] = float(down) * s[k] / s[k - 1]
    mat[:, -1] -= (c[:-1] / c[-1]) * (s[-1] / s) * float(terms[-1][0])
    return mat.astype(c.dtype)


def roots(b: Basis, c: Any, name: str) -> np.ndarray:
    """The roots: the eigenvalues of the companion matrix (NumPy's ``linalg.eigvals`` on the host), sorted."""
    [c] = as_series([c], name=name)
    if len(c) < 2:
        return np.array([], dtype=c.dtype)
    m = companion(b, c, name)
    if len(c) == 2:
        return m[0]
    r = np.linalg.eigvals(m[::-1, ::-1])
    r.sort()
    return r


def fromroots(b: Basis, r: Any, name: str) -> np.ndarray:
    """The monic-in-x series with the given roots: the product of the lines x - r[i], roots sorted."""
    if len(r) == 0:
        return np.ones(1)
    [r] = as_series([r], trim=False, name=name)
    r.sort()
    factors = [line(b, -root, 1).astype(r.dtype) for root in r]
    while len(factors) > 1:  # pairwise: the products stay balanced in degree
        paired = [mul(b, factors[i], factors[i + 1], name) for i in range(0, len(factors) - 1, 2)]
        factors = paired + factors[len(paired) * 2:]
    return factors[0].astype(_wide(r.dtype))  # NumPy's: double precision whatever the roots' precision


@lru_cache(maxsize=64)
def _power_rows(b: Basis, n: int) -> np.ndarray:
    """T (n x n): row k holds the power-series coefficients of P[k]."""
    rows = [[Fraction(1)] + [Fraction(0)] * (n - 1)]
    for k in range(n - 1):
        alpha, beta, gamma, delta = b.step(k)
        prev = rows[k - 1] if k else [Fraction(0)] * n
        rows.append([(alpha * (rows[k][j - 1] if j else 0) + beta * rows[k][j] - gamma * prev[j]) / delta
                     for j in range(n)])
    return np.array(rows, dtype=np.float64)


def to_power(b: Basis, c: Any, name: str) -> np.ndarray:
    """The same polynomial in the power basis."""
    [c] = as_series([c], name=name)
    return (c.astype(_wide(c.dtype)) @ _power_rows(b, len(c))).astype(c.dtype)


def from_power(b: Basis, pol: Any, name: str) -> np.ndarray:
    """A power series in the basis (the inverse of :func:`to_power`: a triangular solve)."""
    [pol] = as_series([pol], name=name)
    return np.linalg.solve(_power_rows(b, len(pol)).T, pol.astype(_wide(pol.dtype)))  # double, as NumPy's
