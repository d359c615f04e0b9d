"""The methods of darray's ufuncs: reduce, accumulate, outer, at, reduceat, on the array's place.

``reduce`` of add, multiply, maximum, minimum, fmax, fmin, logical_and and logical_or is darray's
fused reduction; of another associative ufunc, a tree of ceil(log2 n) elementwise steps; of the
others (divide, power...), NumPy's left fold, one step per element; subtract is x0 minus one fused
sum (its scan for ``accumulate``). Differs from NumPy:
``where=`` needs a ufunc with an identity (darray fills masked elements with it). ``accumulate`` of
add and multiply is the scan; of associative ufuncs, log2 n doubling steps; else a left fold.
``at`` applies the ufunc once per occurrence of an index, in rounds of distinct indices, so
repeated indices accumulate as NumPy's unbuffered ``at`` (the indices are read on the host).
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .. import dtypes as _dt
from .._array import DArray, read_only
from ..dim import normalize_axes, normalize_axis
from ..transfer.convert import asarray, to_numpy
from . import elementwise as E
from . import nanfunctions as N
from . import reduction as R
from . import scan as S
from ._out import finish
from .creation import full
from .manipulation import broadcast_to, concat, moveaxis, reshape, stack
from .taking import put, take


class ufunc(Protocol):  # noqa: N801  (what these methods read of ``ops.ufunc.ufunc``, which imports this module)
    __name__: str
    nin: int
    nout: int
    identity: Any
    numpy: np.ufunc | None

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

_NO_VALUE = np._NoValue
_FUSED = {"add": R.sum, "multiply": R.prod, "maximum": R.max, "minimum": R.min, "fmax": N.nanmax, "fmin": N.nanmin,
          "logical_and": R.all, "logical_or": R.any}
_MAGNITUDE = {"hypot": 0, "gcd": 0}  # op(identity, x) = |x|: NumPy starts their reduce of one element there
_ASSOCIATIVE = {"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
                "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm", "logaddexp", "logaddexp2", "hypot"}
_STEPS = 16  # a left fold runs its pending steps every so many (bounds the fused graph)


def _binary(u: ufunc, method: str) -> None:
    if u.nin != 2 or u.nout != 1:
        raise ValueError(f"darray {u.__name__}.{method}: {method} only supported for binary functions")


def _array(array: Any) -> DArray:
    return array if isinstance(array, DArray) else asarray(array)


def _loop(u: ufunc, method: str, x: DArray, dtype: Any, out: Any) -> tuple[np.dtype, np.dtype, np.dtype]:
    """NumPy's loop of ``u.method`` over ``x`` with ``dtype=`` (else ``out``'s dtype): ``elementwise.reduce_loop``."""
    name = f"{u.__name__}.{method}"
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    given = _dt.as_dtype(dtype, name) if dtype is not None else out.dtype if isinstance(out, DArray) else None
    assert u.numpy is not None  # (every binary table ufunc is NumPy's)
    return E.reduce_loop(u.numpy, name, x.dtype, given, method)


def _fold(u: ufunc, rows: list[DArray], associative: bool) -> DArray:
    """The ufunc over ``rows``: a tree when associative, else NumPy's left fold."""
    if associative:
        while len(rows) > 1:
            rows = [u(rows[k], rows[k + 1]) if k + 1 < len(rows) else rows[k] for k in range(0, len(rows), 2)]
        return rows[0]
    acc = rows[0]
    for k, row in enumerate(rows[1:], 1):
        acc = u(acc, row)
        if k % _STEPS == 0:
            acc.eval()
    return acc


