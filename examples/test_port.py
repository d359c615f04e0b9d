"""A user's test file for a NumPy function ported to darray, using each part of ``darray.testing``:
assertions, the comparison decorators, the dtype parametrizers, the hypothesis strategies and the
pytest plugin (``xp``, ``place``, the "darray" hypothesis profile).

    python -m pytest examples/test_port.py      # as a test file
    python examples/test_port.py [--small]      # the same, run by the examples' smoke test
"""
from __future__ import annotations

import sys

import numpy as np
from hypothesis import given

import darray as da
import darray.testing as dt
from darray.testing import strategies as dts

pytest_plugins = ["darray.testing.plugin"]


def softmax(x, axis=-1):
    """The port: written once against the array namespace of ``x`` (NumPy's or darray's)."""
    xp = da if isinstance(x, da.DArray) else np
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def softmax_numpy(a, axis=-1):
    """The reference, as NumPy users write it."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(a - a.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


@given(dts.array_pairs(dts.dtypes("real floating"), dts.shapes(max_dims=3)))
def test_softmax_matches_numpy(pair):
    a, x = pair  # a NumPy array and a DArray in some layout (contiguous, strided, offset, transposed, broadcast)
    dt.assert_allclose(softmax(x), softmax_numpy(a), rtol=1e-5)


@given(dts.broadcastable_pairs(dts.dtypes("real floating"), min_dims=1,
                               elements={"min_value": -1e3, "max_value": 1e3}))
def test_weighted_softmax_broadcasts(pairs):
    (a, x), (b, y) = pairs
    dt.assert_allclose(softmax(x * y), softmax_numpy(a * b), rtol=1e-5, atol=1e-30)


@dt.for_float_dtypes(no_float16=True)
@dt.numpy_darray_allclose(rtol=1e-6)
def test_norm(xp, dtype):
    return xp.linalg.norm(xp.arange(12, dtype=dtype).reshape(3, 4), axis=1)


@dt.for_all_dtypes(no_bool=True, no_float16=True)
@dt.numpy_darray_array_equal()
def test_reversed_cumsum(xp, dtype):
    return xp.cumsum(xp.arange(10, dtype=dtype)[::-3]), xp.arange(4, dtype=dtype).sum()


@dt.numpy_darray_array_equal(accept_error=ValueError)
def test_bad_axis_raises_like_numpy(xp):
    return softmax(xp.ones((2, 3)), axis=2)  # NumPy's AxisError, a ValueError, from both


def test_xp_fixture(xp):
    """One body for both namespaces (the plugin's ``xp``)."""
    x = xp.linspace(-2, 2, 9).reshape(3, 3)
    dt.assert_allclose(softmax(x).sum(axis=-1), np.ones(3), rtol=1e-12)


def test_on_every_place(place):
    """The plugin's ``place``: each OpenCL device that passed darray's probe, then the cpu place."""
    a = np.arange(6.0).reshape(2, 3)
    x = da.asarray(a, device=place)
    assert x.place == place
    dt.assert_allclose(softmax(x.T), softmax_numpy(a.T), rtol=1e-12, strict=True)


if __name__ == "__main__":  # the examples' smoke test runs every script: run this file's tests
    import subprocess

    print(f"test_port: python -m pytest {__file__}", flush=True)
    sys.exit(subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__]).returncode)
