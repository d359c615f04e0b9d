"""darray's ufunc objects: every elementwise function with NumPy's ufunc interface."""
from __future__ import annotations

__all__: list[str] = []
