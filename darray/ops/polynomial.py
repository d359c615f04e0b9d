"""Polynomials in NumPy's power-series form: poly, polyval, polyfit, roots, polyder, polyint, poly1d."""
from __future__ import annotations

__all__: list[str] = []
