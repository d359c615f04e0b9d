"""Small graphs on host-backed devices run through NumPy on the calling thread.

On a CPU device whose buffers are host memory (``Runtime.host_backed``), launching a kernel
costs the host more than computing a few thousand elements does: PoCL spends 7-8 us of CPU
time per enqueued command. A graph whose work (elements x nodes) is at most ``LIMIT`` and
whose every node NumPy computes with the kernel's bits (``exact``: the op table's ``host``
kinds, IEEE-exact float ops and integer and bool ops, and exact casts) is evaluated by NumPy
straight into the outputs' memory, through ``sched.run_host``, once what it depends on has
completed (it waits for that: were a pending input to send it to a kernel instead, which
programs a process builds would depend on timing). Lazy and eager results stay identical.
``DARRAY_HOST_WORK=0`` turns this off; the profiler lists such runs with stream id -1.
One node over materialised terms runs without the graph walk (``_apply``); an op over settled
arrays runs as it is called, with no graph (``lazy.at_once``). Data-dependent ops
(masks, ``nonzero``, scatters, ``any``/``all``) run their NumPy form through :func:`call` where
:func:`usable` admits the device, fills and exact copies through :func:`copy`: no kernel, and
no size read back. None of this runs inside a ``da.jit`` trace.
"""
from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import partial
from typing import Any, Protocol, cast

import numpy as np

from .. import sched
from .._array import DArray
from ..alloc import Allocation, pool
from ..dim import _TRUSTED, Dim
from ..place import CLPlace, runtime
from ..sched import settled
from ..sched._capture import TRACES as _traces
from ..sched._profile import _active
from ..transfer.copies import Mapped
from .graph import Input, Node, Scalar, Term, known_value, walk
from .table import ref


class HostOp(Protocol):
    """What ``exact`` reads of an op-table row: the loop dtype kinds NumPy computes exactly."""

    @property
    def host(self) -> str: ...


LIMIT = int(os.environ.get("DARRAY_HOST_WORK", "32768"))
_ANY = 1 << 62  # ``run``'s limit while a kernel builds


def _exact_cast(src: np.dtype, dst: np.dtype) -> bool:
    """Casts whose NumPy result is the kernel's: not float to integer (out-of-range and NaN are
    undefined in C), not uint64 to float (a rounding C compilers do differently)."""
    return not ((src.kind == "f" and dst.kind in "iu") or (src == np.uint64 and dst.kind == "f"))


def exact(op: HostOp, args: tuple[np.dtype, ...], ins: tuple[np.dtype, ...], out: np.dtype) -> bool:
    """Whether NumPy's ``op.ref`` over loop dtypes ``ins`` (the arguments, of dtypes ``args``,
    cast to them) gives the kernel's bits: real dtypes other than float16, kinds the row lists."""
    dts = (*args, *ins, out)
    if any(d.kind not in "biuf" or (d.kind == "f" and d.itemsize == 2) for d in dts):
        return False
    return all(d.kind in op.host for d in ins) and all(_exact_cast(a, d) for a, d in zip(args, ins))


def _view(t: Input) -> np.ndarray:
    """The host memory of input view ``t`` as a NumPy array."""
    return _memory(t.alloc, t.dim, t.dtype)


def _memory(a: Any, d: Dim, dtype: np.dtype) -> np.ndarray:
    """The host memory of the view ``d`` of allocation ``a`` as a NumPy array of ``dtype`` (the last
    one made is kept on the allocation, an op's result being the next op's input, and on its pool
    block, a loop's next result being made in it). Made by slicing the segment's memory typed as
    ``dtype`` (:func:`_typed`): a basic index costs a tenth of a new ``numpy.ndarray``."""
    c = a.view
    if c is not None and c[0] is d and c[1] is dtype:
        return c[2]
    shape = d.shape
    size = dtype.itemsize
    flat = _typed(a, dtype) if not a.offset % size else None
    start = a.offset // size + d.offset
    if flat is not None and _TRUSTED.get(shape) is d:  # C-contiguous: the common case
        v = flat[start:start + d.size]
        if len(shape) != 1:
            v = v.reshape(shape)
    elif flat is not None and len(shape) == 1 and d.strides[0] > 0 and shape[0]:  # a slice of a vector
        step = d.strides[0]
        v = flat[start:start + (shape[0] - 1) * step + 1:step]
    else:
        buffer, first = (a.host, a.offset + d.offset * size) if flat is None else (flat, start * size)
        v = np.ndarray(shape, dtype, buffer=buffer, offset=first, strides=tuple([s * size for s in d.strides]))
    a.view = c = (d, dtype, v)
    block = a.block
    if block is not None:  # for the block's next owner: a loop makes the same views again
        block.view = c
    return v


