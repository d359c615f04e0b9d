"""darray.sparse.linalg: iterative solvers built from darray.sparse's products."""
from __future__ import annotations

__all__ = ["cg"]
