"""Program cache: in memory per context and on disk, keyed by everything that changes a binary."""
from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
import warnings
from pathlib import Path
from typing import Iterator

import platformdirs
import pyopencl as cl

from ..errors import DeviceError, cl_errors
from ._exit import check

_VERSION = "0.1.1"  # part of every cache key: bump when what build() adds to a source changes
# Prepended to every source darray builds: no FMA contraction, so a result never depends on the
# device, the kernel form or whether the host path computed it (OpenCL's default allows contraction).
PROLOGUE = "#pragma OPENCL FP_CONTRACT OFF\n"


def cache_dir() -> Path | None:
    """``DARRAY_CACHE_DIR``, else the user cache dir; ``DARRAY_CACHE_DIR=""`` disables the disk cache."""
    env = os.environ.get("DARRAY_CACHE_DIR")
    if env == "":
        return None
    return Path(env) if env else Path(platformdirs.user_cache_dir("darray")) / "programs"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """A block in which pyopencl's warning about a successful build's log stays silent (Intel's
    runtime logs every build)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.CompilerWarning)
        yield


def build(context: cl.Context, device: cl.Device, source: str, options: str = "") -> cl.Program:
    """``PROLOGUE + source`` built for ``device`` with ``options`` (no pyopencl cache); DeviceError
    carrying the build log when it fails."""
    check("build")
    prg = cl.Program(context, PROLOGUE + source)
    try:
        with _quiet():
            prg.build(options=options, devices=[device], cache_dir=False)
    except cl.RuntimeError as err:
        log = getattr(err, "build_log", None) or str(err)
        raise DeviceError(f"darray: OpenCL build failed:\n{log}", status="CL_BUILD_PROGRAM_FAILURE", log=str(log)) from err
    except cl.Error as err:
        raise DeviceError(f"darray: OpenCL build failed: {err}", status="CL_BUILD_PROGRAM_FAILURE", log=str(err)) from err
    return prg


class ProgramCache:
    """Builds OpenCL programs once per (source, options) for one context and device.

    Built programs are kept in memory for the life of the context's runtime and their
    binaries on disk, so a second process loads instead of compiling.
    """

    def __init__(self, context: cl.Context, device: cl.Device, ident: str) -> None:
        self._context = context
        self._device = device
        self._ident = ident  # platform, device and driver
        self._programs: dict[tuple[str, str], cl.Program] = {}
        self._kernels: dict[tuple[int, str], cl.Kernel] = {}
        self._lock = threading.Lock()

    def kernel(self, source: str, name: str, options: str = "") -> cl.Kernel:
        """The kernel ``name`` of ``source`` built with ``options`` (cached)."""
        prg = self._programs.get((source, options))
        if prg is None:
            check("build")
            with self._lock:
                prg = self._programs.get((source, options))
                if prg is None:
                    prg = self._build(source, options)
                    self._programs[(source, options)] = prg
        key = (id(prg), name)
        k = self._kernels.get(key)
        if k is None:
            check(f"kernel {name}")
            with self._lock:
                k = self._kernels.get(key)
                if k is None:
                    with cl_errors(f"kernel {name}"):
                        k = cl.Kernel(prg, name)
                    self._kernels[key] = k
        return k

    def _key(self, source: str, options: str) -> str:
        h = hashlib.sha256()
        for part in (source, options, self._ident, _VERSION):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def _build(self, source: str, options: str) -> cl.Program:
        from ..sched._profile import record_compile

        t0 = time.perf_counter()
        key = self._key(source, options)
        folder = cache_dir()
        path = folder / f"{key}.bin" if folder else None
        if path is not None and path.exists():
            try:
                with _quiet():
                    prg = cl.Program(self._context, [self._device], [path.read_bytes()]).build(options)
                if not prg.get_info(cl.program_info.KERNEL_NAMES):
                    raise OSError("cached binary holds no kernels")  # seen with PoCL 3.0: rebuild
                record_compile(key, time.perf_counter() - t0, from_disk=True)
                return prg
            except (cl.Error, OSError):
                pass  # stale or foreign binary: rebuild from source
        prg = build(self._context, self._device, source, options)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(prg.binaries[0])
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only cache dir only costs the next process a build
        record_compile(key, time.perf_counter() - t0, from_disk=False)
        return prg
