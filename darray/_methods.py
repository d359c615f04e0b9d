"""DArray's operators, methods and properties, as tables installed once by ``install()``
(called from ``darray/__init__.py``).

The record (``_array.DArray``) sits low and imports nothing above it; everything a user calls on
an array that computes, converts or crosses into NumPy lives here, one row per name, each row
one call into the op families. The record's ``TYPE_CHECKING`` block declares every name for
type checkers (``tests/test_typing.py`` checks both sides match).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from . import _api, _ndarray
from . import dtypes as _dt
from ._array import DArray
from ._namespace import check_api_version
from .interop import cl_arrays, dlpack, function, pickling, ufunc
from .ops import elementwise as E
from .ops import indexing, manipulation
from .ops.linalg import matmul
from .place import PlaceLike, parse
from .transfer.convert import assign, astype, host_view, scalar, to_numpy, to_place

# dunder stem -> elementwise op: ``__add__``, ``__radd__`` and ``__iadd__`` for each binary row
BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
          "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
          "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
           "ge": "greater_equal"}
UNARY = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


def _binary(name: str) -> dict[str, Callable[..., Any]]:
    def fwd(self: DArray, other: Any, /) -> DArray:
        return E.apply(name, self, other)

    def rev(self: DArray, other: Any, /) -> DArray:
        return E.apply(name, other, self)

    def inplace(self: DArray, other: Any, /) -> DArray:
        """``x <op>= other``: computed into x's own memory (one fused kernel on OpenCL places)."""
        return E.into(self, name, self, other)

    return {"": fwd, "r": rev, "i": inplace}


def _power(self: DArray, p: Any) -> tuple[str, tuple[Any, ...]]:
    """The op and arguments of ``self ** p``. For a Python scalar ``p`` on a real float array,
    NumPy's own shortcuts (``2``: ``square``, ``-1``: ``reciprocal``, ``0.5``: ``sqrt``), and, where
    darray differs from NumPy (as PyTorch), ``3`` as ``x * x * x``, within an ulp of ``pow`` (exact
    on the host path, and cheaper on every device). Complex bases keep ``pow``."""
    if self._dtype.kind == "f":
        if type(p) is int:
            if p == 2:
                return "square", (self,)
            if p == -1:
                return "reciprocal", (self,)
            if p == 3:
                return "multiply", (E.apply("square", self), self)
        elif type(p) is float and p == 0.5:
            return "sqrt", (self,)
    return "pow", (self, p)


def _pow(self: DArray, other: Any, /) -> DArray:
    """``x ** p`` (see ``_power``)."""
    name, args = _power(self, other)
    return E.apply(name, *args)


def _ipow(self: DArray, other: Any, /) -> DArray:
    """``x **= p``: computed into x's own memory (see ``_power``)."""
    name, args = _power(self, other)
    return E.into(self, name, *args)


def _compare(name: str) -> Callable[..., Any]:
    def method(self: DArray, other: Any, /) -> DArray:
        return E.apply(name, self, other)
    return method


def _unary(name: str) -> Callable[..., Any]:
    def method(self: DArray) -> DArray:
        return E.apply(name, self)
    return method


def _imatmul(self: DArray, other: Any, /) -> DArray:
    """``x @= other``: the product written into x (its shape must not change, as NumPy's rule)."""
    value = matmul(self, other)
    E.check_out("matmul", self, value.dtype, value.shape, value.place)
    assign(self, self._dim, value)
    return self


def _get(self: DArray, out: np.ndarray | None = None) -> np.ndarray:
    """A NumPy copy of this array (waits only for the work that writes it).

    ``out``: an existing writable C-contiguous NumPy array of this shape and dtype to copy
    into and return, as CuPy's ``get(out=)`` (TypeError for another type or dtype,
    ValueError for another shape or layout).
    """
    return to_numpy(self, out)


