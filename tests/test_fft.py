"""darray.fft against numpy.fft: transforms over shapes, axes, n/s, norms and dtypes (hypothesis),
round trips, Hermitian pairs, empty and length-1 axes, odd layouts, ordering across streams,
the plan cache, the cpu place, frequencies and shifts, bad input, and life without pyvkfft.

Building a VkFFT plan compiles kernels (0.3-2 s on a CPU device), so every test draws its
shapes from the small menu below and the module keeps all its plans.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da
from darray.fft import _plan

if importlib.util.find_spec("pyvkfft") is None:
    if os.environ.get("DARRAY_REQUIRE_FFT") == "1":
        pytest.fail("DARRAY_REQUIRE_FFT=1 but pyvkfft is not installed", pytrace=False)
    pytest.skip("pyvkfft is not installed", allow_module_level=True)

SHAPES = [(8,), (6, 5), (2, 3, 4)]  # radix 2, 3 and 5; every test reuses these
NORMS = ["backward", "ortho", "forward"]
C2C = ["fft", "ifft", "fftn", "ifftn"]
REAL = ["rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft"]


@pytest.fixture(scope="module", autouse=True)
def keep_plans():
    """All of the module's plans stay cached (the default bound would evict some)."""
    old, _plan.MAX_PLANS = _plan.MAX_PLANS, 256
    yield
    _plan.MAX_PLANS = old


def _fp64(place) -> bool:
    return place.kind == "cpu" or da.place.get_device_properties(place.index)["fp64"]


