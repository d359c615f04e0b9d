"""Index tricks: r_, c_, s_, mgrid, ogrid, ix_, indices, the *_indices functions, (un)ravel index."""
from __future__ import annotations

__all__: list[str] = []
