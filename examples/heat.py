"""A 2-D heat equation on darray: explicit five-point stencil steps written with slices (views,
no copies), run through ``da.jit`` (the step is traced once, then replayed), checked against NumPy.

    python examples/heat.py [--small] [--device PLACE]
"""
from __future__ import annotations

import time

import numpy as np
from _cli import run  # examples/_cli.py

import darray as da


def step(u, alpha: float):
    """One explicit step: the interior moves by alpha times its discrete Laplacian (edges fixed).
    The right side is read before the assignment writes, as in NumPy."""
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                              - 4 * u[1:-1, 1:-1])
    return u


def initial(n: int) -> np.ndarray:
    """A hot square in a cold plate, with one hot edge."""
    u = np.zeros((n, n), np.float32)
    u[n // 4:n // 2, n // 4:n // 2] = 100
    u[0, :] = 50
    return u


def main(small: bool = False, device: str | None = None) -> float:
    """Run the steps on ``device``; returns the largest difference from NumPy (asserted small)."""
    (n, steps), alpha = (64, 20) if small else (1024, 200), 0.2
    h = initial(n)
    u = da.asarray(h, device=device)
    fast = da.jit(step)  # alpha, a Python float, is static: part of the key
    t0 = time.perf_counter()
    for _ in range(steps):
        fast(u, alpha)  # updates u in place, as step does
    got = u.get()
    seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(steps):
        step(h, np.float32(alpha))
    numpy_seconds = time.perf_counter() - t0
    err = float(np.abs(got - h).max())
    assert err < 1e-3, err
    print(f"heat: {steps} jitted steps on a {n}x{n} grid on {u.place}: {seconds * 1e3:.1f} ms "
          f"({seconds / steps * 1e6:.0f} us/step; NumPy {numpy_seconds / steps * 1e6:.0f}), "
          f"total heat {float(da.sum(u).get()):.1f}, "
          f"max |darray - numpy| = {err:.2e}")
    return err


if __name__ == "__main__":
    run(main, __doc__)
