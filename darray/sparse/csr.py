"""CSR matrices: ``csr_matrix``, its products and the arithmetic between matrices.

``A @ x`` and ``A @ X`` are one product kernel (``_ops.matvec``); ``A @ B`` expands every
product a_ik * b_kj on the device (``spgemm_expand``) and compresses the triplets
(``coo.compress``: sort, sum duplicates); ``A + B`` compresses the two matrices' triplets
together; ``A.multiply(B)`` sorts both canonical matrices' keys together and keeps the
products of the keys found twice. Results keep explicit zeros (scipy drops those that
products and sums make), so ``nnz`` may differ from scipy's while the values agree.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..jit import register
from ..ops import reduction as R
from ..ops.indexing import nonzero
from ..ops.manipulation import broadcast_to, concat
from ..place import Place, PlaceLike
from ..transfer.convert import asarray, astype
from . import _ops
from ._base import FORMATS, SparseMatrix, check_range, check_shape, index_dtype, operands, value_dtype
from .coo import compress, coo_matrix, sort_triplets

__all__ = ["csr_matrix"]


def _pair(a: csr_matrix | coo_matrix, b: csr_matrix | coo_matrix, op: str) -> tuple[np.dtype, np.dtype]:
    """(value dtype, index dtype) two matrices compute in; ValueError when their places differ."""
    if a.place != b.place:
        raise ValueError(f"darray.sparse {op}: the matrices are on {a.place} and {b.place}; use .to()")
    dt = value_dtype(_dt.result_type(a.dtype, b.dtype), a.place, op)
    wide = _dt.int64 in ((m.indices if isinstance(m, csr_matrix) else m.row).dtype for m in (a, b))
    return dt, _dt.int64 if wide else _dt.int32


def _joined(a: Any, b: Any, op: str, sign: int = 1) -> tuple[DArray, DArray, DArray]:
    """(rows, cols, values): the triplets of COO matrices a and ``sign`` * b, one after the
    other, in the dtypes they compute in."""
    dt, idx = _pair(a, b, op)
    return (concat([a.row.astype(idx), b.row.astype(idx)]), concat([a.col.astype(idx), b.col.astype(idx)]),
            concat([astype(a.data, dt, copy=False), astype(b.data if sign > 0 else -b.data, dt, copy=False)]))


class csr_matrix(SparseMatrix):
    """Compressed sparse rows. See also: scipy.sparse.csr_matrix.

    ``csr_matrix((data, indices, indptr), shape=(M, N))``, ``csr_matrix((data, (row, col)))``,
    ``csr_matrix(dense)``, ``csr_matrix(sparse)`` (darray or scipy), ``csr_matrix((M, N))``;
    ``dtype=``, ``device=``. ``indptr`` and the indices are checked on construction (ValueError
    naming the problem). Differs from scipy: ``.T`` is CSR (scipy: CSC).
    """

    format = "csr"
    indices: DArray
    indptr: DArray
    has_sorted_indices: bool
    _stats: tuple[float, int] | None  # _ops.row_stats, computed on the first product

    @classmethod
    def _from_tuple(cls, arg: tuple, shape: Any, device: PlaceLike, op: str) -> SparseMatrix:
        if len(arg) == 3:
            return cls._arrays(*arg, shape, device, op)
        return FORMATS["coo"](arg, shape=shape, device=device)

    @classmethod
    def trusted(cls, data: DArray, indices: DArray, indptr: DArray, shape: tuple[int, int],
                canonical: bool) -> csr_matrix:
        """A matrix of arrays known to be valid (no checks); ``canonical``: sorted, no duplicates."""
        out = cls.__new__(cls)
        out.data, out.indices, out.indptr, out._shape = data, indices, indptr, shape
        out.has_canonical_format = out.has_sorted_indices = canonical
        out._stats = None
        return out

    @classmethod
    def _arrays(cls, data: Any, indices: Any, indptr: Any, shape: Any, device: PlaceLike, op: str) -> csr_matrix:
        place, data, (indices, indptr) = operands(op, device, data, indices=indices, indptr=indptr)
        nnz = data.shape[0]
        if shape is None:
            if not nnz:
                raise ValueError(f"darray.sparse {op}: cannot infer the shape of an empty matrix; give shape=")
            shape = (indptr.shape[0] - 1, int(R.max(indices)) + 1)
        m, n = check_shape(shape, op)
        if indptr.shape[0] != m + 1:
            raise ValueError(f"darray.sparse {op}: indptr has {indptr.shape[0]} entries, want {m + 1} (rows + 1)")
        ends = indptr[::max(m, 1)].get()
        if ends[0] != 0 or ends[-1] != nnz:
            raise ValueError(f"darray.sparse {op}: indptr must start at 0 and end at nnz={nnz}, got {ends[0]} and "
                             f"{ends[-1]}")
        if m > 1 and bool(R.any(indptr[1:] < indptr[:-1])):
            raise ValueError(f"darray.sparse {op}: indptr must not decrease (it is not monotone)")
        check_range(indices, n, "column", op)
        idx = index_dtype(m, n, nnz)
        data = astype(data, value_dtype(data.dtype, place, op), copy=False)
        return cls.trusted(data, indices.astype(idx, copy=False), indptr.astype(idx, copy=False), (m, n), False)

    def _with_data(self, data: DArray) -> csr_matrix:
        out = self.trusted(data, self.indices, self.indptr, self.shape, self.has_canonical_format)
        out._stats = self._stats
        return out

    def _to(self, place: Place) -> csr_matrix:
        return self.trusted(self.data.to(place), self.indices.to(place), self.indptr.to(place), self.shape,
                            self.has_canonical_format)

    def _row_stats(self) -> tuple[float, int]:
        if self._stats is None:
            self._stats = _ops.row_stats(self.indptr, self.nnz)
        return self._stats

    def tocsr(self, copy: bool = False) -> csr_matrix:
        return self.copy() if copy else self

    def tocoo(self, copy: bool = False) -> Any:
        """The COO matrix (rows expanded on the device; data and column indices shared)."""
        return FORMATS["coo"].trusted(self.data, _ops.row_index(self.indptr, self.nnz), self.indices, self.shape,
                                      self.has_canonical_format)

    def todense(self) -> DArray:
        return _ops.to_dense(self.indptr, self.indices, self.data, self.shape)

    def transpose(self) -> csr_matrix:
        """The transpose, in CSR (scipy gives CSC): sorted on the device."""
        return self.tocoo().transpose().tocsr()

    def canonical(self) -> csr_matrix:
        """This matrix, or an equal one with sorted indices and no duplicates."""
        return self if self.has_canonical_format else self.tocoo().tocsr()

    def sum_duplicates(self) -> None:
        """Sort the indices and sum duplicates, in place (as scipy)."""
        self.__dict__.update(self.canonical().__dict__)

    def sort_indices(self) -> None:
        """Sort the column indices of every row, in place, keeping duplicates (as scipy)."""
        if self.has_sorted_indices or self.nnz < 2:
            self.has_sorted_indices = True
            return
        _, self.indices, self.data = sort_triplets(_ops.row_index(self.indptr, self.nnz), self.indices, self.data,
                                                   self.shape)
        self.has_sorted_indices = True

    def row_sums(self) -> DArray:
        """The sum of every row (1-D)."""
        return _ops.matvec(self.indptr, self.indices, self.data, None, self._row_stats)

    def matmul(self, other: Any) -> Any:
        """``A @ other``: see :meth:`SparseMatrix.__matmul__`."""
        if isinstance(other, SparseMatrix):
            return self._spgemm(other.tocsr())
        x = other if isinstance(other, DArray) else asarray(other, device=self.place)
        if x.place != self.place:
            raise ValueError(f"darray.sparse matmul: the operand is on {x.place}, the matrix on {self.place}")
        if x.ndim not in (1, 2) or x.shape[0] != self.shape[1]:
            raise ValueError(f"darray.sparse matmul: dimension mismatch, {self.shape[0]}x{self.shape[1]} matrix "
                             f"@ operand of shape {x.shape}")
        dt = value_dtype(_dt.result_type(self.dtype, x.dtype), self.place, "matmul")
        x = astype(x, dt, copy=False) if x._dim.is_c_contiguous else astype(x, dt, copy=True)
        return _ops.matvec(self.indptr, self.indices, astype(self.data, dt, copy=False), x, self._row_stats)

    def _spgemm(self, b: csr_matrix) -> csr_matrix:
        if self.shape[1] != b.shape[0]:
            raise ValueError(f"darray.sparse matmul: dimension mismatch, {self.shape[0]}x{self.shape[1]} @ "
                             f"{b.shape[0]}x{b.shape[1]}")
        dt, idx = _pair(self, b, "matmul")
        a = self.tocoo()
        rows, cols, vals = _ops.expand_products(
            a.row.astype(idx, copy=False), a.col.astype(idx, copy=False), astype(a.data, dt, copy=False),
            b.indptr.astype(idx, copy=False), b.indices.astype(idx, copy=False), astype(b.data, dt, copy=False))
        return compress(rows, cols, vals, (self.shape[0], b.shape[1]))

    def _same_shape(self, other: Any, op: str) -> None:
        if tuple(other.shape) != self.shape:
            raise ValueError(f"darray.sparse {op}: shapes {self.shape} and {tuple(other.shape)} differ")

    def combine(self, other: Any, sign: int) -> Any:
        """``A + sign * other``: CSR for a sparse other, dense for a dense one (as scipy)."""
        op = "add" if sign > 0 else "subtract"
        if np.ndim(other) == 0 and not isinstance(other, DArray):
            raise NotImplementedError(f"darray.sparse {op}: adding a scalar to a sparse matrix is not supported")
        self._same_shape(other, op)
        if not isinstance(other, SparseMatrix):
            return self.todense() + other if sign > 0 else self.todense() - other
        return compress(*_joined(self.tocoo(), other.tocoo(), op, sign), self.shape)

    def elementwise(self, other: Any) -> Any:
        """Elementwise product with a matrix: CSR for sparse, COO for dense (broadcast), as scipy."""
        if not isinstance(other, SparseMatrix):
            x = other if isinstance(other, DArray) else asarray(other, device=self.place)
            coo = self.tocoo()
            try:
                x = broadcast_to(x, self.shape)
            except ValueError:
                raise ValueError(f"darray.sparse multiply: shape {x.shape} does not broadcast to "
                                 f"{self.shape}") from None
            return coo._with_data(coo.data * x[coo.row, coo.col]) if self.nnz else coo.astype(
                _dt.result_type(self.dtype, x.dtype))
        self._same_shape(other, "multiply")
        rows, cols, vals = _joined(self.canonical().tocoo(), other.tocsr().canonical().tocoo(), "multiply")
        if vals.shape[0] < 2:
            return csr_matrix(self.shape, device=self.place).astype(vals.dtype)
        rows, cols, vals = sort_triplets(rows, cols, vals, self.shape)
        both = (rows[1:] == rows[:-1]) & (cols[1:] == cols[:-1])  # canonical: each place at most twice
        k = nonzero(both)[0]  # one compaction for the three arrays
        return compress(rows[k], cols[k], vals[k] * vals[k + 1], self.shape)

    def to_scipy(self) -> Any:
        import scipy.sparse as sp

        return sp.csr_matrix((self.data.get(), self.indices.get(), self.indptr.get()), shape=self.shape)


FORMATS["csr"] = csr_matrix


def _flatten(m: csr_matrix) -> tuple[tuple[DArray, ...], Any]:
    return (m.data, m.indices, m.indptr), (m.shape, m.has_canonical_format, m._row_stats())


def _unflatten(aux: Any, arrays: tuple[DArray, ...]) -> csr_matrix:
    data, indices, indptr = arrays
    out = csr_matrix.trusted(data, indices, indptr, aux[0], aux[1])
    out._stats = aux[2]  # known before a trace: the products plan with them
    return out


register(csr_matrix, _flatten, _unflatten)  # da.jit takes and returns CSR matrices
