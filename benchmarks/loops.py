"""Loops family (issue 28): Python loops over small and medium arrays, where darray's cost per
op shows; eager darray, darray under ``da.jit`` and the reference timed in turns, each loop
synchronized once at its end (wall time, as a user sees it).

Figures to reach on the CPU device (speed = the reference's time / darray's):
- ``chain_1k``: ten steps ``z = z*1.0001 + y`` per iteration (float32, n = 1000), jitted: speed
  vs NumPy >= 0.5 (at most 2x NumPy's time); eager, evaluated each iteration: reported;
- ``chain_1M``: the same at n = 10^6, jitted: >= 3x NumPy;
- ``add_1k``: eager ``(a + b).eval()`` at n = 1000 vs pyopencl.array's ``a + b`` on a queue like
  darray's: speed >= 2 (at most 0.5x pyopencl.array's time);
- ``cg_256``: ``darray.sparse.linalg.cg`` with Jacobi to 1e-5 on the 5-point Poisson matrix of
  a 256 x 256 grid vs ``scipy.sparse.linalg.cg`` with the inverse diagonal: >= 1, both
  iteration counts reported;
- ``find_root_1000``: ``scipy.optimize.elementwise.find_root`` on 1000 problems as DArrays vs
  as NumPy arrays: >= 0.2 (at most 5x NumPy's time). SciPy takes DArrays only with
  ``SCIPY_ARRAY_API=1`` set before its first import: this module sets it when it is unset
  (the bench imports every family before any case runs), else the case is skipped;
- ``heat_jit``: 100 steps of the five-point heat stencil of ``examples/heat.py`` on 256 x 256,
  the step under ``da.jit``: >= 1x NumPy.
--quick shortens the loops.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da

from .harness import Run, case, compare, loop
from .numeric import _pyopencl
from .sparse import _poisson, _scipy

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before scipy's first import (none above imports it)


def _close(what: str, got: Any, want: np.ndarray, rtol: float = 1e-4) -> None:
    got = got.get() if isinstance(got, da.DArray) else np.asarray(got)
    if not np.allclose(got, want, rtol=rtol, atol=rtol * float(np.abs(want).max())):
        raise AssertionError(f"{what}: darray's result differs from NumPy's")


def _speeds(run: Run, t: dict[str, float], what: str, targets: dict[str, str], ref: str = "numpy") -> None:
    """``{name}/{ref}`` = the reference's time / ``name``'s for every other contender."""
    for name, seconds in t.items():
        if name != ref:
            run.ratio(f"{name}/{ref}", t[ref] / seconds, label=f"{what}: {name} speed vs {ref} (wall)",
                      target=targets.get(name))


def ten_steps(z: Any, y: Any) -> Any:
    """The chain: ten steps of ``z = z*1.0001 + y``."""
    for _ in range(10):
        z = z * 1.0001 + y
    return z


def _chain(run: Run, n: int, count: int, target: str) -> None:
    rng = np.random.default_rng(0)
    hz, hy = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    state = {"numpy": hz.copy(), "eager": da.asarray(hz, device=run.place)}
    y = da.asarray(hy, device=run.place)

    def step_numpy() -> None:
        state["numpy"] = ten_steps(state["numpy"], hy)

    def step_eager() -> None:
        state["eager"] = ten_steps(state["eager"], y).eval()

    jitted = da.jit(ten_steps)
    state["jit"] = da.asarray(hz, device=run.place)
    _close("jitted chain", jitted(state["jit"], y), ten_steps(hz, hy))

    def step_jit() -> None:
        state["jit"] = jitted(state["jit"], y)

    t = compare({"numpy": loop(step_numpy, count), "eager": loop(step_eager, count), "jit": loop(step_jit, count)},
                repeat=run.pick(5, 3))
    for name, seconds in t.items():
        run.figure(f"{name}_us", seconds / count * 1e6, "us", label=f"{name}: one iteration of 10 steps, n = {n}")
    _speeds(run, t, f"chain, n = {n}", {"jit": target})
    for name in ("eager", "jit"):  # every contender ran the same number of iterations
        _close(f"{name} chain after the loops", state[name], state["numpy"], rtol=1e-3)


@case("chain_1k")
def chain_1k(run: Run) -> None:
    """Ten steps ``z = z*1.0001 + y`` per iteration on 1000 float32: NumPy, eager, jitted."""
    _chain(run, 1000, run.pick(300, 50), ">= 0.5")


@case("chain_1M")
def chain_1M(run: Run) -> None:
    """Ten steps ``z = z*1.0001 + y`` per iteration on 10^6 float32: NumPy, eager, jitted."""
    _chain(run, run.pick(1_000_000, 250_000), run.pick(10, 3), ">= 3")


@case("add_1k")
def add_1k(run: Run) -> None:
    """Eager ``(a + b).eval()`` on 1000 float32 in a loop against pyopencl.array's ``a + b``."""
    rng = np.random.default_rng(0)
    ha, hb = rng.standard_normal(1000, dtype=np.float32), rng.standard_normal(1000, dtype=np.float32)
    a, b = da.asarray(ha, device=run.place), da.asarray(hb, device=run.place)
    pa = _pyopencl(run, ha, hb)
    if pa is None:
        run.skip("needs pyopencl.array")
    queue, (xa, xb) = pa
    count = run.pick(2000, 300)
    t = compare({"pyopencl.array": loop(lambda: xa + xb, count, queue.finish),
                 "darray": loop(lambda: (a + b).eval(), count)}, repeat=run.pick(5, 3))
    run.figure("darray_us", t["darray"] / count * 1e6, "us", label="eager (a + b).eval(), n = 1000, per op")
    run.figure("pyopencl_us", t["pyopencl.array"] / count * 1e6, "us", label="pyopencl.array a + b, per op")
    _speeds(run, t, "a + b, n = 1000", {"darray": ">= 2"}, ref="pyopencl.array")


