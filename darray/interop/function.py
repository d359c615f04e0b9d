"""``DArray.__array_function__``: NumPy functions on DArrays run darray's function.

The table comes from the rows ``install`` is given (``darray._api.entries()``, installed by
``darray._methods``; the API table sits above interop, which never imports it): each public darray function whose NumPy
equivalent (its ``See also: numpy.X``) is a NumPy function (ufuncs go through
``interop.ufunc``). A call darray's function takes as it is (most take NumPy's signature) is
passed on unchanged; else it is bound to NumPy's signature and passed on by position (NumPy's
leading parameters are darray's positional-only ones, whatever their names) or by name
(``_RENAMES`` for the few that differ). ``out=`` is written after
the call; any other argument darray does not take, given a value other than NumPy's default,
is a TypeError naming it. A NumPy function darray does not implement runs NumPy on the arrays'
own memory when they are all on the ``cpu`` place (no copy), and is a TypeError naming it on
device places: never a silent host round trip.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from .._array import DArray
from ..ops import _dispatch as D
from ..ops._out import store
from ..transfer.convert import asarray

_P = inspect.Parameter
_RENAMES = {"where": {"x": "x1", "y": "x2"}, "var": {"ddof": "correction"}, "std": {"ddof": "correction"},
            "clip": {"a_min": "min", "a_max": "max"}}
_ATTRIBUTES = {np.ndim: "ndim", np.shape: "shape", np.size: "size"}  # NumPy's readers of array attributes
_IGNORED = {"sort": {"kind"}, "argsort": {"kind"}, "isin": {"assume_unique"}}  # hints darray has no use for


class Entry(Protocol):
    """What this module reads of an API row (``darray._api.Entry``)."""

    @property
    def name(self) -> str: ...

    @property
    def func(self) -> Callable[..., Any]: ...

    def numpy_object(self) -> Any: ...


_rows: list[Callable[[], Iterable[Entry]]] = []


def install(rows: Callable[[], Iterable[Entry]]) -> None:
    """Where the API rows come from (called once by ``darray._methods.install``)."""
    _rows[:] = [rows]
    table.cache_clear()


@lru_cache(maxsize=1)
def table() -> dict[Any, Entry]:
    """NumPy function -> the darray row implementing it (the row of NumPy's own name first)."""
    found: dict[Any, Entry] = {}
    for e in sorted(_rows[0](), key=lambda e: e.name.rsplit(".", 1)[-1] != getattr(e.numpy_object(), "__name__", "")):
        obj = e.numpy_object()
        if obj is not None and not isinstance(obj, np.ufunc) and callable(obj):
            found.setdefault(obj, e)
    return found


def _default(p: inspect.Parameter, value: Any) -> bool:
    return p.default is not p.empty and (value is p.default or value is np._NoValue
                                          or (type(value) is type(p.default) and value == p.default))




@lru_cache(maxsize=256)
def _signatures(func: Any, impl: Callable[..., Any]) -> tuple[inspect.Signature, list[inspect.Parameter]]:
    return inspect.signature(func), list(inspect.signature(impl).parameters.values())


def _binds(impl: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    try:
        _own_signature(impl).bind(*args, **kwargs)
    except TypeError:
        return False
    return True


@lru_cache(maxsize=512)
def _own_signature(impl: Callable[..., Any]) -> inspect.Signature:
    return inspect.signature(impl)


def _array_like(like: DArray, obj: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
                subok: bool = False, ndmin: int = 0) -> DArray:
    """``numpy.array(obj, dtype, like=like)`` (how Dask makes arrays like a chunk): a copy of
    ``obj`` on ``like``'s place."""
    if (order, subok, ndmin) != ("K", False, 0):
        raise TypeError("darray: numpy.array with order=, subok= or ndmin= is not supported on DArrays")
    return asarray(obj, dtype=dtype, device=like.place, copy=True)


def call(func: Any, types: Any, args: tuple[Any, ...], kwargs: dict[str, Any], like: DArray | None = None) -> Any:
    """``func(*args, **kwargs)`` for a NumPy function ``func``, through darray's implementation;
    NotImplemented when another array type takes part (it may implement ``func`` itself).
    ``like``: the DArray whose protocol was called (the ``like=`` of NumPy's creation functions)."""
    if not all(issubclass(t, (DArray, np.ndarray)) for t in types):
        return NotImplemented
    if func in _ATTRIBUTES and len(args) == 1 and not kwargs:
        return getattr(args[0], _ATTRIBUTES[func])
    if func is np.array and like is not None:
        return _array_like(like, *args, **kwargs)
    entry = table().get(func)
    name = getattr(func, "__name__", repr(func))
    if entry is None:
        places = {a.place for a in _darrays((args, kwargs))}
        if len(places) != 1:
            raise TypeError(f"darray: numpy.{name} is not implemented for DArrays on several places {places}")
        return D.implementation("function.numpy", places.pop())(func, name, args, kwargs)
    if _binds(entry.func, args, kwargs):  # darray's function takes NumPy's call as is
        return entry.func(*args, **kwargs)
    sig, params = _signatures(func, entry.func)
    bound = sig.bind(*args, **kwargs).arguments
    n_pos = sum(p.kind is _P.POSITIONAL_ONLY for p in params)
    names = {p.name for p in params if p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY)}
    renames, ignored = _RENAMES.get(name, {}), _IGNORED.get(name, set())
    pos: list[Any] = []
    kw: dict[str, Any] = {}
    out = None
    for i, p in enumerate(sig.parameters.values()):
        if p.name not in bound:
            continue
        value = bound[p.name]
        if p.kind is _P.VAR_POSITIONAL:
            pos.extend(value)
        elif p.kind is _P.VAR_KEYWORD:
            extra = sorted(set(value) - names)
            if extra:
                raise TypeError(f"darray: numpy.{name} with {', '.join(extra)} is not supported on DArrays")
            kw.update(value)
        elif p.name == "out" and value is not None:
            out = value
        elif _default(p, value) or p.name in ignored:
            continue
        elif i < n_pos:
            pos.append(value)
        elif renames.get(p.name, p.name) in names:
            kw[renames.get(p.name, p.name)] = value
        else:
            raise TypeError(f"darray: numpy.{name}'s argument {p.name}={value!r} is not supported on DArrays")
    result = entry.func(*pos, **kw)
    return result if out is None else store(name, out, result)


def _darrays(obj: Any) -> Iterator[DArray]:
    """The DArrays in NumPy's arguments (nested in tuples, lists and dicts)."""
    if isinstance(obj, DArray):
        yield obj
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            yield from _darrays(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _darrays(item)


def _swap(obj: Any, fn: Callable[[Any], Any], kind: type) -> Any:
    """``obj`` with every ``kind`` inside it (nested in tuples, lists and dicts) replaced by ``fn`` of it."""
    if isinstance(obj, kind):
        return fn(obj)
    if isinstance(obj, (tuple, list)):
        return type(obj)(_swap(item, fn, kind) for item in obj)
    if isinstance(obj, dict):
        return {k: _swap(v, fn, kind) for k, v in obj.items()}
    return obj


@D.register("function.numpy", "cpu")
def _numpy_on_host(func: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A NumPy function darray lacks, on ``cpu``-place arrays: NumPy runs on the arrays' own memory
    (no copy; in-place functions write into it); array results come back as ``cpu``-place DArrays."""
    result = func(*_swap(args, _memory, DArray), **_swap(kwargs, _memory, DArray))
    return _swap(result, lambda r: asarray(r, device="cpu"), np.ndarray)


def _memory(x: DArray) -> np.ndarray:
    x._data()  # settles a pending array first
    return x._host_view()


@D.register("function.numpy", "cl")
def _numpy_on_device(func: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    raise TypeError(f"darray: numpy.{name} is not implemented for DArrays (no host round trip is made; "
                    "convert with numpy.asarray(x) to compute it with NumPy)")
