"""darray arrays as Dask chunks (the ``dask`` extra).

darray registers itself with Dask as soon as both are imported, in either order: DArray
becomes a chunk type Dask wraps (and does not defer to), and Dask's per-type lookups get
darray's functions: concatenate, tensordot, take, empty, divide, percentile, numel/nannumel,
the host conversion and ``sizeof``. So ``dask.array.from_array(x, chunks=...)``,
``map_blocks``, elementwise ops, reductions, matmul and ``rechunk`` run with darray chunks;
Dask's NumPy calls on chunks (``np.sum``, ``np.matmul``, ...) reach darray through NumPy's
protocols. Chunks pickle through a host copy (``darray.interop``), so the distributed scheduler
moves them between workers, each putting them on its own device.

``dask.array.random.default_rng(da.random.default_rng(seed))`` draws darray chunks: Dask spawns
one :class:`darray.random.Philox` per block from its SeedSequence, so the blocks are independent
streams and the same seed gives the same array.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._array import DArray
from ..ops.creation import empty, full
from ..ops.elementwise import apply
from ..ops.linalg import tensordot
from ..ops.manipulation import concat
from ..ops.reduction import sum as _sum
from ..ops.taking import take
from ._on_import import on_import

TRIGGER = "dask.array"  # the module whose import completes Dask's array dispatch tables


def _percentile(a: Any, q: Any, method: str = "linear") -> tuple[Any, int]:
    """Dask's per-chunk percentile: (values at ``q`` percent, the chunk's length); computed on the host
    (Dask merges the chunks' percentiles in NumPy)."""
    host, q = np.asarray(a.get()).ravel(), np.asarray(q.get() if hasattr(q, "get") else q)
    # method: the name Dask passes, which NumPy checks (its stub takes only the literal names)
    return (np.percentile(host, q, method=method) if host.size  # type: ignore[call-overload]
            else np.full(len(q), np.nan)), len(host)


def _numel(x: Any, **kwargs: Any) -> Any:
    """Elements along ``axis`` (Dask's ``numel`` for a mean), as an array of the kept shape."""
    axis, keepdims, dtype = kwargs.get("axis"), kwargs.get("keepdims", False), kwargs.get("dtype", np.float64)
    axes = set(range(x.ndim)) if axis is None else {a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    return full(shape, count, dtype=dtype, device=x.device)


def _nannumel(x: Any, **kwargs: Any) -> Any:
    """Non-NaN elements along ``axis`` (Dask's ``nannumel``)."""
    return _sum(~apply("isnan", x), axis=kwargs.get("axis"), keepdims=kwargs.get("keepdims", False),
                  dtype=kwargs.get("dtype", np.float64))


def _concatenate(arrays: Any, axis: int = 0) -> Any:
    return concat(list(arrays), axis=axis)


def _divide(a: Any, b: Any, dtype: Any = None) -> Any:
    """Dask's ``divide(a, b, dtype=)`` (a mean's sum over its count)."""
    out = apply("divide", a, b)
    return out if dtype is None or out.dtype == dtype else out.astype(dtype)


def _empty(shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
    return empty(shape, dtype=dtype)


def register() -> None:
    """Register DArray with Dask's chunk types and dispatch lookups (idempotent)."""
    import dask.array.dispatch as dispatch
    from dask.array.chunk_types import register_chunk_type
    from dask.sizeof import sizeof

    register_chunk_type(DArray)
    dispatch.concatenate_lookup.register(DArray, _concatenate)
    dispatch.tensordot_lookup.register(DArray, tensordot)
    dispatch.take_lookup.register(DArray, lambda a, indices, axis=None: take(a, indices, axis=axis))
    dispatch.empty_lookup.register(DArray, _empty)
    dispatch.divide_lookup.register(DArray, _divide)
    dispatch.percentile_lookup.register(DArray, _percentile)
    dispatch.numel_lookup.register(DArray, _numel)
    dispatch.nannumel_lookup.register(DArray, _nannumel)
    dispatch.to_numpy_dispatch.register(DArray, lambda x, **kwargs: x.get())
    sizeof.register(DArray)(lambda x: x.nbytes)


def install() -> None:
    """Register now when Dask's arrays are already imported, else when they are."""
    on_import(TRIGGER, register)
