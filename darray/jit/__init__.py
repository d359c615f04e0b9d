"""``da.jit``: trace a function of arrays once per key, then replay its kernels.

``@da.jit`` (or ``da.jit(fn, static_argnames=...)``) wraps ``fn``. The first call for a key (the
structure of the arguments, each array's dtype, shape, strides, offset and place, which
arguments share memory, and the value of every static argument) traces ``fn`` without running
it (see ``_program``): elementwise chains fuse across the whole body, intermediates get one
arena planned by liveness, and the launches are recorded with their arguments. Later calls
bind the new arrays and replay the launches back to back in one scheduler command. Results
equal the unjitted function's bit for bit.

Differs from JAX: Python scalars (and any other hashable non-array argument) are static, part
of the key by value; pass a 0-d array for a value that changes from call to call. Code that
needs a value on the host inside the body (``float(x)``, ``if x > 0:``, a boolean mask whose
size depends on the data, ``nonzero``, ``unique``) raises ``darray.TraceError`` naming the op and
the line. Arrays on the ``cpu`` place (NumPy) are not traced: the function runs as it is.
On devices whose memory is host memory, ops that would compute on the host (a large float
matmul through NumPy's BLAS, a sort through NumPy) take their kernels in a trace: the same
values, but a matmul's sums are then added in the kernel's order (equal to rounding, not bit
for bit). Inside a trace indices are not bounds-checked (NumPy's IndexError needs a read
back): a gather reads 0 at an index out of bounds, a scatter skips it.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .. import sched
from .._array import DArray
from ..errors import TraceError
from ..place import CLPlace, current
from . import _tree
from ._program import Program, replay, trace
from ._tree import register

__all__ = ["jit", "Jitted", "TraceError", "register"]

MAXSIZE = 64  # programs kept per jitted function (least recently used dropped first)
_clock = itertools.count()  # when a program was last used
_FLAT: dict[int, Any] = {}  # the structure of n positional arrays and no keywords, by n


class _Static:
    """An argument named in ``static_argnames``: part of the key by value, never flattened."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _flatten_static(obj: _Static) -> tuple[tuple[Any, ...], Any]:
    try:
        hash(obj.value)
    except TypeError:
        raise TypeError(f"darray.jit: static argument {obj.value!r} is not hashable") from None
    return (), _tree.Static(obj.value)


register(_Static, _flatten_static, lambda aux, children: aux.value)


