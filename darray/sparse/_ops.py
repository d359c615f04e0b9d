"""Device commands of darray.sparse: the kernels of ``kernels/sparse.cl`` and their host twins.

Each function takes and returns DArrays and calls the implementation registered for the place
kind (``ops._dispatch``, op names ``sparse.*``): on OpenCL places it enqueues a kernel through the
scheduler (``ops._kernel``), on the ``cpu`` place it computes the same through NumPy.

Products (:func:`matvec`) pick their kernel by the kernel form and the row lengths: on the
``chunked`` form (CPU devices) and for irregular rows (the longest row over ``SPLIT_RATIO``
times the lanes a row would get), the merge-path split (``spmv_split``): every work-item
takes an equal run of nonzeros, whatever the rows, and a second launch adds the tails of
rows that cross a run's start. Otherwise the vector form (``spmv_vector``): a power of two of
lanes per row near the mean row length, their sums added in local memory.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .._array import DArray
from ..lazy import execute
from ..ops import _dispatch as D
from ..ops._kernel import launch, ref, run, source
from ..ops.creation import zeros
from ..ops.scan import cumulative_sum
from ..ops.sorting import sort_rows
from ..place import CLPlace, runtime
from ..transfer.convert import empty, from_numpy

KT = 16  # dense columns per pass of a product (a private accumulator each)
SPLIT_ITEMS = 64  # split products: work-items per compute unit (small runs balance a shared machine)
SPLIT_MIN = 256  # split products: the fewest nonzeros a work-item takes
SPLIT_RATIO = 32  # vector form unless the longest row is over this many times its lanes


def _options(dt: np.dtype, idx: np.dtype, *, kt: int = 1, no_x: bool = False, one: bool = False) -> str:
    opts = [f"-D I={'int' if idx == _dt.int32 else 'long'}", f"-D T={_dt.ctype(dt)}", f"-D KT={kt}"]
    opts += ["-D COMPLEX"] * (dt.kind == "c") + ["-D DARRAY_FP64"] * (dt in (_dt.float64, _dt.complex128))
    return " ".join(opts + ["-D NO_X"] * no_x + ["-D ONE_COLUMN"] * one)


def _allocs(*arrays: DArray) -> list[Any]:
    return [a._data() for a in arrays]


def _host(x: DArray) -> np.ndarray:
    return x._host_view()


def _rows_host(indptr: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(indptr.size - 1, dtype=indptr.dtype), np.diff(indptr))


def matvec(indptr: DArray, indices: DArray, data: DArray, x: DArray | None, stats: Any) -> DArray:
    """``A @ x`` of the CSR arrays (x: (N,) or C-contiguous (N, K), of data's dtype); x None:
    the row sums of ``data``. ``stats()`` gives (mean, longest) row length when asked."""
    m = indptr.shape[0] - 1
    k = 1 if x is None or x.ndim == 1 else x.shape[1]
    shape = (m,) if x is None or x.ndim == 1 else (m, k)
    return D.implementation("sparse.matvec", data.place)(indptr, indices, data, x, stats, m, k, shape)


@D.register("sparse.matvec", "cpu")
def _matvec_cpu(indptr: DArray, indices: DArray, data: DArray, x: DArray | None, stats: Any, m: int, k: int,
                shape: tuple[int, ...]) -> DArray:
    """:func:`matvec` through NumPy (``m`` rows, ``k`` columns of x, the result's ``shape``)."""
    terms = _host(data) if x is None else (_host(data).reshape(-1, *([1] * (x.ndim - 1))) * _host(x)[_host(indices)])
    out = np.zeros(shape, data.dtype)
    np.add.at(out, _rows_host(_host(indptr)), terms)
    return from_numpy(out, data.place)


@D.register("sparse.matvec", "cl")
def _matvec_cl(indptr: DArray, indices: DArray, data: DArray, x: DArray | None, stats: Any, m: int, k: int,
               shape: tuple[int, ...]) -> DArray:
    """:func:`matvec` in the split or the vector kernels (arguments as :func:`_matvec_cpu`'s)."""
    place, dt = cast(CLPlace, data.place), data.dtype
    nnz = data.shape[0]
    if not nnz or not k or not m:
        return zeros(shape, dtype=dt, device=place)
    y = empty(shape, dt, place)
    xs = data if x is None else x
    reads = _allocs(indptr, indices, data, xs)
    nbytes = nnz * (indices.dtype.itemsize + dt.itemsize * (1 + k))
    info = runtime(place).info
    group = execute.local_size(place)
    split, lanes = info.form == "chunked", 1
    if not split:
        mean, longest = stats()
        lanes = min(group, 1 << max(1, int(np.ceil(np.log2(max(mean, 2))))))
        split = longest > SPLIT_RATIO * lanes
    per = max(SPLIT_MIN, -(-nnz // (info.compute_units * SPLIT_ITEMS)))
    parts = -(-nnz // per)
    if split:
        carry, carry_row = empty((parts, k), dt, place), empty((parts,), _dt.int64, place)
    for j0 in range(0, k, KT):  # KT columns a launch, their accumulators in registers
        kt = min(KT, k - j0)
        kernel = runtime(place).programs.kernel(source("sparse.cl"), "spmv_split" if split else "spmv_vector",
                                                _options(dt, indices.dtype, kt=kt, no_x=x is None, one=k == 1))
        head = [*ref(indptr), *ref(indices), *ref(data), *ref(xs), *ref(y)]
        if split:
            run("spmv_split", kernel, [*head, *ref(carry), *ref(carry_row), np.int64(m), np.int64(nnz),
                                       np.int64(k), np.int64(j0), np.int64(per)],
                parts, place, reads=reads, writes=_allocs(y, carry, carry_row), nbytes=nbytes)
        else:
            run("spmv_vector", kernel, [*head, cl.LocalMemory(group * dt.itemsize), np.int64(m), np.int64(k),
                                        np.int64(j0), np.int32(lanes)],
                -(-m // (group // lanes)) * group, place, reads=reads, writes=_allocs(y), nbytes=nbytes)
    if split:
        fix = runtime(place).programs.kernel(source("sparse.cl"), "spmv_fix", _options(dt, indices.dtype))
        run("spmv_fix", fix, [*ref(y), *ref(carry), *ref(carry_row), np.int64(parts), np.int64(k)], k, place,
            reads=_allocs(carry, carry_row), writes=_allocs(y))
    return y


def row_index(indptr: DArray, nnz: int) -> DArray:
    """The row of every nonzero of a CSR matrix (indptr's dtype): CSR -> COO."""
    return D.implementation("sparse.row_index", indptr.place)(indptr, nnz)


@D.register("sparse.row_index", "cpu")
def _row_index_cpu(indptr: DArray, nnz: int) -> DArray:
    return from_numpy(_rows_host(_host(indptr)), indptr.place)


@D.register("sparse.row_index", "cl")
def _row_index_cl(indptr: DArray, nnz: int) -> DArray:
    place, m = cast(CLPlace, indptr.place), indptr.shape[0] - 1
    rows = empty((nnz,), indptr.dtype, place)
    if nnz:
        launch("row_index", place, "sparse.cl", _options(_dt.float32, indptr.dtype), m,
               [*ref(indptr), *ref(rows)], reads=_allocs(indptr), writes=_allocs(rows))
    return rows


def row_starts(rows: DArray, m: int) -> DArray:
    """indptr (m + 1 entries, rows' dtype) of the sorted row indices ``rows``."""
    return D.implementation("sparse.row_starts", rows.place)(rows, m)


@D.register("sparse.row_starts", "cpu")
def _row_starts_cpu(rows: DArray, m: int) -> DArray:
    return from_numpy(np.searchsorted(_host(rows), np.arange(m + 1)).astype(rows.dtype), rows.place)


@D.register("sparse.row_starts", "cl")
def _row_starts_cl(rows: DArray, m: int) -> DArray:
    place = cast(CLPlace, rows.place)
    if not rows.shape[0]:
        return zeros((m + 1,), dtype=rows.dtype, device=place)
    indptr = empty((m + 1,), rows.dtype, place)
    launch("row_starts", place, "sparse.cl", _options(_dt.float32, rows.dtype), rows.shape[0],
           [*ref(rows), *ref(indptr), np.int64(m)], reads=_allocs(rows), writes=_allocs(indptr))
    return indptr


def to_dense(indptr: DArray, indices: DArray, data: DArray, shape: tuple[int, int]) -> DArray:
    """The dense (C order) matrix of CSR arrays; duplicates add up."""
    out = zeros(shape, dtype=data.dtype, device=data.place)
    D.implementation("sparse.to_dense", data.place)(indptr, indices, data, out)
    return out


@D.register("sparse.to_dense", "cpu")
def _to_dense_cpu(indptr: DArray, indices: DArray, data: DArray, out: DArray) -> None:
    """Add the CSR arrays' entries into the zeros ``out``, through NumPy."""
    np.add.at(_host(out), (_rows_host(_host(indptr)), _host(indices)), _host(data))


@D.register("sparse.to_dense", "cl")
def _to_dense_cl(indptr: DArray, indices: DArray, data: DArray, out: DArray) -> None:
    """Add the CSR arrays' entries into the zeros ``out``, one work-item per row."""
    if data.shape[0]:
        launch("csr_dense", cast(CLPlace, data.place), "sparse.cl", _options(data.dtype, indices.dtype), out.shape[0],
               [*ref(indptr), *ref(indices), *ref(data), *ref(out), np.int64(out.shape[1])],
               reads=_allocs(indptr, indices, data), writes=_allocs(out))


def expand_products(arow: DArray, acol: DArray, aval: DArray, bptr: DArray, bcol: DArray,
                    bval: DArray) -> tuple[DArray, DArray, DArray]:
    """(rows, cols, values) of every product a_ik * b_kj (COO triplets of A @ B, duplicates
    not summed): A as COO arrays, B as CSR arrays of one index dtype and one value dtype."""
    place = aval.place
    counts = (bptr[1:] - bptr[:-1])[acol] if acol.shape[0] else empty((0,), bptr.dtype, place)
    offs = cumulative_sum(counts.astype(_dt.int64), include_initial=True)
    total = int(offs[-1])
    return D.implementation("sparse.expand_products", place)(arow, acol, aval, bptr, bcol, bval, counts, offs, total)


@D.register("sparse.expand_products", "cpu")
def _expand_products_cpu(arow: DArray, acol: DArray, aval: DArray, bptr: DArray, bcol: DArray, bval: DArray,
                         counts: DArray, offs: DArray, total: int) -> tuple[DArray, DArray, DArray]:
    """:func:`expand_products` through NumPy (``counts``: B's row length per entry of A, ``offs``
    their scan with a leading 0, ``total`` their sum)."""
    place = aval.place
    a, rep = _host(acol), np.repeat(np.arange(acol.shape[0]), _host(counts))
    t = _host(bptr)[a][rep] + np.arange(total) - _host(offs)[rep]
    row, col, val = (from_numpy(v, place)
                     for v in (_host(arow)[rep], _host(bcol)[t], _host(aval)[rep] * _host(bval)[t]))
    return row, col, val


@D.register("sparse.expand_products", "cl")
def _expand_products_cl(arow: DArray, acol: DArray, aval: DArray, bptr: DArray, bcol: DArray, bval: DArray,
                        counts: DArray, offs: DArray, total: int) -> tuple[DArray, DArray, DArray]:
    """:func:`expand_products` in one launch (arguments as :func:`_expand_products_cpu`'s)."""
    place = cast(CLPlace, aval.place)
    out = (empty((total,), arow.dtype, place), empty((total,), arow.dtype, place), empty((total,), aval.dtype, place))
    if total:
        launch("spgemm_expand", place, "sparse.cl", _options(aval.dtype, arow.dtype), arow.shape[0],
               [*ref(arow), *ref(acol), *ref(aval), *ref(offs), *ref(bptr), *ref(bcol), *ref(bval),
                *[a for o in out for a in ref(o)]],
               reads=_allocs(arow, acol, aval, offs, bptr, bcol, bval), writes=_allocs(*out))
    return out


def sort_keys(key: DArray) -> tuple[DArray, DArray]:
    """(sorted keys, int64 positions that sort them), stable: darray's radix sort on OpenCL."""
    return D.implementation("sparse.sort_keys", key.place)(key)


@D.register("sparse.sort_keys", "cpu")
def _sort_keys_cpu(key: DArray) -> tuple[DArray, DArray]:
    order = np.argsort(_host(key), kind="stable")
    return from_numpy(_host(key)[order], key.place), from_numpy(order.astype(np.int64), key.place)


@D.register("sparse.sort_keys", "cl")
def _sort_keys_cl(key: DArray) -> tuple[DArray, DArray]:
    ordered, order = sort_rows(key.reshape(1, key.shape[0]), arg=True)
    return ordered.reshape(-1), order.reshape(-1).astype(_dt.int64, copy=False)


def row_stats(indptr: DArray, nnz: int) -> tuple[float, int]:
    """(mean, longest) row length of a CSR matrix of ``nnz`` entries (one reduction read back)."""
    m = indptr.shape[0] - 1
    if not m:
        return 0.0, 0
    lengths = indptr[1:] - indptr[:-1]
    return nnz / m, int(lengths.max())
