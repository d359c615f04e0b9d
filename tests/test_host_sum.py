"""Float sums and means through the host engine (``darray/lazy/host_sum.py``): the chunked row
kernels' bits, computed by NumPy on host-backed devices.

Each case runs twice on every host-backed device: with the engine at its default limit and with
it off (``host.LIMIT = 0``: the kernel), and compares both bit for bit (NaN equal to NaN, the sign
of zero checked), and with NumPy to a tolerance. Where the engine must run (the chunked form on
a device whose compiler keeps the kernels' fold order: ``host_sum._ordered``) the test checks that
it ran and that no reduction kernel was launched; elsewhere (the ``item`` form's group kernels, the
``gpu`` form, Intel's chunked form) the kernel computes both. ``DARRAY_KERNEL_FORM`` picks the form.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from math import prod
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.lazy import host, host_sum
from darray.ops import reduction
from darray.place import runtime

ON = 32768  # the engine's default limit (DARRAY_HOST_WORK)
DTYPES = [np.dtype(t) for t in ("float64", "float32", "complex128", "complex64")]
# element counts around the lanes (8), blocks (16 rows: 128), super-blocks (2048), the parts (P = k // 2048
# while it is under the device's work-items: 2048 * P +- 1) and the engine's limit
EDGES = [1, 2, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 63, 64, 65, 127, 128, 129, 135, 136, 137, 255, 256, 257,
         1000, 1023, 2047, 2048, 2049, 2055, 2056, 4095, 4096, 4097, 16383, 16384, 16385, 32767, 32768]
OUTPUTS = [1, 1, 2, 3, 4, 5, 15, 16, 17, 64, 129]
SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0]


@pytest.fixture(scope="module")
def places(cl_place: Any) -> list[Any]:
    """Every host-backed device that passed its probe (the engine's places)."""
    found = [da.place.parse(f"cl:{d.index}") for d in da.place.devices() if da.place.probe(d.index).ok]
    found = [p for p in found if runtime(p).host_backed]
    if not found:
        pytest.skip("no host-backed OpenCL device: no host engine")
    return found


def _must_run(place: Any) -> bool:
    """Whether the engine takes every case these tests draw on ``place`` (the chunked form's row plans)."""
    return runtime(place).info.form == "chunked" and host_sum._ordered(place)


@contextmanager
def _watch(limit: int) -> Iterator[dict[str, int]]:
    """The engine at ``limit`` for the block (its float sums too: ``host_sum.MAX``); counts of host
    folds and of reduction kernels launched."""
    counts = {"host": 0, "kernel": 0}
    fold, launch, old, most = host_sum.fold, reduction._device_reduce, host.LIMIT, host_sum.MAX

    def fold_spy(*args: Any, **kw: Any) -> Any:
        counts["host"] += 1
        return fold(*args, **kw)

    def launch_spy(*args: Any, **kw: Any) -> Any:
        counts["kernel"] += 1
        return launch(*args, **kw)

    host_sum.fold, reduction._device_reduce, host.LIMIT, host_sum.MAX = fold_spy, launch_spy, limit, max(limit, most)
    try:
        yield counts
    finally:
        host_sum.fold, reduction._device_reduce, host.LIMIT, host_sum.MAX = fold, launch, old, most


def _bits(a: np.ndarray) -> np.ndarray:
    """The real components of ``a``, flattened (NaN payloads are not compared)."""
    return np.ascontiguousarray(a).reshape(-1).view(a.real.dtype) if a.dtype.kind == "c" else a.reshape(-1)


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    g, w = _bits(got), _bits(want)
    nan = np.isnan(w)
    assert np.array_equal(np.isnan(g), nan), (got, want)
    assert g[~nan].tobytes() == w[~nan].tobytes(), (got, want)  # the sign of zero too


def _close(got: np.ndarray, v: np.ndarray, op: str, axis: Any, keepdims: bool, dtype: Any) -> None:
    """``got`` against NumPy's result: within ``256 eps`` of the sum of magnitudes where that is finite
    (NumPy sums pairwise, the kernels in blocks), NaN where an input is NaN."""
    with np.errstate(all="ignore"):
        want = getattr(np, op)(v, axis=axis, keepdims=keepdims, dtype=dtype)
        wide = v.astype(np.complex128 if v.dtype.kind == "c" else np.float64)
        mag = np.sum(np.abs(wide.real) + np.abs(wide.imag), axis=axis, keepdims=keepdims)
        count = v.size // max(np.asarray(mag).size, 1)
        nan = np.any(np.isnan(wide), axis=axis, keepdims=keepdims)
    got, want, mag = np.asarray(got), np.asarray(want), np.asarray(mag) / (count if op == "mean" else 1)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    real = np.finfo(got.dtype)
    ok = mag < float(real.max) / 64
    assert np.all(np.isnan(got)[nan]), (got, want)
    with np.errstate(all="ignore"):
        err = np.abs(got.astype(wide.dtype) - want.astype(wide.dtype))
    bound = 256 * float(real.eps) * mag + 4 * float(real.smallest_subnormal)
    assert np.all((err <= bound)[ok & ~nan]), (got, want, mag)


def _values(seed: int, shape: tuple[int, ...], dtype: np.dtype, kind: str) -> np.ndarray:
    """Values of ``shape``: mixed magnitudes (``mixed``), near-cancelling pairs (``cancel``), all -0.0
    (``zeros``), subnormals (``tiny``), the largest magnitudes (``huge``) or a mix with NaN,
    infinities and signed zeros (``special``)."""
    rng = np.random.default_rng(seed)
    real = np.empty(0, dtype).real.dtype
    info = np.finfo(real)
    n = prod(shape) * (2 if dtype.kind == "c" else 1)
    span = 30 if real == np.float64 else 15
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-span, span, n)
    if kind == "cancel":
        x[1::2] = -x[::2][: n // 2] * (1 + rng.standard_normal(n // 2) * 1e-6)
        x = rng.permutation(x)
    elif kind == "zeros":
        x = np.full(n, -0.0)
    elif kind == "tiny":
        x = rng.integers(-50, 50, n) * float(info.smallest_subnormal)
    elif kind == "huge":
        x = rng.choice([-1.0, 1.0], n) * float(info.max) * rng.uniform(0.25, 1.0, n)
    elif kind == "special" and n:
        where = rng.random(n) < 0.05
        x[where] = rng.choice(SPECIAL, int(where.sum()))
    with np.errstate(all="ignore"):
        x = x.astype(real)
    return x.view(dtype).reshape(shape) if dtype.kind == "c" else x.reshape(shape)


@st.composite
def _cases(draw: Any) -> tuple[tuple[int, ...], Any, str, bool, Any]:
    """(shape, axis, op, keepdims, dtype=): full sums, ``axis=-1``, ``axis=(1, 2)`` of 3-D arrays."""
    k = draw(st.one_of(st.sampled_from(EDGES), st.integers(1, ON),
                       st.builds(lambda j, d: max(1, 16 * j + d), st.integers(1, 2048), st.integers(-1, 1))))
    m = max(1, min(draw(st.sampled_from(OUTPUTS)), ON // k))
    form = draw(st.sampled_from(["all", "last", "last", "3d"]))
    if form == "3d":
        a = draw(st.integers(1, min(k, 40)))
        shape: tuple[int, ...] = (m, a, k // a)
        axis: Any = (1, 2)
    else:
        shape, axis = (m, k), None if form == "all" else -1
    if m == 1 and draw(st.booleans()):
        shape, axis = shape[1:], None if axis is None else -1 if axis == -1 else (0, 1)
    return shape, axis, draw(st.sampled_from(["sum", "mean"])), draw(st.booleans()), None


def _run(place: Any, v: np.ndarray, op: str, axis: Any, keepdims: bool, dtype: Any, limit: int
         ) -> tuple[np.ndarray, dict[str, int]]:
    with _watch(limit) as counts:
        x = da.asarray(v, device=place)
        da.synchronize()
        with np.errstate(all="ignore"):
            got = getattr(da, op)(x, axis=axis, keepdims=keepdims, dtype=dtype).get()
    return got, counts


def _check(places: list[Any], v: np.ndarray, op: str, axis: Any, keepdims: bool, dtype: Any = None) -> None:
    """``op`` of ``v`` on each place with the engine on and off: the same bits, NumPy's values, and
    the engine ran where it must (and not where it must not)."""
    for place in places:
        got, counts = _run(place, v, op, axis, keepdims, dtype, ON)
        kernel, off = _run(place, v, op, axis, keepdims, dtype, 0)
        assert off == {"host": 0, "kernel": 1}
        _same_bits(got, kernel)
        _close(got, v, op, axis, keepdims, dtype)
        columns = got.size >= 16 and v.size == got.size  # one element per output: a column kernel
        if _must_run(place) and not columns:
            assert counts == {"host": 1, "kernel": 0}, (place, v.shape, axis, counts)
        elif runtime(place).info.form == "gpu" or not host_sum._ordered(place):
            assert counts == {"host": 0, "kernel": 1}, (place, v.shape, axis, counts)


@given(case=_cases(), dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1),
       kind=st.sampled_from(["mixed", "mixed", "cancel", "special", "zeros", "tiny", "huge"]))
def test_sums_and_means_give_the_kernels_bits(case, dtype, seed, kind, places):
    """Full sums, ``sum(axis=-1)``, ``sum(axis=(1, 2))`` and means, with and without keepdims, of
    1 to 32768 elements (lane, block, super-block and part edges) in 1 to 129 outputs."""
    shape, axis, op, keepdims, acc = case
    _check(places, _values(seed, shape, dtype, kind), op, axis, keepdims, acc)


@pytest.mark.parametrize("k", EDGES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_edges(k, dtype, places):
    """Every edge size, one and several outputs, mixed values with NaN, infinities and signed zeros."""
    for m in sorted({1, max(1, min(3, ON // k)), max(1, min(17, ON // k))}):
        v = _values(k * 31 + m, (m, k), dtype, "special" if k % 2 else "cancel")
        _check(places, v, "sum", -1, False)
        _check(places, v, "mean", None, True)


@pytest.mark.parametrize("k", [1, 8, 9, 16, 129, 2049, 32768])
def test_negative_zeros_sum_to_positive_zero(k, places):
    """The kernels fold from +0.0: a sum of -0.0s is +0.0 (NumPy's is -0.0), on the host as in the kernel."""
    for dtype in DTYPES:
        v = np.full((1, k), -0.0, dtype) if dtype.kind == "f" else np.full((1, k), complex(-0.0, -0.0), dtype)
        _check(places, v, "sum", None, False)
        got, _ = _run(places[0], v, "sum", -1, False, None, ON)
        assert not np.signbit(_bits(got)).any()


@given(dtype=st.sampled_from([np.float32, np.complex64]), seed=st.integers(0, 2**32 - 1),
       k=st.sampled_from([1, 17, 1000, 2049, 5000]))
def test_accumulator_dtype(dtype, seed, k, places):
    """``dtype=`` a wider accumulator of the same kind (the kernel casts each element: exact)."""
    wide = np.float64 if dtype is np.float32 else np.complex128
    _check(places, _values(seed, (2, k), np.dtype(dtype), "mixed"), "sum", -1, False, wide)


def test_other_cases_go_to_the_kernel(places):
    """Strided and transposed views, sums over leading or unsorted axes (column kernels, a transposed
    order), float16, past the limit, pending inputs and under a profile: the kernel, unchanged."""
    h = _values(5, (6, 40, 50), np.dtype(np.float64), "mixed")
    cases: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = [
        (lambda a: a[:, ::2], lambda a: a.sum(axis=-1)), (lambda a: a.transpose(0, 2, 1), lambda a: a.sum(axis=-1)),
        (lambda a: a, lambda a: a.sum(axis=0)), (lambda a: a, lambda a: a.sum(axis=(2, 1))),
        (lambda a: a, lambda a: a.sum(axis=(0, 2))), (lambda a: a.astype(np.float16), lambda a: a.sum(axis=-1)),
        (lambda a: a[..., :1], lambda a: a.sum(axis=-1))]
    for place in places:
        for view, op in cases:
            if view is cases[5][0] and not runtime(place).info.fp16:
                continue
            with _watch(ON) as counts:
                x = view(da.asarray(h, device=place))
                da.synchronize()
                got = op(x).get()
            assert counts["host"] == 0, (view, op)
            with _watch(0):
                want = op(view(da.asarray(h, device=place))).get()
            _same_bits(got, want)
        big = np.ones(ON + 1)
        with _watch(ON) as counts:
            x = da.asarray(big, device=place)
            da.synchronize()
            assert float(x.sum()) == ON + 1
            assert float((x[:100] * 2.0).sum()) == 200.0  # settled at once (small), then summed here
            with da.profile():
                assert float(x[:100].sum()) == 100.0  # under a profile: listed kernels
        if _must_run(place):
            assert counts["host"] == 1 and counts["kernel"] == 2, counts


def test_sums_past_max_go_to_the_kernel(places, monkeypatch):
    """Float sums of more than ``host_sum.MAX`` elements (where the fold costs more than the kernel)
    run on the kernel, with the engine at its default limit; at ``MAX`` the engine takes them."""
    fold, calls = host_sum.fold, []
    monkeypatch.setattr(host_sum, "fold", lambda *a, **k: calls.append(1) or fold(*a, **k))
    monkeypatch.setattr(host, "LIMIT", ON)
    for place in places:
        x = da.asarray(np.ones(host_sum.MAX + 1), device=place)
        da.synchronize()
        calls.clear()
        assert float(x.sum()) == host_sum.MAX + 1 and not calls
        assert float(x[1:].sum()) == host_sum.MAX
        assert len(calls) == _must_run(place)
