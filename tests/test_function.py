"""NumPy functions on DArrays (``darray/interop/function.py``): the table comes from the API
table; calls with DArray, NumPy and scalar arguments give DArrays equal to NumPy's results
(NumPy's positional and keyword spellings, ``out=``); what darray lacks is a TypeError.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

import darray as da
from darray._api import entries
from darray.interop.function import table

_A = np.array([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]])
_B = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
_M = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])


def test_table_holds_the_numpy_functions_darray_implements() -> None:
    t = table()
    for f in (np.concatenate, np.sum, np.matmul if not isinstance(np.matmul, np.ufunc) else np.concat, np.where,
              np.sort, np.argsort, np.transpose, np.reshape, np.stack, np.mean, np.var, np.clip, np.round,
              np.linalg.inv, np.linalg.solve, np.unique_values, np.take, np.searchsorted):
        assert f in t, f
    assert not any(isinstance(f, np.ufunc) for f in t)
    assert all(e in entries(da) for e in t.values())
    assert t[np.transpose].name == "transpose" and t[np.concatenate].name == "concatenate"


CASES = [
    ("concatenate", lambda a, b: np.concatenate([a, b], 1)),
    ("concatenate-axis-none", lambda a, b: np.concatenate((a, b), axis=None)),
    ("stack", lambda a, b: np.stack([a, b], axis=-1)),
    ("sum", lambda a, b: np.sum(a, 0)),
    ("sum-keepdims", lambda a, b: np.sum(a, axis=1, keepdims=True, dtype=np.float32)),
    ("mean", lambda a, b: np.mean(a, axis=(0, 1))),
    ("var-ddof", lambda a, b: np.var(a, ddof=1)),
    ("std", lambda a, b: np.std(a, axis=0)),
    ("max", lambda a, b: np.max(a, axis=1)),
    ("argmin", lambda a, b: np.argmin(a, axis=0)),
    ("where", lambda a, b: np.where(a > 1, a, b)),
    ("where-scalar", lambda a, b: np.where(a > 1, 0.0, b)),
    ("sort", lambda a, b: np.sort(a, axis=0, kind="stable")),
    ("argsort", lambda a, b: np.argsort(a)),
    ("transpose", lambda a, b: np.transpose(a)),
    ("reshape", lambda a, b: np.reshape(a, (3, 2))),
    ("clip", lambda a, b: np.clip(a, 0, 2)),
    ("round", lambda a, b: np.round(a / 3, 2)),
    ("take", lambda a, b: np.take(a, [2, 0], axis=1)),
    ("expand_dims", lambda a, b: np.expand_dims(a, 0)),
    ("flip", lambda a, b: np.flip(a, axis=1)),
    ("roll", lambda a, b: np.roll(a, 1, axis=1)),
    ("tensordot", lambda a, b: np.tensordot(a, b.T, axes=1)),
    ("dot", lambda a, b: np.dot(a, b.T)),
    ("outer", lambda a, b: np.outer(a[0], b[0])),
    ("trace-3d", lambda a, b: np.trace(np.stack([a[:, :2], b[:, :2]]))),
    ("tril", lambda a, b: np.tril(a)),
    ("cumsum-flat", lambda a, b: np.cumsum(a)),
    ("cumprod-axis", lambda a, b: np.cumprod(a, axis=1, dtype=np.float32)),
    ("diff", lambda a, b: np.diff(a, axis=1)),
    ("pad", lambda a, b: np.pad(a, 1, constant_values=9.0)),
    ("isin", lambda a, b: np.isin(a, [2.0, -1.0])),
    ("count_nonzero", lambda a, b: np.count_nonzero(a > 0, axis=0)),
    ("linalg.inv", lambda a, b: np.linalg.inv(a @ a.T + np.eye(2))),
    ("linalg.solve", lambda a, b: np.linalg.solve(a @ a.T + np.eye(2), b)),
    ("linalg.vector_norm", lambda a, b: np.linalg.vector_norm(a, axis=1)),
]


@pytest.mark.parametrize("body", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_numpy_functions_return_darrays(body) -> None:
    """The first argument a DArray, the second a NumPy array, then the reverse (results must be
    DArrays whenever a DArray takes part)."""
    want = body(_A, _B)
    for a, b in ((da.asarray(_A), _B), (da.asarray(_A), da.asarray(_B))):
        got = body(a, b)
        for g, w in zip(got, want) if isinstance(want, tuple) else ((got, want),):
            assert isinstance(g, da.DArray)
            assert_same(g, w, rtol=1e-12, atol=1e-12)


def test_tuples_and_named_results() -> None:
    x = da.asarray(np.array([3, 1, 3, 2]))
    assert [v.get().tolist() for v in np.nonzero(x > 1)] == [[0, 2, 3]]
    values, counts = np.unique_counts(x)
    assert values.get().tolist() == [1, 2, 3] and counts.get().tolist() == [1, 1, 2]
    parts = np.split(da.asarray(_A), 3, axis=1)
    assert len(parts) == 3 and all(isinstance(p, da.DArray) for p in parts)
    assert (np.ndim(x), np.shape(x), np.size(x)) == (1, (4,), 4)


def test_out() -> None:
    out = da.empty((4, 3))
    assert np.concatenate([da.asarray(_A), _B], out=out) is out
    assert_same(out, np.concatenate([_A, _B]))
    with pytest.raises(ValueError, match="shape"):
        np.sum(da.asarray(_A), axis=0, out=da.empty(2))


@pytest.mark.parametrize("call,error,what", [
    (lambda x: np.pad(x, 1, bogus=1), ValueError, "bogus"),
    (lambda x: np.sort(x, order="f"), ValueError, "order")],
    ids=["pad-kwargs", "sort-order"])
def test_refused_keywords_raise_numpys_error_naming_them(call, error, what: str) -> None:
    """A keyword NumPy's function refuses, reached through ``__array_function__``: NumPy's class,
    naming the keyword."""
    with pytest.raises(error, match=what):
        call(_A)
    with pytest.raises(error, match=what):
        call(da.asarray(_A))


def test_array_is_an_explicit_host_copy() -> None:
    x = da.asarray(_A)
    host = np.asarray(x)
    assert type(host) is np.ndarray and np.array_equal(host, _A)
    host[0, 0] = 99.0
    assert x.get()[0, 0] == 3.0
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(x, copy=False)
    c = da.asarray(_A, device="cpu")
    np.asarray(c, copy=False)[0, 0] = 7.0  # the cpu place's memory, viewed in place
    assert c.get()[0, 0] == 7.0


def test_other_array_types_take_over() -> None:
    """NumPy's protocol: darray returns NotImplemented when another array type takes part."""
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

    assert np.concatenate([da.ones(2), Other()]) == "other"


