"""Counting: histogram, histogram2d, histogramdd, histogram_bin_edges, bincount, digitize."""
from __future__ import annotations

__all__: list[str] = []
