"""The probe: a device is used only after it built and ran a small kernel with the right result.

Some runtimes list a device whose compiler cannot build anything (PoCL 3.0 from pip on CPUs
newer than its LLVM: ``unknown target CPU 'generic'``). :func:`verdict` builds and runs
:data:`SOURCE` once per device and keeps the outcome in memory and on disk next to the program
cache (``<cache>/probes/<key>.json``, a private file; see ``_private``), keyed by platform,
device, vendor, driver, darray's version and the probe source, so a later process reads it
instead of building. A verdict file is plain JSON holding its key; anything else is ignored.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyopencl as cl

from ..errors import DeviceError
from . import _private
from ._discovery import DeviceInfo, found
from ._programs import _VERSION, build, disk_folder

SOURCE = """__kernel void probe(__global const float *x, __global float *y, __global long *z) {
    size_t i = get_global_id(0);
    y[i] = x[i] * 0.5f + x[i];
    z[i] = (long)i * 3000000007L;
}
"""
N = 1024


@dataclass(frozen=True)
class Verdict:
    """Whether a device passed the probe; ``reason`` says why not (the build log's error line or
    the wrong result); ``cached`` when read from disk."""

    ok: bool
    reason: str = ""
    cached: bool = False


_lock = threading.Lock()
_verdicts: dict[str, Verdict] = {}


def verdict(info: DeviceInfo, device: cl.Device, *, fresh: bool = False) -> Verdict:
    """The probe's verdict on ``device`` (run once per device, driver and darray version;
    ``fresh``: run it again and replace the cached verdict)."""
    key = _key(info)
    with _lock:
        known = None if fresh else _verdicts.get(key)
        if known is None:
            known = _verdicts[key] = (None if fresh else _read(key)) or _write(key, _run(device))
        return known


def _key(info: DeviceInfo) -> str:
    h = hashlib.sha256()
    for part in (info.platform, info.name, info.vendor, info.driver, _VERSION, SOURCE):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _path(key: str) -> Path | None:
    folder = disk_folder("probes")
    return None if folder is None else folder / f"{key}.json"


def _read(key: str) -> Verdict | None:
    """The verdict on disk for ``key``: a JSON object with this key, a bool ``ok`` and a str
    ``reason``; None for anything else (no file, another device's, unparsable)."""
    path = _path(key)
    raw = _private.read(path) if path is not None else None
    try:
        data = json.loads(raw) if raw is not None and len(raw) < 4096 else None
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    if not (isinstance(data, dict) and data.get("key") == key and isinstance(data.get("ok"), bool)
            and isinstance(data.get("reason"), str)):
        return None
    return Verdict(data["ok"], data["reason"][:300], cached=True)


def _write(key: str, result: Verdict) -> Verdict:
    path = _path(key)
    if path is not None:
        try:
            _private.write(path, json.dumps({"key": key, "ok": result.ok, "reason": result.reason}).encode())
        except OSError:
            pass  # an unwritable cache only costs the next process a probe
    return result


def _run(device: cl.Device) -> Verdict:
    """Build and run :data:`SOURCE` on ``device`` and compare with NumPy."""
    x = np.linspace(-3.0, 3.0, N, dtype=np.float32)
    y = np.empty_like(x)
    z = np.empty(N, np.int64)
    try:
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx, device)
        prg = build(ctx, device, SOURCE)
        mf = cl.mem_flags
        xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        yb, zb = cl.Buffer(ctx, mf.WRITE_ONLY, y.nbytes), cl.Buffer(ctx, mf.WRITE_ONLY, z.nbytes)
        cl.Kernel(prg, "probe")(queue, (N,), None, xb, yb, zb)
        cl.enqueue_copy(queue, y, yb)
        cl.enqueue_copy(queue, z, zb)
        queue.finish()
    except Exception as err:  # noqa: BLE001  (any failure of the runtime is the verdict, not a crash)
        return Verdict(False, _reason(err))
    if not np.array_equal(y, x * np.float32(0.5) + x):
        return Verdict(False, "the probe kernel computed wrong float32 results")
    if not np.array_equal(z, np.arange(N, dtype=np.int64) * 3000000007):
        return Verdict(False, "the probe kernel computed wrong int64 results")
    return Verdict(True)


def _reason(err: Exception) -> str:
    """The first error line of a build log, else the exception in one line."""
    text = str(getattr(err, "log", None) or err)
    for line in text.splitlines():
        if re.search(r"\berror\b", line, re.IGNORECASE):
            return line.strip()[:300]
    first = text.strip().splitlines()[0] if text.strip() else ""
    return f"{type(err).__name__}: {first}"[:300]


def describe(info: DeviceInfo, result: Verdict) -> str:
    """``cl:N (name [platform]): reason`` for messages."""
    return f"cl:{info.index} ({info.name} [{info.platform}]): {result.reason}"


def require(info: DeviceInfo, device: cl.Device) -> None:
    """DeviceError with the probe's reason unless ``device`` passed it."""
    result = verdict(info, device)
    if not result.ok:
        raise DeviceError(f"darray place: {describe(info, result)}; this device failed darray's probe "
                          "(build and run a small kernel) and cannot be used", status="PROBE_FAILED", log=result.reason)


def choose(gpu: bool = False) -> tuple[int | None, list[tuple[DeviceInfo, Verdict]]]:
    """The preferred device that passes its probe (GPU, then Intel's CPU runtime, then PoCL, then
    others; see ``DeviceInfo.rank``), probing in that order, and the devices passed over;
    ``gpu``: among GPUs only."""
    failed: list[tuple[DeviceInfo, Verdict]] = []
    for info, device in sorted(found(), key=lambda d: (d[0].rank, d[0].index)):
        if gpu and info.type != "GPU":
            continue
        result = verdict(info, device)
        if result.ok:
            return info.index, failed
        failed.append((info, result))
    return None, failed
