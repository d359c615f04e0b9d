"""Dim: shape, strides and offset of an N-d view (rank 0..9), in elements.

Pure-Python view math used on every op: broadcasting, transposes, basic
indexing, no-copy reshape and the dimension collapsing done before a kernel
launch. Strides and offsets count elements (not bytes); strides may be
negative (reversed slices) or 0 (broadcast / inserted axes).

See also: numpy.ndarray.strides, numpy.lib.stride_tricks.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, SupportsIndex, cast

import numpy as np

__all__ = ["MAX_RANK", "MAX_NBYTES", "Dim", "broadcast_shapes", "check_nbytes", "normalize_axis", "normalize_axes",
           "collapse"]

MAX_RANK = 9
MAX_NBYTES = 2**63 - 1  # NumPy's bound: an array's size in bytes must fit its index type (intp)

_BOOL_TYPE_NAMES = ("bool", "bool_")


class _Addresses:
    """An ndarray's interface for a view's addresses only (never read: ``Dim.shares``)."""

    def __init__(self, dim: Dim, itemsize: int) -> None:
        self.__array_interface__ = {"data": ((1 << 52) + dim.offset * itemsize, True), "shape": dim.shape,
                                    "strides": tuple([s * itemsize for s in dim.strides]),
                                    "typestr": f"|V{itemsize}", "version": 3}


def _addresses(dim: Dim, itemsize: int) -> np.ndarray:
    return np.asarray(_Addresses(dim, itemsize))


def _fmt(shape: Sequence[int]) -> str:
    """Format a shape like NumPy's broadcast errors: ``(2,3)``, ``(4,)``, ``()``."""
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ",".join(str(n) for n in shape) + ")"


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool) or type(x).__name__ in _BOOL_TYPE_NAMES


def _as_int(x: Any, what: str) -> int:
    """Convert an index-like value (int, numpy integer) to int; bools rejected."""
    if type(x) is int:
        return x
    if _is_bool(x):
        raise TypeError(f"{what} must be an integer, not bool ({x!r})")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(x).__name__} ({x!r})") from None


def _check_rank(shape: tuple[int, ...]) -> None:
    if len(shape) > MAX_RANK:
        raise ValueError(
            f"darray supports at most {MAX_RANK} dimensions (rank {MAX_RANK}); "
            f"got rank {len(shape)} for shape {_fmt(shape)}")


def _as_shape(shape: Any, allow_minus_one: bool = False) -> tuple[int, ...]:
    """Validate an int or sequence of ints as a shape (sizes >= 0, rank <= 9)."""
    if type(shape) is tuple and all([type(n) is int and n >= 0 for n in shape]):
        _check_rank(shape)
        return shape
    if _is_bool(shape):
        raise TypeError(f"shape must be an int or a sequence of ints, not bool ({shape!r})")
    try:
        shape = (operator.index(shape),)
    except TypeError:
        if not hasattr(shape, "__iter__"):
            raise TypeError("shape must be an int or a sequence of ints, "
                            f"not {type(shape).__name__}") from None
        shape = tuple(_as_int(n, "shape size") for n in shape)
    _check_rank(shape)
    for n in shape:
        if n < 0 and not (allow_minus_one and n == -1):
            raise ValueError(f"negative dimensions are not allowed: shape {_fmt(shape)}")
    return shape


def check_nbytes(shape: tuple[int, ...], itemsize: int, op: str) -> None:
    """ValueError naming ``op`` when no array of ``shape`` with ``itemsize``-byte elements can
    exist: NumPy's rule, its nonzero sizes times the itemsize are past ``MAX_NBYTES`` (so
    ``(0, 2**62)`` float64 is too big, as in NumPy, though it holds no element)."""
    nbytes = itemsize
    for n in shape:
        if n:
            nbytes *= n
    if nbytes > MAX_NBYTES:
        raise ValueError(f"darray {op}: array is too big; shape {_fmt(shape)} of {itemsize}-byte elements spans "
                         f"{nbytes} bytes (nonzero sizes times the itemsize), more than the maximum possible size "
                         f"of {MAX_NBYTES} bytes")


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """C-order strides in elements (a size-0 dim counts as 1, like NumPy)."""
    strides = [0] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = acc
        if shape[i]:
            acc *= shape[i]
    return tuple(strides)


