"""The Array API namespace's own pieces: ``__array_api_version__``, the constants, ``astype``,
``__array_namespace_info__`` and ``DArray.__array_namespace__``.

Devices are darray's places: ``darray.CPUPlace()`` (host memory, ops through NumPy) and
``darray.CLPlace(i)`` for each OpenCL device that passed darray's probe. ``x.device`` is the
array's place; ``device=`` accepts a place or its name (``"cpu"``, ``"cl:0"``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as _dt
from ._array import DArray
from ._typing import Device, DTypeLike
from .dim import MAX_RANK
from .ops.creation import default_float
from .place import CLPlace, CPUPlace, Place, current, parse, probe
from .place import devices as _cl_devices

__array_api_version__ = "2024.12"
VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None

_STANDARD = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
             "complex64", "complex128")


def astype(x: DArray, dtype: DTypeLike, /, *, copy: bool = True, device: Device = None) -> DArray:
    """``x`` cast to ``dtype`` (on ``device`` when given). ``copy=False`` returns ``x`` itself when
    nothing changes. Casts follow NumPy's ``astype`` (float -> int truncates; the standard leaves
    it undefined). See also: numpy.astype."""
    if device is not None:
        x = x.to_device(device)
    return x.astype(dtype, copy=copy)


class Info:
    """What ``__array_namespace_info__()`` returns: darray's capabilities, devices and dtypes."""

    def capabilities(self) -> dict[str, Any]:
        """Boolean indexing and data-dependent shapes (``nonzero``, ``unique_*``) are supported."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": MAX_RANK}

    def default_device(self) -> Place:
        """The current place (``DARRAY_DEVICE``, ``darray.place.use``, else the best device)."""
        return current()

    def devices(self) -> list[Place]:
        """``cpu`` and every OpenCL device that passed darray's probe."""
        return [CPUPlace(), *[CLPlace(d.index) for d in _cl_devices() if probe(d.index).ok]]

    def default_dtypes(self, *, device: Device = None) -> dict[str, np.dtype]:
        """float64/complex128 (float32/complex64 on a device without fp64) and int64."""
        real = default_float(parse(device))
        return {"real floating": real, "complex floating": _dt.complex_dtype(real), "integral": _dt.int64,
                "indexing": _dt.int64}

    def dtypes(self, *, device: Device = None, kind: Any = None) -> dict[str, np.dtype]:
        """The standard's dtypes the device computes in (no float64/complex128 without fp64),
        optionally of ``kind`` (as ``isdtype``). float16, which darray also has, is left out."""
        place = parse(device)
        wide = default_float(place) == _dt.float64
        names = [n for n in _STANDARD if wide or n not in ("float64", "complex128")]
        return {n: np.dtype(n) for n in names if kind is None or _dt.isdtype(np.dtype(n), kind)}


def __array_namespace_info__() -> Info:
    """The inspection API of the Array API standard."""
    return Info()


def check_api_version(api_version: str | None) -> None:
    """``DArray.__array_namespace__``'s check: ValueError for a version darray does not implement."""
    if api_version is not None and api_version not in VERSIONS:
        raise ValueError(f"darray __array_namespace__: api_version {api_version!r} is not supported "
                         f"(one of {', '.join(VERSIONS)})")


__all__ = ["__array_api_version__", "__array_namespace_info__", "astype", "e", "inf", "nan", "pi", "newaxis"]
