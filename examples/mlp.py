"""MLP inference on darray: a batch of 128 through three dense layers (matmul, bias, relu) and a
softmax, run through ``da.jit`` (traced once, then replayed), checked against NumPy.

    python examples/mlp.py [--small] [--device PLACE]
"""
from __future__ import annotations

import time

import numpy as np
from _cli import run  # examples/_cli.py

import darray as da

LAYERS = (784, 512, 256, 10)


def forward(xp, x, weights):
    """The network with the array namespace ``xp`` (darray or NumPy): the same code for both."""
    for k, (w, b) in enumerate(weights):
        x = x @ w + b
        if k < len(weights) - 1:
            x = xp.maximum(x, 0)
    e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
    return e / xp.sum(e, axis=1, keepdims=True)


def main(small: bool = False, device: str | None = None) -> float:
    """Run the batch on ``device``; returns the largest difference from NumPy (asserted small)."""
    layers = (64, 32, 16, 10) if small else LAYERS
    batch = 16 if small else 128
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, layers[0]), dtype=np.float32)
    weights = [(rng.standard_normal((a, b), dtype=np.float32) / np.float32(np.sqrt(a)),
                rng.standard_normal(b, dtype=np.float32) * np.float32(0.1)) for a, b in zip(layers, layers[1:])]
    dx = da.asarray(x, device=device)
    dweights = [(da.asarray(w, device=device), da.asarray(b, device=device)) for w, b in weights]
    predict = da.jit(forward)  # traced on the first call (xp, a module, is static), replayed after
    predict(da, dx, dweights).get()
    t0 = time.perf_counter()
    probs = predict(da, dx, dweights).get()
    seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    want = forward(np, x, weights)
    numpy_seconds = time.perf_counter() - t0
    err = float(np.abs(probs - want).max())
    assert probs.shape == (batch, layers[-1]) and err < 1e-5, err
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-5)
    print(f"mlp: batch {batch} through {layers} on {dx.place}: {seconds * 1e3:.2f} ms "
          f"(NumPy {numpy_seconds * 1e3:.2f} ms), "
          f"max |darray - numpy| = {err:.2e}, predicted classes agree: {(probs.argmax(1) == want.argmax(1)).all()}")
    return err


if __name__ == "__main__":
    run(main, __doc__)
