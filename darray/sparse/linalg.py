"""darray.sparse.linalg: the conjugate gradient method on darray.sparse's products.

Every step is a product (``A @ p``), two dot products and fused vector updates; alpha and
beta stay on the device as 0-d arrays. The iterations run in blocks of ``STEPS`` as replays of
one ``da.jit`` program; an iteration past convergence leaves every value as it is, so the host
reads the iteration count once per block and the result is that of stopping exactly there.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import lazy
from .._array import DArray
from ..jit import jit
from ..ops import elementwise as E
from ..ops import ufunc as U
from ..ops.creation import zeros_like
from ..ops.linalg import vecdot
from ..place import CLPlace, runtime
from ..transfer.convert import asarray, astype
from ._base import SparseMatrix, value_dtype

__all__ = ["cg"]


STEPS = 8  # iterations per replay of the jitted block, between reads of the iteration count


def _preconditioner(A: SparseMatrix, M: Any, dt: np.dtype) -> tuple[str, Any]:
    """(kind, operand) of ``z = M(r)`` for M None (identity), "jacobi" (inverse diagonal of A), a
    sparse matrix, a 1-D array (elementwise) or a callable."""
    if M is None:
        return "none", None
    if isinstance(M, str):
        if M != "jacobi":
            raise ValueError(f"darray.sparse cg: M={M!r}; expected 'jacobi', a matrix, a vector or a callable")
        diag = A.diagonal()
        if bool((diag == 0).any()):
            raise ValueError("darray.sparse cg: the Jacobi preconditioner needs a diagonal without zeros")
        M = astype(1 / diag, dt, copy=False)
    if isinstance(M, SparseMatrix):
        return "sparse", M
    if isinstance(M, DArray):
        return "array", M
    if callable(M):
        return "call", M
    raise TypeError(f"darray.sparse cg: M must be None, 'jacobi', a matrix, a vector or a callable, got {type(M)}")


def _apply(kind: str, M: Any, r: DArray) -> DArray:
    return r if kind == "none" else M @ r if kind == "sparse" else M * r if kind == "array" else M(r)


def _iterations(A: SparseMatrix, M: Any, x: DArray, r: DArray, p: DArray, rz: DArray, limit: DArray, count: DArray,
                stop: DArray, *, kind: str, steps: int) -> tuple[DArray, ...]:
    """``steps`` CG iterations. Each runs only while the residual norm is above ``limit`` and
    ``count`` below ``stop``, else leaves every value as it is (``where``), so the values and the
    count are those of a loop that stops there."""
    for _ in range(steps):
        norm = U.sqrt(E.real(rz if kind == "none" else vecdot(r, r)))  # without M, rz is r.r
        go = U.logical_and(norm > limit, count < stop)
        q = A @ p
        alpha = rz / vecdot(p, q)
        x, r = E.where(go, x + alpha * p, x), E.where(go, r - alpha * q, r)
        lazy.evaluate(x, r)  # one kernel; x's graph would otherwise grow every iteration
        z = _apply(kind, M, r)
        rz_new = vecdot(r, z)
        p, rz, count = E.where(go, z + (rz_new / rz) * p, p), E.where(go, rz_new, rz), count + go
        lazy.evaluate(rz, count)  # one small kernel: the 0-d state's graphs would otherwise grow
    return x, r, p, rz, count


_block = jit(_iterations, static_argnames=("kind", "steps"))


def cg(A: SparseMatrix, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,
       M: Any = None, rtol: float | None = None) -> tuple[DArray, int]:
    """Solve ``A x = b`` for a Hermitian positive definite sparse ``A`` by conjugate gradients.

    Stops when ``||b - A x|| <= max(tol * ||b||, atol)`` (``rtol``, scipy's name, is ``tol``) or
    after ``maxiter`` iterations (default ``10 * N``). ``M``: a preconditioner approximating
    ``inv(A)``: ``"jacobi"`` (the inverse of A's diagonal), a sparse matrix, a 1-D array
    applied elementwise, or a callable. Returns ``(x, info)``: info 0 when converged, else the
    iterations done. See also: scipy.sparse.linalg.cg.

    The iterations run as replays of a ``da.jit`` program of several iterations (a callable
    ``M`` runs them unjitted); the host reads the iteration count once per replay.
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
    kind, Mop = _preconditioner(A, M, dt)
    if x0 is None:
        x, r = zeros_like(b), b  # (b * 0 would start from NaN where b holds inf)
    else:
        x = astype(x0 if isinstance(x0, DArray) else asarray(x0, device=A.place), dt, copy=True)
        r = b - A @ x
    limit = max(tol * _norm(b), atol)
    z = _apply(kind, Mop, r)
    p, rz = z, vecdot(r, z)
    iterations = 10 * n if maxiter is None else maxiter
    run = _block.fn if kind == "call" else _block
    fdt = _dt.float64 if not isinstance(A.place, CLPlace) or runtime(A.place).info.fp64 else _dt.real_dtype(dt)
    bound, count = asarray(limit, dtype=fdt, device=A.place), asarray(0, dtype=_dt.int64, device=A.place)
    stop = asarray(iterations, dtype=_dt.int64, device=A.place)
    done = 0
    while done < iterations:
        x, r, p, rz, count = run(A, Mop, x, r, p, rz, bound, count, stop, kind=kind, steps=STEPS)
        now = int(count)
        if now < done + STEPS:
            return x, 0 if now < iterations or _norm(r) <= limit else iterations
        done = now
    return x, 0 if _norm(r) <= limit else iterations


def _norm(v: DArray) -> float:
    """The 2-norm of ``v``, read back."""
    return float(U.sqrt(E.real(vecdot(v, v))))
