"""NumPy's ``out=`` for every family: a result written into a caller's DArray."""
from __future__ import annotations

from typing import Any

from .._array import DArray
from ..transfer.convert import assign
from .elementwise import check_out


def store(name: str, out: Any, result: DArray, casting: str = "same_kind") -> DArray:
    """``result`` written into ``out`` (NumPy's ``out=`` rules: a DArray of the result's shape and
    place, a cast by ``casting``); returns ``out``. ``out`` may be a 1-tuple, as NumPy allows."""
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    check_out(name, out, result.dtype, result.shape, result.place, casting)
    assign(out, out._dim, result)
    return out


def finish(name: str, result: DArray, out: Any, casting: str = "same_kind") -> DArray:
    """``result``, or ``result`` stored into ``out`` when one is given (``out=None`` is NumPy's default)."""
    return result if out is None else store(name, out, result, casting)


def reduced(name: str, result: DArray, out: Any) -> DArray:
    """:func:`finish` for a reduction or a scan: NumPy's reduce and accumulate write into ``out`` by any
    cast ('unsafe')."""
    return finish(name, result, out, "unsafe")


__all__ = ["store", "finish", "reduced"]
