"""einsum and einsum_path, planned as transposes, reshapes and matmuls on the array's place."""
from __future__ import annotations

__all__: list[str] = []