def test_array_like_a_darray() -> None:
    """numpy.array(obj, like=x) (Dask's way to make arrays like a chunk): a copy on x's place."""
    x = da.asarray(np.arange(3.0), device="cpu")
    y = np.array([1, 2], dtype=np.float32, like=x)
    assert isinstance(y, da.DArray) and y.place == x.place and y.dtype == np.float32
    np.testing.assert_array_equal(y.get(), [1, 2])
    with pytest.raises(TypeError, match="ndmin"):
        np.array([1], ndmin=2, like=x)


def test_numpy_runs_on_cpu_place_memory_for_functions_darray_lacks(monkeypatch) -> None:
    """On the cpu place NumPy computes in the arrays' own memory (in-place functions write into it);
    array results come back as cpu-place DArrays. On a device place it stays a TypeError naming the
    function. (darray lacks none of NumPy's numeric functions: the table is emptied to act as if.)"""
    from darray.interop import function

    monkeypatch.setattr(function, "table", lambda: {})
    x = da.asarray(np.array([[3.0, 1.0], [2.0, 4.0]]), device="cpu")
    got = np.sort(x, axis=0)
    assert isinstance(got, da.DArray) and got.place == da.place.parse("cpu")
    assert_same(got, np.array([[2.0, 1.0], [3.0, 4.0]]))
    np.copyto(x, 5.0)  # in place, in x's own memory
    assert_same(x, np.full((2, 2), 5.0))
    with pytest.raises(TypeError, match="numpy.sort"):
        np.sort(da.asarray(x.get()))
    assert_same(da.asarray(np.arange(3), device="cpu") + 1, np.arange(3) + 1)  # the next call works
