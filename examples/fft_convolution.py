"""FFT convolution on darray: a Gaussian blur of an image and a polynomial product, both through
darray.fft (pyvkfft on OpenCL devices), checked against direct NumPy computations.

    python examples/fft_convolution.py [--small] [--device PLACE]
"""
from __future__ import annotations

import time

import numpy as np
from _cli import run  # examples/_cli.py

import darray as da


def blur(xp, image, kernel):
    """Circular convolution of ``image`` with ``kernel`` (same shape) by real FFTs in namespace ``xp``."""
    spectrum = xp.fft.rfftn(image) * xp.fft.rfftn(kernel)
    return xp.fft.irfftn(spectrum, s=image.shape, axes=(0, 1))


def gaussian(shape: tuple[int, int], sigma: float) -> np.ndarray:
    """A normalised Gaussian centred on element (0, 0), wrapping around the edges."""
    rows = np.minimum(np.arange(shape[0]), shape[0] - np.arange(shape[0]))[:, None]
    cols = np.minimum(np.arange(shape[1]), shape[1] - np.arange(shape[1]))[None, :]
    g = np.exp(-(rows ** 2 + cols ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)


def main(small: bool = False, device: str | None = None) -> float:
    """Blur and multiply on ``device``; returns the largest difference from NumPy (asserted small)."""
    shape, degree = ((64, 48), 100) if small else ((1024, 1024), 2000)
    rng = np.random.default_rng(0)
    image = rng.random(shape, dtype=np.float32)
    kernel = gaussian(shape, 3.0)
    x, k = da.asarray(image, device=device), da.asarray(kernel, device=device)
    blur(da, x, k).get()  # plans and kernels built once
    t0 = time.perf_counter()
    got = blur(da, x, k).get()
    seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    want = blur(np, image.astype(np.float64), kernel.astype(np.float64))
    numpy_seconds = time.perf_counter() - t0
    err = float(np.abs(got - want).max())
    assert err < 1e-4, err
    # the product of two integer polynomials: zero-padded FFTs, rounded back to integers
    p, q = rng.integers(-9, 10, degree + 1), rng.integers(-9, 10, degree + 1)
    n = 2 * degree + 1
    dp, dq = (da.asarray(v.astype(np.float32), device=device) for v in (p, q))
    product = da.fft.irfft(da.fft.rfft(dp, n=n) * da.fft.rfft(dq, n=n), n=n)
    exact = np.convolve(p, q)
    off = float(np.abs(product.get() - exact).max())
    assert off < 0.5, off  # float32 FFTs of this size still round to the exact integers
    print(f"fft_convolution: Gaussian blur of a {shape[0]}x{shape[1]} image on {x.place} in {seconds * 1e3:.1f} ms "
          f"(NumPy float64 {numpy_seconds * 1e3:.1f} ms), max |darray - numpy| = {err:.1e}; product of two "
          f"degree-{degree} polynomials exact after rounding (max error {off:.2g})")
    return err


if __name__ == "__main__":
    run(main, __doc__)
