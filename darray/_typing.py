"""Type aliases of the public signatures (what the functions accept for arrays, dtypes and devices)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._array import DArray
from .place import PlaceLike

Scalar = bool | int | float | complex
ArrayLike = DArray | Scalar | np.ndarray | np.generic
"""What the functions accept where the standard says ``array``: DArrays, Python and NumPy scalars,
NumPy arrays (copied to the place of the other arguments)."""
DTypeLike = Any
"""A dtype, its name or a NumPy scalar type (``darray.float32``, ``"float32"``, ``numpy.float32``)."""
Device = PlaceLike

__all__ = ["ArrayLike", "DTypeLike", "Device", "Scalar"]