def reduce(u: ufunc, array: Any, axis: Any, dtype: Any, out: Any, keepdims: bool, initial: Any,
           where: Any) -> DArray:
    _binary(u, "reduce")
    name = f"{u.__name__}.reduce"
    x = _array(array)
    acc, element, _ = _loop(u, "reduce", x, dtype, out)
    if u.__name__ in _FUSED:
        extra = {"dtype": acc} if u.__name__ in ("add", "multiply") else {}
        x = x if extra or u.__name__.startswith("logical_") else x.astype(acc, copy=False)
        init = None if initial is _NO_VALUE else initial
        if u.__name__ in ("logical_and", "logical_or"):  # all/any take no initial: it joins afterwards
            result = _FUSED[u.__name__](x, axis, keepdims=keepdims, where=where)
            return finish(name, result if init is None else u(result, bool(init)), out)
        return _FUSED[u.__name__](x, axis, out=out, keepdims=keepdims, initial=init, where=where, **extra)
    x = x.astype(element, copy=False)
    axes = normalize_axes(axis, x.ndim, name)
    if len(axes) > 1 and u.__name__ not in _ASSOCIATIVE:
        raise ValueError(f"darray {name}: reduction operation '{u.__name__}' is not reorderable, so at most one axis "
                         "may be specified")
    if where is not True:  # masked elements become the identity (an initial value alone cannot stand in)
        if u.identity is None:
            raise TypeError(f"darray {name}: where= needs a ufunc with an identity ('{u.__name__}' has none)")
        x = E.apply("where", where, x, u.identity)
    rest = tuple(n for a, n in enumerate(x.shape) if a not in axes)
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    moved = reshape(moveaxis(x, axes, tuple(range(len(axes)))), (count, *rest))
    if u.__name__ == "subtract" and count > 2:  # x0 - (x1 + x2 + ...): one fused sum, not count launches
        rows = [moved[0], R.sum(moved[1:], axis=0, dtype=moved.dtype)]
    else:
        rows = [moved[k] for k in range(moved.shape[0])]
    if initial is not _NO_VALUE:
        rows.insert(0, full(rest, initial, dtype=acc, device=x.place))
    if not rows:
        if u.identity is None:
            raise ValueError(f"darray {name}: zero-size array to reduction operation {u.__name__} which has no "
                             "identity")
        rows = [full(rest, u.identity, dtype=acc, device=x.place)]
    if len(rows) == 1 and u.__name__ in _MAGNITUDE:  # NumPy's one-element reduce of these gives |x|
        rows.insert(0, full(rest, _MAGNITUDE[u.__name__], dtype=acc, device=x.place))
    rows[0] = rows[0].astype(acc, copy=False)  # (a lone element: itself, in the loop's dtype)
    result = _fold(u, rows, u.__name__ in _ASSOCIATIVE)
    if keepdims:
        result = reshape(result, tuple(1 if a in axes else n for a, n in enumerate(x.shape)))
    return finish(name, result, out)


def accumulate(u: ufunc, array: Any, axis: int, dtype: Any, out: Any) -> DArray:
    _binary(u, "accumulate")
    name = f"{u.__name__}.accumulate"
    x = _array(array)
    loop = _loop(u, "accumulate", x, dtype, out)[0]
    if x.ndim == 0:
        raise ValueError(f"darray {name}: cannot accumulate on a scalar")
    if u.__name__ in ("add", "multiply"):
        scan = S.cumulative_sum if u.__name__ == "add" else S.cumulative_prod
        return finish(name, scan(x, axis=normalize_axis(axis, x.ndim, name), dtype=loop), out)
    axis = normalize_axis(axis, x.ndim, name)
    y = moveaxis(x, axis, 0).astype(loop, copy=False)
    n = y.shape[0]
    if u.__name__ in _ASSOCIATIVE:  # Hillis-Steele doubling: log2 n steps
        shift = 1
        while shift < n:
            y = concat([y[:shift], u(y[:-shift], y[shift:]).astype(y.dtype, copy=False)])
            shift *= 2
    elif u.__name__ == "subtract" and n > 2:  # [x0, x0 - x1, x0 - (x1 + x2), ...]: one scan
        y = concat([y[:1], u(y[:1], S.cumulative_sum(y[1:], axis=0, dtype=y.dtype)).astype(y.dtype, copy=False)])
    elif n:
        acc = [y[0]]
        for k in range(1, n):
            acc.append(u(acc[-1], y[k]).astype(y.dtype, copy=False))
            if k % _STEPS == 0:
                acc[-1].eval()
        y = stack(acc)
    return finish(name, moveaxis(y, 0, axis), out)


def outer(u: ufunc, a: Any, b: Any, kwargs: dict[str, Any]) -> Any:
    if u.nin != 2:
        raise ValueError(f"darray {u.__name__}.outer: outer product only supported for binary functions")
    x = a if isinstance(a, DArray) else asarray(a)
    y = b if isinstance(b, DArray) else asarray(b, device=x.place)
    return u(reshape(x, x.shape + (1,) * y.ndim), y, **kwargs)


def _positions(a: DArray, indices: Any) -> np.ndarray:
    """The flat positions ``a[indices]`` selects (NumPy's indexing of the position grid, on the host)."""
    key = tuple(to_numpy(k) if isinstance(k, DArray) else k for k in indices) if isinstance(indices, tuple) \
        else (to_numpy(indices) if isinstance(indices, DArray) else indices)
    return np.arange(a.size, dtype=np.int64).reshape(a.shape)[key]