def _typed(a: Any, dtype: np.dtype) -> np.ndarray | None:
    """The host memory of allocation ``a``'s pool segment as a 1-D array of ``dtype`` (kept on the
    segment per dtype), or None where its size is not a multiple of ``dtype``'s or ``a`` has no
    pool block."""
    block = a.block
    if block is None:
        return None
    typed = block.segment.typed
    if dtype not in typed:
        host = a.host
        typed[dtype] = host.view(dtype) if not host.nbytes % dtype.itemsize else None
    return typed[dtype]


def _settled(x: DArray, write: bool) -> Any:
    """``x``'s allocation where the engine may read it now (``write``: also write it), else None
    (see :func:`view`)."""
    if x._node is not None or _active or _traces or LIMIT <= 0:
        return None
    a = x._alloc
    if type(a) is not Allocation or a.host is None or not settled((a,), write):
        return None
    return a


def view(x: DArray, write: bool = False) -> np.ndarray | None:
    """The engine's one question of an array: NumPy's view of ``x``'s memory where the engine may
    read it now (``write``: also write it), else None. Yes for a materialised array in host memory
    of an OpenCL device (not a buffer darray wraps), nothing pending that the access would wait for,
    the engine on (``LIMIT``), no ``da.jit`` trace and no profile recording (it lists host runs).
    Sizes are the caller's to weigh; a writer runs the pending graphs reading ``x`` first. A 0-d
    result held as its value (``graph.known``) reads as that value; a writer materialises it."""
    if x._node is not None:
        v = known_value(x._node)
        if v is None or _active or _traces or LIMIT <= 0:
            return None
        if not write:
            return np.asarray(v)
        x._data()  # into memory (``run``'s first case), to be written
    a = _settled(x, write)
    if a is None:
        return None
    c = a.view
    if c is not None and c[0] is x._dim and c[1] is x._dtype:
        return c[2]
    return _memory(a, x._dim, x._dtype)


def _inputs(nodes: Sequence[Node]) -> list[Input]:
    """The input views of the pending graphs ``nodes`` (materialised nodes as their value), each
    once. No visited set: a graph's ``size`` bounds the walk (shared nodes counted twice)."""
    out: list[Input] = []
    stack: list[Term] = list(nodes)
    while stack:
        t = stack.pop()
        if type(t) is Node:
            if t.value is None:
                stack += t.args
                continue
            t = t.value
        if type(t) is Input and t not in out:
            out.append(t)
    return out


def _value(t: Term, memo: dict[Term, Any], out: np.ndarray | None = None) -> Any:
    """NumPy's value of term ``t`` (into ``out`` when given: a root); ``memo`` holds the values
    of nodes and input views met before (a chain reads its inputs many times), keyed by the
    terms themselves (compared by identity)."""
    if type(t) is Scalar:
        return t.value  # a Scalar's value is of its dtype already
    if type(t) is Node and t.value is not None:  # materialised (``leaf``)
        t = t.value
    r = memo.get(t)
    if r is not None:
        return r
    if type(t) is Node:
        args = []
        for a in t.args:
            args.append(a.value if type(a) is Scalar else _value(a, memo))
        op = t.op
        if op == "cast":
            r = np.asarray(args[0]).astype(t.dtype)
        elif out is not None and op != "where" and out.dtype == t.dtype:
            return ref(op)(*args, out=out)
        else:
            r = ref(op)(*args)
    else:
        r = _view(t)
    memo[t] = r
    return r


def on(place: CLPlace) -> bool:
    """The engine's one switch: whether it runs work on ``place`` at all. A host-backed device, the
    engine on (``DARRAY_HOST_WORK`` not 0) and no ``da.jit`` trace recording on any thread (a
    trace turns it off for all of them: its program replays kernels only)."""
    return 0 < LIMIT and not _traces and _host_pool(place) is not None


def usable(place: CLPlace, n: int, building: bool = False) -> bool:
    """Whether work over ``n`` elements on ``place`` runs on the host (:func:`call`): the engine
    :func:`on` there and ``n`` at most ``LIMIT`` (any, while the kernel's program is ``building``)."""
    return (n <= LIMIT or building) and on(place)


_hosts: dict[int, tuple[CLPlace, Any, Any]] = {}  # id(place) -> (place, its runtime, its pool)


def _host_pool(place: CLPlace) -> Any:
    """The pool of ``place`` where it is host-backed, else None; the runtime and pool are kept per
    place object (hashing a place is a Python call, and the host path asks this once or twice per op)."""
    found = _hosts.get(id(place))
    if found is None or found[0] is not place:
        if len(_hosts) >= 256:
            _hosts.clear()
        rt = runtime(place)
        found = _hosts[id(place)] = (place, rt, pool(place))
    return found[2] if found[1].host_backed else None


