"""Place: where an array's memory lives (a tagged union of CPUPlace and CLPlace)."""
from __future__ import annotations

import os
import threading
import warnings
from dataclasses import dataclass

from ..errors import DeviceError
from . import _probe


@dataclass(frozen=True, slots=True)
class CPUPlace:
    """Host memory; ops run through NumPy."""

    kind = "cpu"

    def __repr__(self) -> str:
        return "CPUPlace()"

    def __str__(self) -> str:
        return "cpu"


@dataclass(frozen=True, slots=True)
class CLPlace:
    """An OpenCL device, by its index in ``da.place.devices()``."""

    index: int = 0
    kind = "cl"

    def __post_init__(self) -> None:
        if isinstance(self.index, bool) or not isinstance(self.index, int) or self.index < 0:
            raise ValueError(f"darray place: device index must be a non-negative int, got {self.index!r}")

    def __hash__(self) -> int:  # the generated one builds a tuple: every op hashes its place a few times
        return self.index

    def __repr__(self) -> str:
        return f"CLPlace({self.index})"

    def __str__(self) -> str:
        return f"cl:{self.index}"


Place = CPUPlace | CLPlace
PlaceLike = Place | str | None


def parse(obj: PlaceLike) -> Place:
    """A Place from a Place, ``"cpu"``, ``"cl"`` (the best device), ``"gpu"`` (the best GPU),
    ``"cl:N"`` or None (current). ``"cl"`` and ``"gpu"`` with no such device that passed darray's
    probe: DeviceError (status PROBE_FAILED) when some failed it, else ValueError naming the
    devices found."""
    if obj is None:
        return current()
    if isinstance(obj, (CPUPlace, CLPlace)):
        return obj
    if isinstance(obj, str):
        text = obj.strip().lower()
        if text == "cpu":
            return CPUPlace()
        if text in ("cl", "opencl", "gpu"):
            gpu = text == "gpu"
            what = "a GPU" if gpu else "an OpenCL device"
            best, failed = _probe.choose(gpu=gpu)
            if best is not None:
                return CLPlace(best)
            found = "; devices found: " + (", ".join(f"cl:{d.index} ({d.name} [{d.platform}], {d.type})"
                                                     for d, _ in _probe.found()) or "none")
            if failed:
                raise DeviceError(f"darray place: {obj!r} asks for {what} but none passed darray's probe: "
                                  + "; ".join(_probe.describe(*f) for f in failed) + found, status="PROBE_FAILED")
            raise ValueError(f"darray place: {obj!r} asks for {what} but none was found" + found)
        head, sep, tail = text.partition(":")
        if sep and head in ("cl", "opencl") and tail.isdigit():
            return CLPlace(int(tail))
    raise ValueError(f"darray place: cannot parse {obj!r}; expected 'cpu', 'cl', 'gpu' or 'cl:N'")


_default: Place | None = None
_default_lock = threading.Lock()
_local = threading.local()


def default() -> Place:
    """``DARRAY_DEVICE`` if set, else the best OpenCL device that passed its probe (one warning
    names the better devices that failed it and why), else ``cpu`` with one warning."""
    global _default
    if _default is not None:  # set once
        return _default
    with _default_lock:
        if _default is None:
            env = os.environ.get("DARRAY_DEVICE", "").strip()
            _default = parse(env) if env else _best()
        return _default


def _best() -> Place:
    best, failed = _probe.choose()
    skipped = "; ".join(_probe.describe(*f) for f in failed)
    if best is None:
        why = f"none passed darray's probe ({skipped})" if failed else "none was found"
        warnings.warn(f"darray: no usable OpenCL device, {why}; arrays live on the CPU (NumPy)", RuntimeWarning,
                      stacklevel=4)
        return CPUPlace()
    if failed:
        warnings.warn(f"darray: skipping {skipped}; the default place is cl:{best}", RuntimeWarning, stacklevel=4)
    return CLPlace(best)


def current() -> Place:
    """The place new arrays go to in this thread: the innermost ``use(...)``, else the default."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else default()
