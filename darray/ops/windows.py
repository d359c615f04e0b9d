"""Window functions: hanning, hamming, blackman, bartlett, kaiser."""
from __future__ import annotations

__all__: list[str] = []
