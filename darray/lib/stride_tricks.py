"""sliding_window_view and as_strided: views over the same device memory."""
from __future__ import annotations

__all__: list[str] = []
