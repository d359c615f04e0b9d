"""The elementwise op table: one row per op (filled in by the numeric core)."""
from __future__ import annotations

import numpy as np

from ..lazy.spec import Instr


def expr(instr: Instr, arg_dtypes: tuple[np.dtype, ...], args: tuple[str, ...]) -> str:
    """The C expression of one SSA instruction."""
    raise NotImplementedError(f"darray: no OpenCL expression for op {instr.op!r}")
