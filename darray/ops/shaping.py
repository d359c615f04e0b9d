"""Shapes and orders: atleast_*, rot90, fliplr/flipud, rollaxis, resize, trim_zeros, require and the like."""
from __future__ import annotations

__all__: list[str] = []
