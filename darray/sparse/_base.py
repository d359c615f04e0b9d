"""The sparse matrix base: attributes, validation, the data-only operations, the operators.

A matrix is DArrays of one place (COO: ``row``, ``col``, ``data``; CSR: ``indptr``,
``indices``, ``data``) and a shape. Index arrays are int32 when every index and the nnz fit
(``INDEX32``), else int64, as scipy does. Values are float32, float64, complex64 or
complex128; integer and bool values become the place's default float (scipy keeps them).

Operations that touch only the values (``_DATA_OPS``: negation, abs, power, scaling,
astype, conj) keep the structure and the format; the nonlinear ones (abs, power, astype) sum
duplicates in place first, as scipy does. Products, sums and differences of matrices go through CSR (``csr.py``);
``FORMATS`` maps a format name to its class (filled by ``coo.py`` and ``csr.py``), so each
module builds the other's matrices.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..ops import reduction as R
from ..ops import ufunc as U
from ..ops.creation import default_float, zeros
from ..ops.indexing import nonzero
from ..place import Place, PlaceLike, parse
from ..transfer.convert import asarray, astype

INDEX32 = 2**31 - 1  # the largest index (and nnz) an int32 index array serves; tests lower it
DTYPES = (_dt.float32, _dt.float64, _dt.complex64, _dt.complex128)
FORMATS: dict[str, Any] = {}
_M = TypeVar("_M", bound="SparseMatrix")


def index_dtype(*bounds: int) -> np.dtype:
    """int32 when every bound (dimensions, nnz) is at most ``INDEX32``, else int64."""
    return _dt.int32 if all(b <= INDEX32 for b in bounds) else _dt.int64


def check_shape(shape: Any, op: str) -> tuple[int, int]:
    """``shape`` as two non-negative ints; ValueError naming it otherwise."""
    try:
        dims = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise ValueError(f"darray.sparse {op}: shape must be two integers, got {shape!r}") from None
    if len(dims) != 2 or min(dims) < 0:
        raise ValueError(f"darray.sparse {op}: shape must be two non-negative integers, got {shape!r}")
    return dims


def value_dtype(dtype: Any, place: Place, op: str) -> np.dtype:
    """The value dtype darray.sparse stores for ``dtype`` (see the module note)."""
    dt = _dt.as_dtype(dtype, f"sparse {op}")
    if dt.kind in "biu":
        return default_float(place)
    if dt not in DTYPES:
        raise TypeError(f"darray.sparse {op}: values of dtype {dt} are not supported "
                        f"(float32, float64, complex64, complex128)")
    return dt


def vector(x: Any, place: Place, what: str, op: str, *, kinds: str = "iu") -> DArray:
    """``x`` as a 1-D DArray on ``place`` whose dtype kind is one of ``kinds``."""
    if isinstance(x, DArray):
        if x.place != place:
            raise ValueError(f"darray.sparse {op}: {what} is on {x.place} but the matrix is on {place}; use .to()")
    else:
        host = np.asarray(x)
        if not host.size and kinds == "iu":  # an empty list reads as integers (NumPy's indexing rule)
            host = host.astype(np.int64)
        x = asarray(host, device=place)
    if x.ndim != 1:
        raise ValueError(f"darray.sparse {op}: {what} must be 1-D, got shape {x.shape}")
    if x.dtype.kind not in kinds:
        raise (TypeError if kinds == "iu" else ValueError)(
            f"darray.sparse {op}: {what} must be {'integers' if kinds == 'iu' else 'numbers'}, got {x.dtype}")
    return x


def check_range(idx: DArray, bound: int, what: str, op: str) -> None:
    """ValueError naming the first index of ``idx`` outside [0, bound)."""
    if idx.shape[0] and bool(R.any((idx < 0) | (idx >= bound))):
        host = idx.get()
        bad = host[(host < 0) | (host >= bound)][0]
        raise ValueError(f"darray.sparse {op}: {what} index {bad} is out of range for {bound} {what}s")


def operands(op: str, device: PlaceLike, data: Any, **index: Any) -> tuple[Place, DArray, list[DArray]]:
    """(place, data, index arrays): a constructor's arrays as 1-D DArrays on one place, the
    indices integers; ValueError naming the lengths when data and the indices (but indptr) differ."""
    place = resolve_place(device, (data, *index.values()))
    arrays = [vector(v, place, name, op) for name, v in index.items()]
    data = vector(data, place, "data", op, kinds="biufc")
    lengths = {"data": data.shape[0], **{k: a.shape[0] for k, a in zip(index, arrays) if k != "indptr"}}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"darray.sparse {op}: the arrays differ in length "
                         f"({', '.join(f'{k} {n}' for k, n in lengths.items())})")
    return place, data, arrays


def resolve_place(device: PlaceLike, arrays: tuple[Any, ...]) -> Place:
    """``device`` when given, else the place of the first DArray among ``arrays``, else the current one."""
    if device is not None:
        return parse(device)
    return next((a.place for a in arrays if isinstance(a, DArray)), parse(None))


def _scalar(value: Any, op: str) -> Any:
    if isinstance(value, DArray) or np.ndim(value) != 0 or isinstance(value, (str, bytes)):
        raise TypeError(f"darray.sparse {op}: needs a scalar; use @ for matrix products and multiply() for "
                        f"elementwise products (darray differs from scipy.sparse here)")
    return value


def _astype(data: DArray, dtype: Any) -> DArray:
    return astype(data, value_dtype(dtype, data.place, "astype"), copy=True)


def _power(data: DArray, k: Any) -> DArray:
    return U.pow(data, _scalar(k, "power"))


# name -> (docstring, function of (data, *args), nonlinear): operations on the values alone,
# structure kept; a nonlinear one sums duplicates first (linear ones give the same matrix either way)
_DATA_OPS: dict[str, tuple[str, Callable[..., DArray], bool]] = {
    "__neg__": ("-A, in A's format.", U.negative, False),
    "__abs__": ("abs(A): moduli of the values (complex gives real), in A's format.", U.abs, True),
    "conj": ("Complex conjugate, in A's format. See also: scipy.sparse.csr_matrix.conj.", U.conj, False),
    "power": ("Elementwise ``A ** k`` of the stored values (scalar k), in A's format.", _power, True),
    "astype": ("A copy with values of ``dtype`` (integers: the default float), in A's format.", _astype, True),
    "__mul__": ("``A * scalar``: scaled values (a non-scalar is a TypeError: use @ or multiply).",
                lambda d, s: d * _scalar(s, "*"), False),
    "__rmul__": ("``scalar * A``.", lambda d, s: _scalar(s, "*") * d, False),
    "__truediv__": ("``A / scalar``.", lambda d, s: d / _scalar(s, "/"), False),
}


def _data_method(name: str, doc: str, fn: Callable[..., DArray], nonlinear: bool) -> Callable[..., Any]:
    def method(self: SparseMatrix, *args: Any) -> Any:
        if nonlinear:
            self.sum_duplicates()  # as scipy: in place first, so abs and power see the summed values
        data = fn(self.data, *args)
        if data.dtype not in DTYPES:
            data = astype(data, value_dtype(data.dtype, data.place, name), copy=False)
        return self._with_data(data)

    method.__name__, method.__doc__ = name, doc
    return method


class SparseMatrix:
    """What COO and CSR matrices share. See also: scipy.sparse.spmatrix."""

    format: str = ""
    ndim = 2
    data: DArray
    has_canonical_format: bool  # sorted, no duplicates
    _shape: tuple[int, int]

    if TYPE_CHECKING:  # the _DATA_OPS methods, which __init_subclass__ sets on every format
        def __neg__(self: _M) -> _M: ...
        def __abs__(self: _M) -> _M: ...
        def conj(self: _M) -> _M: ...
        def power(self: _M, k: Any) -> _M: ...
        def astype(self: _M, dtype: Any) -> _M: ...
        def __mul__(self: _M, scalar: Any) -> _M: ...
        def __rmul__(self: _M, scalar: Any) -> _M: ...
        def __truediv__(self: _M, scalar: Any) -> _M: ...

    def __init__(self, arg: Any, shape: Any = None, dtype: Any = None, *, device: PlaceLike = None,
                 copy: bool = False) -> None:
        op = f"{self.format}_matrix"
        made = build(arg, device, op)
        if made is None:
            made = self._from_tuple(arg, shape, device, op)
        elif shape is not None and check_shape(shape, op) != made.shape:
            raise ValueError(f"darray.sparse {op}: shape {tuple(shape)} does not match the input's {made.shape}")
        made = made.tocsr() if self.format == "csr" else made.tocoo()
        if dtype is not None:
            made = made.astype(dtype)
        elif copy:
            made = made.copy()
        self.__dict__.update(made.__dict__)

    @classmethod
    def _from_tuple(cls, arg: tuple, shape: Any, device: PlaceLike, op: str) -> SparseMatrix:
        """The matrix of the format's own tuple forms."""
        raise NotImplementedError

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        for name, (doc, fn, nonlinear) in _DATA_OPS.items():
            setattr(cls, name, _data_method(name, doc, fn, nonlinear))

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    @property
    def nnz(self) -> int:
        """Stored entries, duplicates and explicit zeros included."""
        return self.data.shape[0]

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def place(self) -> Place:
        return self.data.place

    device = place

    def __repr__(self) -> str:
        return (f"<{self.shape[0]}x{self.shape[1]} darray.sparse {self.format}_matrix of {self.dtype} with "
                f"{self.nnz} stored elements on {self.place}>")

    # implemented by the formats
    def _with_data(self: _M, data: DArray) -> _M:
        raise NotImplementedError

    def _to(self, place: Place) -> SparseMatrix:
        raise NotImplementedError

    def tocsr(self, copy: bool = False) -> Any:
        raise NotImplementedError

    def tocoo(self, copy: bool = False) -> Any:
        raise NotImplementedError

    def transpose(self) -> SparseMatrix:
        raise NotImplementedError

    @property
    def T(self) -> SparseMatrix:
        """The transpose (see :meth:`transpose`)."""
        return self.transpose()

    def todense(self) -> DArray:
        """The dense matrix as a 2-D DArray (scipy: numpy.matrix); duplicates add up."""
        return self.tocsr().todense()

    toarray = todense

    def to_scipy(self) -> Any:
        """The scipy.sparse matrix of the same format (host copies of the arrays)."""
        raise NotImplementedError

    def sum_duplicates(self) -> None:
        raise NotImplementedError

    def copy(self: _M) -> _M:
        return self._with_data(astype(self.data, self.dtype, copy=True))

    def __matmul__(self, other: Any) -> Any:
        """``A @ x`` (1-D: SpMV), ``A @ X`` (2-D DArray: SpMM) or ``A @ B`` (sparse: CSR)."""
        return self.tocsr().matmul(other)

    def __add__(self, other: Any) -> Any:
        """``A + B``: CSR for sparse B, a dense DArray for dense B (as scipy)."""
        return self.tocsr().combine(other, 1)

    def __sub__(self, other: Any) -> Any:
        return self.tocsr().combine(other, -1)

    def multiply(self, other: Any) -> Any:
        """Elementwise product: CSR with a sparse matrix, COO with a dense (broadcast) one, scaled
        values with a scalar (as scipy)."""
        if np.ndim(other) == 0 and not isinstance(other, DArray):
            return self * other
        return self.tocsr().elementwise(other)

    def sum(self, axis: int | None = None) -> DArray:
        """Sum of the entries: a 0-d DArray (axis None), (1, N) for axis 0, (M, 1) for axis 1
        (scipy's numpy.matrix shapes)."""
        if axis is None:
            return R.sum(self.data)
        if axis not in (0, 1, -1, -2):
            raise ValueError(f"darray.sparse sum: axis {axis} is out of bounds for 2 dimensions")
        if axis % 2 == 0:
            return self.transpose().tocsr().row_sums().reshape(1, self.shape[1])
        return self.tocsr().row_sums().reshape(self.shape[0], 1)

    def diagonal(self, k: int = 0) -> DArray:
        """The ``k``-th diagonal (duplicates summed) as a 1-D DArray. See also: scipy.sparse.csr_matrix.diagonal."""
        m, n = self.shape
        coo = self.tocsr().canonical().tocoo()
        size = max(0, min(m + min(k, 0), n - max(k, 0)))
        out = zeros((size,), dtype=self.dtype, device=self.place)
        if size and coo.nnz:
            on = nonzero((coo.col - coo.row) == k)[0]  # one compaction for rows and values
            out[coo.row[on] - max(0, -k)] = coo.data[on]
        return out


