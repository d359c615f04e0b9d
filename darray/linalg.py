"""``darray.linalg``: the Array API linear-algebra extension (the functions darray implements).

matmul, tensordot, vecdot, matrix_transpose, outer (1-D inputs), diagonal (a view), trace,
vector_norm and matrix_norm. Everything runs on the array's place; matrix_norm's 2, -2 and
'nuc' orders compute singular values with NumPy on the host.
"""
from __future__ import annotations

from .ops.linalg import diagonal, matmul, matrix_norm, matrix_transpose, tensordot, trace, vecdot, vector_norm
from .ops.linalg import linalg_outer as outer

__all__ = ["matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "diagonal", "trace", "vector_norm",
           "matrix_norm"]
