"""Lazy layer: elementwise expressions become graphs (``graph``), fuse into kernel specs
(``fuse``), render as OpenCL (``render``) and launch through the scheduler (``execute``)."""
from __future__ import annotations

from . import execute, fuse, graph, render, spec

__all__ = ["execute", "fuse", "graph", "render", "spec"]
