"""Window functions: bartlett, blackman, hamming, hanning, kaiser, computed on the device (float64,
or the place's default float without fp64)."""
from __future__ import annotations

import math
from typing import Any

from .._array import DArray
from ..place import PlaceLike
from . import elementwise as E
from .creation import arange, ones
from .mathfuncs import i0


def _positions(M: int, device: PlaceLike) -> tuple[DArray, float] | None:  # noqa: N803  (NumPy's name)
    """(0, 1, ..., M-1) as floats and M - 1, or None for M < 2 (NumPy: empty for M < 1, [1.] for M = 1)."""
    if M < 2:
        return None
    return arange(M, device=device).astype(ones(1, device=device).dtype), float(M - 1)


def _short(M: int, device: PlaceLike) -> DArray:  # noqa: N803
    return ones(max(int(M), 0), device=device)


def _cosine_sum(M: int, coefficients: tuple[float, ...], device: PlaceLike) -> DArray:  # noqa: N803
    got = _positions(M, device)
    if got is None:
        return _short(M, device)
    n, last = got
    total: Any = coefficients[0]
    for k, c in enumerate(coefficients[1:], 1):
        total = E.apply("add", total, E.apply("multiply", (-1) ** k * c,
                                              E.apply("cos", E.apply("multiply", n, 2 * math.pi * k / last))))
    return total


def hanning(M: int, *, device: PlaceLike = None) -> DArray:  # noqa: N803
    """The Hann window of ``M`` points. See also: numpy.hanning."""
    return _cosine_sum(M, (0.5, 0.5), device)


def hamming(M: int, *, device: PlaceLike = None) -> DArray:  # noqa: N803
    """The Hamming window of ``M`` points. See also: numpy.hamming."""
    return _cosine_sum(M, (0.54, 0.46), device)


def blackman(M: int, *, device: PlaceLike = None) -> DArray:  # noqa: N803
    """The Blackman window of ``M`` points. See also: numpy.blackman."""
    return _cosine_sum(M, (0.42, 0.5, 0.08), device)


def bartlett(M: int, *, device: PlaceLike = None) -> DArray:  # noqa: N803
    """The triangular (Bartlett) window of ``M`` points. See also: numpy.bartlett."""
    got = _positions(M, device)
    if got is None:
        return _short(M, device)
    n, last = got
    return E.apply("subtract", 1.0, E.apply("abs", E.apply("subtract", E.apply("multiply", n, 2.0 / last), 1.0)))


def kaiser(M: int, beta: float, *, device: PlaceLike = None) -> DArray:  # noqa: N803
    """The Kaiser window of ``M`` points with shape ``beta`` (``i0`` on the device). See also: numpy.kaiser."""
    got = _positions(M, device)
    if got is None:
        return _short(M, device)
    n, last = got
    alpha = last / 2.0
    r = E.apply("divide", E.apply("subtract", n, alpha), alpha)
    arg = E.apply("multiply", beta, E.apply("sqrt", E.apply("subtract", 1.0, E.apply("multiply", r, r))))
    return E.apply("divide", i0(arg), float(i0(ones(1, device=device) * beta)[0]))


__all__ = ["hanning", "hamming", "blackman", "bartlett", "kaiser"]
