"""NumPy loops family (issue 39): textbook algorithms written as a NumPy user writes them, a Python
loop over rows, pivots or sweeps whose body is small NumPy ops, run unchanged with ``xp = numpy``
and ``xp = darray`` (each call synchronized at its end; results checked against NumPy's).

Figures (NumPy's time over darray's, higher is better), on the CPU device: each at least 0.3x
NumPy's speed, their geometric mean at least 0.6x. --quick runs smaller sizes.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da

from .harness import Run, case, compare


def lu(xp: Any, a: Any) -> Any:
    """Doolittle LU without pivoting by row operations: L and U packed in one matrix."""
    a = a.copy()
    n = a.shape[0]
    for k in range(n - 1):
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= a[k + 1:, k, None] * a[None, k, k + 1:]
    return a


def cholesky(xp: Any, a: Any) -> Any:
    """Cholesky-Banachiewicz, row by row: the lower factor."""
    n = a.shape[0]
    low = xp.zeros_like(a)
    for i in range(n):
        for j in range(i + 1):
            s = xp.dot(low[i, :j], low[j, :j])
            if i == j:
                low[i, j] = math.sqrt(float(a[i, i] - s))
            else:
                low[i, j] = (a[i, j] - s) / low[j, j]
    return low


def gram_schmidt(xp: Any, a: Any) -> Any:
    """Modified Gram-Schmidt: Q with orthonormal columns spanning a's."""
    q = a.copy()
    n = a.shape[1]
    for k in range(n):
        q[:, k] /= xp.linalg.norm(q[:, k])
        for j in range(k + 1, n):
            q[:, j] -= xp.dot(q[:, k], q[:, j]) * q[:, k]
    return q


def triangular_solve(xp: Any, low: Any, b: Any) -> Any:
    """Forward substitution, one unknown at a time."""
    n = b.shape[0]
    x = xp.zeros_like(b)
    for i in range(n):
        x[i] = (b[i] - xp.dot(low[i, :i], x[:i])) / low[i, i]
    return x


def floyd_warshall(xp: Any, d: Any) -> Any:
    """All-pairs shortest paths: one vectorised relaxation per pivot."""
    d = d.copy()
    for k in range(d.shape[0]):
        d = xp.minimum(d, d[:, k, None] + d[None, k, :])
    return d


def gauss_seidel(xp: Any, u: Any, f: Any, sweeps: int) -> Any:
    """Gauss-Seidel sweeps of the 2-D Poisson problem, row by row (each row uses the updated one above)."""
    u = u.copy()
    n = u.shape[0]
    for _ in range(sweeps):
        for i in range(1, n - 1):
            u[i, 1:-1] = 0.25 * (u[i - 1, 1:-1] + u[i + 1, 1:-1] + u[i, :-2] + u[i, 2:] - f[i, 1:-1])
    return u


def crc16(xp: Any, data: Any) -> int:
    """CRC-16/CCITT over a byte array, a byte at a time, bit by bit on the running value."""
    crc = 0xFFFF
    for k in range(data.shape[0]):
        crc ^= int(data[k]) << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def _spd(n: int) -> np.ndarray:
    m = np.random.default_rng(1).random((n, n))
    return m @ m.T + n * np.eye(n)


# name -> (size, quick size, inputs of a size, the call over xp and inputs)
ALGORITHMS: dict[str, tuple[int, int, Callable[[int], tuple], Callable[..., Any]]] = {
    "lu": (300, 100, lambda n: (_spd(n),), lu),
    "cholesky": (100, 40, lambda n: (_spd(n),), cholesky),
    "gram_schmidt": (100, 40, lambda n: (np.random.default_rng(2).random((n, n)) + np.eye(n),), gram_schmidt),
    "triangular_solve": (500, 150, lambda n: (np.linalg.cholesky(_spd(n)), np.random.default_rng(3).random(n)),
                         triangular_solve),
    "floyd_warshall": (300, 100, lambda n: (np.random.default_rng(4).random((n, n)) * 10,), floyd_warshall),
    "gauss_seidel": (200, 64, lambda n: (np.zeros((n, n)), np.random.default_rng(5).random((n, n))),
                     lambda xp, u, f: gauss_seidel(xp, u, f, 5)),
    "crc16": (500, 200, lambda n: (np.random.default_rng(6).integers(0, 256, n, dtype=np.uint8),), crc16),
}


def _algorithm(run: Run, name: str) -> None:
    full, quick, make, fn = ALGORITHMS[name]
    n = run.pick(full, quick)
    host = make(n)
    dev = tuple(da.asarray(h, device=run.place) for h in host)
    want = fn(np, *host)
    got = fn(da, *dev)
    if not np.allclose(np.asarray(got), want, rtol=1e-8, atol=1e-8):
        raise AssertionError(f"{name}: darray's result differs from NumPy's")

    def ours() -> None:
        fn(da, *dev)
        da.synchronize()

    t = compare({"numpy": lambda: fn(np, *host), "darray": ours}, repeat=run.pick(3, 2))
    run.figure("numpy_ms", t["numpy"] * 1e3, "ms", label=f"{name}, n = {n}: NumPy")
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label=f"{name}, n = {n}: darray")
    r = run.ratio("darray/numpy", t["numpy"] / t["darray"], label=f"{name}, n = {n}: darray's speed vs NumPy's",
                  target=">= 0.3")
    run.shared.setdefault("numpy_loops", {})[name] = r


for _name in ALGORITHMS:
    case(_name)(lambda run, _name=_name: _algorithm(run, _name))


@case("geomean")
def geomean(run: Run) -> None:
    """The geometric mean of the speeds of the algorithms that ran before it in this run."""
    speeds = run.shared.get("numpy_loops", {})
    if not speeds:
        run.skip("no algorithm of the family ran")
    run.ratio("darray/numpy", math.exp(sum(map(math.log, speeds.values())) / len(speeds)),
              label=f"geometric mean of {len(speeds)} loop algorithms: darray's speed vs NumPy's", target=">= 0.6")
