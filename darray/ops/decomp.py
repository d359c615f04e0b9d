"""The decompositions and solvers of ``darray.linalg``: cholesky, det, eigh, eigvalsh, inv,
matrix_rank, pinv, qr, slogdet, solve, svd, svdvals (through NumPy's LAPACK on the host), and
cross and matrix_power (on the array's place).

Differs from NumPy: the LAPACK functions copy their input to the host and their results back
to the input's place (darray has no device LAPACK); integer input computes in the default
floating dtype of the place, as NumPy's in float64.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, TypeVar, cast

import numpy as np

from .._array import DArray
from .._typing import ArrayLike
from ..dim import broadcast_shapes, normalize_axis
from ..transfer.convert import from_numpy
from . import elementwise as E
from .linalg import _fmt, _inexact, _operands, matmul
from .manipulation import broadcast_to, moveaxis, stack

__all__ = ["cholesky", "cross", "det", "eigh", "eigvalsh", "inv", "matrix_power", "matrix_rank", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "EighResult", "QRResult", "SlogdetResult", "SVDResult"]


F = TypeVar("F", bound=Callable[..., Any])


class EighResult(NamedTuple):
    eigenvalues: DArray
    eigenvectors: DArray


class QRResult(NamedTuple):
    Q: DArray
    R: DArray


class SlogdetResult(NamedTuple):
    sign: DArray
    logabsdet: DArray


class SVDResult(NamedTuple):
    U: DArray
    S: DArray
    Vh: DArray


def _on_host(fn: F) -> F:
    """Marks a LAPACK function's docstring with how it differs from NumPy's."""
    fn.__doc__ = f"{fn.__doc__}\n\nDiffers from NumPy: computed by NumPy on the host (a copy each way)."
    return fn


def _lapack(name: str, fn: Callable[..., Any], *xs: ArrayLike, square: bool = True) -> Any:
    """``fn`` of the host copies of ``xs`` (stacks of matrices, floating), its array results
    copied back to the place of the arguments (a tuple stays a tuple); NumPy's LinAlgError (a
    ValueError) for a first argument that is not a stack of (``square``) matrices."""
    arrays = [_inexact(a) for a in _operands(name, xs)]
    x = arrays[0]
    if x.ndim < 2:
        raise np.linalg.LinAlgError(f"darray {name}: {x.ndim}-dimensional array given. Array must be at least "
                                    "two-dimensional")
    if square and x.shape[-1] != x.shape[-2]:
        raise np.linalg.LinAlgError(f"darray {name}: Last 2 dimensions of the array must be square, got shape "
                                    f"{_fmt(x.shape)}")
    try:
        res = fn(*[a.get() for a in arrays])
    except np.linalg.LinAlgError as err:
        raise np.linalg.LinAlgError(f"darray {name}: {err}") from None
    place = x.place
    if isinstance(res, tuple):
        return tuple(from_numpy(np.asarray(r), place) for r in res)
    return from_numpy(np.asarray(res), place)


@_on_host
def cholesky(a: ArrayLike, /, *, upper: bool = False) -> DArray:
    """Cholesky factor L (``x = L @ L^H``), or U (``x = U^H @ U``) with ``upper=True``.
    See also: numpy.linalg.cholesky."""
    return _lapack("cholesky", lambda m: np.linalg.cholesky(m, upper=upper), a)


@_on_host
def det(a: ArrayLike) -> DArray:
    """Determinant of each matrix. See also: numpy.linalg.det."""
    return _lapack("det", np.linalg.det, a)


def _uplo(name: str, uplo: Any) -> Literal["L", "U"]:
    """NumPy's ``UPLO`` (which triangle to read), checked first as NumPy does: upper-cased
    (AttributeError for a non-string, as NumPy's ``UPLO.upper()``), then 'L' or 'U' (ValueError)."""
    try:
        upper = uplo.upper()
    except AttributeError:
        raise AttributeError(f"darray {name}: UPLO must be 'L' or 'U', got {uplo!r}") from None
    if upper not in ("L", "U"):
        raise ValueError(f"darray {name}: UPLO argument must be 'L' or 'U', got {uplo!r}")
    return cast('Literal["L", "U"]', upper)


@_on_host
def eigh(a: ArrayLike, UPLO: str = "L") -> EighResult:  # noqa: N803  (NumPy's name)
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, from the lower (``UPLO='L'``)
    or upper ('U') triangle; lowercase accepted, as NumPy. See also: numpy.linalg.eigh."""
    uplo = _uplo("eigh", UPLO)
    return EighResult(*_lapack("eigh", lambda m: tuple(np.linalg.eigh(m, uplo)), a))


@_on_host
def eigvalsh(a: ArrayLike, UPLO: str = "L") -> DArray:  # noqa: N803  (NumPy's name)
    """Eigenvalues (ascending) of Hermitian matrices, from the triangle ``UPLO`` says (as :func:`eigh`).
    See also: numpy.linalg.eigvalsh."""
    uplo = _uplo("eigvalsh", UPLO)
    return _lapack("eigvalsh", lambda m: np.linalg.eigvalsh(m, uplo), a)


@_on_host
def inv(a: ArrayLike) -> DArray:
    """Inverse of each matrix (LinAlgError when singular). See also: numpy.linalg.inv."""
    return _lapack("inv", np.linalg.inv, a)


@_on_host
def matrix_rank(A: ArrayLike, tol: Any = None, hermitian: bool = False, *,  # noqa: N803  (NumPy's name)
                rtol: float | ArrayLike | None = None) -> DArray:
    """Number of singular values above ``tol``, or ``rtol * largest`` (default ``max(M, N) * eps``);
    ``hermitian``: from eigenvalues. See also: numpy.linalg.matrix_rank."""
    rt: Any = rtol.get() if isinstance(rtol, DArray) else rtol  # as given: NumPy checks it
    return _lapack("matrix_rank", lambda m: np.linalg.matrix_rank(m, tol, hermitian, rtol=rt), A, square=False)


@_on_host
def pinv(a: ArrayLike, rcond: Any = None, hermitian: bool = False, *,
         rtol: float | ArrayLike | None = None) -> DArray:
    """Moore-Penrose pseudo-inverse (``rcond``: NumPy's older name for ``rtol``). See also: numpy.linalg.pinv."""
    rt: Any = rtol.get() if isinstance(rtol, DArray) else rtol  # as given: NumPy checks it
    given = {} if rt is None else {"rtol": rt}
    return _lapack("pinv", lambda m: np.linalg.pinv(m, rcond, hermitian, **given), a, square=False)


@_on_host
def qr(a: ArrayLike, mode: str = "reduced") -> QRResult:
    """QR factorisation, ``mode`` 'reduced' or 'complete'. See also: numpy.linalg.qr."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"darray qr: mode must be 'reduced' or 'complete', got {mode!r}")
    how = cast('Literal["reduced", "complete"]', mode)  # checked above
    return QRResult(*_lapack("qr", lambda m: tuple(np.linalg.qr(m, mode=how)), a, square=False))


@_on_host
def slogdet(a: ArrayLike) -> SlogdetResult:
    """Sign and natural log of the absolute determinant. See also: numpy.linalg.slogdet."""
    return SlogdetResult(*_lapack("slogdet", lambda m: tuple(np.linalg.slogdet(m)), a))


@_on_host
def solve(a: ArrayLike, b: ArrayLike) -> DArray:
    """The solution of ``x1 @ out = x2`` (x2 1-D: one vector). See also: numpy.linalg.solve."""
    return _lapack("solve", np.linalg.solve, a, b)


@_on_host
def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> Any:
    """Singular value decomposition ``a = U @ diag(S) @ Vh`` (``compute_uv=False``: S only).
    See also: numpy.linalg.svd."""
    if not compute_uv:
        return _lapack("svd", lambda m: np.linalg.svd(m, compute_uv=False, hermitian=hermitian), a, square=False)
    return SVDResult(*_lapack("svd", lambda m: tuple(np.linalg.svd(m, full_matrices, hermitian=hermitian)), a,
                              square=False))


@_on_host
def svdvals(x: ArrayLike, /) -> DArray:
    """Singular values, descending. See also: numpy.linalg.svdvals."""
    return _lapack("svdvals", np.linalg.svdvals, x, square=False)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> DArray:
    """Cross product of the 3-element vectors along ``axis`` of each operand, on the array's place;
    the other axes broadcast (``(0, 3)`` with ``(3,)`` gives ``(0, 3)``). ``axis`` counts in each
    operand and in the result on its own, as NumPy does for a non-negative one. See also:
    numpy.linalg.cross."""
    a, b = _operands("cross", (x1, x2))
    ax_a, ax_b = normalize_axis(axis, a.ndim, "darray cross"), normalize_axis(axis, b.ndim, "darray cross")
    if a.shape[ax_a] != 3 or b.shape[ax_b] != 3:
        raise ValueError(f"darray cross: axis {axis} must have size 3 in both arrays, got shapes {_fmt(a.shape)} "
                         f"and {_fmt(b.shape)}")
    a, b = moveaxis(a, ax_a, -1), moveaxis(b, ax_b, -1)
    try:
        broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError as err:
        raise ValueError(f"darray cross: {err}") from None
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))

    def term(p: DArray, q: DArray, r: DArray, s: DArray) -> DArray:
        return E.apply("subtract", E.apply("multiply", p, q), E.apply("multiply", r, s))

    out = stack([term(a1, b2, a2, b1), term(a2, b0, a0, b2), term(a0, b1, a1, b0)], axis=-1)
    return moveaxis(out, -1, normalize_axis(axis, out.ndim, "darray cross"))


def matrix_power(a: ArrayLike, n: int) -> DArray:
    """``x`` to the integer power ``n`` by repeated squaring with ``matmul`` on the array's place
    (a negative ``n`` inverts first, through ``inv``). See also: numpy.linalg.matrix_power."""
    (m,) = _operands("matrix_power", (a,))
    if m.ndim < 2:
        raise np.linalg.LinAlgError(f"darray matrix_power: {m.ndim}-dimensional array given. Array must be at "
                                    "least two-dimensional")
    if m.shape[-1] != m.shape[-2]:
        raise np.linalg.LinAlgError(f"darray matrix_power: Last 2 dimensions of the array must be square, got "
                                    f"shape {_fmt(m.shape)}")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"darray matrix_power: exponent must be an integer, got {n!r}") from None
    if n < 0:
        m, n = inv(m), -n
    result: DArray | None = None
    while True:
        if n & 1:
            result = m if result is None else matmul(result, m)
        n >>= 1
        if not n:
            break
        m = matmul(m, m)
    if result is None:
        from .creation import eye

        return E.apply("positive", broadcast_to(eye(m.shape[-1], dtype=m.dtype, device=m.place), m.shape))
    return result
