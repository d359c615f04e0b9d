"""darray.random's Generator (``darray/random/_generator.py``) beyond tests/test_random.py: integers
with array bounds, axis= of permutation/shuffle/choice, permuted, bytes, standard_exponential's
methods, Philox's key=, the absent bit generators."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import darray as da

N = 100_000
ALPHA = 1e-4


def test_integers_array_bounds(any_place):
    g = da.random.default_rng(50)
    low = da.asarray(np.array([0, 10, -5, 7]), device=any_place)[::-1]  # reversed view: 7, -5, 10, 0
    x = g.integers(low, [10, 0, 13, 3], size=(N // 4, 4)).get()
    assert x.shape == (N // 4, 4) and x.dtype == np.int64
    for j, (lo, hi) in enumerate([(7, 10), (-5, 0), (10, 13), (0, 3)]):
        assert x[:, j].min() == lo and x[:, j].max() == hi - 1
        assert stats.chisquare(np.bincount(x[:, j] - lo)).pvalue > ALPHA
    y = g.integers([0, 250], 255, endpoint=True, dtype=np.uint8, device=any_place).get()
    assert y.dtype == np.uint8 and y[0] <= 255 and 250 <= y[1] <= 255
    w = g.integers(0, [1, 2**64 - 1], size=(1000, 2), dtype=np.uint64, endpoint=True, device=any_place).get()
    assert np.all(w[:, 0] <= 1) and w[:, 1].max() > 2**63  # every uint64
    z = g.integers([-2**63, 0], [2**63 - 1, 5], device=any_place).get()
    assert z.dtype == np.int64 and 0 <= z[1] < 5
    with pytest.raises(ValueError, match="low >= high"):
        g.integers([0, 5], [3, 5], device=any_place)
    with pytest.raises(ValueError, match="out of range"):
        g.integers([0, 5], 300, dtype=np.uint8, device=any_place)
    with pytest.raises(ValueError, match="shape mismatch"):
        g.integers([0, 1], 5, size=3, device=any_place)
    with pytest.raises(ValueError, match="low must be integers"):
        g.integers([0.5, 1], 5, device=any_place)
    assert g.integers(3, device=any_place).shape == ()  # the next call works
    b = g.integers(2, size=1000, dtype=bool, device=any_place).get()  # NumPy's bool draws
    assert b.dtype == np.bool_ and 400 < b.sum() < 600
    assert g.integers([0, 1], 1, endpoint=True, dtype=bool, device=any_place).get()[1]
    with pytest.raises(ValueError, match="out of range"):
        g.integers(0, 3, dtype=bool, device=any_place)


def test_integers_array_bounds_same_on_every_place(cl_place):
    got = [da.random.default_rng(51).integers([0, -3, 100], [7, 3, 2**40], size=(50, 3), device=p).get()
           for p in ("cpu", cl_place)]
    np.testing.assert_array_equal(got[1], got[0])


def test_axis_permutation_shuffle_choice(any_place):
    g = da.random.default_rng(52)
    x = np.arange(24).reshape(2, 3, 4)
    p = g.permutation(da.asarray(x, device=any_place), axis=2).get()
    assert sorted(p[0, 0]) == list(range(4)) and np.array_equal(p, x[:, :, p[0, 0]])  # one order for every slice
    y = da.asarray(x, device=any_place)
    g.shuffle(y, axis=-2)
    got = y.get()
    assert np.array_equal(np.sort(got, axis=1), x) and np.array_equal(got - got[:, :, :1], x - x[:, :, :1])
    c = g.choice(da.asarray(x, device=any_place), 5, axis=1).get()
    assert c.shape == (2, 5, 4) and np.all(np.isin(c[0, :, 0], x[0, :, 0]))
    d = g.choice(da.asarray(x, device=any_place), (2, 2), replace=False, axis=2, shuffle=False).get()
    assert d.shape == (2, 3, 2, 2) and len(set(d[0, 0].ravel())) == 4
    with pytest.raises(np.exceptions.AxisError):
        g.permutation(da.asarray(x, device=any_place), axis=3)
    assert g.permutation(3, device=any_place).shape == (3,)  # the next call works


def test_permuted(any_place):
    g = da.random.default_rng(53)
    x = da.asarray(np.arange(5000).reshape(50, 100), device=any_place)
    rows = g.permuted(x, axis=1).get()
    assert np.array_equal(np.sort(rows, axis=1), x.get())
    assert len({tuple(np.argsort(r)) for r in rows[:10]}) == 10  # each row its own permutation
    flat = g.permuted(x).get()
    assert np.array_equal(np.sort(flat.ravel()), np.arange(5000)) and not np.array_equal(np.sort(flat, axis=1), x.get())
    out = da.empty((50, 100), dtype=x.dtype, device=any_place)
    assert g.permuted(x, axis=0, out=out) is out
    assert np.array_equal(np.sort(out.get(), axis=0), x.get())
    firsts = np.array([int(g.permuted(da.arange(4, device=any_place))[0]) for _ in range(400)])
    assert stats.chisquare(np.bincount(firsts, minlength=4)).pvalue > ALPHA
    with pytest.raises(ValueError, match="shape"):
        g.permuted(x, out=da.empty((2, 2), dtype=x.dtype, device=any_place))


def test_bytes_and_exponential_methods():
    g = da.random.default_rng(54)
    b = g.bytes(N)
    assert isinstance(b, bytes) and len(b) == N
    assert stats.chisquare(np.bincount(np.frombuffer(b, np.uint8), minlength=256)).pvalue > ALPHA
    assert da.random.default_rng(54).bytes(10) == b[:10] and g.bytes(0) == b""
    zig = da.random.default_rng(5).standard_exponential(10, method="zig", device="cpu").get()
    inv = da.random.default_rng(5).standard_exponential(10, method="inv", device="cpu").get()
    np.testing.assert_array_equal(zig, inv)  # "zig" inverts too


def test_philox_key_and_absent_names():
    g = da.random.default_rng(da.random.Philox(key=0x0123456789ABCDEF))
    assert g.key == (0x01234567, 0x89ABCDEF)
    with pytest.raises(ValueError, match="key"):
        da.random.Philox(key=-1)
    for name in ("MT19937", "PCG64", "SFC64"):
        with pytest.raises(AttributeError, match="Philox"):
            getattr(da.random, name)
    with pytest.raises(AttributeError, match="no attribute"):
        da.random.nonexistent  # noqa: B018
