"""The gpu form's copies and casts (``darray.lazy.render_gpu``): tiled strided copies and
vectorised contiguous casts, against NumPy on the CPU devices.

Unless ``DARRAY_KERNEL_FORM`` names a form (the CI loop over forms), the ``gpu`` form is forced
on the device for each test, with fresh kernel caches, so the tests check its kernels anywhere.
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import darray as da
from darray.lazy import execute
from darray.lazy.render_gpu import TILE_GROUP, copy_like, gpu_kind, render_gpu, work_items
from darray.lazy.spec import Instr, KernelSpec, Operand
from darray.place import runtime

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
F32 = np.dtype(np.float32)


@pytest.fixture
def place(cl_place, monkeypatch):
    """``cl_place`` in the gpu form (unless DARRAY_KERNEL_FORM forces one), with empty kernel caches."""
    if not os.environ.get("DARRAY_KERNEL_FORM"):
        rt = runtime(cl_place)
        monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, form="gpu", work_group=256))
        monkeypatch.setattr(execute, "_kernels", {})
        monkeypatch.setattr(execute, "_prepared", {})
    return cl_place


def _usable(place, dtypes) -> list[str]:
    info = runtime(place).info
    return [d for d in dtypes if (info.fp16 or d != "float16") and (info.fp64 or d not in ("float64", "complex128"))]


def _host(shape, dtype: str, seed: int) -> np.ndarray:
    """Values every dtype holds exactly and every cast keeps defined (0..100, imaginary parts for complex)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 101, shape)
    if np.dtype(dtype).kind == "c":
        return (a + 1j * rng.integers(0, 101, shape)).astype(dtype)
    return a.astype(dtype)


def _spec(src: str, dst: str, patterns: str, rank: int) -> KernelSpec:
    s, d = np.dtype(src), np.dtype(dst)
    body = () if s == d else (Instr("cast", (("in", 0),), d),)
    return KernelSpec(rank=rank, index="int", inputs=(Operand(s, patterns[0]),), scalars=(), body=body,
                      outputs=((Operand(d, patterns[1]), ("in", 0) if s == d else ("t", 0)),))


def test_kinds():
    assert gpu_kind(_spec("float32", "float32", "sc", 2), 256) == "tiles"
    assert gpu_kind(_spec("float32", "int8", "cs", 3), 256) == "tiles"
    assert gpu_kind(_spec("float32", "int8", "sc", 2), 64) == ""  # work-groups too small for a tile
    assert gpu_kind(_spec("float16", "float32", "cc", 1), 256) == "cast"
    assert gpu_kind(_spec("float32", "float32", "sc", 1), 256) == ""  # 1-D strided: the present kernel
    two = dataclasses.replace(_spec("float32", "float32", "cc", 1), inputs=(Operand(F32, "c"), Operand(F32, "c")))
    assert not copy_like(two)
    add = dataclasses.replace(_spec("float32", "float32", "cc", 1), body=(Instr("add", (("in", 0), ("in", 0)), F32),),
                              outputs=((Operand(F32, "c"), ("t", 0)),))
    assert not copy_like(add) and gpu_kind(add, 256) == ""
    assert work_items("cast", (10,), 10) == 3
    assert work_items("tiles", (2, 33, 64), 2 * 33 * 64) == 2 * 2 * 2 * TILE_GROUP
    src = render_gpu(_spec("float32", "float16", "sc", 2), "tiles")
    assert "__local half tile[32][33]" in src and "barrier(CLK_LOCAL_MEM_FENCE)" in src
    assert "vload4" in render_gpu(_spec("int16", "float32", "cc", 1), "cast")


def _launched(place) -> set[str]:
    """The gpu kinds of the kernels built so far (in the forced gpu form)."""
    return {gpu_kind(spec, 256) for (p, spec) in execute._kernels if p == place}


