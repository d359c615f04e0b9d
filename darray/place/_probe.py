"""The probe: a device is used only after it built darray's programs and ran a kernel right.

Some runtimes list a device whose compiler cannot build anything (PoCL 3.0 from pip on CPUs
newer than its LLVM: ``unknown target CPU 'generic'``), or that builds a small kernel but not
darray's own programs, or that cannot share a process with another OpenCL runtime: on a Zen 4
EPYC, PoCL 3.0's LLVM crashed the process inside a build, or returned a program without the
kernel asked for (``CL_INVALID_KERNEL_NAME``), once Intel's runtime (an LLVM of its own) had
built programs in the same process. :func:`verdict` therefore builds a representative set of
darray's programs (:func:`programs`: the elementwise header with a fused float8 chain and a
blocked one-launch reduction, plus what higher layers add with :func:`add_programs`: the random
kernels of ``kernels/philox.cl`` and ``kernels/samplers.cl``), each of which must hold its
kernels, then builds and runs :data:`SOURCE` and compares with NumPy.

Where it runs (the rule, measured on a Zen 3 EPYC with Intel's runtime as cl:0 and PoCL as cl:1):

- the first device darray would use (no better-ranked device of another platform passed; see
  ``DeviceInfo.rank``) is probed in darray's own process (Intel's runtime here: about 1.5 s
  once, its builds land in the program cache and are loaded from disk later);
- any other device, when it is on another platform than a device ranked above it that passed,
  is probed out of process (``_probe_child.py`` as a script, a JSON job on stdin): that process
  loads every platform, builds the set on the better devices first, then on this device, runs the
  probe kernel, then builds on the better devices again (both orders of use), as one darray
  process using both devices does. A crash of that process becomes the verdict ``crashes when
  another OpenCL runtime (...) is loaded in the same process``; the device is left out (one
  warning names it and why; ``cl:N`` by name raises ``DeviceError`` with the reason). About 4-6 s
  once (PoCL after Intel's runtime here), then read from disk.

The outcome is kept in memory and on disk next to the program cache (``<cache>/probes/<key>.json``,
a private file; see ``_private``), keyed by platform, device, vendor, driver, darray's version,
the sources and options built and the devices built on first, so a later process reads it instead
of building. A verdict file is plain JSON holding its key; anything else is ignored. A probe
process that ran out of time is a failed verdict of this process only, not written to disk.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pyopencl as cl

from ..errors import DeviceError
from . import _private, _probe_child
from ._discovery import DeviceInfo, found
from ._probe_child import N, Program
from ._programs import _VERSION, PROLOGUE, build, disk_folder

__all__ = ["N", "SOURCE", "Verdict", "add_programs", "choose", "describe", "programs", "require", "verdict"]

SOURCE = _probe_child.SOURCE
CHILD = [sys.executable, str(Path(_probe_child.__file__).resolve())]  # the out-of-process probe's command
TIMEOUT = 300.0  # seconds the out-of-process probe may take (builds on a busy 2-core machine)

# darray's generated kernels in small: elementwise.h, a fused float8 chain with sin in the chunked
# form's blocks, and a one-launch reduction whose last work-item folds the partials
_GENERATED = """
__kernel void chain(__global float *out, __global const float *in, float s, int n) {
    const int i = get_global_id(0) * 8;
    if (i + 8 <= n) {
        const float8 v = *(__global const float8_u*)(in + i);
        *(__global float8_u*)(out + i) = trig_sin(v) * s + exp(v) - v / (float8)(3.0f);
    } else {
        for (int k = i; k < n; ++k) out[k] = trig_sin(in[k]) * s + exp(in[k]) - in[k] / 3.0f;
    }
}