class Jitted:
    """A jitted function: call it as ``fn``; ``explain(*args)`` prints the program for those
    arguments; ``traces`` counts traces, ``hits`` replays of a cached program."""

    def __init__(self, fn: Callable[..., Any], static_argnames: Sequence[str] = (), maxsize: int = MAXSIZE) -> None:
        self.fn = fn
        self.static = frozenset(static_argnames)
        self.signature = inspect.signature(fn) if self.static else None
        if self.signature is not None and not any(p.kind is p.VAR_KEYWORD for p in self.signature.parameters.values()):
            unknown = sorted(self.static - self.signature.parameters.keys())
            if unknown:
                raise ValueError(f"darray.jit: static_argnames {unknown} are not parameters of "
                                 f"{getattr(fn, '__name__', fn)}")
        self.maxsize = maxsize
        self.traces = self.hits = 0
        self._cache: dict[tuple, Program] = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def _key(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple, list[DArray], list[int], Any]:
        if self.signature is None and not kwargs and all([type(a) is DArray for a in args]):
            return self._flat_key(list(args))
        if self.signature is not None:
            bound = self.signature.bind(*args, **kwargs)
            for name in self.static & bound.arguments.keys():
                bound.arguments[name] = _Static(bound.arguments[name])
            args, kwargs = bound.args, bound.kwargs
        leaves: list[DArray] = []
        return self._flat_key(leaves, _tree.flatten((args, kwargs), leaves))

    def _flat_key(self, leaves: list[DArray], spec: Any = None) -> tuple[tuple, list[DArray], list[int], Any]:
        """The key of arguments flattened to ``leaves`` with structure ``spec`` (None: the leaves
        are the positional arguments themselves, the common case, made without a walk)."""
        if spec is None:
            spec = _FLAT.get(len(leaves)) or _FLAT.setdefault(len(leaves), _tree.flatten((tuple(leaves), {}), []))
        place = leaves[0]._place if leaves else current()
        ids: dict[int, int] = {}
        groups = []
        for x in leaves:
            if x._place is not place and x._place != place:
                return (), leaves, [], None
            groups.append(ids.setdefault(id(x._data()) if isinstance(place, CLPlace) else 0, len(ids)))
        key = (spec, tuple([(x._dtype, x._dim) for x in leaves]), tuple(groups), place)
        return key, leaves, groups, place

    def _program(self, key: tuple, leaves: list[DArray], groups: list[int], place: CLPlace) -> Program:
        spec = key[0]
        p = self._cache.get(key)
        sized = p is not None and p.by_extent
        if sized:  # its trace read how far the inputs' memory reaches: keyed by that too
            key = (key, _extents(leaves, groups))
            p = self._cache.get(key)
        if p is None:
            with self._lock:
                p = self._cache.get(key)
                if p is None:
                    p = trace(self.fn, getattr(self.fn, "__name__", "jit"), spec, leaves, groups, place)
                    self.traces += 1
                    if len(self._cache) >= self.maxsize:  # the least recently used goes
                        del self._cache[min(self._cache, key=lambda k: self._cache[k].used)]
                    if p.by_extent and not sized:  # the plain key sends later calls to the sized one
                        self._cache[key] = p
                        key = (key, _extents(leaves, groups))
                    self._cache[key] = p
                    p.used = next(_clock)
                    return p
        self.hits += 1
        p.used = next(_clock)
        return p

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if sched.capturing() is not None:  # called inside another trace: part of that one
            return self.fn(*args, **kwargs)
        key, leaves, groups, place = self._key(args, kwargs)
        if not isinstance(place, CLPlace):  # cpu place or mixed places: nothing to capture
            return self.fn(*args, **kwargs)
        p = self._program(key, leaves, groups, place)
        return _tree.unflatten(p.result_spec, replay(p, leaves, groups))[0]

    def explain(self, *args: Any, **kwargs: Any) -> str:
        """Print (and return) the program these arguments run: launches, slots, arena bytes."""
        key, leaves, groups, place = self._key(args, kwargs)
        if not isinstance(place, CLPlace):
            text = f"da.jit {getattr(self.fn, '__name__', 'jit')}: not traced on {place} (runs as it is)"
        else:
            text = self._program(key, leaves, groups, place).explain()
        print(text)
        return text

    def clear(self) -> None:
        """Drop every cached program (and its arena)."""
        with self._lock:
            self._cache.clear()


def _extents(leaves: list[DArray], groups: list[int]) -> tuple[int, ...]:
    """The bytes of each input group's memory (a program whose trace read them is keyed by them)."""
    sizes = [0] * (max(groups, default=-1) + 1)
    for x, g in zip(leaves, groups):
        sizes[g] = max(sizes[g], x._data().nbytes)
    return tuple(sizes)


def jit(fn: Callable[..., Any] | None = None, *, static_argnames: Sequence[str] | str = (),
        maxsize: int = MAXSIZE) -> Any:
    """Trace ``fn`` once per key and replay the kernels it launched on later calls.

    The key: the arguments' structure, each array's dtype, shape, strides, offset and place,
    which arrays share memory, and the value of every other argument. ``static_argnames``:
    arguments passed as they are, keyed by value (any hashable object). ``maxsize``: programs
    kept (LRU). Usable as ``@da.jit`` or ``@da.jit(static_argnames=...)``; ``fn.explain(*args)``
    prints the program. See also: jax.jit. Differs from JAX: Python scalars are static (a 0-d
    array changes per call without a new trace); a body that needs a value on the host raises
    ``darray.TraceError``; inside a trace, indices are not bounds-checked.
    """
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
    if fn is None:
        return lambda f: Jitted(f, names, maxsize)
    return Jitted(fn, names, maxsize)
