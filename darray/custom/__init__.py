"""User-defined kernels: ``ElementwiseKernel`` and ``ReductionKernel`` (C bodies that fuse with
darray's lazy graph) and ``RawKernel``/``RawModule`` (whole OpenCL C kernels launched through the
scheduler). See docs/kernels.md."""
from __future__ import annotations

from .elementwise import ElementwiseKernel
from .raw import RawKernel, RawModule
from .reduction import ReductionKernel

__all__ = ["ElementwiseKernel", "ReductionKernel", "RawKernel", "RawModule"]
