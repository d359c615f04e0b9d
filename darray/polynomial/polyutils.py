"""Helpers shared by the polynomial modules (``numpy.polynomial.polyutils``): series conversion and trimming,
domains and the affine maps between them. Arrays come back as DArrays on the place of the argument.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._array import DArray
from ..transfer.convert import from_numpy, to_numpy
from . import _algebra as A
from ._evaluate import as_darray, place_of


def _host(a: Any) -> Any:
    return to_numpy(a) if isinstance(a, DArray) else a


def as_series(alist: Any, trim: bool = True) -> list[DArray]:
    """1-D DArray copies of the coefficient vectors of ``alist``, of their common type (``numpy.common_type``:
    integers become float64), trailing zeros trimmed when ``trim``. See also:
    numpy.polynomial.polyutils.as_series.

    Differs from NumPy: computed on the host; no object arrays."""
    items = list(alist) if not isinstance(alist, DArray) else [alist[i] for i in range(alist.shape[0])]
    place = place_of(alist, *items)
    return [from_numpy(a, place) for a in A.as_series([_host(a) for a in items], trim, "as_series")]


def trimseq(seq: Any) -> Any:
    """``seq`` without its trailing zeros (at least one element kept). See also:
    numpy.polynomial.polyutils.trimseq."""
    if isinstance(seq, DArray):
        return seq[:len(A.trimseq(to_numpy(seq)))]
    return A.trimseq(np.asarray(seq)) if isinstance(seq, np.ndarray) else seq[:len(A.trimseq(np.asarray(seq)))]


def trimcoef(c: Any, tol: Any = 0) -> DArray:
    """The series without its trailing coefficients of magnitude at most ``tol`` (``[0]`` when none is left).
    See also: numpy.polynomial.polyutils.trimcoef."""
    if tol < 0:
        raise ValueError("trimcoef: tol must be non-negative")
    [host] = A.as_series([_host(c)], trim=False, name="trimcoef")
    nz = np.flatnonzero(np.abs(host) > tol)
    return from_numpy(host[:int(nz[-1]) + 1] if nz.size else host[:1] * 0, place_of(c))


def getdomain(x: Any) -> DArray:
    """The smallest domain holding the points ``x``: [min, max] (for complex points, the corners of the
    bounding box of the real and imaginary parts). See also: numpy.polynomial.polyutils.getdomain."""
    [v] = A.as_series([_host(x)], trim=False, name="getdomain")
    if v.dtype.kind == "c":
        out = np.array((complex(v.real.min(), v.imag.min()), complex(v.real.max(), v.imag.max())))
    else:
        out = np.array((v.min(), v.max()))
    return from_numpy(out, place_of(x))


def mapparms(old: Any, new: Any) -> tuple[Any, Any]:
    """(off, scl) of the affine map x -> off + scl x that sends the interval ``old`` onto ``new``. See also:
    numpy.polynomial.polyutils.mapparms."""
    o, n = np.asarray(_host(old)), np.asarray(_host(new))
    width = o[1] - o[0]
    return (o[1] * n[0] - o[0] * n[1]) / width, (n[1] - n[0]) / width


def mapdomain(x: Any, old: Any, new: Any) -> Any:
    """``x`` mapped by the affine map sending the interval ``old`` onto ``new``. See also:
    numpy.polynomial.polyutils.mapdomain.

    Differs from NumPy: an array ``x`` comes back as a DArray (a Python or NumPy scalar stays a scalar)."""
    if isinstance(x, (list, tuple, np.ndarray, DArray)):
        x = as_darray(x, place_of(x))
    off, scl = mapparms(old, new)
    return off + scl * x


def format_float(x: Any, parens: bool = False) -> str:
    """``x`` as the polynomial printers show a coefficient (NumPy's own formatting). See also:
    numpy.polynomial.polyutils.format_float."""
    return np.polynomial.polyutils.format_float(x, parens)


__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain", "mapparms", "format_float"]
