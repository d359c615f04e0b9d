"""The probe's builds and run, with NumPy and pyopencl only: in darray's process, or as a script.

``_probe`` calls :func:`check` in its own process for the first device darray uses, and runs this
file as a script (``python _probe_child.py``, a JSON job on stdin) for a device that must share a
process with other OpenCL runtimes: the script lists every platform (loading every runtime, as
darray does), builds and runs the job's programs on the devices darray uses first, then on the
probed device, then builds on the first ones again, and prints one line per step starting with
:data:`MARK`. A runtime that crashes the process (two LLVMs in one process) kills only the script;
the lines it printed before say how far it got. This file imports nothing of darray's, so running
it does not import the package.
"""
from __future__ import annotations

import json
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyopencl as cl

SOURCE = """__kernel void probe(__global const float *x, __global float *y, __global long *z) {
    size_t i = get_global_id(0);
    y[i] = x[i] * 0.5f + x[i];
    z[i] = (long)i * 3000000007L;
}
"""
N = 1024
MARK = "darray-probe-step "

Program = tuple[str, str, str, Sequence[str]]  # (label, source, build options, kernel names it must hold)
Build = Callable[[cl.Context, cl.Device, str, str], cl.Program]


def check(device: cl.Device, programs: Sequence[Program], build: Build, context: cl.Context | None = None,
          probe: str = SOURCE) -> tuple[bool, str]:
    """Build every program on ``device`` (each must hold its kernels), then build and run
    ``probe`` (:data:`SOURCE`) and compare with NumPy: ``(ok, reason)``."""
    x = np.linspace(-3.0, 3.0, N, dtype=np.float32)
    y = np.empty_like(x)
    z = np.empty(N, np.int64)
    label = ""
    try:
        ctx = context or cl.Context([device])
        for label, source, options, names in programs:
            prg = build(ctx, device, source, options)
            have = set(filter(None, str(prg.get_info(cl.program_info.KERNEL_NAMES)).split(";")))
            missing = [name for name in names if name not in have]
            if missing:
                return False, f"building {label} gave a program without the kernel {missing[0]}"
            for name in names:
                cl.Kernel(prg, name)
        label = ""
        queue = cl.CommandQueue(ctx, device)
        prg = build(ctx, device, probe, "")
        mf = cl.mem_flags
        xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        yb, zb = cl.Buffer(ctx, mf.WRITE_ONLY, y.nbytes), cl.Buffer(ctx, mf.WRITE_ONLY, z.nbytes)
        cl.Kernel(prg, "probe")(queue, (N,), None, xb, yb, zb)
        cl.enqueue_copy(queue, y, yb)
        cl.enqueue_copy(queue, z, zb)
        queue.finish()
        generated = "reduce" in str(prg.get_info(cl.program_info.KERNEL_NAMES)).split(";")
        chained, total = _generated(ctx, queue, prg, x) if generated else (x, 0.0)
    except Exception as err:  # noqa: BLE001  (any failure of the runtime is the verdict, not a crash)
        return False, f"{label}: {reason(err)}"[:300] if label else reason(err)
    if not np.array_equal(y, x * np.float32(0.5) + x):
        return False, "the probe kernel computed wrong float32 results"
    if not np.array_equal(z, np.arange(N, dtype=np.int64) * 3000000007):
        return False, "the probe kernel computed wrong int64 results"
    if generated:
        want = np.sin(x.astype(np.float64)) * 2 + np.exp(x.astype(np.float64)) - x.astype(np.float64) / 3
        if not np.allclose(chained, want, rtol=1e-5, atol=1e-5):
            return False, "the probe's fused chain computed wrong float32 results"
        if not np.isclose(total, np.cos(x.astype(np.float64)).sum(), rtol=1e-4):
            return False, "the probe's reduction computed a wrong float32 sum"
    return True, ""


def _generated(ctx: cl.Context, queue: cl.CommandQueue, prg: cl.Program, x: np.ndarray) -> tuple[np.ndarray, float]:
    """Run the probe program's ``chain`` (float8 blocks of ``x``) and ``reduce`` (in 7 parts, so
    the last part folds the others): (the chain's values, the sum of cos(x))."""
    mf = cl.mem_flags
    n, parts = x.size - 3, 7  # a tail past the last float8 block
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    out = np.zeros(x.size, np.float32)
    ob = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    cl.Kernel(prg, "chain")(queue, (-(-n // 8),), None, ob, xb, np.float32(2), np.int32(n))
    total = np.zeros(1, np.float32)
    tb = cl.Buffer(ctx, mf.READ_WRITE, 4)
    pb = cl.Buffer(ctx, mf.READ_WRITE, 4 * parts)
    db = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(1, np.int32))
    cl.Kernel(prg, "reduce")(queue, (parts,), (1,), tb, pb, db, xb, np.int32(x.size), np.int32(parts))
    cl.enqueue_copy(queue, out, ob)
    cl.enqueue_copy(queue, total, tb)
    queue.finish()
    out[n:] = np.sin(x[n:]) * 2 + np.exp(x[n:]) - x[n:] / 3  # not computed: the chain covers n elements
    return out, float(total[0])


def reason(err: BaseException) -> str:
    """The first error line of a build log, else the exception in one line."""
    text = str(getattr(err, "log", None) or getattr(err, "build_log", None) or err)
    for line in text.splitlines():
        if re.search(r"\berror\b", line, re.IGNORECASE):
            return line.strip()[:300]
    first = text.strip().splitlines()[0] if text.strip() else ""
    return f"{type(err).__name__}: {first}"[:300]


def _build(prologue: str) -> Build:
    def build(context: cl.Context, device: cl.Device, source: str, options: str) -> cl.Program:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prg = cl.Program(context, prologue + source)
            return prg.build(options=options, devices=[device], cache_dir=False)  # type: ignore[arg-type]
    return build


def main() -> None:
    """Run the job on stdin: ``{"prologue": str, "probe": str, "steps": [{"device": flat index, "name": str,
    "platform": str, "programs": [[label, source, options, [names]]...]}...]}``; one line per step:
    ``MARK {"step": k, "ok": bool, "reason": str}``."""
    job: dict[str, Any] = json.loads(sys.stdin.read())
    build = _build(job["prologue"])
    devices = [(p, d) for p in cl.get_platforms() for d in p.get_devices()]
    contexts: dict[int, cl.Context] = {}
    for k, step in enumerate(job["steps"]):
        index = step["device"]
        if index >= len(devices) or (devices[index][0].name.strip(), devices[index][1].name.strip()) != (
                step["platform"], step["name"]):
            ok, why = False, f"device cl:{index} is not {step['name']} [{step['platform']}] in the probe's process"
        else:
            device = devices[index][1]
            context = contexts.setdefault(index, cl.Context([device]))
            ok, why = check(device, [(p[0], p[1], p[2], p[3]) for p in step["programs"]], build, context,
                            job.get("probe", SOURCE))
        print(MARK + json.dumps({"step": k, "ok": ok, "reason": why}), flush=True)


if __name__ == "__main__":
    main()
