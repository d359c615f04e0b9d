"""DArray, the record: a Place, a Dim, a dtype and an Allocation (or a pending lazy graph).

The record sits below lazy and ops and imports nothing above it. Its operators, methods and
properties (everything that computes or converts) come from the tables of ``darray._methods``,
installed once by ``darray/__init__.py``; the ``TYPE_CHECKING`` block declares them for type
checkers.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from .dim import Dim
from .place import Place, PlaceLike


class DArray:
    """An N-d array on a place (CPU or an OpenCL device), with NumPy semantics.

    Differs from NumPy: ``strides`` are bytes as in NumPy but may describe a view into a
    pooled allocation; elementwise results on OpenCL places are lazy until read. Internal code
    builds one as ``DArray(alloc, dim, dtype, place)``; NumPy's constructor is ``darray.ndarray``
    (``darray/_ndarray.py``), a class apart of which every DArray is an instance.
    """

    __slots__ = ("_dim", "_dtype", "_place", "_alloc", "_node", "_base", "_readonly", "__weakref__")
    __array_priority__ = 100.0

    def __init__(self, alloc: Any, dim: Dim, dtype: np.dtype, place: Place, node: Any = None) -> None:
        self._alloc = alloc
        self._dim = dim
        self._dtype = dtype
        self._place = place
        self._node = node
        self._base: DArray | None = None  # the array a view was taken of (NumPy's ``base``)
        self._readonly = 0  # 0 writeable, READ_ONLY (``flags.writeable = False``), or LOCKED (never writeable)

    # -- metadata ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._dim.shape

    @shape.setter
    def shape(self, shape: Any) -> None:
        """Reshape in place (NumPy's ``x.shape = ...``) where a view can: AttributeError otherwise."""
        dim = self._dim.reshape(shape)
        if dim is None:
            raise AttributeError("darray shape: Incompatible shape for in-place modification. Use `.reshape()` to "
                                 "make a copy with the desired shape.")
        if self._node is not None:
            _materialize(self)
        self._dim = dim

    @property
    def ndim(self) -> int:
        return len(self._dim.shape)

    @property
    def size(self) -> int:
        return self._dim.size

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def place(self) -> Place:
        return self._place

    @property
    def device(self) -> Place:
        """The place (Array API name)."""
        return self._place

    @property
    def strides(self) -> tuple[int, ...]:
        """Strides in bytes, as NumPy reports them."""
        return tuple(s * self._dtype.itemsize for s in self._dim.strides)

    @property
    def nbytes(self) -> int:
        return self.size * self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    def __len__(self) -> int:
        if not self.ndim:
            raise TypeError("len() of unsized object (a 0-d darray)")
        return self.shape[0]

    if TYPE_CHECKING:  # installed from the tables of ``darray._methods``; declared here for type checkers
        def _binary(self, other: Any, /) -> DArray: ...
        __add__ = __radd__ = __iadd__ = __sub__ = __rsub__ = __isub__ = __mul__ = __rmul__ = __imul__ = _binary
        __truediv__ = __rtruediv__ = __itruediv__ = __floordiv__ = __rfloordiv__ = __ifloordiv__ = _binary
        __mod__ = __rmod__ = __imod__ = __pow__ = __rpow__ = __ipow__ = __matmul__ = __rmatmul__ = _binary
        __imatmul__ = __and__ = __rand__ = __iand__ = __or__ = __ror__ = __ior__ = __xor__ = __rxor__ = _binary
        __ixor__ = __lshift__ = __rlshift__ = __ilshift__ = __rshift__ = __rrshift__ = __irshift__ = _binary
        __lt__ = __le__ = __gt__ = __ge__ = _binary
        __eq__ = __ne__ = _binary  # type: ignore[assignment]  # elementwise, an array (not object's bool)

        def _unary(self) -> DArray: ...
        __neg__ = __pos__ = __abs__ = __invert__ = _unary

        def _reduce(self, axis: Any = None, **kw: Any) -> DArray: ...
        sum = prod = max = min = mean = any = all = argmax = argmin = var = std = _reduce

        def argsort(self, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
                    stable: bool | None = None) -> DArray: ...
        def sort(self, axis: int = -1, kind: str | None = None, order: Any = None, *,
                 stable: bool | None = None) -> None: ...
        def partition(self, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None) -> None: ...

        def _delegated(self, *args: Any, **kwargs: Any) -> Any: ...  # darray.<name>(self, ...)
        argpartition = choose = clip = compress = conj = conjugate = cumprod = cumsum = diagonal = _delegated
        dot = nonzero = ptp = put = repeat = round = searchsorted = swapaxes = take = trace = _delegated

        def view(self, dtype: Any = None, type: Any = None) -> DArray: ...  # noqa: A002
        def item(self, *args: Any) -> Any: ...
        def fill(self, value: Any) -> None: ...
        def resize(self, *new_shape: Any, refcheck: bool = True) -> None: ...
        def setflags(self, write: bool | None = None, align: bool | None = None, uic: bool | None = None) -> None: ...
        def byteswap(self, inplace: bool = False) -> DArray: ...
        def getfield(self, dtype: Any, offset: int = 0) -> DArray: ...
        def setfield(self, val: Any, dtype: Any, offset: int = 0) -> None: ...
        def tobytes(self, order: str = "C") -> bytes: ...
        def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None: ...  # noqa: A002
        def dump(self, file: Any) -> None: ...
        def dumps(self) -> bytes: ...
        def __getitem__(self, key: Any, /) -> DArray: ...
        def __setitem__(self, key: Any, value: Any, /) -> None: ...
        def __iter__(self) -> Iterator[DArray]: ...
        def __bool__(self) -> bool: ...
        def __int__(self) -> int: ...
        def __float__(self) -> float: ...
        def __complex__(self) -> complex: ...
        def __index__(self) -> int: ...
        def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray: ...
        def __array_namespace__(self, /, *, api_version: str | None = None) -> Any: ...
        def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any: ...
        def __array_function__(self, func: Any, types: Any, args: tuple[Any, ...],
                               kwargs: dict[str, Any]) -> Any: ...
        def __dlpack__(self, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                       dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any: ...
        def __dlpack_device__(self, /) -> tuple[int, int]: ...
        def __reduce__(self) -> tuple[Any, ...]: ...
        def __repr__(self) -> str: ...
        def __str__(self) -> str: ...
        def get(self, out: np.ndarray | None = None) -> np.ndarray: ...
        def tolist(self) -> Any: ...
        def to(self, place: PlaceLike) -> DArray: ...
        def to_device(self, device: PlaceLike, /, *, stream: Any = None) -> DArray: ...
        def to_pyopencl(self) -> Any: ...
        def copy(self) -> DArray: ...
        def astype(self, dtype: Any, /, *, copy: bool = True) -> DArray: ...
        def reshape(self, *shape: Any, copy: bool | None = None) -> DArray: ...
        def ravel(self) -> DArray: ...
        def flatten(self) -> DArray: ...
        def squeeze(self, axis: Any = None) -> DArray: ...
        def transpose(self, *axes: Any) -> DArray: ...

        @property
        def T(self) -> DArray: ...
        @property
        def mT(self) -> DArray: ...
        @property
        def flags(self) -> Any: ...
        @property
        def flat(self) -> Any: ...
        @flat.setter
        def flat(self, value: Any) -> None: ...
        @property
        def real(self) -> DArray: ...
        @real.setter
        def real(self, value: Any) -> None: ...
        @property
        def imag(self) -> DArray: ...
        @imag.setter
        def imag(self, value: Any) -> None: ...
        @property
        def base(self) -> DArray | None: ...

    # -- storage ----------------------------------------------------------------
    def _data(self) -> Any:
        """The materialised allocation (runs a pending graph first, through ``darray.lazy``)."""
        if self._node is not None:
            _materialize(self)
        return self._alloc

    def eval(self) -> DArray:
        """Materialise a pending lazy graph now; returns self."""
        self._data()
        return self

    def _settle(self, alloc: Any) -> None:
        """A pending array now holds its value in ``alloc`` (called by ``darray.lazy``)."""
        self._alloc, self._node = alloc, None

    def _view(self, dim: Dim, dtype: np.dtype | None = None, readonly: int = 0) -> DArray:
        """A view of this array's memory through ``dim`` (in elements of ``dtype``, this array's by
        default); its ``base`` is the array owning the memory, as NumPy's. Read-only when this array
        is (NumPy's rule) or as ``readonly`` asks (READ_ONLY, LOCKED: views NumPy makes read-only)."""
        view = DArray(self._data(), dim, self._dtype if dtype is None else dtype, self._place)
        view._base = self if self._base is None else self._base
        if self._readonly or readonly:
            view._readonly = max(self._readonly, readonly)
        return view

    def _rebind(self, alloc: Any, dim: Dim) -> None:
        """This array now is ``dim`` over ``alloc`` (``ndarray.resize`` in place)."""
        self._alloc, self._dim, self._node = alloc, dim, None

    def _host_view(self) -> np.ndarray:
        """For arrays in host memory (the ``cpu`` place): the NumPy view of this array's memory."""
        item = self._dtype.itemsize
        return np.ndarray(self.shape, self._dtype, buffer=self._alloc.host, offset=self._dim.offset * item,
                          strides=self.strides) if self.size else np.empty(self.shape, self._dtype)


READ_ONLY, LOCKED = 1, 2  # DArray._readonly: flags.writeable = False; never writeable (a window view)


def read_only(op: str, what: str = "assignment destination") -> NoReturn:
    """NumPy's ValueError for a write into a read-only array (check ``x._readonly`` first: a slot, cheap)."""
    raise ValueError(f"darray {op}: {what} is read-only")


def set_writeable(x: DArray, flag: bool) -> None:
    """``x.flags.writeable = flag``: True only where the array owning the memory is writeable and
    ``x`` is not a view NumPy never lets be written (ValueError, as NumPy)."""
    if not flag:
        x._readonly = x._readonly or READ_ONLY
    elif x._readonly:
        if x._readonly == LOCKED or (x._base is not None and x._base._readonly):
            raise ValueError("darray flags: cannot set WRITEABLE flag to True of this array")
        x._readonly = 0


def _no_lazy(x: DArray) -> None:
    raise RuntimeError("darray: a pending array needs darray.lazy to run it (import darray)")


_materialize: Callable[[DArray], None] = _no_lazy


def set_materialize(run: Callable[[DArray], None]) -> None:
    """Called once by ``darray.lazy``: the function that runs a pending array's graph (the record
    sits below lazy and never imports it)."""
    global _materialize
    _materialize = run


__all__ = ["DArray", "READ_ONLY", "LOCKED", "read_only", "set_writeable"]
