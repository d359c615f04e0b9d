"""Selecting and partitioning: partition, lexsort, argwhere, extract, select, choose, compress, putmask."""
from __future__ import annotations

__all__: list[str] = []
