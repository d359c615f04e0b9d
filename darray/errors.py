"""Exceptions: OpenCL failures become :class:`DeviceError`."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pyopencl as cl


class DeviceError(RuntimeError):
    """An OpenCL call failed; ``status`` is the OpenCL status name (e.g. ``CL_OUT_OF_RESOURCES``)."""

    def __init__(self, message: str, status: str = "", log: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.log = log


def _status_name(err: cl.Error) -> str:
    code = getattr(err, "code", None)
    if code is None:
        return "CL_UNKNOWN"
    for name in dir(cl.status_code):
        if not name.startswith("_") and getattr(cl.status_code, name) == code:
            return "CL_" + name
    return f"CL_STATUS_{code}"


@contextlib.contextmanager
def cl_errors(what: str) -> Iterator[None]:
    """Turn ``pyopencl`` errors raised inside the block into :class:`DeviceError`."""
    try:
        yield
    except cl.MemoryError:
        raise
    except cl.Error as err:
        status = _status_name(err)
        raise DeviceError(f"darray {what}: OpenCL error {status}: {err}", status=status) from err


class TraceError(RuntimeError):
    """Code traced by ``da.jit`` needed a value on the host (``float(x)``, ``if x > 0:``, a
    boolean mask whose size depends on the data...); the message names the op and the line."""
