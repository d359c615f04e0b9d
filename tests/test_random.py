"""darray.random: Philox4x32-10 known answers (kernel and NumPy), distributions (KS, chi-square),
ranges, permutations, choice, reproducibility across places, devices, kernel forms and processes,
independent streams, bad input."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from scipy import stats

import darray as da
from darray.ops._kernel import launch, ref
from darray.random._philox import draw, options, philox

# Random123's kat_vectors for philox4x32 10: (counter, key, result)
KAT = [((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
       ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
       ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1))]
N = 100_000
ALPHA = 1e-4  # p-value floor: fixed seeds, so a pass is a pass every run


def _fp64(place) -> bool:
    return place.kind == "cpu" or da.place.get_device_properties(place.index)["fp64"]


@pytest.mark.parametrize("ctr,key,want", KAT)
def test_known_answers_numpy(ctr, key, want):
    got = philox([np.array([c], np.uint32) for c in ctr], key)
    assert tuple(int(w[0]) for w in got) == want


def test_known_answers_kernel(cl_place):
    for ctr, key, want in KAT:
        src, out = da.asarray(np.array(ctr, np.uint32), device=cl_place), da.empty(4, dtype=da.uint32, device=cl_place)
        launch("philox", cl_place, "philox.cl", options(cl_place), 1,
               [*ref(out), *ref(src), np.uint32(key[0]), np.uint32(key[1])],
               reads=[src._data()], writes=[out._data()])
        assert tuple(int(w) for w in out.get()) == want
    # the draws' own layout: counter 0, key 0 is block 0 of a draw from base 0
    x = draw("integers", (0, 0), 0, (16,), np.dtype(np.uint64), cl_place, rng=2**64 - 1).get()
    assert (int(x[0]), int(x[8])) == (0x6627E8D5E169C58D, 0xBC57AC4C9B00DBD8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_distributions(any_place, dtype):
    if not _fp64(any_place) and dtype == np.float64:
        pytest.skip("no fp64")
    rng = da.random.default_rng(7)
    r = rng.random(N, dtype=dtype, device=any_place).get()
    assert r.dtype == dtype and r.min() >= 0 and r.max() < 1
    assert stats.kstest(r, "uniform").pvalue > ALPHA
    # the top bits: float32 values are multiples of 2**-24, float64 of 2**-53
    assert np.all(np.ldexp(r, 24 if dtype == np.float32 else 53) % 1 == 0)
    u = rng.uniform(-3, 5, (N // 100, 100), dtype=dtype, device=any_place).get()
    assert u.shape == (N // 100, 100) and u.min() >= -3 and u.max() < 5
    assert stats.kstest(u.ravel(), "uniform", args=(-3, 8)).pvalue > ALPHA
    z = rng.standard_normal(N, dtype=dtype, device=any_place).get()
    assert z.dtype == dtype and stats.kstest(z, "norm").pvalue > ALPHA
    x = rng.normal(2.0, 3.0, N, dtype=dtype, device=any_place).get()
    assert stats.kstest((x - 2.0) / 3.0, "norm").pvalue > ALPHA  # (some scipy builds pass "norm" args on to ndtr)


def test_never_one():
    # a word whose top 24 / 53 bits are all set gives the largest value below 1
    assert np.float32((2**24 - 1) * 2.0**-24) < 1 and (2**53 - 1) * 2.0**-53 < 1
    r = da.random.default_rng(1).random(1 << 16, dtype=np.float32, device="cpu").get()
    assert r.max() < 1


@pytest.mark.parametrize("low,high,endpoint,dtype", [(0, 10, False, np.int64), (-5, 5, True, np.int8),
                                                     (3, 1000, False, np.uint16), (0, 6, False, np.int32)])
def test_integers_chi_square(any_place, low, high, endpoint, dtype):
    x = da.random.default_rng(9).integers(low, high, N, dtype=dtype, endpoint=endpoint, device=any_place).get()
    top = high + endpoint
    assert x.dtype == dtype and x.min() >= low and x.max() < top
    counts = np.bincount(x.astype(np.int64) - low, minlength=top - low)
    assert stats.chisquare(counts).pvalue > ALPHA


def test_integers_wide_ranges(any_place):
    rng = da.random.default_rng(10)
    big = rng.integers(-2**63, 2**63 - 1, 1000, endpoint=True, device=any_place).get()  # every int64
    assert big.min() < -2**61 and big.max() > 2**61
    u = rng.integers(0, 2**64 - 1, 1000, dtype=np.uint64, device=any_place).get()
    assert u.dtype == np.uint64 and u.max() > 2**63
    # 3 * 2**62 rejects a quarter of the first draws: retries must stay in range and be unbiased
    w = rng.integers(0, 3 * 2**62, N, dtype=np.uint64, device=any_place).get()
    assert w.max() < 3 * 2**62
    assert stats.chisquare(np.bincount((w >> np.uint64(62)).astype(np.int64), minlength=3)).pvalue > ALPHA
    assert rng.integers(5, device=any_place).shape == () and 0 <= int(rng.integers(5, device=any_place)) < 5


def test_permutation_shuffle(any_place):
    rng = da.random.default_rng(11)
    p = rng.permutation(1000, device=any_place).get()
    assert p.dtype == np.int64 and np.array_equal(np.sort(p), np.arange(1000))
    assert not np.array_equal(p, np.arange(1000))
    x = np.arange(40).reshape(20, 2)
    q = rng.permutation(da.asarray(x, device=any_place)).get()
    assert np.array_equal(np.sort(q[:, 0]), x[:, 0]) and np.array_equal(q[:, 1], q[:, 0] + 1)
    y = da.asarray(x, device=any_place)
    rng.shuffle(y)
    got = y.get()
    assert not np.array_equal(got, x) and np.array_equal(np.sort(got[:, 0]), x[:, 0])
    assert np.array_equal(got[:, 1], got[:, 0] + 1)
    # every position uniform: the first element of many small permutations
    firsts = np.array([int(rng.permutation(5, device=any_place)[0]) for _ in range(500)])
    assert stats.chisquare(np.bincount(firsts, minlength=5)).pvalue > ALPHA


def test_choice(any_place):
    rng = da.random.default_rng(12)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    c = rng.choice(4, N, p=p, device=any_place).get()
    assert stats.chisquare(np.bincount(c, minlength=4), p * N).pvalue > ALPHA
    pop = da.asarray(np.arange(10) * 10, device=any_place)
    d = rng.choice(pop, (3, 3), replace=False).get()
    assert d.shape == (3, 3) and len(set(d.ravel())) == 9 and set(d.ravel()) <= set(range(0, 100, 10))
    e = rng.choice(5, 4, replace=False, p=[0.0, 0.1, 0.2, 0.3, 0.4], device=any_place).get()
    assert sorted(e) == [1, 2, 3, 4]
    f = rng.choice(6, 3000, device=any_place).get()
    assert stats.chisquare(np.bincount(f, minlength=6)).pvalue > ALPHA


def _draws(place) -> dict:
    """Every method's numbers from one seed on ``place``, as lists."""
    rng = da.random.default_rng(2024)
    x = da.arange(12, device=place)
    rng.shuffle(x)
    out = {"random32": rng.random(1001, dtype=np.float32, device=place), "random": rng.random(1001, device=place),
           "uniform": rng.uniform(-1, 1, (7, 9), device=place), "integers": rng.integers(-7, 90, 999, device=place),
           "int8": rng.integers(-128, 127, 50, dtype=np.int8, endpoint=True, device=place),
           "permutation": rng.permutation(100, device=place), "shuffle": x,
           "choice": rng.choice(10, 20, device=place), "choice_p": rng.choice(3, 20, p=[.5, .25, .25], device=place),
           "choice_nr": rng.choice(30, 10, replace=False, device=place),
           "normal32": rng.standard_normal(1001, dtype=np.float32, device=place),
           "normal": rng.normal(1, 2, 1001, device=place)}
    return {k: v.get().tolist() for k, v in out.items()}


