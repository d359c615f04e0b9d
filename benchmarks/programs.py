"""Programs family (issue 40): three whole array programs in the style of a geophysical model's step,
written for this suite, run unchanged with ``xp = numpy`` and ``xp = darray`` on float64 3-D grids:

- ``formula``: one long pointwise formula (about 60 ops, named intermediates used several times);
- ``step``: about 30 slice assignments and ``+=`` on interior and face views, sharing intermediates;
- ``sweep``: a tridiagonal (Thomas) solve along the last axis, written as a loop over ``[..., k]`` slices.

Figures at 4M points (256 x 256 x 64; --quick: 65,536): NumPy's time over darray's (target at least 2x);
the kernels' bytes over their device time against the copy bandwidth (at least 0.6); at 65,536 points
(at least 1x) and 4,096 points (at least 0.5x); and the first call at 65,536 points in a fresh process
with an empty program cache, less its warm call (at most 1 s).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da

from .harness import Run, case, compare
from .memory import device_copy_bandwidth


def formula(xp: Any, t: Any, s: Any, p: Any) -> Any:
    """A density-like polynomial in temperature, salinity and pressure, with a square root, an
    exponential, a quotient and a branch; each intermediate is used more than once."""
    t2 = t * t
    sr = xp.sqrt(xp.abs(s) + 1e-3)
    fresh = 999.84 + t * (6.79e-2 + t * (-9.10e-3 + t * (1.00e-4 - 1.12e-6 * t)))
    salt = s * (0.824 + t * (-4.09e-3 + t * (7.64e-5 - 8.25e-7 * t))) + s * sr * (-5.72e-3 + 1.02e-4 * t)
    salt = salt + 4.83e-4 * s * s
    bulk = 19652.2 + t * (148.42 - 2.327 * t) + s * (54.67 - 0.603 * t) + sr * s * (7.94e-2 + 1.65e-2 * t)
    bulk = bulk + p * (3.24 + 1.44e-3 * t2 + s * (2.28e-3 - 1.10e-5 * t)) + p * p * (8.51e-5 - 6.12e-6 * t)
    rho = (fresh + salt) / (1.0 - p / bulk)
    return xp.where(rho > 1025.0, rho - 1025.0, 0.0) + xp.exp(-0.01 * t2) * sr


def step(xp: Any, q: Any, rho: Any, u: Any, v: Any, kappa: float) -> Any:
    """One explicit mixing step of ``q`` along the slopes of ``rho``: face gradients, tapered slopes,
    fluxes on three kinds of faces and their divergence, accumulated into the tendency with ``+=``."""
    nx, ny, nz = q.shape
    i, j, k = slice(1, -1), slice(1, -1), slice(1, -1)
    drx = xp.zeros_like(q)
    dry = xp.zeros_like(q)
    drz = xp.zeros_like(q)
    drx[:-1] = rho[1:] - rho[:-1]
    dry[:, :-1] = rho[:, 1:] - rho[:, :-1]
    drz[:, :, :-1] = rho[:, :, 1:] - rho[:, :, :-1]
    drz[:, :, -1] = drz[:, :, -2]
    stab = xp.minimum(drz, -1e-9)  # a stable column: density grows downwards
    sx = -drx / stab
    sy = -dry / stab
    taper = 0.5 * (1.0 + xp.tanh((0.01 - xp.sqrt(sx * sx + sy * sy)) * 100.0))
    kx = kappa * taper * (1.0 + 0.1 * xp.abs(u))
    ky = kappa * taper * (1.0 + 0.1 * xp.abs(v))
    fx = xp.zeros_like(q)
    fy = xp.zeros_like(q)
    fz = xp.zeros_like(q)
    fx[:-1] = kx[:-1] * (q[1:] - q[:-1])
    fx[:-1, :, 1:] += kx[:-1, :, 1:] * sx[:-1, :, 1:] * 0.5 * (q[1:, :, 1:] - q[1:, :, :-1] + q[:-1, :, 1:]
                                                             - q[:-1, :, :-1])
    fy[:, :-1] = ky[:, :-1] * (q[:, 1:] - q[:, :-1])
    fy[:, :-1, 1:] += ky[:, :-1, 1:] * sy[:, :-1, 1:] * 0.5 * (q[:, 1:, 1:] - q[:, 1:, :-1] + q[:, :-1, 1:]
                                                             - q[:, :-1, :-1])
    fz[:, :, :-1] = kappa * taper[:, :, :-1] * (sx[:, :, :-1] ** 2 + sy[:, :, :-1] ** 2) * (q[:, :, 1:] - q[:, :, :-1])
    fz[:, :, :-1] += kx[:, :, :-1] * sx[:, :, :-1] * 0.25 * (xp.roll(q, -1, 0)[:, :, :-1] - xp.roll(q, 1, 0)[:, :, :-1])
    fz[:, :, :-1] += ky[:, :, :-1] * sy[:, :, :-1] * 0.25 * (xp.roll(q, -1, 1)[:, :, :-1] - xp.roll(q, 1, 1)[:, :, :-1])
    fz[:, :, -1] = 0.0
    fx[-1] = 0.0
    fy[:, -1] = 0.0
    tend = xp.zeros_like(q)
    tend[i, j, k] = fx[i, j, k] - fx[:-2, j, k]
    tend[i, j, k] += fy[i, j, k] - fy[i, :-2, k]
    tend[i, j, k] += fz[i, j, k] - fz[i, j, :-2]
    tend[0] = fx[0]
    tend[-1] = -fx[-2]
    tend[:, 0] += fy[:, 0]
    tend[:, -1] -= fy[:, -2]
    tend[:, :, 0] += fz[:, :, 0]
    tend[:, :, -1] -= fz[:, :, -2]
    lim = xp.maximum(xp.abs(tend), 1e-30)
    tend[...] = xp.where(lim > 1.0, tend / lim, tend)
    out = q + 0.1 * tend
    out[:, :, :nz // 8] += 0.01 * (q[:, :, :nz // 8] - out[:, :, :nz // 8])
    out[0, :, :] = q[0, :, :]
    out[:, 0, :] = q[:, 0, :]
    out[nx - 1, :, :] = q[nx - 1, :, :]
    out[:, ny - 1, :] = q[:, ny - 1, :]
    return out


def sweep(xp: Any, lower: Any, diag: Any, upper: Any, rhs: Any) -> Any:
    """The Thomas algorithm along the last axis, every column at once: a forward elimination and a
    back substitution, each a loop over ``[..., k]`` slices (strided views)."""
    nz = rhs.shape[-1]
    cp = xp.empty_like(rhs)
    dp = xp.empty_like(rhs)
    cp[..., 0] = upper[..., 0] / diag[..., 0]
    dp[..., 0] = rhs[..., 0] / diag[..., 0]
    for k in range(1, nz):
        m = 1.0 / (diag[..., k] - lower[..., k] * cp[..., k - 1])
        cp[..., k] = upper[..., k] * m
        dp[..., k] = (rhs[..., k] - lower[..., k] * dp[..., k - 1]) * m
    x = xp.empty_like(rhs)
    x[..., -1] = dp[..., -1]
    for k in range(nz - 2, -1, -1):
        x[..., k] = dp[..., k] - cp[..., k] * x[..., k + 1]
    return x


def _formula_inputs(shape: tuple[int, ...]) -> tuple:
    g = np.random.default_rng(11)
    return (g.uniform(-2, 30, shape), g.uniform(30, 38, shape), g.uniform(0, 500, shape))


def _step_inputs(shape: tuple[int, ...]) -> tuple:
    g = np.random.default_rng(12)
    z = np.linspace(0, 1, shape[-1])
    rho = 1025.0 + 2.0 * z + 1e-3 * g.standard_normal(shape)
    return (g.random(shape), rho, g.standard_normal(shape), g.standard_normal(shape), 0.05)


def _sweep_inputs(shape: tuple[int, ...]) -> tuple:
    g = np.random.default_rng(13)
    off = g.uniform(-1, 0, (2, *shape))
    return (off[0], 4.0 + g.random(shape), off[1], g.random(shape))


# name -> (inputs of a shape, the program over xp and inputs)
PROGRAMS: dict[str, tuple[Callable[[tuple[int, ...]], tuple], Callable[..., Any]]] = {
    "formula": (_formula_inputs, formula),
    "step": (_step_inputs, step),
    "sweep": (_sweep_inputs, sweep),
}

SIZES = {"4M": (256, 256, 64), "65536": (64, 64, 16), "4096": (16, 16, 16)}
TARGETS = {"4M": ">= 2", "65536": ">= 1", "4096": ">= 0.5"}


def _device_inputs(host: tuple, place: Any) -> tuple:
    return tuple(da.asarray(h, device=place) if isinstance(h, np.ndarray) else h for h in host)


def _timed(run: Run, name: str, size: str) -> None:
    make, fn = PROGRAMS[name]
    shape = SIZES[size]
    host = make(shape)
    dev = _device_inputs(host, run.place)
    want = fn(np, *host)
    if not np.allclose(np.asarray(fn(da, *dev)), want, rtol=1e-9, atol=1e-12):
        raise AssertionError(f"{name}: darray's result differs from NumPy's")

    def ours() -> None:
        da.eval(fn(da, *dev))
        da.synchronize()

    points = int(np.prod(shape))
    t = compare({"numpy": lambda: fn(np, *host), "darray": ours}, repeat=run.pick(5, 3))
    run.figure("numpy_ms", t["numpy"] * 1e3, "ms", label=f"{name}, {points} points: NumPy")
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label=f"{name}, {points} points: darray")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label=f"{name}, {points} points: darray's speed vs NumPy's",
              target=TARGETS[size])
    if size == "4M":
        with da.profile() as prof:
            ours()
        kernels = [r for r in prof.launches if r.stream >= 0 and r.nbytes > 0]
        seconds = sum(r.seconds for r in kernels)
        if kernels and seconds > 0:
            gbps, copy = sum(r.nbytes for r in kernels) / seconds / 1e9, device_copy_bandwidth(run)
            run.figure("launches", len(kernels), "", label=f"{name}: kernels per call")
            run.figure("kernel_GBps", gbps, "GB/s", label=f"{name}: the kernels' bytes over their device time")
            run.figure("copy_GBps", copy, "GB/s", label="the device's copy bandwidth (memory.copy_bandwidth's kernel)")
            run.ratio("kernel_bw/copy", gbps / copy,
                      label=f"{name}: the kernels' bytes over their device time, vs the copy bandwidth",
                      target=">= 0.6")


_COLD = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import darray as da
from darray.benchmarks import programs
make, fn = programs.PROGRAMS[sys.argv[1]]
host = make(programs.SIZES["65536"])
dev = programs._device_inputs(host, None)
times = []
for _ in range(3):
    t = time.perf_counter()
    da.eval(fn(da, *dev)); da.synchronize()
    times.append(time.perf_counter() - t)
print(json.dumps(times))
"""


def _cold(run: Run, name: str) -> None:
    """The first call at 65,536 points in a fresh process with an empty program cache, less the warm call."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DARRAY_CACHE_DIR": cache, "DARRAY_DEVICE": str(run.place)}
        proc = subprocess.run([sys.executable, "-c", _COLD, name], capture_output=True, text=True, env=env,
                              timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{name}: the cold run failed: {proc.stderr[-2000:]}")
    times = json.loads(proc.stdout.strip().splitlines()[-1])
    run.figure("first_s", times[0], "s", label=f"{name}, 65536 points: first call, empty program cache")
    run.figure("warm_ms", min(times[1:]) * 1e3, "ms", label=f"{name}, 65536 points: warm call")
    run.figure("stall_s", times[0] - min(times[1:]), "s", label=f"{name}: first call less the warm one",
               target="<= 1")


for _name in PROGRAMS:
    for _size in SIZES:
        case(f"{_name}_{_size}")(lambda run, _name=_name, _size=_size: _timed(run, _name, _size))
    case(f"{_name}_first_call")(lambda run, _name=_name: _cold(run, _name))