def data(shape, dtype, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def close(got, want: np.ndarray, size: int) -> None:
    """Same shape and dtype; values within a bound that grows with log2(size) and the dtype's eps."""
    got = got.get() if isinstance(got, da.DArray) else got
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if want.size:
        eps = np.finfo(want.dtype).eps
        bound = 8 * eps * (1 + np.log2(max(size, 2))) * max(1.0, float(np.abs(want).max()))
        err = float(np.abs(got - want).max())
        assert err <= bound, f"max error {err:.3g} > {bound:.3g}"


def _call(xp, name: str, x, n, axis, s, axes, norm):
    f = getattr(xp.fft, name)
    if name.endswith("n"):
        return f(x, s=s, axes=axes, norm=norm)
    return f(x, n=n, axis=axis, norm=norm)


@st.composite
def cases(draw, names):
    name = draw(st.sampled_from(names))
    shape = draw(st.sampled_from(SHAPES))
    nd = len(shape)
    dtype = draw(st.sampled_from(["complex64", "complex128", "float32"] if name not in ("rfft", "rfftn", "ihfft")
                                 else ["float32", "float64"]))
    axis = draw(st.integers(-nd, nd - 1))
    n = draw(st.sampled_from([None, None, 4, 9]))
    axes = draw(st.sampled_from([None, tuple(range(nd))[::-1], (0,), (nd - 1,), (0, nd - 1)][:5 if nd > 1 else 3]))
    s = None if axes is None or not draw(st.booleans()) else tuple(draw(st.sampled_from([3, 4, 8])) for _ in axes)
    return name, shape, dtype, n, axis, s, axes, draw(st.sampled_from(NORMS))


def _against_numpy(cl_place, case) -> None:
    name, shape, dtype, n, axis, s, axes, norm = case
    if dtype in ("complex128", "float64") and not _fp64(cl_place):
        return
    x = data(shape, dtype)
    want = _call(np, name, x, n, axis, s, axes, norm)
    got = _call(da, name, da.asarray(x, device=cl_place), n, axis, s, axes, norm)
    close(got, want, max(x.size, want.size))


@settings(max_examples=20, deadline=None)
@given(cases(C2C))
def test_c2c_against_numpy(cl_place, case):
    _against_numpy(cl_place, case)


@settings(max_examples=15, deadline=None)
@given(cases(REAL))
def test_real_against_numpy(cl_place, case):
    _against_numpy(cl_place, case)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_round_trips(cl_place, dtype):
    if dtype == "complex128" and not _fp64(cl_place):
        pytest.skip("no fp64")
    for shape in SHAPES if dtype == "complex64" else SHAPES[:1]:
        x = data(shape, dtype, 1)
        d = da.asarray(x, device=cl_place)
        close(da.fft.ifft(da.fft.fft(d)), x, x.size)
        close(da.fft.ifftn(da.fft.fftn(d, norm="ortho"), norm="ortho"), x, x.size)
    r = data((6, 5), dtype, 1).real.copy()
    dr = da.asarray(r, device=cl_place)
    for m in (5, 6):  # odd and even lengths
        close(da.fft.irfft(da.fft.rfft(dr, n=m), n=m), np.fft.irfft(np.fft.rfft(r, n=m), n=m), r.size)
    close(da.fft.irfftn(da.fft.rfftn(dr), s=r.shape, axes=(0, 1)), r, r.size)


def test_hermitian(cl_place):
    x = data((6, 5), "float32", 2)
    d = da.asarray(x, device=cl_place)
    spec = da.fft.fft(d, axis=0).get()  # a real signal's spectrum is Hermitian: X[k] = conj(X[-k])
    np.testing.assert_allclose(spec[1:], np.conj(spec[1:][::-1]), rtol=1e-5, atol=1e-5)
    half = da.fft.ihfft(d, axis=0)
    close(half, np.fft.ihfft(x, axis=0), x.size)
    close(da.fft.hfft(half, n=6, axis=0), x, x.size)  # hfft(ihfft(x), n) == x
    close(da.fft.rfft(d), np.fft.fft(x)[:, :3], x.size)  # rfft is the first half of fft


def test_long_and_bluestein_lengths(cl_place):
    for n in (1024, 17):  # radix 2 at length 1024; Bluestein for the prime 17
        x = data((n,), "complex64", 3)
        close(da.fft.fft(da.asarray(x, device=cl_place)), np.fft.fft(x), n)


def test_wrong_builds_are_caught(cl_place, monkeypatch):
    """VkFFT's Rader kernels come out wrong in a few builds: such apps are checked and built again."""
    queue = da.sched.current_stream(cl_place).queue
    c64 = np.dtype("complex64")
    app = _plan.plan(cl_place, (17,), c64, (0,), r2c=False, norm=0).app
    assert _plan._sound(app, queue, (17,), c64, (0,), r2c=False, norm=0)
    assert not _plan._sound(app, queue, (17,), c64, (0,), r2c=False, norm=1)  # checked as another plan
    r2c = _plan.plan(cl_place, (6, 5), np.dtype("float32"), (0, 1), r2c=True, norm=0).app
    assert _plan._sound(r2c, queue, (6, 5), np.dtype("float32"), (0, 1), r2c=True, norm=0)
    monkeypatch.setattr(_plan, "_plans", type(_plan._plans)())
    verdicts = iter([False, True])
    monkeypatch.setattr(_plan, "_sound", lambda *a, **k: next(verdicts))
    with da.profile() as p:
        _plan.plan(cl_place, (17,), c64, (0,), r2c=False, norm=0)
    assert len(p.compiles) == 1 and next(verdicts, None) is None  # built twice, recorded once
    monkeypatch.setattr(_plan, "_sound", lambda *a, **k: False)
    monkeypatch.setattr(_plan, "BUILDS", 2)
    with pytest.raises(RuntimeError, match="wrong plan 2 times"):
        _plan.plan(cl_place, (17,), c64, (0,), r2c=False, norm=1)
    assert _plan._beyond_radix((8, 17), (0,)) is False and _plan._beyond_radix((8, 17), (1,)) is True


def test_empty_and_length_one_axes(cl_place):
    for shape, kw in [((0, 8), {}), ((8, 0), {"axis": 0}), ((1, 8), {"axis": 0}), ((8, 1), {})]:
        x = np.ones(shape, np.complex64)
        close(da.fft.fft(da.asarray(x, device=cl_place), **kw), np.fft.fft(x, **kw), 8)
    z = np.zeros((0,), np.float32)
    close(da.fft.fft(da.asarray(z, device=cl_place), n=8), np.fft.fft(z, n=8), 8)  # a padded empty axis
    x = data((6, 1), "float32")
    d = da.asarray(x, device=cl_place)
    close(da.fft.fftn(d), np.fft.fftn(x), 6)
    close(da.fft.rfftn(d), np.fft.rfftn(x), 6)
    close(da.fft.rfft(d, n=1), np.fft.rfft(x, n=1), 6)
    close(da.fft.irfftn(d, axes=(1, 0)), np.fft.irfftn(x, axes=(1, 0)), 6)
    close(da.fft.irfft(d, n=1), np.fft.irfft(x, n=1), 6)
    one = np.ones((1, 1), np.complex64)
    got = da.fft.fft(da.asarray(one, device=cl_place))
    close(got, np.fft.fft(one), 1)
    for name, kw in [("fft", {}), ("fft", {"axis": 0}), ("irfft", {}), ("rfft", {"axis": 0})]:
        x = np.ones((0, 3), np.float32)
        with pytest.raises(ValueError):
            getattr(np.fft, name)(x, **kw) if kw else np.fft.fft(np.ones((3, 0)))
        with pytest.raises(ValueError):
            getattr(da.fft, name)(da.asarray(x, device=cl_place), **kw) if kw else \
                da.fft.fft(da.asarray(np.ones((3, 0)), device=cl_place))


def test_layouts_and_lazy_inputs(cl_place):
    x = data((6, 5), "complex64", 4)
    d = da.asarray(x, device=cl_place)
    close(da.fft.fftn(d.T), np.fft.fftn(x.T), x.size)                       # transposed
    close(da.fft.fft(d[::2, 1:], axis=0), np.fft.fft(x[::2, 1:], axis=0), x.size)  # strided view
    close(da.fft.fft(da.asarray(data((9,), "complex64"), device=cl_place)[1:]),
          np.fft.fft(data((9,), "complex64")[1:]), 8)                       # an offset VkFFT cannot take
    close(da.fft.fftn(d * 2 + 1), np.fft.fftn(x * 2 + 1), x.size)            # lazy
    r = data((6, 5), "float32", 5)
    close(da.fft.rfftn(da.asarray(r, device=cl_place), axes=(1, 0)), np.fft.rfftn(r, axes=(1, 0)), r.size)
    h = np.fft.rfftn(r).astype(np.complex64)
    dh = da.asarray(h, device=cl_place)
    close(da.fft.irfftn(dh, s=(6, 5), axes=(0, 1)), np.fft.irfftn(h, s=(6, 5), axes=(0, 1)), r.size)
    np.testing.assert_array_equal(dh.get(), h)  # VkFFT's c2r overwrites its input: darray's input is kept
    close(da.fft.fftn(d, axes=(0, 0), s=(4, 8)), np.fft.fftn(x, axes=(0, 0), s=(4, 8)), x.size)  # repeated
    close(da.fft.fftn(d, s=(-1, 3), axes=(0, 1)), np.fft.fftn(x, s=(6, 3), axes=(0, 1)), x.size)  # -1: as it is
    np.testing.assert_array_equal(d.get(), x)  # inputs VkFFT reads in place are left as they were
    close(da.fft.rfftn(da.asarray(r, device=cl_place), axes=(1, 1)), np.fft.rfftn(r, axes=(1, 1)), r.size)


def test_rank_nine_in_two_passes(cl_place):
    shape = (2, 1, 2, 1, 2, 1, 2, 1, 2)  # 5 axes and 4 runs between them: more than one VkFFT app takes
    from darray.fft._core import groups
    assert len(groups(9, [0, 2, 4, 6, 8])) == 2
    x = data(shape, "complex64", 6)
    close(da.fft.fftn(da.asarray(x, device=cl_place)), np.fft.fftn(x), x.size)


@pytest.mark.parametrize("dtype,want", [("float32", "complex64"), ("float64", "complex128"),
                                        ("int32", "complex128"), ("bool", "complex128")])
def test_dtypes(any_place, dtype, want):
    if want == "complex128" and not _fp64(any_place):
        want = "complex64"  # integers compute in the device's default float
    x = (np.arange(8) % 3).astype(dtype)
    got = da.fft.fft(da.asarray(x, device=any_place))
    close(got, np.fft.fft(x).astype(want), 8)
    assert da.fft.irfft(da.asarray(x, device=any_place)).dtype == np.dtype(want).type(0).real.dtype


def test_cpu_place_matches_numpy():
    x = data((6, 5), "complex64", 7)
    r = x.real.copy()
    d, dr = da.asarray(x, device="cpu"), da.asarray(r, device="cpu")
    for name in C2C + ["irfft", "irfftn", "hfft"]:
        close(_call(da, name, d, 4, 0, (4, 3), (0, 1), "ortho"), _call(np, name, x, 4, 0, (4, 3), (0, 1), "ortho"),
              60)
    for name in ("rfft", "rfftn", "ihfft"):
        close(_call(da, name, dr, None, -1, None, None, "forward"), _call(np, name, r, None, -1, None, None,
                                                                            "forward"), 30)
    assert da.fft.fft(d).place == da.CPUPlace()


def test_ordering_with_another_stream(cl_place):
    from test_sched import spin_copy  # a kernel that spins, then copies

    n = 1024
    src = da.asarray(np.arange(n, dtype=np.int32), device=cl_place)
    mid = da.empty(n, dtype=da.int32, device=cl_place)
    A, B = da.stream(place=cl_place), da.stream(place=cl_place)
    spin_copy(src, mid, stream=A, iters=100_000_000)
    with A:
        x = mid.astype(da.complex64).eval()   # written on A, after the spin
    y = da.fft.fft(x)                         # the default stream: waits for A
    with B:
        x[...] = 0                            # a write right after: waits for the FFT's read
    want = np.fft.fft(np.arange(n).astype(np.complex64))
    close(y, want, n)
    assert not x.get().any()


def test_scratch_plan_ordered_across_streams(cl_place):
    """A plan with VkFFT's own scratch buffer is never run on two streams at once."""
    from test_sched import spin_copy

    n = 1 << 16  # VkFFT gives this length a scratch buffer
    hosts = [data((n,), "complex64", k) for k in (8, 9)]
    xa, xb = (da.asarray(h, device=cl_place) for h in hosts)
    A, B = da.stream(place=cl_place), da.stream(place=cl_place)
    src = da.asarray(np.arange(64, dtype=np.int32), device=cl_place)
    spin_copy(src, da.empty(64, dtype=da.int32, device=cl_place), stream=A, iters=100_000_000)
    with A:
        ya = da.fft.fft(xa)  # queued behind the spin
    with B:
        yb = da.fft.fft(xb)  # independent data, the same plan: waits for A's transform
    token = [p for k, p in _plan._plans.items() if k[0] == (n,)][0].token
    assert token is not None and token.write[0] is B
    assert any(other is A for _, deps in B.after for other, _ in deps)
    close(ya, np.fft.fft(hosts[0]), n)
    close(yb, np.fft.fft(hosts[1]), n)


def test_plan_cache_in_profiler(cl_place):
    x = da.asarray(data((6, 5), "complex64"), device=cl_place)
    with da.profile() as p:
        da.fft.fft(x, n=7).eval()  # a shape no other test uses: its plan is built
    builds = [c for c in p.compiles if c.key.startswith("vkfft")]
    assert len(builds) == 1 and "(6, 7)" in builds[0].key and builds[0].seconds > 0
    assert f"compiles: {len(p.compiles)} " in p.table()  # counted beside the kernel builds
    with da.profile() as p:
        da.fft.fft(x, n=7).eval()
        da.fft.fft(x, n=7, norm="ortho").eval()
    assert not [c for c in p.compiles if c.key.startswith("vkfft")]
    assert len([r for r in p.launches if r.name == "fft c2c"]) == 2


def test_repeated_calls_skip_the_plan_lookup(cl_place, monkeypatch):
    """A call like an earlier one that was one VkFFT call on its input runs that call again without
    cooking its arguments or looking its plan up (``_plan.recipes``); results are unchanged, and
    inputs that need more (a view, a lazy graph, another dtype) take the full path."""
    monkeypatch.setattr(_plan, "recipes", {})
    host = data((6, 5), "complex64")
    x = da.asarray(host, device=cl_place)
    real = da.asarray(host.real.copy(), device=cl_place)
    calls = [(lambda: da.fft.fftn(x, norm="ortho"), lambda: np.fft.fftn(host, norm="ortho")),
             (lambda: da.fft.ifft(x, axis=0), lambda: np.fft.ifft(host, axis=0)),
             (lambda: da.fft.rfft(real, norm="forward"), lambda: np.fft.rfft(host.real, norm="forward"))]
    for mine, want in calls:
        np.testing.assert_allclose(mine().get(), want(), rtol=1e-4, atol=1e-4)
    assert len(_plan.recipes) == 3
    real_plan = _plan.plan
    monkeypatch.setattr(_plan, "plan", lambda *a, **k: pytest.fail("plan looked up"))
    for mine, want in calls:
        np.testing.assert_allclose(mine().get(), want(), rtol=1e-4, atol=1e-4)
    monkeypatch.setattr(_plan, "plan", real_plan)
    y = da.asarray(np.concatenate([host, host]), device=cl_place)
    for other, want in [(y[6:], host), (x + 0, host), (x.astype("complex128"), host.astype(np.complex128))]:
        np.testing.assert_allclose(da.fft.fftn(other, norm="ortho").get(), np.fft.fftn(want, norm="ortho"),
                                   rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError):
        da.fft.fftn(x, norm="sideways")
    _plan.clear()
    assert not _plan.recipes
    np.testing.assert_allclose(da.fft.fftn(x, norm="ortho").get(), np.fft.fftn(host, norm="ortho"), rtol=1e-4,
                               atol=1e-4)


def test_plan_lru_bound(cl_place, monkeypatch):
    monkeypatch.setattr(_plan, "MAX_PLANS", 2)
    monkeypatch.setattr(_plan, "_plans", type(_plan._plans)())  # the module's plans come back after
    x = da.asarray(data((8,), "complex64"), device=cl_place)
    for n in (8, 4, 9):  # three plans through a cache of two
        da.fft.fft(x, n=n).eval()
        assert _plan.cached() <= 2
    with da.profile() as p:
        da.fft.fft(x, n=9).eval()   # the newest is kept
    assert not p.compiles
    with da.profile() as p:
        da.fft.fft(x, n=8).eval()   # the oldest was evicted
    assert len(p.compiles) == 1


def test_frequencies_and_shifts(any_place):
    for n in (1, 2, 7, 8):
        for d in (1.0, 0.25):
            close(da.fft.fftfreq(n, d=d, device=any_place), np.fft.fftfreq(n, d).astype(
                np.float64 if _fp64(any_place) else np.float32), 1)
            close(da.fft.rfftfreq(n, d=d, device=any_place, dtype=da.float32),
                  np.fft.rfftfreq(n, d).astype(np.float32), 1)
    for f in (da.fft.fftfreq, da.fft.rfftfreq):
        with pytest.raises(ZeroDivisionError):
            f(0, device=any_place)
    x = np.arange(30).reshape(6, 5)
    d = da.asarray(x, device=any_place)
    for axes in (None, 0, (1,), (0, 1), (1, 1)):
        np.testing.assert_array_equal(da.fft.fftshift(d, axes=axes).get(), np.fft.fftshift(x, axes=axes))
        np.testing.assert_array_equal(da.fft.ifftshift(d, axes=axes).get(), np.fft.ifftshift(x, axes=axes))


BAD = [("fft", {"axis": 2}, (8,)), ("fftn", {"axes": (5,)}, (6, 5)), ("fft", {"n": 0}, (8,)),
       ("ifft", {"n": -2}, (8,)), ("fft", {"norm": "sideways"}, (8,)), ("fftn", {"s": (3,), "axes": (0, 1)}, (6, 5)),
       ("fftn", {"s": (3, 3, 3)}, (6, 5)), ("fftn", {"s": (2, 0), "axes": (0, 1)}, (6, 5)),
       ("fft", {"n": 2.0}, (8,)), ("rfft", {}, "complex"), ("fft", {}, ()), ("irfft", {}, (1,)),
       ("hfft", {"norm": "x"}, (8,))]


@pytest.mark.parametrize("name,kw,shape", BAD)
def test_bad_input_raises_numpys_class(cl_place, name, kw, shape):
    x = np.ones(4, np.complex64) if shape == "complex" else np.ones(shape, np.float32)
    with pytest.raises(Exception) as want, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy's on s without axes
        getattr(np.fft, name)(x, **kw)
    with pytest.raises(want.type):
        getattr(da.fft, name)(da.asarray(x, device=cl_place), **kw)
    with pytest.raises(want.type):
        getattr(da.fft, name)(da.asarray(x, device="cpu"), **kw)


def test_without_pyvkfft():
    """``import darray`` works without pyvkfft; a transform on an OpenCL place says how to install it."""
    code = textwrap.dedent("""
        import sys
        sys.modules["pyvkfft"] = None  # as if it were not installed
        import darray as da
        import numpy as np
        print(da.fft.fft(da.asarray(np.ones(4), device="cpu")).get()[0].real)
        if da.place.is_available():
            try:
                da.fft.fft(da.ones(4, device="cl"))
            except ImportError as err:
                print("pip install" in str(err))
        else:
            print(True)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["4.0", "True"]


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2"])
def test_two_dimensional_forms(name) -> None:
    a = np.random.default_rng(3).standard_normal((3, 4, 6))
    x = da.asarray(a)
    assert_same_fft = np.testing.assert_allclose
    assert_same_fft(getattr(da.fft, name)(x).get(), getattr(np.fft, name)(a), rtol=1e-9, atol=1e-9)
    assert_same_fft(getattr(da.fft, name)(x, (4, 4), (0, 2), "ortho").get(),
                    getattr(np.fft, name)(a, (4, 4), (0, 2), "ortho"), rtol=1e-9, atol=1e-9)
    y = da.fft.rfft2(x)
    assert_same_fft(da.fft.irfft2(y, a.shape[-2:]).get(), a, rtol=1e-9, atol=1e-9)
    assert_same_fft(da.fft.fft(x, 8, 1, None).get(), np.fft.fft(a, 8, 1, None), rtol=1e-9, atol=1e-9)
    out = da.empty((3, 4, 6), dtype=da.complex128)
    assert da.fft.fft(x, out=out) is out


ALL_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


def _outcome(body, host: np.ndarray, x) -> None:
    """NumPy's exception class (darray's may be a subclass: AxisError for IndexError), or NumPy's
    dtype and shape and values (to the result dtype's precision)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's DeprecationWarnings on s without axes, None in s
        try:
            want = body(np, host)
        except Exception as err:
            with pytest.raises(type(err)):
                body(da, x)
            return
        got = body(da, x)
    eps = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.complex64): 1e-4}
    # (NumPy scales a float16 input's transform by a float16 factor: float16's precision)
    tol = eps.get(host.dtype if host.dtype == np.float16 else want.dtype, 1e-9) * max(1.0, float(np.abs(want).max(
        initial=0)))
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ONE_D + N_D)
@settings(max_examples=20)
@given(dtype=st.sampled_from(ALL_DTYPES), shape=st.sampled_from(SHAPES + [(0,), ()]),
       norm=st.sampled_from([None, *NORMS]))
