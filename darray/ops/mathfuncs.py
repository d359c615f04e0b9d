"""NumPy's mathematical functions beyond the ufuncs: convolve, interp, gradient, trapezoid, kron and the like."""
from __future__ import annotations

__all__: list[str] = []
