"""Lazy layer: elementwise expressions become graphs (``graph``), fuse into kernel specs
(``fuse``), render as OpenCL (``render``) and launch through the scheduler (``execute``);
``evaluate`` decides when.
"""
from __future__ import annotations

from . import execute, fuse, graph, render, spec
from .evaluate import before_write, compute_into, eager, evaluate, hand_over, launch, pending, record
from .explain import explain, script

__all__ = ["execute", "fuse", "graph", "render", "spec", "evaluate", "compute_into", "record", "before_write",
           "hand_over", "launch", "eager", "pending", "explain", "script"]