def is_scipy(x: Any) -> bool:
    """Whether ``x`` is a scipy.sparse matrix or array (without importing scipy)."""
    return type(x).__module__.startswith("scipy.sparse")


def build(arg: Any, device: PlaceLike, op: str) -> SparseMatrix | None:
    """The matrix of a constructor argument every format takes: a darray or scipy sparse
    matrix, ``(M, N)`` (empty) or a dense 2-D array; None for other tuples (the format's own forms)."""
    if isinstance(arg, SparseMatrix):
        place = parse(device) if device is not None else arg.place
        return arg if place == arg.place else arg._to(place)
    if is_scipy(arg):
        if arg.format == "csr":
            return FORMATS["csr"]((arg.data, arg.indices, arg.indptr), shape=arg.shape, device=device)
        arg = arg.tocoo()
        return FORMATS["coo"]((arg.data, (arg.row, arg.col)), shape=arg.shape, device=device)
    if isinstance(arg, tuple) and len(arg) == 2 and all(np.ndim(a) == 0 and not isinstance(a, DArray) for a in arg):
        place = resolve_place(device, ())
        none = zeros((0,), dtype=_dt.int32, device=place)
        return FORMATS["coo"].trusted(zeros((0,), dtype=default_float(place), device=place), none, none,
                                      check_shape(arg, op), True)
    if isinstance(arg, tuple):
        return None
    return FORMATS["coo"].from_dense(arg, device, op)
