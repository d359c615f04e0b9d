"""NumPy's ndarray methods and attributes on DArray, as tables ``_methods.install()`` attaches.

Most methods are the namespace function of the same name called with the array first
(``x.cumsum(0)`` is ``darray.cumsum(x, 0)``): ``DELEGATED`` lists them. The rest are views and
conversions of the record itself: ``flags``, ``flat``, ``view(dtype)``, ``real``/``imag``
(writable views of a complex array), ``base``, ``item(*args)``, ``fill``, ``resize`` (in place),
and the host-copy ones (``tobytes``, ``tofile``, ``dump(s)``, ``byteswap``, ``getfield``,
``setfield``), which say so. ``flags.writeable = False`` (or ``setflags(write=False)``) makes an
array read-only, as NumPy's: every write raises ValueError (checked where writes enter:
``transfer.convert.assign``/``write``, ``ops.elementwise.check_out``, advanced setitem, ``put``...), and
views of it are read-only. Differs from NumPy: ``ctypes`` and ``data`` (host memory layout) do
not exist.
"""
from __future__ import annotations

import inspect
import operator
import pickle
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from . import dtypes as _dt
from ._array import LOCKED, READ_ONLY, DArray, read_only, set_writeable
from .dim import Dim
from .ops import manipulation, taking
from .ops.creation import arange, default_float, zeros
from .place import PlaceLike, parse
from .transfer.convert import asarray, assign, item, to_numpy
from .transfer.convert import empty as _empty

# method -> the namespace function it calls with the array first (NumPy's method and function share
# their parameters after the array)
DELEGATED = ("all", "any", "argmax", "argmin", "argpartition", "choose", "conj", "conjugate", "cumprod", "cumsum",
             "diagonal", "dot", "max", "mean", "min", "nonzero", "prod", "ptp", "put", "repeat", "round",
             "searchsorted", "std", "sum", "swapaxes", "take", "trace", "var")
_BARE = ("conj", "conjugate", "nonzero")  # NumPy's methods take no argument but self there

_namespace: list[ModuleType] = []


def _delegate(name: str) -> Callable[..., Any]:
    def method(self: DArray, *args: Any, **kwargs: Any) -> Any:
        return getattr(_namespace[0], name)(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``darray.{name}(self, ...)``, NumPy's ``ndarray.{name}``."
    return method


def _clip(self: DArray, min: Any = None, max: Any = None, out: Any = None) -> DArray:  # noqa: A002
    """``darray.clip(self, min, max, out)``, NumPy's ``ndarray.clip``."""
    return _namespace[0].clip(self, min, max, out)


def _compress(self: DArray, condition: Any, axis: int | None = None, out: Any = None) -> DArray:
    """``darray.compress(condition, self, axis, out)``, NumPy's ``ndarray.compress``."""
    return _namespace[0].compress(condition, self, axis, out)


def _argsort(self: DArray, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
             stable: bool | None = None) -> DArray:
    """``darray.argsort(self, axis)``: stable whatever ``kind``."""
    return _namespace[0].argsort(self, axis=axis)


def _sort(self: DArray, axis: int = -1, kind: str | None = None, order: Any = None, *,
          stable: bool | None = None) -> None:
    """Sort in place along ``axis`` (stable whatever ``kind``), as NumPy's ``ndarray.sort``."""
    if self._readonly:
        read_only("sort", "array")
    self[...] = _namespace[0].sort(self, axis=axis)


def _partition(self: DArray, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None) -> None:
    """Partition in place around ``kth``, as NumPy's ``ndarray.partition``."""
    if self._readonly:
        read_only("partition", "array")
    self[...] = _namespace[0].partition(self, kth, axis=axis)


class Flags:
    """NumPy's ``ndarray.flags`` of a DArray: by attribute (``c_contiguous``) or key (``"C"``), read
    when asked. ``writeable`` (``"W"``) can be set, as NumPy's; the others are read-only."""

    __slots__ = ("_x",)
    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
             "F": "f_contiguous", "WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata",
             "O": "owndata", "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
             "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved", "B": "behaved",
             "CARRAY": "carray", "CA": "carray", "FARRAY": "farray", "FA": "farray"}

    def __init__(self, x: DArray) -> None:
        self._x = x

    c_contiguous = contiguous = property(lambda self: self._x._dim.is_c_contiguous)
    f_contiguous = property(lambda self: self._x._dim.is_f_contiguous)
    owndata = property(lambda self: self._x._base is None)
    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    behaved = property(lambda self: not self._x._readonly)
    carray = property(lambda self: self.behaved and self.c_contiguous)
    farray = property(lambda self: self.behaved and self.fnc)
    forc = property(lambda self: self.c_contiguous or self.f_contiguous)
    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)

    @property
    def writeable(self) -> bool:
        return not self._x._readonly

    @writeable.setter
    def writeable(self, flag: bool) -> None:
        set_writeable(self._x, bool(flag))

    def __getitem__(self, key: str) -> bool:
        if key not in self._KEYS:
            raise KeyError(f"darray flags: unknown flag {key!r}")
        return bool(getattr(self, self._KEYS[key]))

    def __setitem__(self, key: str, flag: bool) -> None:
        if self._KEYS.get(key) != "writeable":
            raise KeyError(f"darray flags: flag {key!r} cannot be set (only WRITEABLE)")
        self.writeable = flag

    def __repr__(self) -> str:
        names = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")
        return "\n".join(f"  {n} : {self[n]}" for n in names)


