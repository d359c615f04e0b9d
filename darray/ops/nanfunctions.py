"""The nan* reductions and scans: NaN treated as missing (NumPy's nanfunctions)."""
from __future__ import annotations

__all__: list[str] = []
