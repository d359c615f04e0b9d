"""Joining and splitting: concatenate and the stack families, the split families, block, append, insert, delete."""
from __future__ import annotations

__all__: list[str] = []
