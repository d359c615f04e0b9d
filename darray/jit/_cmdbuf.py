"""Replays through an OpenCL command buffer (``cl_khr_command_buffer`` with mutable dispatch).

pyopencl has no API for command buffers, so this module calls the extension's entry points
through ctypes (``clGetExtensionFunctionAddressForPlatform``). A program whose steps are all
kernels is recorded once per stream into a command buffer (each command after the previous,
through sync points); a replay updates the arguments bound per call (inputs, outputs, random
counters) with ``clUpdateMutableCommandsKHR`` and enqueues the buffer as one command.
Used where the device offers both extensions with mutable dispatch 0.9.3 or later (its
structure layout: Intel's CPU runtime has them; NVIDIA's driver does not) and the program has
at least ``MIN_STEPS`` kernels, when ``DARRAY_COMMAND_BUFFER=1`` turns it on. It is off by
default: on Intel's CPU runtime, the one device here that offers it, replays through a command
buffer measured 1.3-2x slower than the loop of enqueues (a 12-kernel body at n = 10^3 to 10^6,
synchronised or pipelined; cg on a 256^2 grid 270-480 ms against 160-200 ms). Anything that
fails while recording leaves the program on the loop of enqueues.
"""
from __future__ import annotations

import ctypes
import glob
import os
import weakref
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pyopencl as cl

from ..errors import DeviceError

MIN_STEPS = 4
ENABLED = os.environ.get("DARRAY_COMMAND_BUFFER") == "1"

_FLAGS, _MUTABLE, _SIMULTANEOUS = 0x1293, 1 << 1, 1 << 0
_UPDATABLE, _ARGUMENTS = 0x12B1, 1 << 3
_DISPATCH_CONFIG = 0  # CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
_vp, _u32, _i32, _u64, _sz = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int32, ctypes.c_uint64, ctypes.c_size_t


class _Arg(ctypes.Structure):
    _fields_ = [("arg_index", _u32), ("arg_size", _sz), ("arg_value", _vp)]


class _Config(ctypes.Structure):
    """``cl_mutable_dispatch_config_khr`` of mutable dispatch 0.9.3 and later (no type/next)."""

    _fields_ = [("command", _vp), ("num_args", _u32), ("num_svm_args", _u32), ("num_exec_infos", _u32),
                ("work_dim", _u32), ("arg_list", ctypes.POINTER(_Arg)), ("arg_svm_list", _vp),
                ("exec_info_list", _vp), ("global_work_offset", _vp), ("global_work_size", _vp),
                ("local_work_size", _vp)]


class _Api:
    """The extension's entry points on one platform."""

    def __init__(self, platform: int) -> None:
        libs = glob.glob(os.path.join(os.path.dirname(cl.__file__), ".libs", "libOpenCL*"))
        lib = ctypes.CDLL(libs[0] if libs else "libOpenCL.so.1")
        address = lib.clGetExtensionFunctionAddressForPlatform
        address.restype, address.argtypes = _vp, [_vp, ctypes.c_char_p]

        def fn(name: str, restype: Any, *argtypes: Any) -> Any:
            at = address(platform, name.encode())
            if not at:
                raise OSError(f"{name} not found")
            return ctypes.CFUNCTYPE(restype, *argtypes)(at)

        p = ctypes.POINTER
        self.create = fn("clCreateCommandBufferKHR", _vp, _u32, p(_vp), p(_u64), p(_i32))
        self.kernel = fn("clCommandNDRangeKernelKHR", _i32, _vp, _vp, p(_u64), _vp, _u32, p(_sz), p(_sz), p(_sz),
                         _u32, p(_u32), p(_u32), p(_vp))
        self.finalize = fn("clFinalizeCommandBufferKHR", _i32, _vp)
        self.enqueue = fn("clEnqueueCommandBufferKHR", _i32, _u32, p(_vp), _vp, _u32, p(_vp), p(_vp))
        self.update = fn("clUpdateMutableCommandsKHR", _i32, _vp, _u32, p(_u32), p(_vp))
        self.release = fn("clReleaseCommandBufferKHR", _i32, _vp)


