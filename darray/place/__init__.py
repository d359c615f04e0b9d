"""Places (CPU or an OpenCL device), device discovery and the current-place guard.

``"cpu"``, ``"cl"`` and ``"cl:N"`` parse to places; ``with da.place.use("cl:1"):`` sets the
current place for the thread. OpenCL is initialised on first use.
"""
from __future__ import annotations

from typing import Any

from . import _discovery
from ._discovery import DeviceInfo
from ._places import CLPlace, CPUPlace, Place, PlaceLike, current, default, parse, use
from ._runtime import Runtime, runtime

__all__ = [
    "CPUPlace", "CLPlace", "Place", "PlaceLike", "DeviceInfo", "parse", "current", "default", "use",
    "devices", "is_available", "device_count", "get_device_name", "get_device_properties", "runtime", "Runtime",
]


def devices() -> list[DeviceInfo]:
    """Every OpenCL device darray can use, in index order."""
    return [info for info, _ in _discovery.found()]


def is_available() -> bool:
    """True when at least one OpenCL device was found."""
    return bool(_discovery.found())


def device_count() -> int:
    """The number of OpenCL devices."""
    return len(_discovery.found())


def _info(i: int) -> DeviceInfo:
    devs = devices()
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(devs):
        raise IndexError(f"darray place: device index {i!r} out of range; {len(devs)} device(s) found")
    return devs[i]


def get_device_name(i: int = 0) -> str:
    """The name of OpenCL device ``i``."""
    return _info(i).name


def get_device_properties(i: int = 0) -> dict[str, Any]:
    """The properties of OpenCL device ``i`` as a dict (platform, type, memory, fp16/fp64, ...)."""
    return _info(i).as_dict()
