"""Program cache: in memory per context and on disk, keyed by everything that changes a binary."""
from __future__ import annotations

import contextlib
import hashlib
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Protocol

import pyopencl as cl

from ..errors import DeviceError, cl_errors
from . import _private
from ._exit import check

_VERSION = "0.1.2"  # part of every cache key: bump when what build() adds to a source or the disk format changes
# Prepended to every source darray builds: no FMA contraction, so a result never depends on the
# device, the kernel form or whether the host path computed it (OpenCL's default allows contraction).
PROLOGUE = "#pragma OPENCL FP_CONTRACT OFF\n"


def cache_dir() -> Path | None:
    """``DARRAY_CACHE_DIR``, else the user cache dir; ``DARRAY_CACHE_DIR=""`` disables the disk cache."""
    env = os.environ.get("DARRAY_CACHE_DIR")
    if env == "":
        return None
    return Path(env) if env else _private.user_root() / "programs"


def disk_folder(*sub: str) -> Path | None:
    """:func:`cache_dir` (or ``sub`` under it) made private (see ``_private.folder``; the root it
    checks is ``DARRAY_CACHE_DIR`` or darray's user cache dir); None when nothing is kept on disk."""
    where = cache_dir()
    if where is None:
        return None
    root = where if os.environ.get("DARRAY_CACHE_DIR") else _private.user_root()
    return _private.folder(where.joinpath(*sub), root, "the program cache")


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
        with _quiet(), _compiler:
            # pyopencl's stubs say ``str | None``, but its cache takes ``False`` as "no cache"
            prg.build(options=options, devices=[device], cache_dir=False)  # type: ignore[arg-type]
    except cl.RuntimeError as err:
        log = getattr(err, "build_log", None) or str(err)
        raise DeviceError(f"darray: OpenCL build failed:\n{log}", status="CL_BUILD_PROGRAM_FAILURE",
                          log=str(log)) from err
    except cl.Error as err:
        raise DeviceError(f"darray: OpenCL build failed: {err}", status="CL_BUILD_PROGRAM_FAILURE",
                          log=str(err)) from err
    return prg


class CompileRecord(Protocol):
    """What :func:`on_compile` takes: called after each program is built or loaded from disk."""

    def __call__(self, key: str, seconds: float, from_disk: bool) -> None: ...


def _ignore_compile(key: str, seconds: float, from_disk: bool) -> None:
    pass


_on_compile: list[CompileRecord] = [_ignore_compile]


def on_compile(record: CompileRecord, wait: Callable[[float], None]) -> None:
    """Called once by ``darray.sched``'s profiler (above this layer): ``record(key, seconds,
    from_disk)`` runs after each program is built or loaded from disk, ``wait(seconds)`` after a
    call waited for a build (its own, or one the build thread was running)."""
    _on_compile[0] = record
    _on_wait[0] = wait


_on_wait: list[Callable[[float], None]] = [lambda seconds: None]
_jobs: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
_builder: list[threading.Thread] = []
_builder_lock = threading.Lock()
_compiler = threading.RLock()  # one build at a time, in any thread (two at once are slower: ``_submit``)


def _build_loop() -> None:
    """The build thread: runs queued builds one at a time, until the interpreter exits (a build's
    ``check`` raises SystemExit then: ``_exit``). A job's failure is kept in its future."""
    while True:
        try:
            _jobs.get()()
        except SystemExit:
            return


def _submit(job: Callable[[], object]) -> None:
    """``job`` queued on the build thread. One thread: Intel's CPU compiler builds two programs on two
    threads slower than one after the other (8 small programs: 0.25 s serial, 0.5-0.9 s threaded), so
    a caller's own build and the thread's take turns too (``_compiler``)."""
    if not _builder:
        with _builder_lock:
            if not _builder:
                _builder.append(threading.Thread(target=_build_loop, name="darray-build", daemon=True))
                _builder[0].start()
    _jobs.put(job)


def close_builds() -> None:
    """At exit, once ``_exit.close`` refused other threads' builds: the build thread ends at its next
    job (queued builds included), instead of waiting for jobs in darray's code (``_exit.settle``)."""
    if _builder:
        _jobs.put(lambda: check("build"))


def finish_builds(timeout: float | None = None) -> bool:
    """Wait until the build thread has built every program queued so far (a warm-up's kernels, before
    timing); False on ``timeout`` seconds."""
    if not _builder:
        return True
    done = threading.Event()
    _submit(done.set)
    return done.wait(timeout)


