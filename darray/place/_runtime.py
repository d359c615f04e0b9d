"""Per-device runtime: context, device facts and program cache, created on first use."""
from __future__ import annotations

import threading

import pyopencl as cl

from ..errors import cl_errors
from . import _discovery
from ._places import CLPlace
from ._programs import ProgramCache


class Runtime:
    """Everything darray holds for one OpenCL device."""

    def __init__(self, place: CLPlace) -> None:
        devs = _discovery.found()
        if place.index >= len(devs):
            raise ValueError(f"darray place: no OpenCL device {place}; {len(devs)} device(s) found")
        self.place = place
        self.info, self.device = devs[place.index]
        with cl_errors(f"creating a context on {place}"):
            self.context = cl.Context([self.device])
        ident = "|".join((self.info.platform, self.info.name, self.info.driver, self.info.vendor))
        self.programs = ProgramCache(self.context, self.device, ident)
        self.lock = threading.Lock()  # guards kernel argument setting + enqueue

    def new_queue(self) -> cl.CommandQueue:
        with cl_errors(f"creating a queue on {self.place}"):
            return cl.CommandQueue(self.context, self.device, properties=cl.command_queue_properties.PROFILING_ENABLE)


_runtimes: dict[CLPlace, Runtime] = {}
_lock = threading.Lock()


def runtime(place: CLPlace) -> Runtime:
    """The runtime of ``place``, created (OpenCL initialised) on first use."""
    rt = _runtimes.get(place)
    if rt is None:
        with _lock:
            rt = _runtimes.get(place)
            if rt is None:
                rt = _runtimes[place] = Runtime(place)
    return rt


def runtimes() -> list[Runtime]:
    """The runtimes created so far."""
    return list(_runtimes.values())
