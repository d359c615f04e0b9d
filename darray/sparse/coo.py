"""COO matrices: ``coo_matrix`` and the COO -> CSR conversion every CSR result goes through.

:func:`compress` sorts the triplets by (row, column) with darray's stable radix sort of one
combined key (:func:`sort_triplets`; skipped when the keys already ascend), flags the entries
that start a new (row, column), compacts the flags' positions (``nonzero``: a scan), sums
each run of duplicates (``matvec`` without x, the runs as rows) and builds ``indptr`` from
the boundaries of the sorted rows (``row_starts``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..jit import register
from ..ops import reduction as R
from ..ops.indexing import nonzero
from ..ops.manipulation import concat
from ..place import Place, PlaceLike
from ..transfer.convert import asarray, astype
from . import _ops
from ._base import FORMATS, SparseMatrix, check_range, check_shape, index_dtype, operands, resolve_place, value_dtype

__all__ = ["coo_matrix", "compress", "sort_triplets"]


def sort_triplets(row: DArray, col: DArray, data: DArray, shape: tuple[int, int]) -> tuple[DArray, DArray, DArray]:
    """The triplets ordered by (row, column), stably (untouched when already in order). The key
    is ``row << b | col`` (b: the bits of a column index), int32 when it fits, decoded by a shift
    and a mask; past 63 bits, a sort by column then a stable sort by row."""
    b = max(shape[1] - 1, 0).bit_length()
    bits = max(shape[0] - 1, 0).bit_length() + b
    if bits > 63:
        order = _ops.sort_keys(col)[1]
        order = order[_ops.sort_keys(row[order])[1]]
        return row[order], col[order], data[order]
    shift = asarray(np.array(b, _dt.int32 if bits <= 31 else _dt.int64), device=row.place)
    key = (row << shift) | col  # a 0-d shift of the key's dtype: the widening fuses into one kernel
    if not bool(R.any(key[1:] < key[:-1])):
        return row, col, data
    key, order = _ops.sort_keys(key)
    return (key >> b).astype(row.dtype), (key & ((1 << b) - 1)).astype(row.dtype), data[order]


def compress(row: DArray, col: DArray, data: DArray, shape: tuple[int, int]) -> Any:
    """The canonical CSR matrix (sorted, duplicates summed) of valid COO triplets."""
    m, n = shape
    idx = index_dtype(m, n, data.shape[0])
    row, col = row.astype(idx, copy=False), col.astype(idx, copy=False)
    if data.shape[0] > 1:
        row, col, data = sort_triplets(row, col, data, shape)
        new = (row[1:] != row[:-1]) | (col[1:] != col[:-1])
        if not bool(R.all(new)):
            ends = nonzero(new)[0] + 1
            total = data.shape[0]
            runs = concat([asarray([0], device=row.place), ends, asarray([total], device=row.place)]).astype(idx)
            data = _ops.matvec(runs, col, data, None, lambda: _ops.row_stats(runs, total))
            row, col = row[runs[:-1]], col[runs[:-1]]
    return FORMATS["csr"].trusted(data, col, _ops.row_starts(row, m), shape, True)


class coo_matrix(SparseMatrix):
    """A sparse matrix of (row, col, value) triplets. See also: scipy.sparse.coo_matrix.

    ``coo_matrix((data, (row, col)), shape=(M, N))``, ``coo_matrix(dense)``,
    ``coo_matrix(sparse)`` (darray or scipy), ``coo_matrix((M, N))``; ``dtype=``, ``device=``.
    Indices are checked on construction (ValueError naming the first bad one). Duplicates are
    kept until :meth:`sum_duplicates` or a conversion to CSR.
    """

    format = "coo"
    row: DArray
    col: DArray

    @classmethod
    def _from_tuple(cls, arg: tuple, shape: Any, device: PlaceLike, op: str) -> coo_matrix:
        if not (len(arg) == 2 and isinstance(arg[1], tuple) and len(arg[1]) == 2):
            raise ValueError(f"darray.sparse {op}: expected (data, (row, col)), a dense or sparse matrix or "
                             f"(M, N), got a tuple of {len(arg)}")
        return cls._triplets(arg[0], *arg[1], shape, device, op)

    @classmethod
    def trusted(cls, data: DArray, row: DArray, col: DArray, shape: tuple[int, int], canonical: bool) -> coo_matrix:
        """A matrix of arrays known to be valid (no checks)."""
        out = cls.__new__(cls)
        out.data, out.row, out.col, out._shape, out.has_canonical_format = data, row, col, shape, canonical
        return out

    @classmethod
    def _triplets(cls, data: Any, row: Any, col: Any, shape: Any, device: PlaceLike, op: str) -> coo_matrix:
        place, data, (row, col) = operands(op, device, data, row=row, col=col)
        if shape is None:
            if not row.shape[0]:
                raise ValueError(f"darray.sparse {op}: cannot infer the shape from empty index arrays; give shape=")
            shape = (int(R.max(row)) + 1, int(R.max(col)) + 1)
        m, n = check_shape(shape, op)
        check_range(row, m, "row", op)
        check_range(col, n, "column", op)
        idx = index_dtype(m, n, data.shape[0])
        data = astype(data, value_dtype(data.dtype, place, op), copy=False)
        return cls.trusted(data, row.astype(idx, copy=False), col.astype(idx, copy=False), (m, n), False)

    @classmethod
    def from_dense(cls, x: Any, device: PlaceLike, op: str) -> coo_matrix:
        """The nonzeros (NaN included) of a 2-D array, in row-major order."""
        place = resolve_place(device, (x,))
        x = x if isinstance(x, DArray) and x.place == place else asarray(x, device=place)
        if x.ndim != 2:
            raise ValueError(f"darray.sparse {op}: a dense matrix must be 2-D, got shape {x.shape}")
        x = astype(x, value_dtype(x.dtype, place, op), copy=False)
        row, col = nonzero(x)
        idx = index_dtype(*x.shape, row.shape[0])
        return cls.trusted(x[row, col], row.astype(idx), col.astype(idx), x.shape, True)

    def _with_data(self, data: DArray) -> coo_matrix:
        return self.trusted(data, self.row, self.col, self.shape, self.has_canonical_format)

    def _to(self, place: Place) -> coo_matrix:
        return self.trusted(self.data.to(place), self.row.to(place), self.col.to(place), self.shape,
                            self.has_canonical_format)

    def tocoo(self, copy: bool = False) -> coo_matrix:
        return self.copy() if copy else self

    def tocsr(self, copy: bool = False) -> Any:
        """The canonical CSR matrix (sorted on the device, duplicates summed)."""
        return compress(self.row, self.col, self.data, self.shape)

    def transpose(self) -> coo_matrix:
        """The transpose, in COO (no data moves)."""
        return self.trusted(self.data, self.col, self.row, self.shape[::-1], False)

    def sum_duplicates(self) -> None:
        """Sort the triplets by (row, column) and sum duplicates, in place (as scipy)."""
        if not self.has_canonical_format:
            csr = self.tocsr()
            self.__dict__.update(csr.tocoo().__dict__)

    def to_scipy(self) -> Any:
        import scipy.sparse as sp

        return sp.coo_matrix((self.data.get(), (self.row.get(), self.col.get())), shape=self.shape)


FORMATS["coo"] = coo_matrix
register(coo_matrix, lambda m: ((m.data, m.row, m.col), (m.shape, m.has_canonical_format)),
             lambda aux, arrays: coo_matrix.trusted(*arrays, *aux))  # da.jit takes and returns COO matrices