def test_result_dtypes_as_numpy(any_place, name, dtype, shape, norm):
    """Every transform of every input dtype (0-d and empty too): NumPy 2's result dtype (single
    precision kept; a 1-axis irfft/hfft of float16 a float16, over more axes float32), shape and
    values, or NumPy's exception class (rfft of complex input, 1-d transforms of 0-d input...)."""
    if dtype in ("float64", "complex128", "int32", "bool") and not _fp64(any_place):
        return  # such a place computes them in single precision (the module's documented difference)
    host = (np.arange(int(np.prod(shape))).reshape(shape) % 5 - 2).astype(dtype)
    _outcome(lambda xp, a: getattr(xp.fft, name)(a, norm=norm), host, da.asarray(host, device=any_place))


_ARGS = st.fixed_dictionaries({}, optional={
    "n": st.sampled_from([None, 0, -1, 1, 3, 2.0, "3", np.int8(4), 8]),
    "axis": st.sampled_from([-1, 0, 1, 3, -3]),
    "norm": st.sampled_from([None, *NORMS, "bad", "Ortho", 1, ["ortho"], b"ortho"])})
_ND_ARGS = st.fixed_dictionaries({}, optional={
    "s": st.sampled_from([None, (4,), (3, 4), (0, 2), (-1, 2), (2.0, 3), (None, 3)]),
    "axes": st.sampled_from([None, (0,), (0, 1), (1, 0), (5,), (-1, -1)]),
    "norm": st.sampled_from([None, *NORMS, "bad", ["ortho"]])})


