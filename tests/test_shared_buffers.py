"""No write is lost, whatever owns the buffer (darray/interop/cl_arrays.py, sched.share, lazy/host.py):
arrays over pooled blocks, pooled blocks lent to pyopencl, pyopencl buffers darray wraps (whole, at an
offset, OpenCL sub-buffers) and NumPy memory imported through DLPack see every write through every path
(scalar and slice assignment, masks, scatters, in-place operators, ``out=``, copyto, fill), below and
above the host engine's size limit and with the host engine off, read back through darray and through
the other owner."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyopencl.array as cla
import pytest

import darray as da
from darray.lazy import host

pytestmark = pytest.mark.usefixtures("cl_place")

SIZES = [6, 40_000]  # at once on the host engine; over its limit (kernels)


class Owner:
    """A buffer of ``n`` float32 holding 0..n-1 as a DArray ``x``, and ``other()``: the same memory as its
    other owner reads it (None where darray is the only owner)."""

    def __init__(self, kind: str, n: int) -> None:
        base = np.arange(n, dtype=np.float32)
        queue = da.zeros(1).to_pyopencl().queue
        self.kind = kind
        if kind == "pooled":
            self.x, self.other = da.asarray(base), None
        elif kind == "lent":
            self.x = da.asarray(base)
            self.lent = self.x.to_pyopencl()
            self.other = self.lent.get
        elif kind == "wrapped":
            self.c = cla.to_device(queue, base)
            self.x = da.from_pyopencl(self.c)
            self.other = self.c.get
        elif kind == "wrapped_offset":  # a pyopencl view 3 elements into its buffer
            self.c = cla.to_device(queue, np.concatenate([np.full(3, -9, np.float32), base]))
            self.x = da.from_pyopencl(self.c[3:])
            self.other = lambda: self.c.get()[3:]
        elif kind == "sub_buffer":  # an OpenCL sub-buffer 128 bytes into a larger buffer
            pad = np.full(32, -9, np.float32)
            self.c = cla.to_device(queue, np.concatenate([pad, base, pad]))
            sub = self.c.base_data.get_sub_region(128, 4 * n)
            self.x = da.from_pyopencl(cla.Array(queue, (n,), np.float32, data=sub))
            self.other = lambda: self.c.get()[32:32 + n]
        else:  # "dlpack": NumPy memory imported onto the cpu place, shared
            self.host = base.copy()
            self.x = da.from_dlpack(self.host, device="cpu")
            self.other = lambda: self.host.copy()

    def check(self, want: np.ndarray) -> None:
        da.synchronize()
        np.testing.assert_array_equal(np.asarray(self.x), want)
        np.testing.assert_allclose(float(self.x.sum()), want.sum(dtype=np.float64), rtol=1e-6)
        if self.other is not None:
            np.testing.assert_array_equal(self.other(), want)


def _mask_set(x: Any, xp: Any) -> None:
    x[x > 2] = 0.5


def _scatter(x: Any, xp: Any) -> None:
    x[[0, 2, 4]] = [7.0, 8.0, 9.0]


def _ufunc_out(x: Any, xp: Any) -> None:
    xp.multiply(x, 2, out=x)


def _copyto(x: Any, xp: Any) -> None:
    xp.copyto(x, x[::-1].copy())


WRITES: dict[str, Callable[[Any, Any], None]] = {
    "scalar": lambda x, xp: x.__setitem__(0, 2.5),
    "slice_fill": lambda x, xp: x.__setitem__(slice(1, None, 2), -1.0),
    "slice_copy": lambda x, xp: x.__setitem__(slice(1, 4), x[:3].copy()),
    "whole": lambda x, xp: x.__setitem__(Ellipsis, 1.0),
    "mask": _mask_set,
    "scatter": _scatter,
    "iadd": lambda x, xp: x.__iadd__(1.5),
    "ufunc_out": _ufunc_out,
    "copyto": _copyto,
    "fill": lambda x, xp: x.fill(4.0),
}

KINDS = ["pooled", "lent", "wrapped", "wrapped_offset", "sub_buffer", "dlpack"]


@pytest.mark.parametrize("engine", ["on", "off"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("write", sorted(WRITES))
def test_every_write_reaches_every_owner(kind, n, write, engine, monkeypatch):
    if engine == "off":
        monkeypatch.setattr(host, "LIMIT", 0)
    owner = Owner(kind, n)
    want = np.arange(n, dtype=np.float32)
    WRITES[write](want, np)
    WRITES[write](owner.x, da)
    owner.check(want)


@pytest.mark.parametrize("kind", ["lent", "wrapped"])
def test_pyopencl_writes_reach_darray(kind):
    """pyopencl's own commands on the shared memory, queued and not waited for, come before darray's
    next reads and writes (host reads, the host engine and kernels alike)."""
    owner = Owner(kind, 6)
    arr = owner.lent if kind == "lent" else owner.c
    for k in range(3):
        arr.fill(float(k + 3))
        np.testing.assert_array_equal(np.asarray(owner.x), np.full(6, k + 3, np.float32))
        arr += 1.0
        np.testing.assert_array_equal(np.asarray(owner.x + 0), np.full(6, k + 4, np.float32))
        owner.x[1] = 0.0
        arr += 1.0
        np.testing.assert_array_equal(np.asarray(owner.x[owner.x > 2]), np.full(5, k + 5, np.float32))
        assert float(owner.x[1]) == 1.0


def test_reads_of_wrapped_memory_through_every_op():
    """Ops that compute on the host engine read a wrapped buffer's own memory (not an empty stand-in)."""
    c = cla.to_device(da.zeros(1).to_pyopencl().queue, np.arange(6, dtype=np.float32))
    y = da.from_pyopencl(c)
    v = np.arange(6, dtype=np.float32)
    for got, want in [(y + 1, v + 1), (y[y > 2], v[v > 2]), (y[da.asarray([0, 2])], v[[0, 2]]),
                      (da.nonzero(y)[0], np.nonzero(v)[0]), (y.copy(), v), (y.astype(np.int32), v.astype(np.int32)),
                      (da.sort(y[::-1]), v), (da.cumsum(y), np.cumsum(v)), (y @ y, v @ v), (da.any(y > 4), True)]:
        np.testing.assert_array_equal(np.asarray(got), want)