class ProgramCache:
    """Builds OpenCL programs once per (source, options) for one context and device.

    Built programs are kept in memory for the life of the context's runtime and their
    binaries on disk, so a second process loads instead of compiling. A binary on disk is
    sealed with the hash of its content and its key (``_private.seal``): one that does not
    match (swapped, truncated, corrupt) is never loaded but built again and rewritten.
    :meth:`ready` queues a build on the build thread instead of waiting for it; a caller that
    needs a queued build before that thread started it builds it itself.
    """

    def __init__(self, context: cl.Context, device: cl.Device, ident: str) -> None:
        self._context = context
        self._device = device
        self._ident = ident  # platform, device and driver
        self._programs: dict[tuple[str, str], cl.Program] = {}
        self._building: dict[tuple[str, str], Future] = {}  # builds queued or running
        self._kernels: dict[tuple[int, str], cl.Kernel] = {}
        self._lock = threading.Lock()

    def program(self, source: str, options: str = "") -> cl.Program:
        """``source`` built with ``options`` (cached); a build the build thread is running is waited for."""
        key = (source, options)
        prg = self._programs.get(key)
        if prg is not None:
            return prg
        check("build")
        t0 = time.perf_counter()
        with self._lock:
            prg = self._programs.get(key)
            fut = self._building.get(key) if prg is None else None
            if prg is None and fut is None:
                fut = self._building[key] = Future()
        if prg is not None:
            return prg
        assert fut is not None
        if self._claim(fut):
            self._run(key, fut)
        prg = fut.result()
        _on_wait[0](time.perf_counter() - t0)
        return prg

    def ready(self, source: str, options: str = "") -> bool:
        """Whether :meth:`program` returns at once (built); else its build is queued on the build
        thread (once) and False."""
        key = (source, options)
        if key in self._programs:
            return True
        with self._lock:
            if key in self._programs:
                return True
            fut = self._building.get(key)
            if fut is None:
                job = self._building[key] = Future()
                _submit(lambda: self._claim(job) and self._run(key, job))
                return False
        return fut.done()

    def _claim(self, fut: Future) -> bool:
        """Whether the caller takes the build of ``fut`` (not started by anyone yet) upon itself."""
        with self._lock:
            return fut.set_running_or_notify_cancel() if not (fut.running() or fut.done()) else False

    def _run(self, key: tuple[str, str], fut: Future) -> bool:
        """Build ``key``, keep it and resolve ``fut`` (with the error, if it fails: the callers waiting
        for it raise it)."""
        try:
            check("build")
            prg = self._build(*key)
        except BaseException as err:  # not kept (its traceback holds the frames of the call that
            with self._lock:          # needed it): the next call builds it again
                self._building.pop(key, None)
            fut.set_exception(err)
            if isinstance(err, SystemExit):
                raise
            return False
        with self._lock:
            self._programs[key] = prg
            self._building.pop(key, None)
        fut.set_result(prg)
        return True

    def kernel(self, source: str, name: str, options: str = "") -> cl.Kernel:
        """The kernel ``name`` of ``source`` built with ``options`` (cached)."""
        prg = self.program(source, options)
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
        # Intel's CPU compiler takes settings from CL_CONFIG_* variables (target ISA, LLVM options):
        # they change binaries
        config = ";".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("CL_CONFIG_"))
        for part in (source, options, self._ident, config, _VERSION):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def _build(self, source: str, options: str) -> cl.Program:
        with _compiler:
            return self._build_now(source, options)

    def _build_now(self, source: str, options: str) -> cl.Program:
        t0 = time.perf_counter()
        key = self._key(source, options)
        folder = disk_folder()
        path = folder / f"{key}.bin" if folder else None
        binary = _private.unseal(_private.read(path), key) if path is not None else None
        if binary is not None:
            try:
                with _quiet():
                    prg = cl.Program(self._context, [self._device], [binary]).build(options)
                if not prg.get_info(cl.program_info.KERNEL_NAMES):
                    raise OSError("cached binary holds no kernels")  # seen with PoCL 3.0: rebuild
                _on_compile[0](key, time.perf_counter() - t0, from_disk=True)
                return prg
            except (cl.Error, OSError):
                pass  # a binary the runtime no longer takes: rebuild from source
        prg = build(self._context, self._device, source, options)
        if path is not None:
            try:
                _private.write(path, _private.seal(prg.binaries[0], key))
            except OSError:
                pass  # a read-only cache dir only costs the next process a build
        _on_compile[0](key, time.perf_counter() - t0, from_disk=False)
        return prg
