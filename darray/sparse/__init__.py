"""darray.sparse: COO and CSR matrices of DArrays, computed on the device.

``da.sparse.coo_matrix((data, (row, col)), shape=)``, ``da.sparse.csr_matrix((data, indices,
indptr), shape=)``, also from dense arrays and scipy.sparse matrices; conversions, products
(SpMV, SpMM, SpGEMM), sums and the scipy.sparse habits, with scipy's values and result
formats; :mod:`darray.sparse.linalg` has ``cg``. Where darray differs from scipy:

- values are float32, float64, complex64 or complex128 (integers become the default float);
- ``A * B`` of two matrices or a matrix and an array is a TypeError (use ``@`` or ``multiply``);
- ``csr.T`` is CSR (scipy: CSC); ``todense()`` and ``sum(axis=)`` give 2-D DArrays
  (scipy: numpy.matrix) and ``sum()`` a 0-d DArray;
- results of products, sums and differences keep explicit zeros (scipy drops them);
- ``A / scalar`` keeps float32 (scipy divides float32 matrices in float64);
- ``linalg.cg`` takes ``tol`` (scipy: ``rtol``) and ``M="jacobi"``.

On the ``cpu`` place the kernels' work runs through NumPy.
"""
from __future__ import annotations

from typing import Any

from ..place import PlaceLike
from . import linalg
from ._base import SparseMatrix
from .coo import coo_matrix
from .csr import csr_matrix

__all__ = ["SparseMatrix", "coo_matrix", "csr_matrix", "from_scipy", "issparse", "linalg"]


def issparse(x: Any) -> bool:
    """Whether ``x`` is a darray.sparse matrix."""
    return isinstance(x, SparseMatrix)


def from_scipy(matrix: Any, /, *, device: PlaceLike = None) -> SparseMatrix:
    """A darray matrix of a scipy.sparse one: CSR stays CSR, every other format becomes COO
    (checked like the constructors' arrays)."""
    return (csr_matrix if matrix.format == "csr" else coo_matrix)(matrix, device=device)