@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 40), min_size=2, max_size=4), data=st.data())
def test_strided_copies_and_casts(place, shape, data):
    """Transposed, reversed and sliced views copied and cast, against NumPy."""
    src, dst = data.draw(st.sampled_from(_usable(place, DTYPES))), data.draw(st.sampled_from(_usable(place, DTYPES)))
    host = _host(shape, src, len(shape))
    perm = data.draw(st.permutations(range(len(shape))))
    key = tuple(slice(None, None, data.draw(st.sampled_from([1, 2, -1, -3]))) for _ in shape)
    want = host.transpose(perm)[key]
    got = da.asarray(host, device=place).transpose(perm)[key]
    np.testing.assert_array_equal(np.asarray(got.astype(dst)), want.astype(dst))
    np.testing.assert_array_equal(np.asarray(got.copy()), want)


@pytest.mark.parametrize("src", DTYPES)
def test_contiguous_casts_every_dtype(place, src):
    """Every dtype to itself and three others (each dtype a target of three), contiguous (four per
    work-item and a tail): NumPy's values."""
    src = (_usable(place, [src]) or pytest.skip(f"{place} has no {src}"))[0]
    host = _host((4 * 37 + 3,), src, 1)
    x = da.asarray(host, device=place)
    k = DTYPES.index(src)
    for dst in _usable(place, [DTYPES[(k + step) % len(DTYPES)] for step in (0, 1, 5, 9)]):
        got = np.asarray(x.astype(dst))
        assert got.dtype == np.dtype(dst)
        np.testing.assert_array_equal(got, host.astype(dst), err_msg=f"{src} -> {dst}")
    if runtime(place).info.form == "gpu" and not os.environ.get("DARRAY_KERNEL_FORM"):
        assert "cast" in _launched(place)


@pytest.mark.parametrize("dtype", ["float32", "int8", "complex128"])
def test_transpose_concatenate_stack(place, dtype):
    dtype = (_usable(place, [dtype]) or pytest.skip(f"{place} has no {dtype}"))[0]
    a, b = _host((67, 45), dtype, 2), _host((67, 3), dtype, 3)
    x, y = da.asarray(a, device=place), da.asarray(b, device=place)
    np.testing.assert_array_equal(np.asarray(x.T.copy()), a.T)
    np.testing.assert_array_equal(np.asarray(da.concatenate([x, y], axis=1)), np.concatenate([a, b], axis=1))
    np.testing.assert_array_equal(np.asarray(da.concatenate([x.T, y.T])), np.concatenate([a.T, b.T]))
    np.testing.assert_array_equal(np.asarray(da.stack([x, x[::-1]], axis=2)), np.stack([a, a[::-1]], axis=2))
    np.testing.assert_array_equal(np.asarray(da.stack([x.T, x.T], axis=1)), np.stack([a.T, a.T], axis=1))
    big = _host((3, 70, 40), dtype, 4)
    z = da.asarray(big, device=place)
    np.testing.assert_array_equal(np.asarray(da.moveaxis(z, 0, 2).copy()), np.moveaxis(big, 0, 2))
    if runtime(place).info.form == "gpu" and not os.environ.get("DARRAY_KERNEL_FORM"):
        assert "tiles" in _launched(place)


def test_zero_d_empty_and_the_next_call(place):
    x = da.asarray(np.float32(3.5), device=place)
    np.testing.assert_array_equal(np.asarray(x.astype("int16")), np.int16(3))
    e = da.zeros((0, 5), dtype="float32", device=place)
    assert np.asarray(e.T.astype("int8")).shape == (5, 0)
    a = _host((5, 7), "float32", 5)
    with pytest.raises(ValueError):
        da.concatenate([da.asarray(a, device=place), da.zeros((4, 4), device=place)], axis=1)
    np.testing.assert_array_equal(np.asarray(da.concatenate([da.asarray(a, device=place)] * 2, axis=1)),
                                  np.concatenate([a, a], axis=1))
