"""Bits packed into bytes and back: packbits and unpackbits, on the array's place."""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from .._array import DArray
from ..transfer.convert import asarray
from . import elementwise as E
from . import reduction as R
from .manipulation import moveaxis, reshape
from .padding import pad

_BIG = (7, 6, 5, 4, 3, 2, 1, 0)  # bit shifts of the 8 elements packed into one byte, most significant first


def _shifts(bitorder: str, op: str, place: Any) -> DArray:
    if bitorder not in ("big", "little"):
        raise ValueError(f"darray {op}: bitorder must be 'big' or 'little', got {bitorder!r}")
    return asarray(_BIG if bitorder == "big" else _BIG[::-1], dtype=_dt.uint8, device=place)


def packbits(a: Any, /, axis: int | None = None, bitorder: str = "big") -> DArray:
    """The truth of each element packed 8 to a uint8 along ``axis`` (flattened when None), the last
    byte padded with zeros. See also: numpy.packbits."""
    x = asarray(a)
    if x.dtype.kind not in "biu":
        raise TypeError(f"darray packbits: expected an integer or bool array, got {x.dtype}")
    shifts = _shifts(bitorder, "packbits", x.place)
    x = reshape(x, (-1,)) if axis is None else moveaxis(x, axis, -1)
    bits = E.apply("not_equal", x, 0).astype(_dt.uint8)
    n = bits.shape[-1]
    if n % 8:
        bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, 8 - n % 8)])
    groups = reshape(bits, (*bits.shape[:-1], bits.shape[-1] // 8, 8))
    packed = R.sum(E.apply("bitwise_left_shift", groups, shifts), axis=-1, dtype=_dt.uint8)
    return packed if axis is None else moveaxis(packed, -1, axis)


def unpackbits(a: Any, /, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> DArray:
    """The bits of a uint8 array as 0/1 uint8 elements along ``axis`` (flattened when None), 8 per
    byte; ``count`` keeps the first ``count`` bits (a negative one drops from the end, a larger one pads
    zeros). See also: numpy.unpackbits."""
    x = asarray(a)
    if x.dtype != _dt.uint8:
        raise TypeError(f"darray unpackbits: expected an input array of unsigned byte data type, got {x.dtype}")
    shifts = _shifts(bitorder, "unpackbits", x.place)
    x = reshape(x, (-1,)) if axis is None else moveaxis(x, axis, -1)
    bits = E.apply("bitwise_and", E.apply("bitwise_right_shift", reshape(x, (*x.shape, 1)), shifts), 1)
    bits = reshape(bits, (*x.shape[:-1], x.shape[-1] * 8))
    if count is not None:
        n = bits.shape[-1]
        if count < -n:
            raise ValueError(f"darray unpackbits: -count ({-count}) larger than the number of bits ({n})")
        keep = n + count if count < 0 else count
        bits = bits[..., :keep] if keep <= n else pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, keep - n)])
    return bits if axis is None else moveaxis(bits, -1, axis)


__all__ = ["packbits", "unpackbits"]