__kernel void reduce(__global float *out, __global float *part, __global int *done, __global const float *in,
                     int K, int P) {
    const int p = get_global_id(0);
    const int C = (K + P - 1) / P, k0 = p * C, k1 = min(k0 + C, K);
    float8 b = (float8)(0.0f);
    int k = k0;
    for (; k + 8 <= k1; k += 8) b = b + trig_cos(*(__global const float8_u*)(in + k));
    float acc = ((b.s0 + b.s1) + (b.s2 + b.s3)) + ((b.s4 + b.s5) + (b.s6 + b.s7));
    for (; k < k1; ++k) acc = acc + trig_cos(in[k]);
    part[p] = acc;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (atomic_inc(done) != P - 1) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    float total = 0.0f;
    for (int q = 0; q < P; ++q) total = total + part[q];
    out[0] = total;
    done[0] = 0;
}
"""

ProgramSet = Callable[[DeviceInfo, cl.Device], list[Program]]
_sets: dict[str, ProgramSet] = {}


def add_programs(name: str, make: ProgramSet) -> None:
    """Add ``make(info, device)``: (label, source, build options, kernel names) of programs darray
    builds on such a device (called by the families above this layer, at import)."""
    _sets[name] = make


def programs(info: DeviceInfo, device: cl.Device) -> list[Program]:
    """The programs the probe builds on ``device`` out of process: each set added with
    :func:`add_programs`, by name."""
    out: list[Program] = []
    for name in sorted(_sets):
        out += _sets[name](info, device)
    return out


def probe_source() -> str:
    """The program the probe builds and runs on every device: the generated kernels' header
    (``kernels/include/elementwise.h``), a fused chain and a reduction in darray's generated forms,
    and :data:`SOURCE`."""
    header = resources.files("darray.kernels").joinpath("include").joinpath("elementwise.h").read_text()
    return header + _GENERATED + SOURCE


@dataclass(frozen=True)
class Verdict:
    """Whether a device passed the probe; ``reason`` says why not (the build log's error line, the
    wrong result, or the crash of the probe's process); ``cached`` when read from disk."""

    ok: bool
    reason: str = ""
    cached: bool = False


_lock = threading.RLock()  # a verdict asks for the verdicts of the devices ranked above it
_verdicts: dict[str, Verdict] = {}
_warned: set[str] = set()


def verdict(info: DeviceInfo, device: cl.Device, *, fresh: bool = False) -> Verdict:
    """The probe's verdict on ``device`` (run once per device, driver and darray version;
    ``fresh``: run it again and replace the cached verdict)."""
    with _lock:
        first = _before(info)
        key = _key(info, device, first)
        known = None if fresh else _verdicts.get(key)
        if known is None:
            known = None if fresh else _read(key)
            if known is None:
                ran = _run(device) if not first else _run_apart(info, device, first)
                known = ran if ran.reason.startswith(_TIMED_OUT) else _write(key, ran)
            _verdicts[key] = known
        if first and not known.ok and key not in _warned:
            _warned.add(key)
            warnings.warn(f"darray: leaving out {describe(info, known)}", RuntimeWarning, stacklevel=3)
        return known


def _before(info: DeviceInfo) -> list[tuple[DeviceInfo, cl.Device]]:
    """The devices a darray process uses before ``info``'s that run on another platform: those
    ranked above it (``DeviceInfo.rank``, then index) that passed their probe."""
    out = []
    for other, dev in sorted(found(), key=lambda d: (d[0].rank, d[0].index)):
        if (other.rank, other.index) >= (info.rank, info.index):
            break
        if other.platform != info.platform and verdict(other, dev).ok:
            out.append((other, dev))
    return out


def _ident(info: DeviceInfo) -> tuple[str, ...]:
    return info.platform, info.name, info.vendor, info.driver


def _key(info: DeviceInfo, device: cl.Device, first: list[tuple[DeviceInfo, cl.Device]]) -> str:
    h = hashlib.sha256()
    parts = [*_ident(info), _VERSION, probe_source()]
    for other, _ in first:
        for label, source, options, names in programs(info, device):
            parts += [label, source, options, *names]
        parts += ["after", str(other.index), *_ident(other)]
    for part in parts:
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
    """In this process: build and run :func:`probe_source` on ``device`` (see ``_probe_child.check``)."""
    ok, why = _probe_child.check(device, [], build, probe=probe_source())
    return Verdict(ok, why)


_TIMED_OUT = "the probe's process ran out of time"


def _run_apart(info: DeviceInfo, device: cl.Device, first: list[tuple[DeviceInfo, cl.Device]]) -> Verdict:
    """In a process of its own (:data:`CHILD`): build and run :func:`probe_source` on the devices
    ``first``, then :func:`programs` and the probe on ``device``, then the probe on ``first`` again;
    a crash of that process is the verdict."""
    def step(i: DeviceInfo, d: cl.Device, sources: list[Program]) -> dict[str, object]:
        return {"device": i.index, "name": i.name, "platform": i.platform,
                "programs": [[label, src, opt, list(names)] for label, src, opt, names in sources]}

    steps = [step(o, d, []) for o, d in first] + [step(info, device, programs(info, device))]
    steps += [step(o, d, []) for o, d in first]
    job = json.dumps({"prologue": PROLOGUE, "probe": probe_source(), "steps": steps})
    others = ", ".join(dict.fromkeys(o.platform for o, _ in first))
    try:
        proc = subprocess.run(CHILD, input=job, capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, "PYTHONSAFEPATH": "1"})
    except subprocess.TimeoutExpired:
        return Verdict(False, f"{_TIMED_OUT} ({TIMEOUT:.0f} s) building with {others} in the same process")
    except OSError as err:
        return Verdict(False, f"the probe's process did not start: {err}"[:300])
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith(_probe_child.MARK):
            try:
                got = json.loads(line[len(_probe_child.MARK):])
                results[int(got["step"])] = (bool(got["ok"]), str(got["reason"]))
            except (ValueError, KeyError, TypeError):
                continue
    mine = len(first)
    if len(results) < len(steps):
        if proc.returncode < 0:
            try:
                how = signal.Signals(-proc.returncode).name
            except ValueError:
                how = f"signal {-proc.returncode}"
        else:
            how = f"exit status {proc.returncode}"
        where = f"cl:{info.index}" if len(results) >= mine else f"cl:{steps[len(results)]['device']}"
        last = next((x.strip() for x in reversed(proc.stderr.splitlines()) if x.strip()), "")
        return Verdict(False, (f"crashes when another OpenCL runtime ({others}) is loaded in the same process "
                               f"(the probe's process died of {how} building on {where}"
                               + (f": {last}" if last else "") + ")")[:300])
    for k, (ok, why) in sorted(results.items()):
        if not ok:
            if k == mine:
                return Verdict(False, f"with {others} in the same process: {why}"[:300])
            if k > mine:
                return Verdict(False, f"after it, cl:{steps[k]['device']} ({others}) fails in the same process: "
                               f"{why}"[:300])
    return Verdict(True)


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
