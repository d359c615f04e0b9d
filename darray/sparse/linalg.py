"""darray.sparse.linalg: the conjugate gradient method on darray.sparse's products.

Every step is a product (``A @ p``), two dot products and fused vector updates; alpha and
beta stay on the device as 0-d arrays, so the one value read back per iteration is the
residual norm that decides convergence.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import lazy
from .._array import DArray
from .._convert import asarray, astype
from ..ops import elementwise as E
from ..ops.creation import zeros_like
from ..ops.linalg import vecdot
from ._base import SparseMatrix, value_dtype

__all__ = ["cg"]


def _preconditioner(A: SparseMatrix, M: Any, dt: np.dtype) -> Callable[[DArray], DArray]:
    """``z = M(r)`` for M None (identity), "jacobi" (inverse diagonal of A), a sparse matrix,
    a 1-D array (elementwise) or a callable."""
    if M is None:
        return lambda r: r
    if isinstance(M, str):
        if M != "jacobi":
            raise ValueError(f"darray.sparse cg: M={M!r}; expected 'jacobi', a matrix, a vector or a callable")
        diag = A.diagonal()
        if bool((diag == 0).any()):
            raise ValueError("darray.sparse cg: the Jacobi preconditioner needs a diagonal without zeros")
        M = astype(1 / diag, dt, copy=False)
    if isinstance(M, SparseMatrix):
        return lambda r: M @ r
    if isinstance(M, DArray):
        return lambda r: M * r
    if callable(M):
        return M
    raise TypeError(f"darray.sparse cg: M must be None, 'jacobi', a matrix, a vector or a callable, got {type(M)}")


def cg(A: SparseMatrix, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,
       M: Any = None, rtol: float | None = None) -> tuple[DArray, int]:
    """Solve ``A x = b`` for a Hermitian positive definite sparse ``A`` by conjugate gradients.

    Stops when ``||b - A x|| <= max(tol * ||b||, atol)`` (``rtol``, scipy's name, is ``tol``) or
    after ``maxiter`` iterations (default ``10 * N``). ``M``: a preconditioner approximating
    ``inv(A)``: ``"jacobi"`` (the inverse of A's diagonal), a sparse matrix, a 1-D array
    applied elementwise, or a callable. Returns ``(x, info)``: info 0 when converged, else the
    iterations done. See also: scipy.sparse.linalg.cg.
    """
    if not isinstance(A, SparseMatrix) or A.shape[0] != A.shape[1]:
        raise ValueError(f"darray.sparse cg: A must be a square sparse matrix, got {getattr(A, 'shape', type(A))}")
    if rtol is not None:
        if tol != 1e-5 and tol != rtol:
            raise ValueError(f"darray.sparse cg: give tol or rtol (the same tolerance), not both ({tol}, {rtol})")
        tol = rtol
    A = A.tocsr()
    n = A.shape[0]
    b = b if isinstance(b, DArray) else asarray(b, device=A.place)
    if b.shape != (n,):
        raise ValueError(f"darray.sparse cg: b has shape {b.shape}, A is {n}x{n}")
    dt = value_dtype(_dt.result_type(A.dtype, b.dtype), A.place, "cg")
    A, b = A if A.dtype == dt else A.astype(dt), astype(b, dt, copy=False)
    precond = _preconditioner(A, M, dt)
    if x0 is None:
        x, r = zeros_like(b), b  # (b * 0 would start from NaN where b holds inf)
    else:
        x = astype(x0 if isinstance(x0, DArray) else asarray(x0, device=A.place), dt, copy=True)
        r = b - A @ x
    limit = max(tol * _norm(b), atol)
    z = precond(r)
    p, rz = z, vecdot(r, z)
    iterations = 10 * n if maxiter is None else maxiter
    for _ in range(iterations):
        if (float(E.sqrt(E.real(rz))) if M is None else _norm(r)) <= limit:  # without M, rz is r.r
            return x, 0
        q = A @ p
        alpha = rz / vecdot(p, q)
        x, r = x + alpha * p, r - alpha * q
        lazy.evaluate(x, r)  # one kernel; x's graph would otherwise grow every iteration
        z = precond(r)
        rz, rz_old = vecdot(r, z), rz
        p = z + (rz / rz_old) * p
    return x, 0 if _norm(r) <= limit else iterations


def _norm(v: DArray) -> float:
    """The 2-norm of ``v``, read back."""
    return float(E.sqrt(E.real(vecdot(v, v))))
