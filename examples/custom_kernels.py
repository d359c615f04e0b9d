"""User kernels on darray: an ElementwiseKernel that fuses with the ops around it, a
ReductionKernel (a root mean square) and a RawKernel, each checked against NumPy.

    python examples/custom_kernels.py [--small] [--device PLACE]
"""
from __future__ import annotations

import numpy as np
from _cli import run  # examples/_cli.py

import darray as da

smooth_relu = da.ElementwiseKernel("T x, T beta", "T y", "y = x > 0 ? x : beta * (exp(x) - 1)", "elu")
norm = da.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "norm2")
scale = da.RawKernel("""
__kernel void scale(__global const float* x, __global float* y, const float a, const int n) {
    const int i = get_global_id(0);
    if (i < n) y[i] = a * x[i];
}""", "scale")


def main(small: bool = False, device: str | None = None) -> float:
    """Run the three kernels on ``device``; returns the largest relative difference from NumPy."""
    n = 1000 if small else 1 << 22
    h = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    x = da.asarray(h, device=device)
    if isinstance(x.place, da.CPUPlace):  # the cpu place runs NumPy expressions only (no ?:): skip the ELU
        ref = h * 2
        got = (x * 2).get()
    else:
        with da.profile() as p:
            total = float((smooth_relu(x + 1, np.float32(0.5)) * 2).sum())  # one fused launch
        ref_y = np.where(h + 1 > 0, h + 1, 0.5 * (np.exp(h + 1) - 1)) * 2
        assert abs(total - ref_y.sum()) <= 1e-3 * np.abs(ref_y).sum(), (total, ref_y.sum())
        kernels = [r for r in p.launches if r.name not in ("device_to_host", "reduce_scratch")
                   and r.stream != da.sched.HOST]  # (ops run on the host are not kernels)
        assert len(kernels) == 1, p.table()
        y = da.empty(n, dtype="float32", device=x.place)
        scale(n, None, (x, y, 3.0, n))
        ref, got = h * 3, y.get()
    err = float(np.abs(got - ref).max() / np.abs(ref).max())
    r = float(norm(x))  # the cpu place too: x * x, a + b and y = sqrt(a) are NumPy expressions
    assert abs(r - np.sqrt((h.astype(np.float64) ** 2).sum())) < 1e-4 * r, r
    assert err < 1e-6, err
    print(f"custom_kernels: {n} elements on {x.place}: 2-norm {r:.4f}, max relative |darray - numpy| = {err:.1e}")
    return err


if __name__ == "__main__":
    run(main, __doc__)
