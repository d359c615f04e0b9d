"""Joining and splitting in NumPy's forms: concatenate and the stack families, block, the split
families, append, insert and delete, on the device (strided copies, gathers and views).

``insert`` and ``delete`` read their index argument (``obj``) on the host, as NumPy does, to
know the result's shape; the data never leaves the device.
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._array import DArray
from ..dim import normalize_axis
from ..transfer.convert import asarray, to_numpy
from ._out import finish
from .manipulation import arrays_of, broadcast_to, cast_joined, concat, moveaxis, named, one, reshape, split
from .shaping import atleast_1d, atleast_2d, atleast_3d
from .taking import take


def concatenate(arrays: Sequence[Any], /, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
                casting: str = "same_kind") -> DArray:
    """The arrays joined along ``axis`` (None: flattened), in their promoted dtype or ``dtype``.
    See also: numpy.concatenate."""
    if isinstance(arrays, DArray):
        arrays = list(arrays)
    xs, _ = arrays_of("concatenate", list(arrays))
    return finish("concatenate", concat(cast_joined("concatenate", xs, dtype, casting, out), axis=axis), out)


def _sequence(op: str, tup: Any) -> list[Any]:
    if isinstance(tup, DArray) or not isinstance(tup, Sequence):
        raise TypeError(f"darray {op}: arrays to stack must be passed as a sequence type such as list or tuple")
    return list(tup)


def _stacked(op: str, xs: list[Any], axis: int, dtype: Any, casting: str) -> DArray:
    if not xs:
        raise ValueError(f"darray {op}: need at least one array to concatenate")
    return concatenate(xs, axis=axis, dtype=dtype, casting=casting)


def hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> DArray:
    """Joined column-wise (axis 1; axis 0 for 1-D inputs). See also: numpy.hstack."""
    xs = [atleast_1d(x) for x in _sequence("hstack", tup)]
    return _stacked("hstack", xs, 0 if xs and xs[0].ndim == 1 else 1, dtype, casting)


def vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> DArray:
    """Joined row-wise (axis 0 of the inputs made at least 2-D). See also: numpy.vstack."""
    return _stacked("vstack", [atleast_2d(x) for x in _sequence("vstack", tup)], 0, dtype, casting)


def row_stack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> DArray:
    """``vstack`` under its deprecated name (a DeprecationWarning, as NumPy 2). See also: numpy.row_stack."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def dstack(tup: Sequence[Any]) -> DArray:
    """Joined depth-wise (axis 2 of the inputs made at least 3-D). See also: numpy.dstack."""
    return _stacked("dstack", [atleast_3d(x) for x in _sequence("dstack", tup)], 2, None, "same_kind")


def column_stack(tup: Sequence[Any]) -> DArray:
    """1-D inputs as columns, 2-D ones as they are, joined along axis 1. See also: numpy.column_stack."""
    cols = []
    for t in _sequence("column_stack", tup):
        x = one("column_stack", t)
        cols.append(reshape(x, (x.size, 1)) if x.ndim < 2 else x)
    return _stacked("column_stack", cols, 1, None, "same_kind")


def _depth(obj: Any, where: str) -> int:
    if isinstance(obj, tuple):
        raise TypeError(f"darray block: {where} is a tuple. Only lists can be used to arrange blocks, and np.block "
                        "does not allow implicit conversion from tuple to ndarray.")
    if not isinstance(obj, list):
        return 0
    if not obj:
        raise ValueError(f"darray block: List at {where} cannot be empty")
    depths = {_depth(item, f"{where}[{k}]") for k, item in enumerate(obj)}
    if len(depths) != 1:
        raise ValueError(f"darray block: List depths are mismatched at {where}")
    return 1 + depths.pop()


def _leaves(obj: Any) -> list[Any]:
    return [leaf for item in obj for leaf in _leaves(item)] if isinstance(obj, list) else [obj]


def block(arrays: Any) -> DArray:
    """An array assembled from nested lists of blocks: the innermost lists join along the last axis,
    the next ones along the one before. See also: numpy.block."""
    depth = _depth(arrays, "arrays")
    leaves, _ = arrays_of("block", _leaves(arrays))
    ndim = max(depth, *(x.ndim for x in leaves))
    it = iter(leaves)

    def assemble(obj: Any, level: int) -> DArray:
        if not isinstance(obj, list):
            x = next(it)
            return reshape(x, (1,) * (ndim - x.ndim) + x.shape)
        return concat([assemble(item, level + 1) for item in obj], axis=level - depth)

    return assemble(arrays, 0)