@cache
def api(device: cl.Device) -> _Api | None:
    """The entry points where ``device`` offers command buffers with mutable dispatch >= 0.9.3."""
    try:
        versions = {e.name: e.version for e in device.extensions_with_version}
        mutable = versions.get("cl_khr_command_buffer_mutable_dispatch", 0)
        if "cl_khr_command_buffer" not in versions or (mutable >> 22, (mutable >> 12) & 0x3FF, mutable & 0xFFF) \
                < (0, 9, 3):
            return None
        return _Api(device.platform.int_ptr)
    except (cl.Error, OSError, AttributeError):
        return None


def _check(code: int, what: str) -> None:
    if code:
        raise DeviceError(f"darray.jit command buffer: {what} failed with OpenCL status {code}", f"CL_STATUS_{code}")


class CommandBuffer:
    """The kernels of one program recorded for one queue. ``bound[k]``: the (argument index, slot)
    pairs of step k set per call; ``dynamic[k]``: its arguments computed per call."""

    def __init__(self, apis: _Api, queue: cl.CommandQueue, steps: Sequence[Any]) -> None:
        self.api, self.queue = apis, queue
        self.queues = (_vp * 1)(queue.int_ptr)
        err = _i32(0)
        props = (_u64 * 3)(_FLAGS, _MUTABLE | _SIMULTANEOUS, 0)
        handle = apis.create(1, self.queues, props, ctypes.byref(err))
        _check(err.value, "clCreateCommandBufferKHR")
        self.handle = handle
        self._release = weakref.finalize(self, apis.release, handle)
        self.commands: list[Any] = []
        prev: Any = None
        mutable = (_u64 * 3)(_UPDATABLE, _ARGUMENTS, 0)
        for st in steps:
            gsize = (_sz * len(st.gsize))(*st.gsize)
            lsize = (_sz * len(st.lsize))(*st.lsize) if st.lsize else None
            point, command = _u32(), _vp()
            wait = (_u32 * 1)(prev.value) if prev is not None else None
            _check(apis.kernel(handle, None, mutable, st.kernel.int_ptr, len(st.gsize), None, gsize, lsize,
                               0 if prev is None else 1, wait, ctypes.byref(point), ctypes.byref(command)),
                   f"clCommandNDRangeKernelKHR ({st.name})")
            self.commands.append(command.value)
            prev = point
        _check(apis.finalize(handle), "clFinalizeCommandBufferKHR")

    def run(self, updates: list[tuple[int, list[tuple[int, Any]]]], wait_for: list[cl.Event] | None) -> cl.Event:
        """Set ``updates`` ((step, [(argument index, buffer or NumPy scalar)])) and enqueue once."""
        if updates:
            keep: list[Any] = []
            configs = (_Config * len(updates))()
            for c, (k, args) in zip(configs, updates):
                arr = (_Arg * len(args))()
                for a, (i, v) in zip(arr, args):
                    raw: Any
                    if isinstance(v, np.generic):  # a scalar: its bytes
                        raw = ctypes.create_string_buffer(v.tobytes(), v.nbytes)
                        a.arg_index, a.arg_size, a.arg_value = i, v.nbytes, ctypes.cast(raw, _vp)
                    else:  # a buffer (or None): the address of its cl_mem handle
                        raw = _vp(v.int_ptr if v is not None else None)
                        a.arg_index, a.arg_size = i, ctypes.sizeof(_vp)
                        a.arg_value = ctypes.cast(ctypes.byref(raw), _vp)
                    keep.append(raw)
                keep.append(arr)
                c.command, c.num_args, c.arg_list = self.commands[k], len(args), arr
            types = (_u32 * len(updates))(*([_DISPATCH_CONFIG] * len(updates)))
            ptrs = (_vp * len(updates))(*[ctypes.addressof(c) for c in configs])
            _check(self.api.update(self.handle, len(updates), types, ptrs), "clUpdateMutableCommandsKHR")
        event = _vp()
        waits = (_vp * len(wait_for))(*[e.int_ptr for e in wait_for]) if wait_for else None
        _check(self.api.enqueue(1, self.queues, self.handle, len(wait_for) if wait_for else 0, waits,
                                ctypes.byref(event)), "clEnqueueCommandBufferKHR")
        assert event.value is not None  # set by a successful enqueue
        return cl.Event.from_int_ptr(event.value, retain=False)