class FlatIter:
    """``x.flat``: iterates over the elements in C order (NumPy scalars, from one host copy) and
    indexes ``x`` as if it were 1-D; ``x.flat[key] = value`` writes into ``x`` (values repeated,
    as NumPy's). Differs from NumPy: ``x.flat[i]`` is a 0-d DArray, as ``x[i]`` is."""

    def __init__(self, x: DArray) -> None:
        self.base = x

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self) -> Iterator[Any]:
        return iter(to_numpy(self.base).reshape(-1))

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return to_numpy(self.base).reshape(-1).astype(dtype or self.base.dtype, copy=False)

    def copy(self) -> DArray:
        return manipulation.reshape(self.base, (-1,), copy=True)

    def __getitem__(self, key: Any) -> DArray:
        return manipulation.reshape(self.base, (-1,))[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        x = self.base
        if x._readonly:
            read_only("flat", "underlying array")
        if x._dim.is_c_contiguous and not isinstance(key, (list, tuple, np.ndarray, DArray)):
            flat = x._view(Dim.contiguous((x.size,), x._dim.offset))
            selected = flat[key]
            size = selected.size
            values = value if isinstance(value, DArray) else asarray(value, device=x.place)
            if values.size in (1, size) or values.ndim == 0:
                flat[key] = values.reshape(selected.shape) if values.size == size else values
                return
        taking.put(x, arange(x.size, device=x.place)[key], value)


def _view(self: DArray, dtype: Any = None, type: Any = None) -> DArray:  # noqa: A002  (NumPy's name)
    """A view of the same memory, as ``dtype`` (NumPy's ``ndarray.view``): same-size dtypes keep the
    shape; another size rescales the last axis, which must be contiguous.

    Differs from NumPy: the other strides and the view's offset must be multiples of the new
    itemsize too (darray counts strides in elements)."""
    if type is not None and type is not DArray:
        raise TypeError(f"darray view: type={type!r} is not supported (only DArray)")
    new = self._dtype if dtype is None else _dt.as_dtype(dtype, "view")
    old_size, new_size = self._dtype.itemsize, new.itemsize
    if new_size == old_size:
        return self._view(self._dim, new)
    dim = self._dim
    if not self.ndim or (dim.shape[-1] != 1 and dim.strides[-1] != 1):
        raise ValueError("darray view: to change to a dtype of a different size, the last axis must be "
                         "contiguous")
    last = dim.shape[-1] * old_size
    scaled = [s * old_size if n > 1 and self.size else 0 for n, s in zip(dim.shape[:-1], dim.strides[:-1])]
    scaled.append(dim.offset * old_size if self.size else 0)
    if last % new_size or any(s % new_size for s in scaled):  # darray's strides count elements, not bytes
        raise ValueError(f"darray view: the last axis ({last} bytes), the strides and the offset must be "
                         f"multiples of the new itemsize {new_size}")
    shape = (*dim.shape[:-1], last // new_size)
    return self._view(Dim(shape, (*(s // new_size for s in scaled[:-1]), 1), scaled[-1] // new_size), new)


def _part(self: DArray, imag: bool) -> DArray:
    """The real or imaginary part of a complex array as a writable view (float components)."""
    dim = self._dim
    return self._view(Dim(dim.shape, tuple(2 * s for s in dim.strides), 2 * dim.offset + imag),
                      _dt.real_dtype(self._dtype))


def _real(self: DArray) -> DArray:
    """The real part: a writable view of a complex array, the array itself otherwise."""
    return _part(self, False) if self._dtype.kind == "c" else self


def _imag(self: DArray) -> DArray:
    """The imaginary part: a view of a complex array, else new zeros, read-only as NumPy's."""
    if self._dtype.kind == "c":
        return _part(self, True)
    out = zeros(self.shape, dtype=self._dtype, device=self.place)
    out._readonly = READ_ONLY
    return out


def _set_real(self: DArray, value: Any) -> None:
    real = _real(self)
    assign(real, real._dim, value, "real")


def _set_imag(self: DArray, value: Any) -> None:
    if self._dtype.kind != "c":
        raise TypeError(f"darray imag: array of dtype {self._dtype} has no imaginary part to set")
    part = _part(self, True)
    assign(part, part._dim, value, "imag")


def _item(self: DArray, *args: Any) -> Any:
    """One element as a Python scalar: no argument (size 1), a flat index, or one index per axis."""
    if not args:
        return item(self)
    key = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
    if len(key) == 1 and self.ndim != 1:
        (i,) = key
        if not -self.size <= i < self.size:
            raise IndexError(f"darray item: index {i} is out of bounds for size {self.size}")
        key = tuple(int(k) for k in np.unravel_index(i % self.size, self.shape))
    return item(self[key])


def _fill(self: DArray, value: Any) -> None:
    """Every element set to ``value`` (in place)."""
    assign(self, self._dim, value, "fill")


def _resize(self: DArray, *new_shape: Any, refcheck: bool = True) -> None:
    """Resize in place (NumPy's ``ndarray.resize``): the elements in C order, zeros after them.
    ValueError for an array that does not own its memory (a view), as NumPy."""
    shape = new_shape[0] if len(new_shape) == 1 and not isinstance(new_shape[0], (int, np.integer)) else new_shape
    if self._base is not None:
        raise ValueError("darray resize: cannot resize this array: it does not own its data")
    target = Dim.contiguous(shape)
    out = zeros(target.size, dtype=self._dtype, device=self.place)
    n = min(self.size, target.size)
    if n:
        out[:n] = manipulation.reshape(self, (-1,))[:n]
    self._rebind(out._data(), target)


def _setflags(self: DArray, *, write: bool | None = None, align: bool | None = None, uic: bool | None = None) -> None:
    """``write``: ``flags.writeable`` (ValueError for True on a view of a read-only array, as NumPy).
    Differs from NumPy: darray arrays are always aligned, so ``align=False`` and ``uic`` are
    ValueErrors."""
    if align is False or uic:
        raise ValueError("darray setflags: darray arrays are always aligned (align=False and uic are not supported)")
    if write is not None:
        set_writeable(self, bool(write))


def _host(fn: Callable[..., Any], doc: str) -> Callable[..., Any]:
    """A method computed by NumPy on a host copy of the array."""
    def method(self: DArray, *args: Any, **kwargs: Any) -> Any:
        return fn(to_numpy(self), *args, **kwargs)

    method.__doc__ = f"{doc} (through a host copy)."
    method.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]  # NumPy's, called as given
    return method


def _byteswap(self: DArray, inplace: bool = False) -> DArray:
    """The bytes of each element reversed (through a host copy); ``inplace`` writes them back."""
    if inplace and self._readonly:
        read_only("byteswap", "array to be byte-swapped")
    swapped = to_numpy(self).byteswap()
    if inplace:
        assign(self, self._dim, swapped)
        return self
    return asarray(swapped, device=self.place)


def _getfield(self: DArray, dtype: Any, offset: int = 0) -> DArray:
    """NumPy's ``getfield`` (through a host copy): each element's bytes at ``offset`` as ``dtype``."""
    return asarray(to_numpy(self).getfield(np.dtype(dtype), offset), device=self.place)


def _setfield(self: DArray, val: Any, dtype: Any, offset: int = 0) -> None:
    """NumPy's ``setfield`` (through a host copy, written back)."""
    if self._readonly:
        read_only("setfield")
    host = to_numpy(self)
    host.setfield(to_numpy(val) if isinstance(val, DArray) else val, np.dtype(dtype), offset)
    assign(self, self._dim, host)


def _dump(self: DArray, file: Any) -> None:
    """Pickle the array to ``file`` (a path or an open binary file), as NumPy's ``dump``."""
    if hasattr(file, "write"):
        pickle.dump(self, file, protocol=2)
    else:
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)


METHODS: dict[str, Callable[..., Any]] = {
    **{name: _delegate(name) for name in DELEGATED},
    "clip": _clip,
    "compress": _compress,
    "argsort": _argsort,
    "sort": _sort,
    "partition": _partition,
    "view": _view,
    "item": _item,
    "fill": _fill,
    "resize": _resize,
    "setflags": _setflags,
    "byteswap": _byteswap,
    "getfield": _getfield,
    "setfield": _setfield,
    "tobytes": _host(np.ndarray.tobytes, "The elements' bytes, as NumPy's ``tobytes``"),
    "tofile": _host(np.ndarray.tofile, "Write the elements to a file, as NumPy's ``tofile``"),
    "dump": _dump,
    "dumps": lambda self: pickle.dumps(self, protocol=2),
}

# name -> (getter, setter or None)
PROPERTIES: dict[str, tuple[Callable[[DArray], Any], Callable[[DArray, Any], None] | None]] = {
    "flags": (Flags, None),
    "flat": (FlatIter, lambda self, value: FlatIter(self).__setitem__(slice(None), value)),
    "real": (_real, _set_real),
    "imag": (_imag, _set_imag),
    "base": (lambda self: self._base, None),
}


def install(namespace: ModuleType) -> None:
    """The namespace whose functions the delegated methods call (from ``_methods.install``); each
    delegated method takes the signature of its function, the array first as ``self``."""
    _namespace[:] = [namespace]
    for name in DELEGATED:
        params = [] if name in _BARE else list(inspect.signature(getattr(namespace, name)).parameters.values())[1:]
        METHODS[name].__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY), *params])


def _layout(shape: tuple[int, ...], item: int, strides: Any, order: str | None) -> tuple[int, ...]:
    """Byte strides of a new array: ``strides`` (checked against the rank) or C/F order's."""
    if order not in (None, "C", "F", "A", "K"):
        raise ValueError(f"darray ndarray: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if strides is not None:
        strides = tuple(operator.index(s) for s in strides)
        if len(strides) != len(shape):
            raise ValueError("darray ndarray: strides, if given, must be the same length as shape")
        return strides
    dims = shape[::-1] if order == "F" else shape
    out, step = [], item
    for n in reversed(dims):
        out.append(step)
        step *= max(n, 1)
    return tuple(out) if order == "F" else tuple(out[::-1])


def _extent(shape: tuple[int, ...], strides: tuple[int, ...], offset: int, item: int) -> tuple[int, int]:
    """(lowest byte, one past the highest) a view of ``shape``/``strides`` at byte ``offset`` reaches."""
    if 0 in shape:
        return offset, offset
    lo = hi = offset
    for n, st in zip(shape, strides):
        lo, hi = lo + min(0, (n - 1) * st), hi + max(0, (n - 1) * st)
    return lo, hi + item


def _on(memory: DArray, start: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype,
        view: bool) -> DArray:
    """``shape``/byte ``strides`` of ``dtype`` over ``memory``'s allocation, element 0 at byte ``start``
    of it: a view of ``memory`` (``view``), else a new owner of that memory."""
    item = dtype.itemsize
    if start % item or any(st % item for st in strides):
        raise ValueError(f"darray ndarray: the offset into the memory ({start} bytes) and the strides {strides} "
                         f"must be multiples of the itemsize {item} (darray counts strides in elements)")
    dim = Dim(shape, tuple(st // item for st in strides), start // item)
    return memory._view(dim, dtype) if view else DArray(memory._data(), dim, dtype, memory._place)


def new_ndarray(shape: Any, dtype: Any = float, buffer: Any = None, offset: int = 0, strides: Any = None,
                order: str | None = None, *, device: PlaceLike = None) -> DArray:
    """``darray.ndarray(shape, dtype, buffer, offset, strides, order)``: NumPy's low-level constructor.

    Without ``buffer``: a new uninitialised array (``order="F"``: Fortran strides; ``strides``: byte
    strides over ``prod(shape) * itemsize`` bytes). With a DArray ``buffer`` (contiguous): a view of
    its memory sharing it, element 0 at byte ``offset``, with byte ``strides``, read-only where the
    buffer is. Another ``buffer`` (bytes, bytearray, memoryview, a NumPy array...) is read by NumPy
    (its errors) and copied onto ``device`` (the default place), read-only where NumPy's would be.
    Differs from NumPy: a host buffer is copied, never shared (device memory cannot alias host
    memory), and the copy is C- (or F-) contiguous whatever ``strides``; offsets and strides must be
    multiples of the itemsize; ``dtype=float`` (the default) is the place's default float."""
    if isinstance(buffer, DArray):
        place = buffer._place
    else:
        place = parse(device)
    dt = default_float(place) if dtype is None or dtype is float else _dt.as_dtype(dtype, "ndarray")
    dims = Dim.contiguous(shape).shape
    item = dt.itemsize
    if buffer is not None and not isinstance(buffer, DArray):  # host memory: NumPy's rules, then a copy
        host = np.ndarray(dims, dt, buffer=buffer, offset=offset, strides=strides,
                          order=order)  # type: ignore[arg-type]  # (NumPy checks it)
        out = new_ndarray(dims, dt, order="F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C",
                          device=place)
        assign(out, out._dim, host, "ndarray")
        out._readonly = 0 if host.flags.writeable else LOCKED
        return out
    byte_strides = _layout(dims, item, strides, order)
    size = int(np.prod(dims, dtype=np.int64))
    if buffer is None:  # NumPy allocates prod(shape) * itemsize bytes whatever the strides (and ignores offset)
        memory, start, length = _empty((size,), dt, place, "ndarray"), 0, size * item
        if not size:
            byte_strides = (0,) * len(dims)  # (NumPy's strides of a new empty array, whatever ``strides``)
    else:
        memory = buffer
        if not (buffer._dim.is_c_contiguous or buffer._dim.is_f_contiguous):
            raise ValueError("darray ndarray: buffer is not contiguous")
        start, length = buffer._dim.offset * buffer.itemsize, buffer.nbytes
        if operator.index(offset) < 0:
            raise ValueError(f"darray ndarray: offset must be non-negative, got {offset}")
    at = 0 if buffer is None else operator.index(offset)
    if strides is None and (at > length or length - at < size * item):
        raise TypeError("darray ndarray: buffer is too small for requested array")
    lo, hi = _extent(dims, byte_strides, at, item)
    if at > length or size and (lo < 0 or hi > length):
        raise ValueError("darray ndarray: strides is incompatible with shape of requested array and size of buffer")
    return _on(memory, start + at, dims, byte_strides, dt, buffer is not None)


class _NdarrayType(type):
    """The metaclass of ``darray.ndarray``: every DArray is an instance of it (``isinstance``,
    ``issubclass``), its attributes are DArray's, and calling it is :func:`new_ndarray`. So internal
    code keeps constructing ``DArray(alloc, dim, dtype, place)`` at full speed."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, DArray)

    def __subclasscheck__(cls, sub: Any) -> bool:
        return isinstance(sub, type) and issubclass(sub, DArray)

    def __getattr__(cls, name: str) -> Any:
        return getattr(DArray, name)

    def __call__(cls, shape: Any, dtype: Any = float, buffer: Any = None, offset: int = 0,
                 strides: Any = None, order: str | None = None, *, device: PlaceLike = None) -> DArray:
        return new_ndarray(shape, dtype, buffer, offset, strides, order, device=device)


class ndarray(metaclass=_NdarrayType):  # noqa: N801  (NumPy's name)
    """NumPy's ``ndarray``: ``isinstance(x, darray.ndarray)`` is True for every DArray, and
    ``darray.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None)`` builds one
    as NumPy's constructor (see :func:`new_ndarray`: a DArray buffer is viewed, a host one copied).
    Differs from NumPy: ``type(x)`` is ``darray.DArray``, a class apart from this one."""


__all__ = ["METHODS", "PROPERTIES", "DELEGATED", "Flags", "FlatIter", "install", "ndarray", "new_ndarray"]