@given(name=st.sampled_from(ONE_D + N_D), data=st.data())
def test_arguments_checked_as_numpy(cl_place, name, data):
    """n/s, axis/axes and norm, good and bad, in every combination: NumPy's exception class for the
    first bad one in NumPy's order (an axis read before a bad norm, a bad norm before a float n; an
    unhashable norm a TypeError where NumPy looks it up in a dict), or NumPy's result."""
    kw = data.draw(_ARGS if name in ONE_D else _ND_ARGS, label="arguments")
    if None in (kw.get("s") or ()) and kw.get("axes") == (-1, -1):
        return  # NumPy reads a None of s off the shape as transformed so far (darray: the input's)
    host = data_((6, 5), "float64")
    for place in (cl_place, "cpu"):
        _outcome(lambda xp, a: getattr(xp.fft, name)(a, **kw), host, da.asarray(host, device=place))


def data_(shape, dtype):
    return data(shape, dtype, 11)


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [0, 1, 4, 7, -1, -3, 2.0, np.int8(5), True, np.True_, "3", None])
@pytest.mark.parametrize("d", [1.0, 0.5, np.float32(2), 1j, 0])
def test_frequency_arguments_as_numpy(fn, n, d):
    """fftfreq/rfftfreq: NumPy's ValueError for a non-integer n (TypeError for True in fftfreq),
    ZeroDivisionError for n or d of 0, complex results for a complex d, else float64."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = getattr(np.fft, fn)(n, d)
        except Exception as err:
            with pytest.raises(type(err)):
                getattr(da.fft, fn)(n, d, device="cpu")
            return
        got = getattr(da.fft, fn)(n, d, device="cpu")
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-15)