def call(name: str, fn: Callable[..., Any], place: CLPlace, reads: Sequence[Input],
         writes: Sequence[Input] = ()) -> Any:
    """``fn(*views)`` on the calling thread, the views of ``writes`` then ``reads`` as NumPy arrays
    over their host memory, once every command they depend on has completed; ``fn``'s result.
    For data-dependent work (masks, nonzero, scatters) on devices :func:`usable` admits. Where
    nothing is pending on them and no profile is active, at once (else through ``sched.run_host``,
    which the profiler lists)."""
    views = []  # loops, not comprehensions (a call each in Python 3.11): this runs per mask op
    allocs = []
    for t in (*writes, *reads):
        a = t.alloc
        if a.host is None and a.buffer is not None:  # a buffer darray wraps: no host memory of its own
            return _mapped(name, fn, place, reads, writes)
        views.append(_view(t) if a.host is not None else np.empty(t.dim.shape, t.dtype))
        allocs.append(a)
    if not _active and settled(allocs, len(writes)):  # nothing to wait for: at once, no lock (see ``at_once.compute``)
        return fn(*views)
    box: list[Any] = []
    nbytes = sum([a.nbytes for a in allocs]) if _active else 0
    sched.run_host(name, lambda: box.append(fn(*views)), place=place, reads=allocs[len(writes):],
                   writes=allocs[:len(writes)], nbytes=nbytes)
    return box[0]


def _mapped(name: str, fn: Callable[..., Any], place: CLPlace, reads: Sequence[Input],
            writes: Sequence[Input]) -> Any:
    """:func:`call` where an allocation has no host memory of its own (a pyopencl buffer darray
    wraps): each such buffer is mapped (``transfer.copies.Mapped``, after its writers) while ``fn`` runs
    through ``sched.run_host`` over the others."""
    box: list[Any] = []
    own: list[list[Any]] = [[], []]  # the allocations with host memory read, written
    with ExitStack() as maps:
        views = []
        for k, t in enumerate((*writes, *reads)):
            a, item = t.alloc, t.dtype.itemsize
            if a.host is not None or a.buffer is None:
                views.append(_view(t) if a.host is not None else np.empty(t.dim.shape, t.dtype))
                own[k < len(writes)].append(a)
                continue
            mem = maps.enter_context(Mapped(a, place, 0, a.nbytes, "update" if k < len(writes) else "read",
                                            sched.current_stream(place)))
            views.append(np.ndarray(t.dim.shape, t.dtype, buffer=mem, offset=t.dim.offset * item,
                                    strides=tuple([s * item for s in t.dim.strides])))
        sched.run_host(name, lambda: box.append(fn(*views)), place=place, reads=own[0], writes=own[1])
    return box[0]


def _addressable(terms: Sequence[Any]) -> bool:
    """Whether every input view among ``terms`` (materialised nodes as their value) has host memory
    (a pyopencl buffer darray wraps has none: the kernels compute over it)."""
    for t in terms:
        if type(t) is Node:
            t = t.value
        if type(t) is Input and t.alloc.host is None and t.alloc.buffer is not None:
            return False
    return True


def copy(src: Input | Scalar, dst: Input, place: CLPlace, name: str, building: bool = False) -> bool:
    """``dst[...] = src`` (a cast where the dtypes differ; a Scalar fills) on the host; False
    (nothing done) where :func:`usable` refuses or NumPy's cast is not the kernel's (:func:`exact`)."""
    if (src.dtype != dst.dtype and not exact(_COPY, (src.dtype,), (dst.dtype,), dst.dtype)) \
            or not _addressable((src, dst)):
        return False
    if not usable(place, dst.dim.size, building):
        return False
    if type(src) is Scalar:
        value = src.value
        call(name, lambda d: _copyto(d, value), place, [], [dst])
    else:
        call(name, _copyto, place, [src], [dst])
    return True


def exact_copy(src: np.dtype, dst: np.dtype) -> bool:
    """Whether NumPy's copy of ``src`` values into ``dst`` gives the kernels' bits (same dtype: always)."""
    return src == dst or exact(_COPY, (src,), (dst,), dst)


