"""DArrays in einops (``rearrange``, ``reduce``, ``repeat``, ``einsum``, ``parse_shape``...).

einops finds a framework's backend among the subclasses of its ``AbstractBackend`` whose
``framework_name`` is an imported module; darray defines its subclass as soon as einops and
darray are both imported, in either order. Every operation runs on the array's place.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .._array import DArray
from ..ops.arrange import tile
from ..ops.creation import arange
from ..ops.einsum import einsum
from ..ops.manipulation import concat, expand_dims, stack
from ..transfer.convert import asarray, to_numpy
from ._on_import import on_import

TRIGGER = "einops"
_made: list[type] = []


def register() -> None:
    """Define darray's einops backend (idempotent)."""
    if _made:
        return
    from einops._backends import AbstractBackend

    class DArrayBackend(AbstractBackend):
        framework_name = "darray"

        def is_appropriate_type(self, tensor: Any) -> bool:
            return isinstance(tensor, DArray)

        def from_numpy(self, x: Any) -> DArray:
            return asarray(x)

        def to_numpy(self, x: DArray) -> np.ndarray:
            return to_numpy(x)

        def arange(self, start: int, stop: int) -> DArray:
            return arange(start, stop)

        def stack_on_zeroth_dimension(self, tensors: list[DArray]) -> DArray:
            return stack(tensors)

        def add_axis(self, x: DArray, new_position: int) -> DArray:
            return expand_dims(x, axis=new_position)

        def tile(self, x: DArray, repeats: tuple[int, ...]) -> DArray:
            return tile(x, repeats)

        def concat(self, tensors: list[DArray], axis: int) -> DArray:
            return concat(tensors, axis=axis)

        def is_float_type(self, x: DArray) -> bool:
            return x.dtype.kind in "fc"

        def einsum(self, pattern: str, *x: DArray) -> DArray:
            return einsum(pattern, *x)

    _made.append(DArrayBackend)


def install() -> None:
    """Register now when einops is already imported, else when it is."""
    on_import(TRIGGER, register)


__all__ = ["install", "register"]
