"""darray.random's legacy API (``darray/random/_legacy.py``): RandomState and the module-level
functions: shapes, dtypes, ranges, seeding, get/set_state, the current place, NumPy's names and
signatures, bad input."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
from scipy import stats

import darray as da

N = 100_000
ALPHA = 1e-4


def test_shapes_dtypes_ranges(any_place):
    rs = da.random.RandomState(1)
    with da.place.use(any_place):
        r = rs.rand(3, 4)
        assert r.shape == (3, 4) and r.dtype == da.random.default_rng(0).random(device=any_place).dtype
        assert r.place == any_place and 0 <= r.get().min() and r.get().max() < 1
        assert rs.rand().shape == () and rs.randn().shape == () and rs.randn(2, 5).shape == (2, 5)
        for f in (rs.random_sample, rs.random, rs.ranf, rs.sample):
            x = f((2, 3)).get()
            assert x.shape == (2, 3) and x.min() >= 0 and x.max() < 1
        i = rs.randint(0, 10, size=1000).get()
        assert i.dtype == np.int64 and i.min() == 0 and i.max() == 9
        assert rs.randint(5, size=(2, 2), dtype=np.int8).dtype == np.int8 and rs.randint(3).shape == ()
        with pytest.warns(DeprecationWarning):
            j = rs.random_integers(1, 6, size=1000).get()
        assert j.min() == 1 and j.max() == 6
        with pytest.warns(DeprecationWarning):
            assert rs.random_integers(3, size=500).get().max() == 3  # high=None: [1, low]
        u = rs.uniform(5, 2, size=1000).get()  # legacy: high < low is allowed
        assert u.min() > 2 and u.max() <= 5
        assert sorted(rs.permutation(10).get()) == list(range(10))
        x = da.arange(10)
        rs.shuffle(x)
        assert sorted(x.get()) == list(range(10))
        c = rs.choice(5, 3, replace=False).get()
        assert len(set(c)) == 3 and c.max() < 5
        assert isinstance(rs.bytes(7), bytes) and len(rs.bytes(7)) == 7


def test_module_functions_on_current_place(any_place):
    with da.place.use(any_place):
        da.random.seed(0)
        a = da.random.rand(3, 4)
        assert a.place == any_place and a.shape == (3, 4)
        assert da.random.randint(0, 10, size=5).shape == (5,)
        assert da.random.normal(size=4).shape == (4,) and da.random.uniform(size=2).shape == (2,)
        assert da.random.choice([1, 2, 3], size=2).shape == (2,)
        assert da.random.random().shape == () and da.random.exponential(2.0, 3).shape == (3,)
        da.random.seed(0)
        np.testing.assert_array_equal(da.random.rand(3, 4).get(), a.get())


def test_seeding_reproducible():
    da.random.seed(0)
    first = da.random.rand(3, device="cpu").get()
    da.random.seed(0)
    np.testing.assert_array_equal(da.random.rand(3, device="cpu").get(), first)
    assert not np.array_equal(da.random.rand(3, device="cpu").get(), first)
    a, b = da.random.RandomState(7), da.random.RandomState(7)
    np.testing.assert_array_equal(a.randn(5, device="cpu").get(), b.randn(5, device="cpu").get())
    np.testing.assert_array_equal(da.random.RandomState([1, 2]).rand(4, device="cpu").get(),
                                  da.random.RandomState([1, 2]).rand(4, device="cpu").get())
    # a RandomState and a Generator with one seed draw the same stream
    np.testing.assert_array_equal(da.random.RandomState(7).rand(5, device="cpu").get(),
                                  da.random.default_rng(7).random(5, device="cpu").get())


def test_get_set_state_round_trip():
    rs = da.random.RandomState(3)
    rs.rand(10)
    state = rs.get_state()
    assert state["bit_generator"] == "Philox4x32-10" and set(state["state"]) == {"key", "counter"}
    want = rs.randn(6, device="cpu").get()
    other = da.random.RandomState(99)
    other.set_state(state)
    np.testing.assert_array_equal(other.randn(6, device="cpu").get(), want)
    rs.set_state(state)
    np.testing.assert_array_equal(rs.randn(6, device="cpu").get(), want)
    saved = da.random.get_state()
    x = da.random.random_sample(4, device="cpu").get()
    da.random.set_state(saved)
    np.testing.assert_array_equal(da.random.random_sample(4, device="cpu").get(), x)


@pytest.mark.parametrize("call,error,word", [
    (lambda rs: rs.set_state(("MT19937", np.zeros(624), 0, 0, 0.0)), TypeError, "dict"),
    (lambda rs: rs.set_state({"bit_generator": "MT19937", "state": {}}), ValueError, "Philox"),
    (lambda rs: rs.set_state({"bit_generator": "Philox4x32-10", "state": {"key": (1, 2, 3), "counter": 0}}),
     ValueError, "key"),
    (lambda rs: rs.seed(-1), ValueError, "seed"),
    (lambda rs: rs.randint(5, 5), ValueError, "low >= high"),
    (lambda rs: rs.uniform(0, np.inf), OverflowError, "range exceeds valid bounds"),  # (NumPy's class)
    (lambda rs: rs.uniform(-1e308, 1e308), OverflowError, "range exceeds"),
    (lambda rs: rs.exponential(-1.0), ValueError, "scale < 0"),
    (lambda rs: rs.choice(3, 5, replace=False), ValueError, "population"),
])
def test_bad_input(call, error, word):
    rs = da.random.RandomState(0)
    with pytest.raises(error, match=word):
        call(rs)
    assert rs.rand(2, device="cpu").shape == (2,)  # the next call works


def test_names_and_signatures():
    """Legacy methods have NumPy's parameters (plus device=/place= and, on a few, dtype=); every name of
    numpy.random is in darray.random or excluded with a reason: tests/test_coverage.py."""
    for name in dir(np.random.RandomState):
        if name.startswith("_") or name == "tomaxint":
            continue
        want = [p for p in inspect.signature(getattr(np.random.RandomState, name)).parameters]
        got = [p for p in inspect.signature(getattr(da.random.RandomState, name)).parameters
               if p not in ("device", "place", "dtype") or p in want]
        assert got == want, name
    assert da.random.SeedSequence is np.random.SeedSequence
    assert isinstance(da.random.Philox(1), da.random.BitGenerator)


def test_bit_generator_functions():
    saved = da.random.get_bit_generator()
    try:
        bg = da.random.Philox(12)
        da.random.set_bit_generator(bg)
        assert da.random.get_bit_generator() is bg
        np.testing.assert_array_equal(da.random.rand(4, device="cpu").get(),
                                      da.random.default_rng(12).random(4, device="cpu").get())
        with pytest.raises(TypeError, match="BitGenerator"):
            da.random.set_bit_generator(np.random.PCG64(1))
    finally:
        da.random.set_bit_generator(saved)
    assert da.random.RandomState(da.random.Philox(4)).rand(device="cpu").shape == ()


def test_legacy_distributions():
    rs = da.random.RandomState(8)
    x = rs.standard_exponential(N, device="cpu").get()
    assert stats.kstest(x, "expon").pvalue > ALPHA
    y = rs.laplace(1.0, 2.0, N, device="cpu").get()
    assert stats.kstest(y, stats.laplace(1, 2).cdf).pvalue > ALPHA
    assert rs.multivariate_normal([0, 0], np.eye(2), 3, device="cpu").shape == (3, 2)
    z = rs.gamma(2.0, 3.0, N, device="cpu").get()
    assert stats.kstest(z, stats.gamma(2, scale=3).cdf).pvalue > ALPHA
    assert da.random.standard_gamma(1.0, size=(2, 2)).shape == (2, 2)
    assert rs.poisson([1.0, 5.0], size=(3, 2), device="cpu").shape == (3, 2)
    assert rs.hypergeometric(5, 5, 3, device="cpu").shape == () and rs.zipf(2.0, 4, device="cpu").dtype == np.int64