def quietly(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` with NumPy's floating-point warnings off (see :func:`_quiet_run`)."""
    return _quiet_run()(fn, *args, **kwargs)


def _copyto(dst: np.ndarray, src: Any) -> None:
    np.copyto(dst, src, casting="unsafe")


class _Copy:
    host = "biuf"  # a cast between real dtypes; float16 and the unsafe casts ``exact`` excludes


_COPY = _Copy()


_GENERAL = frozenset(("cast", "where"))  # ops ``_value`` computes otherwise than ``ref(op)(*args, out=out)``


def _apply(op: str, args: Sequence[Term], dtype: np.dtype, target: Input, place: CLPlace, name: str) -> None:
    """NumPy's ``op`` over ``args`` (materialised terms of the loop dtypes: a graph of size 1, no
    walk, no memo) computed in ``dtype`` into ``target`` (of another dtype: cast unsafely), once what it
    depends on has completed (the views are made before: making one reads nothing)."""
    reads = []
    vals: list[Any] = []
    for a in args:
        if type(a) is Node:
            a = cast(Input, a.value)  # size 1: every node argument is materialised
        if type(a) is Input:
            reads.append(a.alloc)
            vals.append(_view(a))
        else:
            vals.append(a.value)
    out = _view(target)
    f = ref(op)
    run = _quiet_run()
    compute = partial(run, f, *vals, out=out) if op not in _GENERAL and out.dtype == dtype \
        else partial(run, _into, out, f, vals)
    if not _active and settled((target.alloc, *reads), 1):  # nothing to wait for: at once (see ``at_once.compute``)
        compute()
        return
    nbytes = sum(a.nbytes for a in (*reads, target.alloc)) if _active else 0
    sched.run_host(name, compute, place=place, reads=reads, writes=[target.alloc], nbytes=nbytes)


def _into(out: np.ndarray, f: Callable[..., Any], vals: list[Any]) -> None:
    """``out[...] = f(*vals)`` (``where``: NumPy's has no ``out``)."""
    np.copyto(out, f(*vals), casting="unsafe")


_contexts = threading.local()


def _quiet_run() -> Callable[..., Any]:
    """``run(fn, *args, **kwargs)`` calls ``fn`` with NumPy's floating-point warnings off, as under
    ``np.errstate(all="ignore")``: in a context copied once per thread under it (entering
    ``errstate`` costs more than a small op)."""
    ctx = getattr(_contexts, "quiet", None)
    if ctx is None:
        with np.errstate(all="ignore"):
            ctx = _contexts.quiet = contextvars.copy_context()
    return ctx.run


def _quietly(fn: Callable[[], None]) -> Callable[[], None]:
    """``fn`` made to run with NumPy's floating-point warnings off (see :func:`_quiet_run`)."""
    return partial(_quiet_run(), fn)


def _exact_now(x: Node) -> bool:
    """Whether every node of ``x``'s graph still pending is exact on the host (the nodes below that
    were not may have been materialised since ``x`` was built); remembered in ``x.host``."""
    if x.exact and all([t.exact for t in walk([x]) if type(t) is Node]):
        x.host = True
    return x.host


def _pending(nodes: Sequence[Node]) -> int:
    """The number of distinct pending nodes in the graphs ``nodes``: their recorded ``size`` is a
    bound, counting shared nodes twice and nodes materialised since."""
    return len([t for t in walk(list(nodes)) if type(t) is Node])


def run(nodes: Sequence[Node], targets: Sequence[Input], place: CLPlace, name: str, building: bool = False) -> bool:
    """Compute the pending ``nodes`` into ``targets`` on the host (after the commands they depend
    on); False (nothing done) when the work is over ``LIMIT``, a node is not exact on the host or
    the device is not host-backed. ``building``: the kernel's program is still building, so any
    size is taken (while the engine is on: ``DARRAY_HOST_WORK`` not 0)."""
    n = targets[0].dim.size
    limit = _ANY if building and LIMIT > 0 else LIMIT
    one = len(nodes) == 1  # the common case, without the comprehensions (a call each in Python 3.11)
    if one and n == 1 and not _active:
        v = known_value(nodes[0])  # a 0-d value into memory
        t = targets[0]
        if v is not None and t.alloc.host is not None and settled((t.alloc,), 1):
            _view(t)[()] = v
            return True
    size = nodes[0].size if one else sum([x.size for x in nodes])
    # the cheap refusals first (no host pool, a trace, too many elements whatever the count of
    # pending nodes, which is at least 1): the walks below are for graphs the engine may take
    if n == 0 or n > limit or _traces or _host_pool(place) is None \
            or (n * size > limit and n * _pending(nodes) > limit) \
            or not (nodes[0].host or _exact_now(nodes[0]) if one else all([x.host or _exact_now(x) for x in nodes])):
        return False
    if size == 1 and nodes[0].op != "cast":
        if not _addressable((*nodes[0].args, targets[0])):
            return False
        _apply(nodes[0].op, nodes[0].args, nodes[0].dtype, targets[0], place, name)
        return True
    inputs = _inputs(nodes)
    if not _addressable((*inputs, *targets)):
        return False

    def compute() -> None:
        memo: dict[Term, Any] = {}
        for x, t in zip(nodes, targets):
            view = _view(t)
            if _value(x, memo, view) is not view:
                np.copyto(view, _value(x, memo), casting="unsafe")

    nbytes = sum(t.alloc.nbytes for t in (*inputs, *targets)) if _active else 0
    sched.run_host(name, _quietly(compute), place=place, reads=[t.alloc for t in inputs],
                   writes=[t.alloc for t in targets],
                   nbytes=nbytes)
    return True
