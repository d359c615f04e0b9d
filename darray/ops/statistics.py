"""Order statistics and averages: median, percentile, quantile, average, cov, corrcoef."""
from __future__ import annotations

__all__: list[str] = []
