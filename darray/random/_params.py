"""The arguments of darray.random's methods: sizes, places, dtypes, ``out=``, and distribution
parameters checked against NumPy's constraints and broadcast as NumPy does.

A distribution parameter is a Python scalar (kept as one: the draws' fast path) or array-like
(a DArray on the draw's place, of the draw's float dtype or int64). Its values are checked on
the host (an array parameter on a device is copied back for the check).
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray, read_only
from ..ops.creation import default_float
from ..place import Place, PlaceLike, parse
from ..transfer.convert import asarray

REQUIRED: Any = object()  # a parameter without a default
LAM_MAX = float(np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10)  # numpy's largest Poisson mean

# rule -> (the values it rejects, NumPy's message with {0} for the parameter's name)
RULES: dict[str, tuple[Callable[[np.ndarray], np.ndarray], str]] = {
    "finite": (lambda v: ~np.isfinite(v), "{0} must be finite"),
    "ge0": (lambda v: v < 0, "{0} < 0"),
    "gt0": (lambda v: v <= 0, "{0} <= 0"),
    "gt1": (lambda v: ~(v > 1), "{0} <= 1 or {0} is NaN"),
    "prob": (lambda v: ~((v >= 0) & (v <= 1)), "{0} < 0, {0} > 1 or {0} is NaN"),
    "prob_pos": (lambda v: ~((v > 0) & (v <= 1)), "{0} <= 0, {0} > 1 or {0} contains NaNs"),
    "prob_lt1": (lambda v: ~((v >= 0) & (v < 1)), "{0} < 0, {0} >= 1 or {0} is NaN"),
    "lam": (lambda v: ~(v >= 0), "{0} < 0 or {0} is NaN"),
    "notnan": (np.isnan, "{0} is NaN (darray's samplers take no NaN)"),
    "lam_max": (lambda v: v > LAM_MAX, "{0} value too large"),
    "lt1e9": (lambda v: v >= 10**9, "both ngood and nbad must be less than 1000000000"),
}


@dataclass(frozen=True)
class Param:
    """A distribution parameter: its name, NumPy's default, the rules its values obey, and
    whether it is an integer (NumPy casts it to int64)."""
    name: str
    default: Any = REQUIRED
    rules: tuple[str, ...] = ()
    integer: bool = False


def shape_of(size: Any, op: str) -> tuple[int, ...]:
    """The shape of ``size`` (None: 0-d), with NumPy's errors: TypeError for a size that is not an
    integer or a sequence of integers (floats, bools, NumPy floats, 0-d float arrays, nested
    sequences), ValueError for a negative dimension or one past ``intp``."""
    if size is None:
        return ()
    if np.ndim(size) == 0:
        if isinstance(size, (bool, np.bool_)) or not hasattr(size, "__index__"):
            raise TypeError(f"darray random.{op}: expected a sequence of integers or a single integer, "
                            f"got {size!r}")
        dims: Any = (size,)
    else:
        dims = np.asarray(size) if isinstance(size, np.ndarray) else size
        if isinstance(dims, np.ndarray) and dims.ndim != 1:
            raise TypeError(f"darray random.{op}: size must be a sequence of integers, got an array of shape "
                            f"{dims.shape}")
    shape = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)):
            raise TypeError(f"darray random.{op}: an integer is required for each dimension of size, got {size!r}")
        try:
            n = operator.index(d)
        except TypeError:
            raise TypeError(f"darray random.{op}: '{type(d).__name__}' object cannot be interpreted as an integer "
                            f"(size {size!r})") from None
        if n < 0:
            raise ValueError(f"darray random.{op}: negative dimensions are not allowed (size {size!r})")
        if n > _INTP_MAX:
            raise ValueError(f"darray random.{op}: Maximum allowed dimension exceeded (size {size!r})")
        shape.append(n)
    return tuple(shape)


_INTP_MAX = int(np.iinfo(np.intp).max)


def place_of(device: PlaceLike, place: PlaceLike, op: str, *values: Any) -> Place:
    """``device=`` or ``place=``; else the place of the first DArray among ``values``; else the current one."""
    if device is not None and place is not None:
        raise ValueError(f"darray random.{op}: give device= or place=, not both")
    if device is None and place is None:
        for v in values:
            if isinstance(v, DArray):
                return v.place
    return parse(device if device is not None else place)


def float_dtype(dtype: Any, place: Place, op: str) -> np.dtype:
    """``dtype`` (None: the place's default float), which must be float32 or float64."""
    dt = default_float(place) if dtype is None else _dt.as_dtype(dtype, f"random.{op}")
    if dt not in (_dt.float32, _dt.float64):
        raise TypeError(f"darray random.{op}: Unsupported dtype {dt!r} (float32 or float64 only)")
    return dt


def out_args(out: Any, size: Any, dtype: Any, device: PlaceLike, place: PlaceLike, op: str) -> tuple:
    """(size, dtype, device) of a draw into ``out`` (NumPy's rules: TypeError for another dtype
    or a non-array, ValueError for another size or a device besides out's)."""
    if out is None:
        return size, dtype, device
    if not isinstance(out, DArray):
        raise TypeError(f"darray random.{op}: out must be a DArray, got {type(out).__name__}")
    if out._readonly:
        read_only(f"random.{op}", "output array")
    if size is not None and shape_of(size, op) != out.shape:
        raise ValueError(f"darray random.{op}: size {size} differs from out's shape {out.shape}")
    if dtype is not None and _dt.as_dtype(dtype, f"random.{op}") != out.dtype:
        raise TypeError(f"darray random.{op}: dtype {dtype} differs from out's dtype {out.dtype}")
    if device is not None or place is not None:
        raise ValueError(f"darray random.{op}: out decides the place; give no device= or place=")
    return out.shape, out.dtype, out.place


def host_values(op: str, p: Param, value: Any) -> np.ndarray:
    """``value`` as a float64 (int64 for an integer parameter) host array, checked against ``p``'s rules."""
    try:
        host = np.asarray(value.get() if isinstance(value, DArray) else value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"darray random.{op}: {p.name} must be numbers, got {value!r}") from None
    for rule in p.rules:
        bad, message = RULES[rule]
        if np.any(bad(host)):
            raise ValueError(f"darray random.{op}: {message.format(p.name)}")
    return host.astype(np.int64) if p.integer else host


def finite_range(op: str, h: list[np.ndarray]) -> np.ndarray:
    """``high - low`` of the host bounds ``h``; NumPy's OverflowError where it is not finite (an
    infinite or NaN bound, or a span past the float64 range)."""
    with np.errstate(over="ignore", invalid="ignore"):
        span = h[1] - h[0]
    if not np.all(np.isfinite(span)):
        raise OverflowError(f"darray random.{op}: high - low range exceeds valid bounds")
    return span


def broadcast(op: str, size: Any, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The draw's shape: ``size``, which the parameters' shapes must broadcast to, or their broadcast shape."""
    shape = shape_of(size, op)  # (NumPy's errors for a bad size first)
    try:
        joint = np.broadcast_shapes(*shapes)
        if size is None:
            return joint
        if np.broadcast_shapes(shape, joint) != shape:
            raise ValueError
        return shape
    except ValueError:
        raise ValueError(f"darray random.{op}: shape mismatch: parameters of shapes {shapes} cannot be broadcast "
                         f"to size {size}") from None


def on_place(value: Any, host: np.ndarray, dtype: np.dtype, place: Place) -> float | int | DArray:
    """A checked parameter as the draws take it: a Python scalar, or a DArray of ``dtype`` on ``place``."""
    if host.ndim == 0:
        return int(host) if host.dtype.kind == "i" else float(host)
    if isinstance(value, DArray) and value.place == place and host.dtype.kind != "i":
        return value.astype(dtype, copy=False)
    return asarray(host.astype(dtype), device=place)


def resolve(op: str, params: tuple[Param, ...], values: list[Any], size: Any, place: Place, dtype: np.dtype,
            check: Callable[[list[np.ndarray]], str | None] | None = None) -> tuple[list[Any], tuple[int, ...]]:
    """The parameters ``values`` checked (each against its rules, then all by ``check``, which
    returns NumPy's message for values it rejects) and placed; and the draw's shape."""
    hosts = [host_values(op, p, v) for p, v in zip(params, values)]
    if check is not None and (message := check(hosts)):
        raise ValueError(f"darray random.{op}: {message}")
    shape = broadcast(op, size, [h.shape for h in hosts])
    placed = [on_place(v, h, _dt.int64 if p.integer else dtype, place) for p, v, h in zip(params, values, hosts)]
    return placed, shape