def _array(self: DArray, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
    """An explicit host copy (``np.asarray(x)``); ``copy=False`` raises ValueError as NumPy 2
    specifies, except on the ``cpu`` place, whose memory NumPy then views in place (read-only where
    this array is)."""
    if copy is False:  # NumPy's protocol: only a view of host memory avoids a copy
        view = host_view(self) if dtype is None or np.dtype(dtype) == self._dtype else None
        if view is None:
            raise ValueError(f"darray __array__: copy=False but a copy is needed (array on {self._place}, "
                             f"dtype {self._dtype}, asked for {dtype})")
        if self._readonly:
            view.flags.writeable = False  # (a read-only array stays read-only through NumPy)
        return view
    out = to_numpy(self)
    return out if dtype is None else out.astype(dtype, copy=False)


_namespace: list[ModuleType] = []  # the ``darray`` module, given to ``install``


def _array_namespace(self: DArray, /, *, api_version: str | None = None) -> ModuleType:
    """The ``darray`` module (Array API; ValueError for an unknown version)."""
    check_api_version(api_version)
    return _namespace[0]


def _dlpack(self: DArray, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
            dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
    """A DLPack capsule: shared host-addressable memory, else BufferError (``interop.dlpack``)."""
    return dlpack.dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)


def _array_function(self: DArray, func: Any, types: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """NumPy functions run darray's function (``interop.function``)."""
    return function.call(func, types, args, kwargs, self)


def _to(self: DArray, place: PlaceLike) -> DArray:
    """A copy on ``place`` (self when already there)."""
    return to_place(self, parse(place))


def _to_device(self: DArray, device: PlaceLike, /, *, stream: Any = None) -> DArray:
    """Array API name for :meth:`to`; ``stream`` is accepted and ignored (darray orders the copy
    after the array's pending work itself)."""
    return to_place(self, parse(device))


def _copy(self: DArray, order: str = "C") -> DArray:
    """A new array with the same values, C-contiguous (``order="F"``: Fortran; ``"A"``/``"K"``: as self)."""
    return astype(self, self._dtype, copy=True, order=order)


def _astype(self: DArray, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
            copy: bool = True) -> DArray:
    """Cast to ``dtype`` (NumPy ``astype`` semantics, including float -> int truncation); TypeError when
    ``casting`` forbids the cast; ``order`` as :meth:`copy` for a new array."""
    dt = _dt.as_dtype(dtype, "astype")
    if casting != "unsafe" and not _dt.can_cast(self._dtype, dt, casting=casting):
        raise TypeError(f"darray astype: Cannot cast array data from {self._dtype} to {dt} according to the rule "
                        f"{casting!r}")
    return astype(self, dt, copy=copy, order=order)


def _tolist(self: DArray) -> Any:
    """The elements as nested lists of Python scalars (a 0-d array: one scalar). See also:
    numpy.ndarray.tolist."""
    return to_numpy(self).tolist()


def _scalar(kind: str, convert: Callable[[Any], Any]) -> Callable[[DArray], Any]:
    """``bool(x)``, ``int(x)``...: the one element, NumPy's errors for any other size."""
    def method(self: DArray) -> Any:
        if self.size != 1:
            if kind == "bool":
                what = "a darray with more than one element" if self.size else "an empty darray"
                raise ValueError(f"The truth value of {what} is ambiguous. Use a.any() or a.all()")
            raise TypeError(f"only length-1 arrays can be converted to Python scalars (darray {kind}(), "
                            f"size {self.size})")
        v = scalar(self)  # NumPy's scalar converts as Python's does, at a tenth of ``.item()``'s cost;
        return convert(v.item() if self._dtype.kind == "c" else v)  # but float(complex) raises TypeError
    return method


def _index(self: DArray) -> int:
    if self.ndim or self._dtype.kind not in "iu":
        raise TypeError(f"darray __index__: only 0-d integer arrays can be used as an index, got {self.dtype} "
                        f"shape {self.shape}")
    return int(scalar(self))


def _iter(self: DArray) -> Iterator[DArray]:
    if not self.ndim:
        raise TypeError("iteration over a 0-d darray")
    return (self[i] for i in range(self.shape[0]))


def _reshape(self: DArray, *shape: Any, order: str = "C", copy: bool | None = None) -> DArray:
    """``darray.reshape(self, shape, order, copy=copy)``; the shape as one sequence or as ints."""
    return manipulation.reshape(self, shape[0] if len(shape) == 1 and not isinstance(shape[0], (int, np.integer))
                                else shape, order, copy=copy)


def _flatten(self: DArray, order: str = "C") -> DArray:
    """1-D copy, the elements in C order (``order="F"``: Fortran order)."""
    return manipulation.reshape(manipulation.ravel(self, order), (-1,), copy=True)


def _squeeze(self: DArray, axis: Any = None) -> DArray:
    """``darray.squeeze(self, axis)``; None drops every length-1 axis (a view)."""
    return manipulation.squeeze(self, axis)


def _transpose(self: DArray, *axes: Any) -> DArray:
    """``darray.transpose(self, axes)``; the axes as one sequence or as ints, none reverses them."""
    return manipulation.transpose(self, axes[0] if len(axes) == 1 and not isinstance(axes[0], (int, np.integer))
                                  else (axes or None))


def _repr(self: DArray) -> str:
    text = np.array_repr(to_numpy(self))
    body = text[len("array("):-1].replace("\n      ", "\n       ")
    return f"darray({body}, place={self._place})"


def _mT(self: DArray) -> DArray:
    """The last two axes swapped (a view); needs ``ndim >= 2``."""
    if self.ndim < 2:
        raise ValueError(f"darray mT: needs an array of at least 2 dimensions, got {self.ndim}")
    return self._view(self._dim.swapaxes(-1, -2))


def _T(self: DArray) -> DArray:
    """All axes reversed (a view)."""
    return self._view(self._dim.transpose())


METHODS: dict[str, Callable[..., Any]] = {
    **{f"__{p}{stem}__": f for stem, name in BINARY.items() for p, f in _binary(name).items()},
    **{f"__{stem}__": _compare(name) for stem, name in COMPARE.items()},
    **{f"__{stem}__": _unary(name) for stem, name in UNARY.items()},
    "__pow__": _pow,
    "__ipow__": _ipow,
    "__matmul__": lambda self, other, /: matmul(self, other),
    "__rmatmul__": lambda self, other, /: matmul(other, self),
    "__imatmul__": _imatmul,
    "__getitem__": indexing.getitem,  # views for basic keys
    "__setitem__": indexing.setitem,
    "__iter__": _iter,
    "__bool__": _scalar("bool", bool),
    "__int__": _scalar("int", int),
    "__float__": _scalar("float", float),
    "__complex__": _scalar("complex", complex),
    "__index__": _index,
    "__array__": _array,
    "__array_namespace__": _array_namespace,
    "__array_ufunc__": lambda self, uf, method, *inputs, **kwargs: ufunc.call(uf, method, inputs, kwargs),
    "__array_function__": _array_function,
    "__dlpack__": _dlpack,
    "__dlpack_device__": dlpack.dlpack_device,
    "__reduce__": pickling.reduce,
    "__repr__": _repr,
    "__str__": lambda self: str(to_numpy(self)),
    "get": _get,
    "tolist": _tolist,
    "to": _to,
    "to_device": _to_device,
    "to_pyopencl": cl_arrays.to_pyopencl,
    "copy": _copy,
    "astype": _astype,
    "reshape": _reshape,
    "ravel": manipulation.ravel,
    "flatten": _flatten,
    "squeeze": _squeeze,
    "transpose": _transpose,
}

PROPERTIES: dict[str, Callable[[DArray], Any]] = {"T": _T, "mT": _mT}

# NumPy's ndarray methods and attributes (darray/_ndarray.py), installed with the rows above
ALL_METHODS = {**METHODS, **_ndarray.METHODS}
ALL_PROPERTIES = {**{n: (get, None) for n, get in PROPERTIES.items()}, **_ndarray.PROPERTIES}


def install(namespace: ModuleType) -> None:
    """Attach the tables to DArray and hand the NumPy-function protocol its rows (once, from
    ``darray/__init__.py``, which passes itself: ``__array_namespace__`` returns it)."""
    _namespace[:] = [namespace]
    _ndarray.install(namespace)
    for name, fn in ALL_METHODS.items():
        setattr(DArray, name, fn)
    for name, (get, put) in ALL_PROPERTIES.items():
        setattr(DArray, name, property(get, put, doc=get.__doc__))
    DArray.__hash__ = None  # type: ignore[assignment]  # arrays are unhashable, like NumPy's
    function.install(lambda: _api.entries(namespace))


__all__ = ["install", "METHODS", "PROPERTIES", "ALL_METHODS", "ALL_PROPERTIES"]
