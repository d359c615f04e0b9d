"""``darray.lib``: the parts of ``numpy.lib`` darray has."""
from __future__ import annotations

from . import stride_tricks as stride_tricks

__all__ = ["stride_tricks"]
