"""``da.RawKernel`` and ``da.RawModule``: whole OpenCL C kernels of the user's, launched through
the scheduler.

The kernel's signature says what each launch reads and writes: a ``const __global`` pointer is
read, any other ``__global`` pointer is read and written; so a launch waits for the pending
work on its arrays (pending graphs that read an array it writes run first), later work waits
for it, and pooled memory is reused only after it. Programs
build through the place's program cache (memory and disk).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pyopencl as cl

from .. import lazy, sched
from .._array import DArray
from ..errors import DeviceError
from ..place import CLPlace, PlaceLike, current, parse, runtime
from ._params import C_NAMES, identifier

_KERNEL = re.compile(r"(?:__kernel|\bkernel)\s+void\s+([A-Za-z_]\w*)\s*\(([^)]*)\)", re.S)
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@dataclass(frozen=True, slots=True)
class Arg:
    """One kernel parameter: ``kind`` 'read', 'write' (read and written), 'local' or 'value' (of ``dtype``)."""

    name: str
    kind: str
    dtype: np.dtype | None


def signatures(source: str) -> dict[str, tuple[Arg, ...]]:
    """The parameters of every kernel of ``source`` by kernel name."""
    out: dict[str, tuple[Arg, ...]] = {}
    for m in _KERNEL.finditer(_COMMENT.sub(" ", source)):
        args = []
        for text in (t.strip() for t in m.group(2).split(",") if t.strip() and t.strip() != "void"):
            words = re.findall(r"[A-Za-z_]\w*", text)
            name = words[-1] if words else text
            if "*" in text and ("__global" in words or "global" in words):
                args.append(Arg(name, "read" if "const" in words else "write", None))
            elif "*" in text and ("__local" in words or "local" in words):
                args.append(Arg(name, "local", None))
            else:
                ctype = " ".join(w for w in words[:-1] if w not in ("const", "__private", "private"))
                dtype = C_NAMES.get(ctype, ctype if ctype in np.sctypeDict else "")
                args.append(Arg(name, "value", np.dtype(dtype) if dtype else None))
        out[m.group(1)] = tuple(args)
    return out


def first_error(log: str) -> str:
    """The first line of a build log that reports an error (else its first non-empty line)."""
    lines = [ln.strip() for ln in log.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "no build log")


class RawModule:
    """User OpenCL C source holding one or more ``__kernel`` functions: ``m.get_function(name)``
    is a :class:`RawKernel`. The program is built per place on first launch (through the
    place's program cache). See also: cupy.RawModule."""

    def __init__(self, source: str, options: Sequence[str] = ()) -> None:
        if not isinstance(source, str):
            raise TypeError(f"darray RawModule: source must be a string, got {type(source).__name__}")
        self.source, self.options = source, " ".join(options)
        self.kernels = signatures(source)

    def get_function(self, name: str) -> RawKernel:
        """The kernel ``name`` of this module (ValueError naming the kernels there when absent)."""
        if name not in self.kernels:
            raise ValueError(f"darray RawModule: no kernel {name!r} in the source (it has {sorted(self.kernels)})")
        return RawKernel(self.source, name, self.options.split() if self.options else ())

    def kernel(self, name: str, place: CLPlace) -> cl.Kernel:
        """The built kernel ``name`` on ``place``; DeviceError with the build log's first error line."""
        try:
            return runtime(place).programs.kernel(self.source, name, self.options)
        except DeviceError as err:
            log = err.log or str(err)
            raise DeviceError(f"darray RawKernel {name!r}: build failed: {first_error(log)}", status=err.status,
                              log=log) from None


class RawKernel:
    """A user OpenCL C kernel ``name`` of ``source``: ``k(global_size, local_size, args)`` launches it
    over ``global_size`` work-items (an int or a tuple) in work-groups of ``local_size`` (None:
    the runtime picks). ``args`` are DArrays (C-contiguous; a pending one is computed first),
    ``pyopencl.LocalMemory`` for ``__local`` pointers, and scalars (passed by value in the
    signature's type). Reads and writes come from the signature (see the module docstring).
    Not on the ``cpu`` place. See also: cupy.RawKernel.
    """

    def __init__(self, source: str, name: str, options: Sequence[str] = ()) -> None:
        identifier("RawKernel", "name", name)
        self.name = name
        self.module = RawModule(source, options)
        if name not in self.module.kernels:
            raise ValueError(f"darray RawKernel {name!r}: no '__kernel void {name}(...)' in the source")
        self.args = self.module.kernels[name]

    def __repr__(self) -> str:
        return f"RawKernel({self.name!r})"

    def __call__(self, global_size: int | tuple[int, ...], local_size: int | tuple[int, ...] | None,
                 args: Sequence[Any], *, device: PlaceLike = None) -> None:
        label = f"RawKernel {self.name!r}"
        gsize = _sizes(label, "global_size", global_size)
        lsize = None if local_size is None else _sizes(label, "local_size", local_size)
        if lsize is not None and len(lsize) != len(gsize):
            raise ValueError(f"darray {label}: local_size {lsize} and global_size {gsize} differ in rank")
        args = tuple(args)
        if len(args) != len(self.args):
            names = ", ".join(a.name for a in self.args)
            raise TypeError(f"darray {label}: takes {len(self.args)} arguments ({names}), got {len(args)}")
        place = next((a.place for a in args if isinstance(a, DArray)), None)
        if place is None:
            place = current() if device is None else parse(device)
        if not isinstance(place, CLPlace):
            raise ValueError(f"darray {label}: raw kernels run on OpenCL places only, not on {place}")
        reads: list[Any] = []
        writes: list[Any] = []
        values = [self._value(label, spec, a, place, reads, writes) for spec, a in zip(self.args, args)]
        kernel = self.module.kernel(self.name, place)
        sched.launch_kernel(self.name, kernel, values, gsize, lsize, place=place, reads=reads, writes=writes)

    @staticmethod
    def _value(label: str, spec: Arg, a: Any, place: CLPlace, reads: list[Any], writes: list[Any]) -> Any:
        """The OpenCL argument for parameter ``spec`` (recording what the launch reads and writes)."""
        if spec.kind in ("read", "write"):
            if not isinstance(a, DArray):
                raise TypeError(f"darray {label}: parameter {spec.name!r} is a __global pointer, got "
                                f"{type(a).__name__} (pass a DArray)")
            if a.place != place:
                raise ValueError(f"darray {label}: parameter {spec.name!r} is on {a.place}, the launch on {place}")
            if not a.flags.c_contiguous:
                raise ValueError(f"darray {label}: parameter {spec.name!r} must be C-contiguous (pass "
                                 "da.ascontiguousarray(x))")
            alloc = a._data()
            if spec.kind == "write":
                lazy.before_write(alloc)  # pending graphs reading it run first: they see the old values
            (writes if spec.kind == "write" else reads).append(alloc)
            if alloc.buffer is None:
                return None
            start = alloc.offset + a._dim.offset * a.dtype.itemsize
            if start == 0:
                return alloc.buffer
            if start % (runtime(place).device.mem_base_addr_align // 8):
                raise ValueError(f"darray {label}: parameter {spec.name!r} starts at byte {start} of its buffer, "
                                 "not at an address OpenCL can pass (pass x.copy())")
            return cast(cl.Buffer, alloc.buffer).get_sub_region(start, max(a.nbytes, 1))
        if spec.kind == "local":
            if not isinstance(a, cl.LocalMemory):
                raise TypeError(f"darray {label}: parameter {spec.name!r} is a __local pointer: pass "
                                "pyopencl.LocalMemory(nbytes)")
            return a
        if spec.dtype is None:
            raise TypeError(f"darray {label}: parameter {spec.name!r} has a type darray cannot pass by value")
        if isinstance(a, DArray) or not isinstance(a, (bool, int, float, np.generic)):
            raise TypeError(f"darray {label}: parameter {spec.name!r} takes a {spec.dtype} scalar, got "
                            f"{type(a).__name__}")
        if isinstance(a, np.generic) and not np.can_cast(a.dtype, spec.dtype, "same_kind"):
            raise TypeError(f"darray {label}: parameter {spec.name!r} is {spec.dtype}, got {a.dtype}")
        try:
            return spec.dtype.type(a)
        except OverflowError as err:
            raise OverflowError(f"darray {label}: parameter {spec.name!r}: {err}") from None


def _sizes(label: str, what: str, size: int | tuple[int, ...]) -> tuple[int, ...]:
    """``size`` as a tuple of 1 to 3 positive ints (ValueError naming the kernel otherwise)."""
    sizes = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
    if not 1 <= len(sizes) <= 3 or not all(isinstance(s, (int, np.integer)) and s > 0 for s in sizes):
        raise ValueError(f"darray {label}: {what} must be 1 to 3 positive ints, got {size!r}")
    return tuple(int(s) for s in sizes)
