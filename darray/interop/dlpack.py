"""DLPack: ``DArray.__dlpack__``, ``__dlpack_device__`` and ``darray.from_dlpack``.

Memory the host can address is shared without a copy: arrays on the ``cpu`` place, and on
OpenCL devices whose buffers are host memory (CPU runtimes, ``Runtime.host_backed``); those
export as DLPack CPU tensors (``(kDLCPU, 0)``) once the commands touching them have completed.
Other OpenCL memory (``(kDLOpenCL, i)``) is exported only as a host copy, when the consumer
asks for one (``copy=True`` or ``dl_device=(kDLCPU, 0)``); else ``BufferError``. Differs from
NumPy: ``from_dlpack`` copies onto an OpenCL place (``device=``, default the current place);
it shares the producer's memory only for ``device="cpu"`` and C-contiguous input.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._array import DArray
from .._typing import Device
from ..alloc import HostAllocation
from ..dim import Dim
from ..ops import _dispatch as D
from ..place import CLPlace, Place, parse, runtime
from ..sched import wait_idle
from ..transfer.convert import from_numpy

CPU, OPENCL = 1, 4  # DLDeviceType codes: kDLCPU, kDLOpenCL


class _Exported:
    """Keeps the Allocation of an exported OpenCL array alive while NumPy's view (and the DLPack
    capsule built from it) exists: the view's base is this object."""

    __slots__ = ("alloc", "__array_interface__")

    def __init__(self, x: DArray) -> None:
        self.alloc = x._data()
        item = x.dtype.itemsize
        start = self.alloc.host.ctypes.data + self.alloc.offset + x._dim.offset * item
        self.__array_interface__ = {"shape": x.shape, "typestr": x.dtype.str, "version": 3,
                                    "strides": x.strides, "data": (start, False)}


def _host_backed(x: DArray) -> bool:
    """Whether the host can address ``x``'s memory."""
    return D.implementation("dlpack.host_backed", x.place)(x)


@D.register("dlpack.host_backed", "cpu")
def _host_backed_cpu(x: DArray) -> bool:
    return True


@D.register("dlpack.host_backed", "cl")
def _host_backed_cl(x: DArray) -> bool:
    return runtime(cast(CLPlace, x.place)).host_backed and x._data().host is not None


def dlpack_device(self: DArray, /) -> tuple[int, int]:
    """``(kDLCPU, 0)`` for host-addressable memory, else ``(kDLOpenCL, device index)``."""
    if isinstance(self.place, CLPlace) and not _host_backed(self):
        return OPENCL, self.place.index
    return CPU, 0


def _host(x: DArray) -> np.ndarray:
    """NumPy's view of ``x``'s own memory (after the commands touching it have completed)."""
    return D.implementation("dlpack.host_view", x.place)(x)


@D.register("dlpack.host_view", "cpu")
def _host_cpu(x: DArray) -> np.ndarray:
    x._data()
    return x._host_view()


@D.register("dlpack.host_view", "cl")
def _host_cl(x: DArray) -> np.ndarray:
    """The view of host-backed OpenCL memory, kept alive by an :class:`_Exported`."""
    exported = _Exported(x)
    wait_idle(exported.alloc)  # the consumer may read or write it
    return np.asarray(exported) if x.size else np.empty(x.shape, x.dtype)


def dlpack(self: DArray, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
           dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
    """A DLPack capsule of this array (see the module docstring for when it is a copy).

    ``stream`` is ignored: darray waits for the array's pending commands before exporting."""
    if dl_device is not None and tuple(dl_device) not in (dlpack_device(self), (CPU, 0)):
        raise BufferError(f"darray __dlpack__: cannot export an array on {self.place} to DLPack device {dl_device}")
    if copy is True:
        host = self.get()
    elif _host_backed(self):
        host = _host(self)
    elif copy is None and dl_device is not None and tuple(dl_device) == (CPU, 0):
        host = self.get()
    else:
        raise BufferError(f"darray __dlpack__: the memory of {self.place} is not host-addressable; ask for a host "
                          "copy with copy=True or dl_device=(1, 0), or use x.get()")
    return host.__dlpack__() if max_version is None else host.__dlpack__(max_version=max_version)


def from_dlpack(x: Any, /, *, device: Device = None, copy: bool | None = None) -> DArray:
    """A DArray of a DLPack producer's data (a NumPy array, a PyTorch CPU tensor, a DArray...).

    On ``device="cpu"`` C-contiguous input is shared, not copied, unless ``copy=True``; elsewhere
    the data is copied onto ``device`` (``copy=False`` raises BufferError). See also:
    numpy.from_dlpack."""
    host = np.from_dlpack(x)
    place = parse(device)
    return D.implementation("from_dlpack", place)(host, place, copy)


@D.register("from_dlpack", "cpu")
def _from_dlpack_cpu(host: np.ndarray, place: Place, copy: bool | None) -> DArray:
    """``host`` shared when C-contiguous and no copy is asked for, else copied."""
    if copy is not True and host.flags.c_contiguous:
        flat = host.reshape(-1).view(np.uint8) if host.size else np.empty(0, np.uint8)
        return DArray(HostAllocation(flat.nbytes, flat), Dim.contiguous(host.shape), host.dtype, place)
    return _copied(host, place, copy)


@D.register("from_dlpack", "cl")
def _copied(host: np.ndarray, place: Place, copy: bool | None) -> DArray:
    """A copy of ``host`` on ``place`` (BufferError when ``copy`` is False)."""
    if copy is False:
        raise BufferError(f"darray from_dlpack: copy=False but the data must be copied onto {place}")
    return from_numpy(host, place)
