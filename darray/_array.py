"""DArray: a Place, a Dim, a dtype and an Allocation (or a pending lazy graph).

Operators are one line each into ``darray.ops`` (installed by ``ops._operators``).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from . import dtypes as _dt
from .dim import Dim
from .place import CPUPlace, Place, PlaceLike, parse


class DArray:
    """An N-d array on a place (CPU or an OpenCL device), with NumPy semantics.

    Differs from NumPy: ``strides`` are bytes as in NumPy but may describe a view into a
    pooled allocation; elementwise results on OpenCL places are lazy until read.
    """

    __slots__ = ("_dim", "_dtype", "_place", "_alloc", "_node", "__weakref__")
    __array_priority__ = 100.0

    def __init__(self, alloc: Any, dim: Dim, dtype: np.dtype, place: Place, node: Any = None) -> None:
        self._alloc = alloc
        self._dim = dim
        self._dtype = dtype
        self._place = place
        self._node = node

    # -- metadata ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._dim.shape

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

    @property
    def T(self) -> DArray:
        """All axes reversed (a view)."""
        return self._view(self._dim.transpose())

    @property
    def mT(self) -> DArray:
        """The last two axes swapped (a view); needs ``ndim >= 2``."""
        if self.ndim < 2:
            raise ValueError(f"darray mT: needs an array of at least 2 dimensions, got {self.ndim}")
        return self._view(self._dim.swapaxes(-1, -2))

    def __len__(self) -> int:
        if not self.ndim:
            raise TypeError("len() of unsized object (a 0-d darray)")
        return self.shape[0]

    def __iter__(self) -> Iterator[DArray]:
        if not self.ndim:
            raise TypeError("iteration over a 0-d darray")
        return (self[i] for i in range(self.shape[0]))

    if TYPE_CHECKING:  # installed by ``ops._operators``; declared here for type checkers
        def _binary(self, other: Any, /) -> DArray: ...
        __add__ = __radd__ = __iadd__ = __sub__ = __rsub__ = __isub__ = __mul__ = __rmul__ = __imul__ = _binary
        __truediv__ = __rtruediv__ = __itruediv__ = __floordiv__ = __rfloordiv__ = __ifloordiv__ = _binary
        __mod__ = __rmod__ = __imod__ = __pow__ = __rpow__ = __ipow__ = __matmul__ = __rmatmul__ = _binary
        __imatmul__ = __and__ = __rand__ = __iand__ = __or__ = __ror__ = __ior__ = __xor__ = __rxor__ = _binary
        __ixor__ = __lshift__ = __rlshift__ = __ilshift__ = __rshift__ = __rrshift__ = __irshift__ = _binary
        __lt__ = __le__ = __gt__ = __ge__ = _binary
        __eq__ = __ne__ = _binary  # type: ignore[assignment]

        def _unary(self) -> DArray: ...
        __neg__ = __pos__ = __abs__ = __invert__ = _unary

        def _reduce(self, axis: Any = None, **kw: Any) -> DArray: ...
        sum = prod = max = min = mean = any = all = argmax = argmin = var = std = _reduce

        def argsort(self, axis: int = -1, kind: str | None = None, *, stable: bool | None = None) -> DArray: ...
        def sort(self, axis: int = -1, kind: str | None = None, *, stable: bool | None = None) -> None: ...
        def __getitem__(self, key: Any, /) -> DArray: ...
        def __setitem__(self, key: Any, value: Any, /) -> None: ...

    # -- storage ----------------------------------------------------------------
    def _data(self) -> Any:
        """The materialised allocation (runs a pending graph first)."""
        if self._node is not None:
            from .lazy import evaluate

            evaluate(self)
        return self._alloc

    def _view(self, dim: Dim) -> DArray:
        return DArray(self._data(), dim, self._dtype, self._place)

    def _host_view(self) -> np.ndarray:
        """For CPUPlace arrays: the NumPy view of this array's memory."""
        assert isinstance(self._place, CPUPlace)
        item = self._dtype.itemsize
        return np.ndarray(self.shape, self._dtype, buffer=self._alloc.host, offset=self._dim.offset * item,
                          strides=self.strides) if self.size else np.empty(self.shape, self._dtype)

    def get(self, out: np.ndarray | None = None) -> np.ndarray:
        """A NumPy copy of this array (waits only for the work that writes it).

        ``out``: an existing writable C-contiguous NumPy array of this shape and dtype to copy
        into and return, as CuPy's ``get(out=)`` (TypeError for another type or dtype,
        ValueError for another shape or layout).
        """
        from ._convert import to_numpy

        return to_numpy(self, out)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """An explicit host copy (``np.asarray(x)``); ``copy=False`` raises ValueError as NumPy 2
        specifies, except on the ``cpu`` place, whose memory NumPy then views in place."""
        if copy is False:  # NumPy's protocol: only a view of host memory avoids a copy
            if not isinstance(self._place, CPUPlace) or (dtype is not None and np.dtype(dtype) != self._dtype):
                raise ValueError(f"darray __array__: copy=False but a copy is needed (array on {self._place}, "
                                 f"dtype {self._dtype}, asked for {dtype})")
            self._data()
            return self._host_view()
        out = self.get()
        return out if dtype is None else out.astype(dtype, copy=False)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        """The ``darray`` module (Array API)."""
        from ._namespace import array_namespace

        return array_namespace(self, api_version=api_version)

    def __dlpack__(self, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
        """A DLPack capsule: shared host-addressable memory, else BufferError (``interop.dlpack``)."""
        from .interop.dlpack import dlpack

        return dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self, /) -> tuple[int, int]:
        """``(kDLCPU, 0)`` where the host can address the memory, else ``(kDLOpenCL, index)``."""
        from .interop.dlpack import dlpack_device

        return dlpack_device(self)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy ufuncs run darray's ops on this array's place (``interop.ufunc``)."""
        from .interop.ufunc import call

        return call(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """NumPy functions run darray's function (``interop.function``)."""
        from .interop.function import call

        return call(func, types, args, kwargs, self)

    def __reduce__(self) -> tuple:
        """Pickle through a host copy (``interop.pickling``)."""
        from .interop.pickling import reduce

        return reduce(self)

    def to_pyopencl(self) -> Any:
        """A ``pyopencl.array.Array`` sharing this array's memory (``interop.cl_arrays``)."""
        from .interop.cl_arrays import to_pyopencl

        return to_pyopencl(self)

    def eval(self) -> DArray:
        """Materialise a pending lazy graph now; returns self."""
        self._data()
        return self

    def to(self, place: PlaceLike) -> DArray:
        """A copy on ``place`` (self when already there)."""
        from ._convert import to_place

        return to_place(self, parse(place))

    def to_device(self, device: PlaceLike, /, *, stream: Any = None) -> DArray:
        """Array API name for :meth:`to`; ``stream`` is accepted and ignored (darray orders the copy
        after the array's pending work itself)."""
        return self.to(device)

    def copy(self) -> DArray:
        """A new contiguous array with the same values."""
        return self.astype(self._dtype, copy=True)

    def astype(self, dtype: Any, /, *, copy: bool = True) -> DArray:
        """Cast to ``dtype`` (NumPy ``astype`` semantics, including float -> int truncation)."""
        from ._convert import astype

        return astype(self, _dt.as_dtype(dtype, "astype"), copy=copy)

    # -- scalars ----------------------------------------------------------------
    def item(self) -> Any:
        """The single element as a Python scalar."""
        if self.size != 1:
            raise ValueError(f"darray item: can only convert an array of size 1 to a Python scalar, got size {self.size}")
        return self.get().item()

    def tolist(self) -> Any:
        """The elements as nested lists of Python scalars (a 0-d array: one scalar). See also:
        numpy.ndarray.tolist."""
        return self.get().tolist()

    def _scalar(self, kind: str) -> Any:
        if self.size != 1:
            if kind == "bool":
                what = "a darray with more than one element" if self.size else "an empty darray"
                raise ValueError(f"The truth value of {what} is ambiguous. Use a.any() or a.all()")
            raise TypeError(f"only length-1 arrays can be converted to Python scalars (darray {kind}(), size {self.size})")
        return self.item()

    def __bool__(self) -> bool:
        return bool(self._scalar("bool"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __index__(self) -> int:
        if self.ndim or self._dtype.kind not in "iu":
            raise TypeError(f"darray __index__: only 0-d integer arrays can be used as an index, got {self.dtype} "
                            f"shape {self.shape}")
        return int(self.item())

    def reshape(self, *shape: Any, copy: bool | None = None) -> DArray:
        """``darray.reshape(self, shape, copy=copy)``; the shape as one sequence or as ints."""
        from .ops.manipulation import reshape

        return reshape(self, shape[0] if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) else shape,
                       copy=copy)

    def ravel(self) -> DArray:
        """``darray.ravel(self)``: 1-D, a view when possible, else a copy."""
        from .ops.manipulation import ravel

        return ravel(self)

    def flatten(self) -> DArray:
        """1-D copy."""
        return self.reshape(-1, copy=True)

    def squeeze(self, axis: Any = None) -> DArray:
        """``darray.squeeze(self, axis)``; None drops every length-1 axis (a view)."""
        from .ops.manipulation import squeeze

        return squeeze(self, axis)

    def transpose(self, *axes: Any) -> DArray:
        """``darray.transpose(self, axes)``; the axes as one sequence or as ints, none reverses them."""
        from .ops.manipulation import transpose

        return transpose(self, axes[0] if len(axes) == 1 and not isinstance(axes[0], (int, np.integer))
                         else (axes or None))

    # -- text ---------------------------------------------------------------------
    def __repr__(self) -> str:
        text = np.array_repr(self.get())
        body = text[len("array("):-1].replace("\n      ", "\n       ")
        return f"darray({body}, place={self._place})"

    def __str__(self) -> str:
        return str(self.get())


__all__ = ["DArray"]