def at(u: ufunc, a: DArray, indices: Any, b: Any) -> None:
    if not isinstance(a, DArray):
        raise TypeError(f"darray {u.__name__}.at: the first argument must be a DArray (it is written in place)")
    if a._readonly:
        read_only(f"{u.__name__}.at", "operand array")
    if (b is None) != (u.nin == 1):
        raise ValueError(f"darray {u.__name__}.at: {'second operand needed' if b is None else 'too many operands'}")
    pos = _positions(a, indices)
    flat_pos = pos.reshape(-1)
    if not flat_pos.size:
        return
    values: DArray | None = None
    if b is not None:
        bb = b if isinstance(b, DArray) else asarray(b, device=a.place)
        values = reshape(broadcast_to(bb, pos.shape), (-1,))
    order = np.argsort(flat_pos, kind="stable")
    ranks = np.empty_like(order)
    sorted_pos = flat_pos[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_pos)) + 1]
    occurrence = np.arange(sorted_pos.size) - np.repeat(starts, np.diff(np.r_[starts, sorted_pos.size]))
    ranks[order] = occurrence  # the how-many-th time each entry's position comes up
    for r in range(int(ranks.max()) + 1):
        sel = np.flatnonzero(ranks == r)
        where = asarray(flat_pos[sel], device=a.place)
        current = take(reshape(a, (-1,)), where)
        new = u(current) if values is None else u(current, take(values, asarray(sel, device=a.place)))
        put(a, where, new.astype(a.dtype, copy=False))


def reduceat(u: ufunc, array: Any, indices: Any, axis: int, dtype: Any, out: Any) -> DArray:
    _binary(u, "reduceat")
    name = f"{u.__name__}.reduceat"
    x = _array(array)
    loop = _loop(u, "reduceat", x, dtype, out)[0]
    x = x.astype(loop, copy=False)
    if x.ndim == 0:
        raise TypeError(f"darray {name}: cannot reduceat on a scalar")
    if axis is None or isinstance(axis, tuple):  # NumPy's: one axis of them only (None: all of x's)
        axes = tuple(range(x.ndim)) if axis is None else axis
        if len(axes) != 1:
            raise ValueError(f"darray {name}: reduceat does not allow multiple axes (axis={axis!r})")
        axis = axes[0]
    axis = normalize_axis(axis, x.ndim, name)
    idx = _reduceat_indices(indices, name)
    n = x.shape[axis]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError(f"darray {name}: index {idx[(idx < 0) | (idx >= n)][0]} out-of-bounds in {name} [0, {n})")
    y = moveaxis(x, axis, 0)
    parts = []
    for k, start in enumerate(idx):
        stop = idx[k + 1] if k + 1 < idx.size else n
        parts.append(reduce(u, y[start:stop], 0, loop, None, False, _NO_VALUE, True) if stop > start else y[start])
    result = stack(parts) if parts else reshape(y[:0], (0, *y.shape[1:]))
    return finish(name, moveaxis(result, 0, axis), out)


def _reduceat_indices(indices: Any, name: str) -> np.ndarray:
    """reduceat's indices as int64, by NumPy's rules: exactly 1-d (ValueError otherwise); an array's
    dtype must cast safely to intp (TypeError); a sequence's elements are each taken as an integer
    (``int()``; OverflowError past int64)."""
    if isinstance(indices, (DArray, np.ndarray)):
        host = to_numpy(indices) if isinstance(indices, DArray) else indices
        if host.ndim != 1:
            raise ValueError(f"darray {name}: indices must be 1-d, got an array of {host.ndim} dimensions")
        if not np.can_cast(host.dtype, np.intp, "safe"):
            raise TypeError(f"darray {name}: Cannot cast indices from {host.dtype} to {np.dtype(np.intp)} according "
                            f"to the rule 'safe'")
        return host.astype(np.int64)
    try:
        seq = np.array(indices, dtype=object)
    except ValueError:  # a ragged sequence
        seq = None
    if seq is None or seq.ndim != 1:
        raise ValueError(f"darray {name}: indices must be a 1-d sequence of integers, got {indices!r}")
    return np.array([int(v) for v in seq], dtype=np.int64)


__all__ = ["reduce", "accumulate", "outer", "at", "reduceat"]
