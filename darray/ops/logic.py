"""Logic functions: allclose, isclose, array_equal, array_equiv, iscomplex, isreal, isposinf, isneginf."""
from __future__ import annotations

__all__: list[str] = []