def _dense(shape: Any, strides: Any) -> bool:
    """True when dims (fastest first) are densely packed; size-1 dims ignored."""
    expect = 1
    for n, s in zip(shape, strides):
        if n != 1:
            if s != expect:
                return False
            expect *= n
    return True


def _prod(shape: Iterable[int]) -> int:
    return math.prod(shape)


def normalize_axis(axis: SupportsIndex, ndim: int, op: str = "") -> int:
    """Map ``axis`` in ``[-ndim, ndim)`` to ``[0, ndim)``.

    Raises numpy.exceptions.AxisError (a ValueError and IndexError) when out of range.
    """
    axis = _as_int(axis, f"{op + ': ' if op else ''}axis")
    if -ndim <= axis < ndim:
        return axis + ndim if axis < 0 else axis
    from numpy.exceptions import AxisError
    raise AxisError(axis, ndim, msg_prefix=op or None)


def normalize_axes(axis: int | Sequence[int] | None, ndim: int, op: str = "") -> tuple[int, ...]:
    """Normalize None (all axes), one axis or a sequence of axes; duplicates are a ValueError."""
    if axis is None:
        return tuple(range(ndim))
    if hasattr(axis, "__index__") and not _is_bool(axis):
        return (normalize_axis(cast(SupportsIndex, axis), ndim, op),)
    axes = cast("Sequence[int]", axis)  # else a sequence of axes (a non-iterable raises TypeError here)
    out = tuple(normalize_axis(a, ndim, op) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{op + ': ' if op else ''}repeated axis in axes {tuple(axes)!r}")
    return out


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """Broadcast shapes together by NumPy rules. See also: numpy.broadcast_shapes."""
    if len(shapes) == 2 and shapes[0] == shapes[1] and type(shapes[0]) is tuple:
        return _as_shape(shapes[0])
    shapes_t = [_as_shape(s) for s in shapes]
    ndim = max((len(s) for s in shapes_t), default=0)
    out = [1] * ndim
    for s in shapes_t:
        off = ndim - len(s)
        for i, n in enumerate(s):
            cur = out[off + i]
            if n == cur or n == 1:
                continue
            if cur == 1:
                out[off + i] = n
            else:
                raise ValueError("operands could not be broadcast together with shapes "
                                 + " ".join(_fmt(t) for t in shapes_t))
    return tuple(out)


_BROADCASTS: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}  # shapes -> their broadcast