def least(converged: Callable[[int], bool], guess: int) -> int:
    """The least k >= 1 with ``converged(k)`` (false below it, true from it on), searched from ``guess``."""
    lo, hi = 0, max(guess, 1)
    while not converged(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if converged(mid) else (mid, hi)
    return hi


@case("cg_256")
def cg_256(run: Run) -> None:
    """Jacobi-preconditioned CG to 1e-5 on the 256 x 256 Poisson grid against scipy's cg (M: the
    inverse diagonal); the iteration counts, darray's as the least ``maxiter`` that converges."""
    sp = _scipy(run)
    host = _poisson(sp, run.pick(256, 64))
    b = np.ones(host.shape[0], np.float32)
    inv_diag = sp.diags_array(1 / host.diagonal())
    a, bd = da.sparse.csr_matrix(host, device=run.place), da.asarray(b, device=run.place)

    def ours(maxiter: int | None = None) -> tuple[da.DArray, int]:
        return da.sparse.linalg.cg(a, bd, tol=1e-5, M="jacobi", maxiter=maxiter)

    steps: list[int] = []
    want, winfo = sp.linalg.cg(host, b, rtol=1e-5, M=inv_diag, callback=lambda _: steps.append(1))
    x, info = ours()
    if info or winfo:
        raise AssertionError(f"cg did not converge: darray info {info}, scipy info {winfo}")
    _close("cg solution", x, want, rtol=1e-3)
    run.figure("darray_iterations", least(lambda k: ours(k)[1] == 0, len(steps)), "", label="darray cg iterations")
    run.figure("scipy_iterations", len(steps), "", label="scipy cg iterations")
    t = compare({"scipy": lambda: sp.linalg.cg(host, b, rtol=1e-5, M=inv_diag), "darray": lambda: ours()[0].eval()},
                repeat=run.pick(5, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label="darray cg, Jacobi, to 1e-5 (wall)")
    run.figure("scipy_ms", t["scipy"] * 1e3, "ms", label="scipy cg (wall)")
    _speeds(run, t, "cg", {"darray": ">= 1"}, ref="scipy")


def _cubic(t: Any, c: Any) -> Any:
    return t * t * t - c


@case("find_root_1000")
def find_root_1000(run: Run) -> None:
    """``scipy.optimize.elementwise.find_root`` of t^3 = c for 1000 values of c, as DArrays and as NumPy arrays."""
    try:
        elementwise = importlib.import_module("scipy.optimize.elementwise")
    except ImportError:
        run.skip("needs scipy.optimize.elementwise (scipy >= 1.15)")
    hc = np.linspace(1, 26, 1000)
    lo, hi = np.zeros_like(hc), np.full_like(hc, 3.0)
    c, dlo, dhi = (da.asarray(v, device=run.place) for v in (hc, lo, hi))

    def ours() -> Any:
        return elementwise.find_root(_cubic, (dlo, dhi), args=(c,)).x

    got = ours()
    if not isinstance(got, da.DArray):
        run.skip("scipy was imported before SCIPY_ARRAY_API=1 was set: it turns DArrays into NumPy arrays")
    _close("find_root", got, np.cbrt(hc), rtol=1e-6)
    t = compare({"numpy": lambda: elementwise.find_root(_cubic, (lo, hi), args=(hc,)),
                 "darray": lambda: ours().eval()}, repeat=run.pick(5, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label="find_root, 1000 problems, DArrays")
    run.figure("numpy_ms", t["numpy"] * 1e3, "ms", label="find_root, 1000 problems, NumPy arrays")
    _speeds(run, t, "find_root", {"darray": ">= 0.2"})


def heat_step(u: Any) -> Any:
    """One explicit step of examples/heat.py (alpha = 0.2): the interior moves by alpha times its
    five-point Laplacian, in place; edges fixed."""
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.2 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                           - 4 * u[1:-1, 1:-1])
    return u


@case("heat_jit")
def heat_jit(run: Run) -> None:
    """100 heat steps on 256 x 256 float32, the step under ``da.jit``, against NumPy."""
    jitted = da.jit(heat_step)
    n, steps = run.pick((256, 100), (64, 20))
    h = np.full((n, n), 20, np.float32)  # a plate at 20 degrees (no subnormals as the heat spreads)
    h[n // 4:n // 2, n // 4:n // 2] = 100
    h[0, :] = 50
    state = {"numpy": h, "jit": da.asarray(h, device=run.place)}

    def step_jit() -> None:
        state["jit"] = jitted(state["jit"])

    t = compare({"numpy": loop(lambda: heat_step(state["numpy"]), steps),
                 "jit": loop(step_jit, steps)}, repeat=run.pick(5, 3))
    _close("heat after the loops", state["jit"], state["numpy"], rtol=1e-4)
    run.figure("jit_us", t["jit"] / steps * 1e6, "us", label=f"jitted heat step, {n}^2")
    run.figure("numpy_us", t["numpy"] / steps * 1e6, "us", label=f"NumPy heat step, {n}^2")
    _speeds(run, t, f"heat, {n}^2", {"jit": ">= 1"})
