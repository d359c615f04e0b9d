"""Interpreter exit: no thread is inside pyopencl when Python finalises.

Python ends a daemon thread that takes the GIL back after finalisation began. When that
thread is inside one of pyopencl's C++ calls (returning from one that released the GIL: a
wait, a finish, a build, a map; or running Python code the call called back, as a kernel's
creation does), ending it unwinds C++ frames and aborts the process (``terminate called
without an active exception``). The scheduler's exit hook (atexit, which runs while daemon
threads still run) calls :func:`close`: from then on every other thread's next launch, wait,
build or kernel creation raises ``SystemExit`` in :func:`check` (which ends a thread quietly);
it finishes the queues, and :func:`settle` waits until no other thread runs darray's code.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from types import FrameType

closer: int | None = None   # the thread that closed darray for exit (it may go on), else None
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # darray's folder


def check(what: str) -> None:
    """Raise ``SystemExit`` in a thread other than the closing one once darray closed for exit."""
    if closer is not None and closer != threading.get_ident():
        raise SystemExit(f"darray {what}: the interpreter is exiting; no more OpenCL work from this thread")


def close() -> None:
    """Refuse OpenCL work from every thread but this one from now on."""
    global closer
    closer = threading.get_ident()


def _inside(frame: FrameType | None) -> bool:
    """Whether a thread whose innermost frame is ``frame`` runs darray's code (pyopencl's calls
    included: darray makes them)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith(_PACKAGE):
            return True
        frame = frame.f_back
    return False


def settle(timeout: float) -> bool:
    """Wait (at most ``timeout`` seconds) until no thread but this one runs darray's code
    (sleeping, so they can leave it); False on timeout."""
    me = threading.get_ident()
    end = time.monotonic() + timeout
    while any(_inside(f) for t, f in sys._current_frames().items() if t != me):
        if time.monotonic() > end:
            return False
        time.sleep(0.001)
    return True