def _compare(got: dict, want: dict) -> None:
    for k in want:
        assert got[k] == want[k], k


def test_same_numbers_on_every_place():
    want = _draws(da.CPUPlace())
    for d in da.place.devices():
        if da.place.probe(d.index).ok:
            _compare(_draws(da.CLPlace(d.index)), want)


@pytest.mark.parametrize("form", ["chunked", "item", "gpu"])
def test_same_numbers_across_forms_and_processes(cl_place, form):
    code = textwrap.dedent(f"""
        import json, darray as da
        from test_random import _draws
        print(json.dumps(_draws(da.CLPlace({cl_place.index}))))
    """)
    path = os.pathsep.join(p for p in (os.path.dirname(__file__), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "DARRAY_KERNEL_FORM": form, "PYTHONPATH": path}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    _compare(json.loads(res.stdout.strip().splitlines()[-1]), _draws(cl_place))


def test_streams_advance_spawn_and_lazy(any_place):
    a, b = da.random.default_rng(5), da.random.default_rng(5)
    first = a.random(10, device=any_place).get()
    assert np.array_equal(first, b.random(10, device=any_place).get())
    assert not np.array_equal(first, a.random(10, device=any_place).get())  # the counter advanced
    assert not np.array_equal(first, da.random.default_rng(6).random(10, device=any_place).get())
    kids = a.spawn(2)
    s = [k.random(10, device=any_place).get() for k in kids]
    assert not np.array_equal(s[0], s[1]) and not np.array_equal(s[0], first)
    fresh = [da.random.default_rng().random(4, device=any_place).get() for _ in range(2)]
    assert not np.array_equal(*fresh)
    c = da.random.default_rng(5)
    y = c.random(10, device=any_place) * 2 - 1  # a lazy chain after the generator kernel
    assert np.array_equal(y.get(), first * 2 - 1)
    assert c.random(device=any_place).shape == ()


@pytest.mark.parametrize("call,word", [
    (lambda r, p: r.uniform(2, 1, 3, device=p), "low > high"),
    (lambda r, p: r.uniform(0, np.inf, 3, device=p), (OverflowError, "high - low range exceeds")),  # NumPy's classes
    (lambda r, p: r.normal(0, -1, 3, device=p), "scale"),
    (lambda r, p: r.random(-1, device=p), "size"),
    (lambda r, p: r.random((2, -3), device=p), "size"),
    (lambda r, p: r.random(3, dtype=np.int32, device=p), (TypeError, "Unsupported dtype")),
    (lambda r, p: r.integers(5, 5, 3, device=p), "low >= high"),
    (lambda r, p: r.integers(0, 300, 3, dtype=np.uint8, device=p), "out of range"),
    (lambda r, p: r.integers(0.5, 3, device=p), "low"),
    (lambda r, p: r.choice(3, 2, p=[0.5, 0.6, 0.1], device=p), "sum to 1"),
    (lambda r, p: r.choice(3, 2, p=[0.5, 0.5], device=p), "length"),
    (lambda r, p: r.choice(3, 4, replace=False, device=p), "population"),
    (lambda r, p: r.choice(3, 3, replace=False, p=[0.5, 0.5, 0.0], device=p), "non-zero"),
    (lambda r, p: r.permutation(-2, device=p), "non-negative"),
    (lambda r, p: r.choice(-3, 2, device=p), "non-negative integer"),
    (lambda r, p: da.random.default_rng(-1), "seed"),
])
def test_bad_input(any_place, call, word):
    rng = da.random.default_rng(0)
    error, word = word if isinstance(word, tuple) else (ValueError, word)
    with pytest.raises(error, match=word):
        call(rng, any_place)
    assert rng.random(3, device=any_place).shape == (3,)  # the next call works


def test_out_fills_the_given_array(any_place):
    out = da.empty((3, 4), dtype=da.float32, device=any_place)
    got = da.random.default_rng(9).random(out=out)
    assert got is out
    np.testing.assert_array_equal(out.get(), da.random.default_rng(9).random((3, 4), dtype=np.float32,
                                                                             device=any_place).get())
    z = da.random.default_rng(9).standard_normal(out=out)
    assert z is out and np.isfinite(out.get()).all()
    rng = da.random.default_rng(9)
    with pytest.raises(ValueError, match="size"):
        rng.random((2, 2), out=out)
    with pytest.raises(TypeError, match="dtype"):
        rng.random(dtype=np.float64, out=out)
    with pytest.raises(TypeError, match="out must be a DArray"):
        rng.random(out=np.empty(3, np.float32))
    with pytest.raises(ValueError, match="out decides the place"):
        rng.random(out=out, device=any_place)


def test_out_views_and_pending_readers(any_place):
    """A strided ``out`` gets the same numbers as a new array; a pending graph that read ``out``
    before the draw keeps the old values (the draw writes straight into a contiguous ``out``)."""
    base = da.asarray(np.zeros((4, 6), np.float32), device=any_place)
    view = base[:, ::2]
    da.random.default_rng(4).random(out=view)
    want = da.random.default_rng(4).random((4, 3), dtype=np.float32, device=any_place).get()
    np.testing.assert_array_equal(view.get(), want)
    assert not base.get()[:, 1::2].any()
    out = da.asarray(np.ones(1000, np.float32), device=any_place)
    before = out + 1  # pending
    da.random.default_rng(5).random(out=out)
    np.testing.assert_array_equal(before.get(), np.full(1000, 2, np.float32))
    assert out.get().max() < 1


def test_philox_bit_generator():
    """default_rng(Philox(s)) is default_rng(s); a Generator exposes its bit generator."""
    bg = da.random.Philox(5)
    assert bg.key == da.random.default_rng(5).key and bg.seed_seq.entropy == 5
    g = da.random.default_rng(bg)
    assert g.bit_generator is bg
    np.testing.assert_array_equal(g.random(8, device="cpu").get(),
                                  da.random.default_rng(5).random(8, device="cpu").get())
    seq = np.random.SeedSequence(11)
    assert da.random.Philox(seq).key == da.random.default_rng(seq).key
    with pytest.raises(ValueError, match="seed"):
        da.random.Philox(-3)
