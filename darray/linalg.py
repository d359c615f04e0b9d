"""``darray.linalg``: the Array API linear-algebra extension (the functions darray implements).

matmul, tensordot, vecdot, matrix_transpose, outer (1-D inputs), diagonal (a view), trace,
vector_norm, matrix_norm, cross and matrix_power run on the array's place; matrix_norm's 2, -2
and 'nuc' orders and the decompositions and solvers (cholesky, det, eigh, eigvalsh, inv,
matrix_rank, pinv, qr, slogdet, solve, svd, svdvals) run through NumPy's LAPACK on the host
(``darray.ops.decomp``); NumPy's norm, cond, eig, eigvals, lstsq, multi_dot, tensorinv and
tensorsolve come from ``darray.ops.linalg_np``.
"""
from __future__ import annotations

from typing import Any

from ._array import DArray
from ._exclusions import lookup as _lookup
from .ops.decomp import *  # noqa: F403
from .ops.decomp import __all__ as _decomp_all
from .ops.linalg import diagonal, matmul, matrix_norm, matrix_transpose, trace, vecdot, vector_norm
from .ops.linalg import linalg_outer as outer
from .ops.linalg import tensordot as _tensordot
from .ops.linalg_np import *  # noqa: F403
from .ops.linalg_np import __all__ as _linalg_np_all


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> DArray:
    """Sum products over ``axes`` (the Array API's signature of :func:`darray.tensordot`).
    See also: numpy.linalg.tensordot."""
    return _tensordot(x1, x2, axes)


__all__ = ["matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "diagonal", "trace", "vector_norm",
           "matrix_norm", *_decomp_all, *_linalg_np_all]


__getattr__ = _lookup("linalg")  # absent NumPy names say why (darray._exclusions)