def broadcast_dims(shapes: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """:func:`broadcast_shapes` of arrays' shapes (valid already), kept per tuple of shapes: an op
    broadcasting its operands in a loop meets the same shapes each time."""
    out = _BROADCASTS.get(shapes)
    if out is None:
        out = broadcast_shapes(*shapes)
        if len(_BROADCASTS) >= 4096:
            _BROADCASTS.clear()
        _BROADCASTS[shapes] = out
    return out


def collapse(shape: tuple[int, ...], *strides: tuple[int, ...]
             ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """Drop size-1 dims and merge adjacent dims contiguous for every operand.

    Dims i, i+1 merge when ``strides[i] == strides[i+1] * shape[i+1]`` for all
    operands. Size 0 gives ``((0,), [(1,), ...])``; rank 0 or all ones gives
    ``((), [(), ...])``. C order is kept (last dim fastest).
    """
    nd = len(shape)
    for s in strides:
        if len(s) != nd:
            raise ValueError(f"collapse: strides {s!r} do not match rank of shape {_fmt(shape)}")
    if 0 in shape:
        return (0,), [(1,)] * len(strides)
    new_shape: list[int] = []
    new_strides: list[list[int]] = [[] for _ in strides]
    for i, n in enumerate(shape):
        if n == 1:
            continue
        if new_shape and all(ns[-1] == s[i] * n for ns, s in zip(new_strides, strides)):
            new_shape[-1] *= n
            for ns, s in zip(new_strides, strides):
                ns[-1] = s[i]
        else:
            new_shape.append(n)
            for ns, s in zip(new_strides, strides):
                ns.append(s[i])
    return tuple(new_shape), [tuple(ns) for ns in new_strides]


def _index_scalar(entry: Any) -> int:
    """An integer-like index entry (numpy integer, 0-d int array) as int; else reject."""
    if not _is_bool(entry) and getattr(entry, "ndim", 0) == 0:
        try:
            return operator.index(entry)
        except TypeError:
            pass
    _reject_advanced(entry)


def _reject_advanced(entry: Any) -> NoReturn:
    """Raise for index entries basic indexing cannot express (extension point)."""
    raise IndexError(
        "darray indexing here supports only integers, slices (`:`), Ellipsis (`...`) "
        f"and None (newaxis); got {type(entry).__name__}: {entry!r}")


_TRUSTED: dict[tuple[int, ...], Dim] = {}  # shape -> its C-contiguous Dim (Dim.trusted)
_ELEMENTS: dict[int, Dim] = {}  # offset -> the 0-d Dim of the element there (``_element``)


def _checked(shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> Dim:
    """The Dim of ``shape``, ``strides`` and ``offset`` that view math computed from a valid Dim
    (ints, as many strides as axes, rank checked): made without ``__post_init__``'s validation."""
    if len(shape) > MAX_RANK:
        return Dim(shape, strides, offset)  # (raises: the rank limit)
    d = object.__new__(Dim)
    object.__setattr__(d, "shape", shape)
    object.__setattr__(d, "strides", strides)
    object.__setattr__(d, "offset", offset)
    object.__setattr__(d, "size", _prod(shape))
    return d


def _element(offset: int) -> Dim:
    """The 0-d Dim of the element at ``offset`` (kept: Dims are immutable, and loops read the same
    elements again)."""
    d = _ELEMENTS.get(offset)
    if d is None:
        if len(_ELEMENTS) >= 4096:
            _ELEMENTS.clear()
        d = _ELEMENTS[offset] = object.__new__(Dim)
        object.__setattr__(d, "shape", ())
        object.__setattr__(d, "strides", ())
        object.__setattr__(d, "offset", offset)
        object.__setattr__(d, "size", 1)
    return d


@dataclass(frozen=True, slots=True)
class Dim:
    """Shape, strides (in elements, may be negative or 0) and element offset of a view."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0
    size: int = field(init=False, repr=False, compare=False)  # the number of elements (kept: read by every op)

    def __post_init__(self) -> None:
        shape, strides, offset = self.shape, self.strides, self.offset
        # (list comprehensions, not generators: a call each in Python 3.11, and every view makes a Dim)
        if type(shape) is not tuple or len(shape) > MAX_RANK or not all([type(n) is int and n >= 0 for n in shape]):
            shape = _as_shape(shape)
            object.__setattr__(self, "shape", shape)
        if type(strides) is not tuple or not all([type(s) is int for s in strides]):
            strides = tuple([_as_int(s, "stride") for s in strides])
            object.__setattr__(self, "strides", strides)
        if type(offset) is not int:
            object.__setattr__(self, "offset", _as_int(offset, "offset"))
        if len(shape) != len(strides):
            raise ValueError(f"shape {_fmt(shape)} and strides {_fmt(strides)} "
                             "must have the same length")
        object.__setattr__(self, "size", math.prod(shape))

    @classmethod
    def trusted(cls, shape: tuple[int, ...]) -> Dim:
        """C-contiguous Dim of an already validated shape (a shape of an existing Dim or a
        broadcast of such), skipping validation on the hot path of every op (and shared:
        Dims are immutable)."""
        d = _TRUSTED.get(shape)
        if d is None:
            if len(_TRUSTED) >= 4096:
                _TRUSTED.clear()
            d = _TRUSTED[shape] = object.__new__(cls)
            object.__setattr__(d, "shape", shape)
            object.__setattr__(d, "strides", _c_strides(shape))
            object.__setattr__(d, "offset", 0)
            object.__setattr__(d, "size", _prod(shape))
        return d

    @classmethod
    def contiguous(cls, shape: Any, offset: int = 0) -> Dim:
        """A C-contiguous Dim for ``shape`` (an int or a sequence of ints)."""
        shape = _as_shape(shape)
        if offset == 0 and type(offset) is int:
            return cls.trusted(shape)  # validated just now
        return cls(shape, _c_strides(shape), offset)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def is_c_contiguous(self) -> bool:
        """Like ``flags.c_contiguous``: size-1 dims ignored, size-0 arrays contiguous."""
        return _dense(reversed(self.shape), reversed(self.strides)) or 0 in self.shape

    @property
    def is_f_contiguous(self) -> bool:
        """Like ``flags.f_contiguous``: size-1 dims ignored, size-0 arrays contiguous."""
        return _dense(self.shape, self.strides) or 0 in self.shape

    def span(self) -> tuple[int, int]:
        """(lo, hi): smallest element index touched and one past the largest."""
        if 0 in self.shape:
            return self.offset, self.offset
        lo = hi = self.offset
        for n, s in zip(self.shape, self.strides):
            if s < 0:
                lo += (n - 1) * s
            else:
                hi += (n - 1) * s
        return lo, hi + 1

    def shares(self, other: Dim, itemsize: int, other_itemsize: int, max_work: int | None = None) -> bool:
        """Whether two views of one buffer touch a common byte, found exactly by NumPy's solver
        (``numpy.shares_memory``) on address-only arrays; ``max_work`` bounds its search as NumPy's
        does (``numpy.exceptions.TooHardError`` past it)."""
        (lo, hi), (olo, ohi) = self.span(), other.span()
        if not (lo * itemsize < ohi * other_itemsize and olo * other_itemsize < hi * itemsize):
            return False
        return bool(np.shares_memory(_addresses(self, itemsize), _addresses(other, other_itemsize),
                                     cast(Any, max_work)))

    def broadcast_to(self, shape: Any) -> Dim:
        """View broadcast to ``shape`` (stride 0 on new/expanded dims).

        See also: numpy.broadcast_to.
        """
        target = _as_shape(shape)
        off = len(target) - self.ndim
        if off < 0:
            raise ValueError(f"cannot broadcast shape {_fmt(self.shape)} to shape "
                             f"{_fmt(target)}: the target has fewer dimensions")
        strides = [0] * off
        for n, s, t in zip(self.shape, self.strides, target[off:]):
            if n == 1:   # like NumPy, size-1 source dims get stride 0 even when kept
                strides.append(0)
            elif n == t:
                strides.append(s)
            else:
                raise ValueError(f"cannot broadcast shape {_fmt(self.shape)} to shape "
                                 f"{_fmt(target)}")
        return _checked(target, tuple(strides), self.offset)

    def transpose(self, axes: Sequence[int] | None = None) -> Dim:
        """Permute the axes (None reverses them). See also: numpy.transpose."""
        if axes is None:
            return _checked(self.shape[::-1], self.strides[::-1], self.offset)
        axes = tuple(axes)
        if len(axes) != self.ndim:
            raise ValueError(f"transpose: axes {axes!r} don't match array of rank {self.ndim}")
        perm = tuple(normalize_axis(a, self.ndim, "transpose") for a in axes)
        if len(set(perm)) != len(perm):
            raise ValueError(f"transpose: repeated axis in axes {axes!r}")
        return _checked(tuple([self.shape[a] for a in perm]), tuple([self.strides[a] for a in perm]), self.offset)

    def swapaxes(self, a: int, b: int) -> Dim:
        """Exchange two axes. See also: numpy.swapaxes."""
        a = normalize_axis(a, self.ndim, "swapaxes")
        b = normalize_axis(b, self.ndim, "swapaxes")
        shape, strides = list(self.shape), list(self.strides)
        shape[a], shape[b] = shape[b], shape[a]
        strides[a], strides[b] = strides[b], strides[a]
        return _checked(tuple(shape), tuple(strides), self.offset)

    def expand_dims(self, axis: int) -> Dim:
        """Insert a size-1 axis at ``axis`` (in the result). See also: numpy.expand_dims."""
        if self.ndim >= MAX_RANK:
            _check_rank(self.shape + (1,))
        axis = normalize_axis(axis, self.ndim + 1, "expand_dims")
        out = self.reshape(self.shape[:axis] + (1,) + self.shape[axis:])  # strides as NumPy
        assert out is not None
        return out

    def squeeze(self, axis: int | tuple[int, ...] | None = None) -> Dim:
        """Remove size-1 axes (all of them, or the given ones). See also: numpy.squeeze."""
        if axis is None:
            drop = {i for i, n in enumerate(self.shape) if n == 1}
        else:
            drop = set(normalize_axes(axis, self.ndim, "squeeze"))
            for i in drop:
                if self.shape[i] != 1:
                    raise ValueError(
                        "cannot select an axis to squeeze out which has size not equal "
                        f"to one (axis {i} of shape {_fmt(self.shape)})")
        keep = [i for i in range(self.ndim) if i not in drop]
        return _checked(tuple([self.shape[i] for i in keep]), tuple([self.strides[i] for i in keep]), self.offset)

    def reshape(self, shape: Any) -> Dim | None:
        """View with a new shape, or None when the strides need a copy.

        One -1 is inferred. Follows NumPy's no-copy rule (C order).
        See also: numpy.reshape.
        """
        new = _as_shape(shape, allow_minus_one=True)
        if new == self.shape:   # NumPy's quick path (before -1 is resolved)
            return self
        size = self.size
        if -1 in new:
            if new.count(-1) > 1:
                raise ValueError(f"reshape: can only specify one unknown dimension, "
                                 f"got shape {_fmt(new)}")
            known = _prod(n for n in new if n != -1)
            if known == 0 or size % known:
                raise ValueError(f"cannot reshape array of shape {_fmt(self.shape)} "
                                 f"(size {size}) into shape {_fmt(new)}")
            new = tuple(size // known if n == -1 else n for n in new)
        elif _prod(new) != size:
            raise ValueError(f"cannot reshape array of shape {_fmt(self.shape)} "
                             f"(size {size}) into shape {_fmt(new)}")
        if self.is_c_contiguous:
            return _checked(new, _c_strides(new), self.offset)
        strides = self._nocopy_strides(new)
        return None if strides is None else _checked(new, strides, self.offset)

    def _nocopy_strides(self, new: tuple[int, ...]) -> tuple[int, ...] | None:
        """NumPy's _attempt_nocopy_reshape (C order); size > 0 assumed."""
        old = [(n, s) for n, s in zip(self.shape, self.strides) if n != 1]
        olddims = [n for n, _ in old]
        oldstrides = [s for _, s in old]
        oldnd, newnd = len(olddims), len(new)
        out = [0] * newnd
        oi, oj, ni, nj = 0, 1, 0, 1
        while ni < newnd and oi < oldnd:
            np_, op = new[ni], olddims[oi]
            while np_ != op:
                if np_ < op:
                    np_ *= new[nj]
                    nj += 1
                else:
                    op *= olddims[oj]
                    oj += 1
            for ok in range(oi, oj - 1):
                if oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]:
                    return None
            out[nj - 1] = oldstrides[oj - 1]
            for nk in range(nj - 1, ni, -1):
                out[nk - 1] = out[nk] * new[nk]
            ni, nj = nj, nj + 1
            oi, oj = oj, oj + 1
        last = out[ni - 1] if ni >= 1 else 1
        for nk in range(ni, newnd):
            out[nk] = last
        return tuple(out)

    def getitem(self, key: Any) -> Dim:
        """View for a basic index: ints, slices, Ellipsis, None, or a tuple of those.

        Out-of-range ints raise IndexError like NumPy; anything else (lists,
        arrays, bools, floats) raises IndexError (advanced indexing is elsewhere).
        """
        if type(key) is not tuple:
            key = (key,)
        shape_ = self.shape
        if len(key) == len(shape_):  # an int per axis: the common element read or write
            offset, strides = self.offset, self.strides
            for d, k in enumerate(key):
                if type(k) is not int:
                    break
                n = shape_[d]
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for axis {d} with size {n}")
                offset += (k + n if k < 0 else k) * strides[d]
            else:
                return _element(offset)
        made = self._plain(key)
        return made if made is not None else self._general(key)

    def _plain(self, key: tuple) -> Dim | None:
        """:meth:`getitem` for a key of ints, slices and None only, in one pass; None for any other
        key and for one that raises (:meth:`_general` then raises NumPy's error, in NumPy's order)."""
        shape_, strides_ = self.shape, self.strides
        nd = len(shape_)
        offset = self.offset
        shape: list[int] = []
        strides: list[int] = []
        d = 0
        for k in key:
            if type(k) is slice:
                if d == nd:
                    return None
                n = shape_[d]
                if k.start is None and k.stop is None and k.step is None:  # ':'
                    shape.append(n)
                    strides.append(strides_[d])
                else:
                    if k.step == 0:
                        return None
                    start, stop, step = k.indices(n)
                    m = len(range(start, stop, step))
                    if m:
                        offset += start * strides_[d]
                    shape.append(m)
                    strides.append(strides_[d] * step if m else strides_[d])
                d += 1
            elif type(k) is int:
                if d == nd:
                    return None
                n = shape_[d]
                if not -n <= k < n:
                    return None
                offset += (k + n if k < 0 else k) * strides_[d]
                d += 1
            elif k is None:
                shape.append(1)
                strides.append(0)
            else:
                return None
        if d < nd:
            shape.extend(shape_[d:])
            strides.extend(strides_[d:])
        return _checked(tuple(shape), tuple(strides), offset)

    def _general(self, key: tuple) -> Dim:
        """:meth:`getitem` for any basic key, with NumPy's errors."""
        entries: list[Any] = []
        consumed = 0
        ellipsis = False
        for k in key:
            if k is None or type(k) is slice:
                consumed += k is not None
            elif k is Ellipsis:
                if ellipsis:
                    raise IndexError("an index can only have a single ellipsis ('...')")
                ellipsis = True
            elif type(k) is int:
                consumed += 1
            else:
                k = _index_scalar(k)
                consumed += 1
            entries.append(k)
        if consumed > self.ndim:
            raise IndexError(f"too many indices for array: array is {self.ndim}-dimensional, "
                             f"but {consumed} were indexed")
        shape: list[int] = []
        strides: list[int] = []
        offset = self.offset
        d = 0
        for k in entries:
            if k is None:
                shape.append(1)
                strides.append(0)
            elif k is Ellipsis:
                n_fill = self.ndim - consumed
                shape.extend(self.shape[d:d + n_fill])
                strides.extend(self.strides[d:d + n_fill])
                d += n_fill
            elif type(k) is slice:
                start, stop, step = k.indices(self.shape[d])
                n = len(range(start, stop, step))
                if n == 0:
                    start, step = 0, 1
                offset += start * self.strides[d]
                shape.append(n)
                strides.append(self.strides[d] * step)
                d += 1
            else:
                n = self.shape[d]
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for axis {d} with size {n}")
                offset += (k + n if k < 0 else k) * self.strides[d]
                d += 1
        shape.extend(self.shape[d:])
        strides.extend(self.strides[d:])
        return _checked(tuple(shape), tuple(strides), offset)