def _split_along(op: str, ary: Any, indices_or_sections: Any, axis: int, least: int) -> list[DArray]:
    x = one(op, ary)
    if x.ndim < least:
        raise ValueError(f"darray {op}: only works on arrays of {least} or more dimensions")
    return split(x, indices_or_sections, axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[DArray]:
    """Split column-wise (axis 1; axis 0 for 1-D). See also: numpy.hsplit."""
    x = one("hsplit", ary)
    return _split_along("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, 1)


def vsplit(ary: Any, indices_or_sections: Any) -> list[DArray]:
    """Split row-wise (axis 0, arrays of 2 or more dimensions). See also: numpy.vsplit."""
    return _split_along("vsplit", ary, indices_or_sections, 0, 2)


def dsplit(ary: Any, indices_or_sections: Any) -> list[DArray]:
    """Split depth-wise (axis 2, arrays of 3 or more dimensions). See also: numpy.dsplit."""
    return _split_along("dsplit", ary, indices_or_sections, 2, 3)


def append(arr: Any, values: Any, axis: int | None = None) -> DArray:
    """``values`` joined after ``arr`` (both flattened when ``axis`` is None). See also: numpy.append."""
    x, v = arrays_of("append", [arr, values])[0]
    if axis is None:
        return concat([reshape(x, (-1,)), reshape(v, (-1,))])
    return concat([x, v], axis=axis)


def _host_index(obj: Any) -> np.ndarray:
    """An index argument as NumPy's (read from the device when it is a DArray)."""
    return to_numpy(obj) if isinstance(obj, DArray) else np.asarray(obj)


def _flat_and_axis(op: str, arr: Any, axis: int | None) -> tuple[DArray, int]:
    x = one(op, arr)
    if axis is None:
        return reshape(x, (-1,)), 0
    return x, normalize_axis(axis, x.ndim)


@named
def delete(arr: Any, obj: Any, axis: int | None = None) -> DArray:
    """``arr`` without the entries ``obj`` selects along ``axis`` (flattened when None): an int, a
    slice, a sequence of ints or a boolean mask. See also: numpy.delete."""
    x, axis = _flat_and_axis("delete", arr, axis)
    n = x.shape[axis]
    keep = np.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        idx = _host_index(obj)
        if idx.dtype == bool:
            if idx.shape != (n,):
                raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                                 f"length of {n}")
            keep = ~idx
        else:
            if idx.size and idx.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            flat = idx.astype(np.int64).reshape(-1)
            if flat.size and (flat.min() < -n or flat.max() >= n):
                bad = flat[(flat < -n) | (flat >= n)][0]
                raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
            keep[flat] = False
    return take(x, asarray(np.flatnonzero(keep), device=x.place), axis=axis)


@named
def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> DArray:
    """``values`` inserted before the entries ``obj`` names along ``axis`` (flattened when None), cast
    to ``arr``'s dtype: one int inserts a block, a sequence or slice inserts one entry before each.
    See also: numpy.insert."""
    x, axis = _flat_and_axis("insert", arr, axis)
    n = x.shape[axis]
    idx = np.arange(*obj.indices(n)) if isinstance(obj, slice) else _host_index(obj)
    if idx.dtype == bool:
        raise IndexError("darray insert: boolean obj is not supported (as NumPy 2); use an index array")
    if idx.size and idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    v = values if isinstance(values, DArray) else asarray(values, device=x.place)
    v = v.astype(x.dtype, copy=False)
    v = reshape(v, (1,) * (x.ndim - v.ndim) + v.shape)
    if idx.size == 1:  # one position: ``values`` go in as a block (NumPy's rule, a 1-sequence included)
        at = int(idx.reshape(-1)[0])
        if not -n <= at <= n:
            raise IndexError(f"index {at} is out of bounds for axis {axis} with size {n}")
        at = at + n if at < 0 else at
        v = moveaxis(v, 0, axis) if x.ndim and idx.ndim == 0 else v
        count = v.shape[axis] if x.ndim else v.size
        positions = np.full(count, at)
    else:
        positions = idx.astype(np.int64).reshape(-1)
        if positions.size and (positions.min() < -n or positions.max() > n):
            bad = positions[(positions < -n) | (positions > n)][0]
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        positions = np.where(positions < 0, positions + n, positions)
        count = positions.size
    shape = x.shape[:axis] + (count,) + x.shape[axis + 1:]
    block_ = broadcast_to(v, shape)
    order = np.argsort(positions, kind="stable")
    placed = positions[order] + np.arange(count)  # where each inserted entry lands in the result
    source = np.empty(n + count, dtype=np.int64)
    is_new = np.zeros(n + count, dtype=bool)
    is_new[placed] = True
    source[placed] = n + order
    source[~is_new] = np.arange(n)
    return take(concat([x, block_], axis=axis), asarray(source, device=x.place), axis=axis)


__all__ = ["concatenate", "hstack", "vstack", "row_stack", "dstack", "column_stack", "block", "hsplit", "vsplit",
           "dsplit", "append", "insert", "delete"]
