"""The host engine's at-once lane: ops over settled arrays computed by NumPy as they are called, with
no graph, and 0-d results held as their value, without memory (``graph.known``).

An element read (``x[i, j]``), a small op over settled arrays (:func:`compute`), a small sum or
product (``ops.reduction``, ``lazy.host_sum``) and a small matmul give new arrays here: a 0-d one
holds a NumPy scalar (:func:`held`), which later 0-d ops and ``float()``/``bool()`` read without
touching memory; a larger one is a pooled block nothing is pending on (:func:`fresh`). Every
function returns None where the engine may not run now (a kernel or write pending on an input,
the engine off, a profile or ``da.jit`` trace active); the caller then records the op.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._array import DArray
from ..dim import Dim
from ..place import CLPlace
from ..sched import settled
from ..sched._capture import TRACES as _traces
from ..sched._profile import _active
from . import host
from .graph import known, known_value
from .host import _GENERAL, _host_pool, _into, _memory, _quiet_run, _settled, _typed
from .table import ref

NOW_MAX = 16384  # elements an op run at once may have: above it a chain is faster as one fused kernel (measured)
_SCALAR = Dim.trusted(())


def held(value: Any, dtype: np.dtype, place: Any) -> DArray:
    """A new 0-d array of ``dtype`` holding ``value`` (a NumPy scalar or 0-d array) without memory
    until something needs its memory (``graph.known``): a result the engine computed at once."""
    if type(value) is not dtype.type:
        value = np.asarray(value).astype(dtype)[()]
    return DArray(None, _SCALAR, dtype, place, known(value))


def element(x: DArray) -> np.generic | None:
    """The one element of a size-1 ``x`` as a NumPy scalar where ``host.view`` would give its
    memory (or holds it: ``graph.known``), else None."""
    n = x._node
    if n is not None:
        return known_value(n)
    a = _settled(x, False)
    if a is None:
        return None
    return _first(a, x._dim, x._dtype)


def element_at(x: DArray, key: Any) -> DArray | None:
    """``x[key]`` for a ``key`` of one integer per axis (a tuple, or one for a vector), read
    now where ``host.view`` would give ``x``'s memory: a new 0-d array held as the element's value
    (of ``x``'s dtype). None for any other key, an index out of range (the caller raises NumPy's
    error) or an ``x`` the engine may not read now. No index plan, no view: the offset is summed
    here."""
    d = x._dim
    strides = d.strides
    k = d.offset
    if type(key) is tuple:
        if len(key) != len(strides):
            return None
        shape = d.shape
        for axis, i in enumerate(key):
            if type(i) is not int:
                if not isinstance(i, np.integer):
                    return None
                i = int(i)
            n = shape[axis]
            if i < 0:
                i += n
            if not 0 <= i < n:
                return None
            k += i * strides[axis]
    elif (type(key) is int or isinstance(key, np.integer)) and len(strides) == 1:
        n = d.shape[0]
        i = int(key)
        if i < 0:
            i += n
        if not 0 <= i < n:
            return None
        k += i * strides[0]
    else:
        return None
    a = _settled(x, False)
    if a is None:
        return None
    dtype = x._dtype
    size = dtype.itemsize
    flat = _typed(a, dtype) if not a.offset % size else None
    value = flat[a.offset // size + k] if flat is not None else \
        np.ndarray((), dtype, buffer=a.host, offset=a.offset + k * size)[()]  # (memory not typed as ``dtype``)
    return DArray(None, _SCALAR, dtype, x._place, known(value))


def _first(a: Any, d: Dim, dtype: np.dtype) -> Any:
    """The element at the start of view ``d`` of allocation ``a`` (host memory) as a NumPy scalar."""
    size = dtype.itemsize
    flat = _typed(a, dtype) if not a.offset % size else None
    if flat is None:
        flat, k = _memory(a, d, dtype).reshape(-1), 0
    else:
        k = a.offset // size + d.offset
    return flat[k]


def _fresh(place: CLPlace, dim: Dim, dtype: np.dtype, p: Any = None) -> DArray | None:
    """A new array from a pooled block nothing is pending on (else None: a guard fill, or an earlier
    owner's command still queued); ``place`` is host-backed, ``p`` its pool (when known)."""
    alloc = (p or _host_pool(place)).allocate(dim.size * dtype.itemsize)  # no trace is active: a pooled block
    if (alloc.write is not None or alloc.reads) and not settled((alloc,), 1):  # (entries known complete are no bar)
        return None
    return DArray(alloc, dim, dtype, place)


def fresh(place: CLPlace, shape: tuple[int, ...], dtype: np.dtype) -> tuple[DArray, np.ndarray] | None:
    """A new C-contiguous array for the engine to compute into and its memory as a NumPy array,
    from a pooled block nothing is pending on; None where the block is not free yet."""
    dim = Dim.trusted(shape)
    made = _fresh(place, dim, dtype)
    return None if made is None else (made, _memory(made._alloc, dim, dtype))


def put(values: np.ndarray, dim: Dim, dtype: np.dtype, place: CLPlace) -> DArray | None:
    """A new array of ``dim`` (C-contiguous) and ``dtype`` holding ``values`` (broadcast to it: a
    0-d array fills), copied in by NumPy at once: where ``host.usable`` admits ``dim``'s size, into
    a pooled block nothing is pending on, with no profile active (it lists uploads and fills).
    Else None."""
    if not dim.size or _active or not host.usable(place, dim.size):
        return None
    made = _fresh(place, dim, dtype)
    if made is not None:
        np.copyto(_memory(made._alloc, dim, dtype), values)
    return made


# ops whose NumPy scalar operator computes what the ufunc's loop does over scalars of the loop dtypes,
# at a tenth of a ufunc call's cost
_SCALAR_MATH: dict[str, Callable[..., Any]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "negative": operator.neg, "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
    "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}


def compute(op: str, args: Sequence[Any], ins: Sequence[np.dtype], out: np.dtype, shape: tuple[int, ...],
            place: CLPlace, into: DArray | None = None) -> DArray | None:
    """``op`` over ``args`` (DArrays and scalars; loop dtypes ``ins``) computed by NumPy as it is
    called, into a new array of ``out`` (0-d: :func:`held`): for an op exact on the host (the caller's
    to check) over materialised arrays nothing is pending on, of at most ``min(host.LIMIT, NOW_MAX)``
    elements on a host-backed device, with no profile (whose listing shows host runs) or ``da.jit``
    trace active. Else None: the op is recorded. It costs less than recording the op and evaluating a
    graph of one node, and about what a chain of such ops costs as one graph. No lock is taken: a
    command another thread enqueues on the same arrays meanwhile races with it, as two threads
    writing one NumPy array do. ``into``: a settled array of ``shape`` to compute into instead (an
    in-place operator; the caller checked its casting and ran the graphs reading it), where it may
    be written."""
    if not shape and (into is None or known_value(into._node) is not None):
        return _scalar(op, args, ins, out if into is None else into._dtype, place, into)
    dim = Dim.trusted(shape)
    n = dim.size
    p = _host_pool(place)
    limit = host.LIMIT
    if not (0 < limit and n <= limit and n <= NOW_MAX) or _active or _traces or p is None:
        return None
    vals = _values(args, ins, n)
    if vals is None:
        return None
    if into is None:
        made = _fresh(place, dim, out, p)
        if made is None or not n:
            return made
        c = made._alloc.view
        target = c[2] if c is not None and c[0] is dim and c[1] is out else _memory(made._alloc, dim, out)
    else:
        made, target = into, host.view(into, write=True)
        if target is None:
            return None
        if not n:
            return made
    run = _quiet_run()
    if op in _GENERAL or target.dtype != out:
        run(_into, target, ref(op), vals)
    else:
        run(ref(op), *vals, out=target)
    return made


def _scalar(op: str, args: Sequence[Any], ins: Sequence[np.dtype], out: np.dtype, place: CLPlace,
            into: DArray | None) -> DArray | None:
    """:func:`compute` of a 0-d result: NumPy's scalar math over the held values, 0-d arrays' elements
    and Python scalars, held (``into``: a held value, which then holds the result; graphs that read
    it keep theirs)."""
    if host.LIMIT <= 0 or _active or _traces or _host_pool(place) is None:
        return None
    vals = _values(args, ins, 1)
    if vals is None:
        return None
    value = _quiet_run()(_SCALAR_MATH.get(op) or ref(op), *vals)
    if type(value) is not out.type:
        value = np.asarray(value).astype(out)[()]
    if into is None:
        return DArray(None, _SCALAR, out, place, known(value))
    into._node = known(value)
    return into


def _values(args: Sequence[Any], ins: Sequence[np.dtype], n: int) -> list[Any] | None:
    """NumPy's values of ``args`` in their loop dtypes ``ins`` for a result of ``n`` elements: held
    values, 0-d arrays' elements as NumPy scalars (faster to make and to compute with), other arrays'
    memory, Python scalars of the loop dtype (no array, for an empty result: it reads nothing).
    None where an array is pending, a write of it is still queued (``sched.settled``) or it has no host
    memory (a wrapped buffer), or a Python int does not fit (the recorded op raises darray's error)."""
    vals: list[Any] = []
    v: Any
    for a, d in zip(args, ins):
        if type(a) is DArray:
            if not n:
                continue
            if a._node is not None:
                v = known_value(a._node)  # a 0-d result computed at once before
                if v is None:
                    return None
            else:
                alloc = a._alloc
                if alloc.host is None or (alloc.write is not None and not settled((alloc,))):
                    return None
                c = alloc.view  # ``_memory``'s cache, read here first: this runs per op
                if not a._dim.shape:
                    v = _first(alloc, a._dim, a._dtype)
                elif c is not None and c[0] is a._dim and c[1] is a._dtype:
                    v = c[2]
                else:
                    v = _memory(alloc, a._dim, a._dtype)
            vals.append(v if a._dtype is d or a._dtype == d else v.astype(d))
        else:
            try:
                vals.append(d.type(a))
            except OverflowError:
                return None
    return vals
