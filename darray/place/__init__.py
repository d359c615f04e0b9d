"""Places (CPU or an OpenCL device), device discovery and the current-place guard.

``"cpu"``, ``"cl"``, ``"gpu"`` and ``"cl:N"`` parse to places; ``with da.place.use("cl:1"):`` sets the
current place for the thread. OpenCL is initialised on first use; before that, importing this
package makes the ICD loader see the CPU runtime darray ships with (``_icd``). Every device
is listed, but one is used only after it passed the probe (``_probe``: build and run a small
kernel; the verdict is cached on disk). darray's files on disk (programs, verdicts, the ICD
vendors folder) are private and verified (``_private``).

The package is also NumPy's ``place`` function: ``da.place(arr, mask, vals)`` calls what the ops
layer registers with :func:`on_call` (``darray.ops.selection.place``), since NumPy's name is taken.
"""
from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from . import _icd

_icd.register()  # before pyopencl first lists platforms

from . import _discovery, _probe  # noqa: E402
from ._discovery import DeviceInfo  # noqa: E402
from ._places import CLPlace, CPUPlace, Place, PlaceLike, current, default, parse  # noqa: E402
from ._probe import Verdict  # noqa: E402
from ._programs import finish_builds  # noqa: E402
from ._runtime import Runtime, runtime, use  # noqa: E402

__all__ = [
    "CPUPlace", "CLPlace", "Place", "PlaceLike", "DeviceInfo", "Verdict", "probe", "parse", "current", "default", "use",
    "devices", "is_available", "device_count", "get_device_name", "get_device_properties", "runtime", "Runtime",
    "on_call", "finish_builds",
]
_CALL: list[Callable[..., Any]] = []


class _CallablePackage(types.ModuleType):
    @property
    def function(self) -> Callable[..., Any]:
        """What calling the package calls (for the API table)."""
        return _CALL[0]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _CALL[0](*args, **kwargs)


def on_call(function: Callable[..., Any]) -> None:
    """Make ``darray.place(...)`` call ``function`` (NumPy's ``place``, registered by the ops layer)."""
    _CALL[:] = [function]


sys.modules[__name__].__class__ = _CallablePackage


def devices() -> list[DeviceInfo]:
    """Every OpenCL device darray can use, in index order."""
    return [info for info, _ in _discovery.found()]


def is_available() -> bool:
    """True when at least one OpenCL device passed darray's probe."""
    return _probe.choose()[0] is not None


def device_count() -> int:
    """The number of OpenCL devices found (usable or not: indices are stable; see :func:`probe`)."""
    return len(_discovery.found())


def probe(i: int = 0, *, fresh: bool = False) -> Verdict:
    """The probe's verdict on OpenCL device ``i``: ``ok``, and ``reason`` when it failed (the build
    log's error line). Probed once per device, driver and darray version and cached on disk;
    ``fresh=True`` probes again (after fixing a runtime whose driver string did not change)."""
    return _probe.verdict(*_discovery.found()[_info(i).index], fresh=fresh)


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
