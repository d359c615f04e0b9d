"""Advanced indexing (darray.ops.indexing) against NumPy: random keys from ndindex's strategies
on random shapes for get and set, NumPy's placement of advanced dimensions, masks, bounds,
nonzero, views and copies, bad input, on both places (take, take_along_axis, put: test_taking.py)."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import arrays, assert_same, shapes
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from ndindex.tests.helpers import ndindices, short_shapes

import darray as da
from darray.dim import MAX_RANK

DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint16", "int32", "int64", "float32", "float64", "complex64",
                                "complex128")]


def _ranks_ok(shape: tuple[int, ...], key) -> bool:
    parts = key if isinstance(key, tuple) else (key,)
    return len(shape) <= MAX_RANK and all(np.ndim(p) <= MAX_RANK for p in parts)


def _key(key, place, as_darray: bool):
    """The key with its arrays as DArrays on ``place`` (lists and NumPy arrays otherwise kept)."""
    if not as_darray:
        return key
    def conv(p):
        return da.asarray(p, device=place) if isinstance(p, np.ndarray) and p.ndim else p

    return tuple(conv(p) for p in key) if isinstance(key, tuple) else conv(key)


def _outcome(fn):
    try:
        return fn(), None
    except (IndexError, ValueError, TypeError) as err:
        return None, type(err)


def _compare(place, shape, key, as_darray):
    host = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    want, want_err = _outcome(lambda: host[key])
    x = da.asarray(host, device=place)
    got, got_err = _outcome(lambda: x[_key(key, place, as_darray)])
    if want_err is None and want.ndim > MAX_RANK:
        want_err = ValueError  # darray's rank limit
    if want_err is not None:
        assert got_err is not None and issubclass(got_err, want_err), (key, got_err, want_err)
        return None
    assert got_err is None, (key, got_err)
    assert_same(got, want)
    return host


@settings(max_examples=150)
@given(key=ndindices, shape=short_shapes, as_darray=st.booleans())
def test_getitem_matches_numpy(any_place, key, shape, as_darray):
    assume(_ranks_ok(shape, key))
    _compare(any_place, shape, key, as_darray)


@settings(max_examples=100)
@given(key=ndindices, shape=short_shapes, as_darray=st.booleans(), data=st.data())
def test_setitem_matches_numpy(any_place, key, shape, as_darray, data):
    assume(_ranks_ok(shape, key))
    host = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    try:
        sel = host[key]
    except (IndexError, ValueError):
        x = da.asarray(host, device=any_place)
        with pytest.raises((IndexError, ValueError)):
            x[_key(key, any_place, as_darray)] = 1
        assert_same(x, host)  # nothing written
        return
    if sel.ndim > MAX_RANK:  # a selection beyond darray's rank: ValueError, nothing written
        x = da.asarray(host, device=any_place)
        with pytest.raises(ValueError):
            x[_key(key, any_place, as_darray)] = 1
        assert_same(x, host)
        return
    # a scalar, or values of the selection's shape (or broadcastable to it)
    value = data.draw(st.one_of(st.integers(-100, 100),
                                arrays(np.int32, st.just(sel.shape[data.draw(st.integers(0, sel.ndim)):]),
                                       elements=st.integers(-100, 100))))
    want = host.copy()
    want[key] = value
    if isinstance(key, tuple) and _repeats(host, key):
        return  # repeated indices: which value lands is unspecified (the module docstring)
    x = da.asarray(host, device=any_place)
    x[_key(key, any_place, as_darray)] = da.asarray(value, device=any_place) if isinstance(value, np.ndarray) else value
    assert_same(x, want)


def _repeats(host: np.ndarray, key) -> bool:
    """Whether ``key`` selects some element twice."""
    ids = np.arange(host.size).reshape(host.shape)[key]
    return np.unique(np.ravel(ids)).size != np.size(ids)


@pytest.mark.parametrize("key,shape", [
    ((0, slice(None), [1, 2]), (2, 3, 4)),                  # separated by a slice: advanced dims first
    ((slice(None), [0, 1], [1, 2]), (2, 3, 4)),             # adjacent: in place
    (([[0], [1]], slice(None), [0, 3]), (2, 3, 4)),         # broadcast (2, 1) with (2,)
    ((slice(None), None, [1], 0), (2, 3, 4)),               # None between them
    ((..., [1, -1]), (2, 3, 4)),
    ((True,), (2, 3)), ((False,), (2, 3)), ((np.True_, 1), (2, 3)),
    ((np.zeros(0, bool),), (1, 0)), ((np.zeros((0, 3), bool),), (2, 3)), ((slice(None), np.zeros(0, bool)), (2, 3)),
    ((slice(1, None), [2, 0, 2]), (3, 4)),
    (([],), (3, 4)), ((slice(None), []), (3, 4)),
    (([0, 0, 1],), (2,) * 9),                               # rank 9
    (([], [5]), (3, 4)), ((False, [7]), (2, 3)),            # broadcast to nothing: no bound is read
])
def test_placement_examples(any_place, key, shape):
    for as_darray in (False, True):
        assert _compare(any_place, shape, key, as_darray) is not None


@given(shape=shapes(1, 4), dtype=st.sampled_from(DTYPES), data=st.data())
def test_mask_and_dtypes(any_place, shape, dtype, data):
    host = data.draw(arrays(dtype, st.just(shape)))
    mask = data.draw(arrays(np.bool_, st.just(shape)))
    x = da.asarray(host, device=any_place)
    assert_same(x[mask], host[mask])
    assert_same(x[da.asarray(mask, device=any_place)], host[mask])
    if shape[0]:
        idx = data.draw(arrays(np.int64, st.just((data.draw(st.integers(0, 6)),)),
                               elements=st.integers(-shape[0], shape[0] - 1)))
        assert_same(x[idx], host[idx])
    want = host.copy()
    want[mask] = host.flat[0] if host.size else 0
    x[mask] = host.flat[0] if host.size else 0
    assert_same(x, want)


@given(shape=shapes(1, 4, min_side=1), data=st.data())
def test_views_as_inputs(any_place, shape, data):
    """Transposed, stepped and negative-step views, as the array and as the index."""
    host = np.arange(int(np.prod(shape)) * 2, dtype=np.float32).reshape((2,) + shape)[:, ::-1].transpose()
    x = da.asarray(np.arange(int(np.prod(shape)) * 2, dtype=np.float32).reshape((2,) + shape),
                   device=any_place)[:, ::-1].transpose()
    idx = np.arange(host.shape[0])[::-1][::2]
    assert_same(x[idx], host[idx])
    assert_same(x[da.asarray(np.arange(host.shape[0] * 2) % host.shape[0], device=any_place)[::2]],
                host[(np.arange(host.shape[0] * 2) % host.shape[0])[::2]])
    mask = host > host.mean()
    assert_same(x[mask], host[mask])
    assert_same(x[..., [0, -1]], host[..., [0, -1]])


@pytest.mark.parametrize("view", [np.s_[::-1], np.s_[3::2], np.s_[5:-3], np.s_[::-3]])
def test_one_dim_views_with_an_offset(any_place, view):
    """x[idx] on a 1-d view that starts inside its allocation (the index-reading gather)."""
    host = np.arange(48, dtype=np.int16)
    x = da.asarray(host, device=any_place)[view]
    idx = np.array([0, -1, 1, len(host[view]) - 2])
    assert_same(x[idx], host[view][idx])
    assert_same(x[da.asarray(idx, device=any_place)], host[view][idx])


def test_advanced_get_copies_basic_get_views(any_place):
    x = da.asarray(np.arange(6, dtype=np.float32), device=any_place)
    fancy, basic = x[[0, 1]], x[0:2]
    x[0] = 100
    assert fancy.get().tolist() == [0.0, 1.0] and basic.get().tolist() == [100.0, 1.0]


def test_setitem_keeps_earlier_expressions(cl_place):
    """A pending expression reading x sees x's old values after an advanced assignment."""
    x = da.asarray(np.arange(5.0, dtype=np.float32), device=cl_place)
    y = x * 2
    x[[0, 4]] = -1
    x[x > 2] = 0
    assert y.get().tolist() == [0, 2, 4, 6, 8] and x.get().tolist() == [-1, 1, 2, 0, -1]


def test_value_sources(any_place):
    x = da.zeros((3, 4), dtype=da.int64, device=any_place)
    x[[0, 2], 1:3] = np.array([[1, 2], [3, 4]])       # NumPy array
    x[[1], [0]] = da.asarray([7], device=any_place)     # DArray
    x[np.array([True, False, True]), 0] = [5, 6]        # list, broadcast along the mask's axis
    want = np.zeros((3, 4), np.int64)
    want[[0, 2], 1:3] = [[1, 2], [3, 4]]
    want[[1], [0]] = 7
    want[[0, 2], 0] = [5, 6]
    assert_same(x, want)


@pytest.mark.parametrize("key,err", [
    (([0, 3],), IndexError), (([-4],), IndexError), ((0, [5]), IndexError),
    (([0.5],), IndexError), ((1.0,), IndexError), (("a",), IndexError),
    ((np.ones(4, bool),), IndexError), ((np.ones((3, 5), bool),), IndexError),
    (([0], [0], [0]), IndexError), ((..., ..., [0]), IndexError),
    (([0, 1], [0, 1, 2]), IndexError),  # shapes do not broadcast
    (([[0, 1]], []), IndexError), ((np.ones(3, bool), [0, 1]), IndexError),  # (a mask counts as its nonzero)
    ((7, [0]), IndexError), ((slice(None, None, 0), [7]), ValueError), ((7, slice(None, None, 0)), IndexError),
    ((7, None, [0]), IndexError),
    ((np.zeros(1), [0]), IndexError),
])
def test_bad_keys(any_place, key, err):
    host = np.arange(12).reshape(3, 4)
    x = da.asarray(host, device=any_place)
    with pytest.raises(err):
        host[key]
    with pytest.raises(err):
        x[key]
    with pytest.raises(err):
        x[key] = 0
    assert_same(x, host)                      # nothing written
    assert_same(x[[2, 0]], host[[2, 0]])      # the next call works


@pytest.mark.parametrize("host_limit", [0, 1 << 20])
def test_shape_mismatch_message(any_place, host_limit, monkeypatch):
    """Index arrays that do not broadcast are NumPy's IndexError before any bound is read (issue 38)."""
    from darray.lazy import host

    monkeypatch.setattr(host, "LIMIT", host_limit)
    x = da.zeros((3, 3, 3), device=any_place)
    for key in [([[0, 1]], [], []), (da.asarray(np.array([True, False, True]), device=any_place), [0, 1, 2])]:
        with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be broadcast together"):
            x[key]
        with pytest.raises(IndexError, match="shape mismatch"):
            x[key] = 1.0
    assert_same(x, np.zeros((3, 3, 3)))


def test_out_of_bounds_message(cl_place):
    x = da.asarray(np.arange(12).reshape(3, 4), device=cl_place)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 4"):
        x[:, da.asarray([0, 7, 1], device=cl_place)]
    with pytest.raises(IndexError, match="out of bounds"):
        x[[0, 1], [0, 9]] = 5
    assert_same(x, np.arange(12).reshape(3, 4))


def test_bad_value_shape(any_place):
    x = da.zeros(5, device=any_place)
    with pytest.raises(ValueError, match="setitem"):
        x[[0, 1]] = np.ones(3)


@given(shape=shapes(1, 4), dtype=st.sampled_from(DTYPES), data=st.data())
def test_nonzero(any_place, shape, dtype, data):
    host = data.draw(arrays(dtype, st.just(shape)))
    got = da.nonzero(da.asarray(host, device=any_place))
    want = np.nonzero(host)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w.astype(np.int64))


def test_nonzero_0d_and_strided(any_place):
    with pytest.raises(ValueError, match="nonzero"):
        da.nonzero(da.asarray(1.0, device=any_place))
    host = (np.arange(40).reshape(5, 8) % 3 == 0)[::-2, 1::3]
    for g, w in zip(da.nonzero(da.asarray(np.arange(40).reshape(5, 8) % 3 == 0, device=any_place)[::-2, 1::3]),
                    np.nonzero(host)):
        assert_same(g, w.astype(np.int64))


def test_large_gather_and_mask(cl_place):
    """Several work-items (chunks) and a scan of more than one level."""
    rng = np.random.default_rng(1)
    host = rng.standard_normal(300_001).astype(np.float32)
    idx = rng.integers(-host.size, host.size, 200_003)
    x = da.asarray(host, device=cl_place)
    assert_same(x[idx], host[idx])
    mask = host > 0.3
    assert_same(x[mask], host[mask])
    x[idx[:1000]] = 0.0
    host[idx[:1000]] = 0.0
    assert_same(x, host)


def test_bad_index_before_rank_limit(cl_place):
    """An out-of-bounds index is NumPy's IndexError even where the result would pass darray's
    rank limit (a ValueError naming the limit when every index is in bounds); the next call works."""
    x = da.zeros((1,) * 6, device=cl_place)
    with pytest.raises(IndexError, match="out of bounds"):
        x[np.ones((1,) * 6, np.int64)]
    with pytest.raises(ValueError, match="at most 9"):
        x[np.zeros((1,) * 6, np.int64)]
    assert x[np.zeros((1,) * 3, np.int64)].shape == (1,) * 8


@pytest.mark.parametrize("shape, mask", [((3,), (0,)), ((0, 4), (0,)), ((0, 3), (0, 2)), ((0, 0), (0, 1)),
                                         ((2, 0), (3, 0)), ((0, 0, 0, 0, 1), (0, 0, 0, 1)), ((2, 3), (0, 3)),
                                         ((2, 3), (2, 0)), ((2, 3), (1, 0)), ((1, 1, 0, 0, 1), (0, 0, 0, 1))])
def test_empty_mask_shapes(shape, mask, cl_place):
    """A mask axis of length 0 matches an axis of any length (as NumPy); other mask axes must
    match the axes they index (IndexError otherwise); the next call works."""
    host, key = np.zeros(shape, np.float32), np.zeros(mask, bool)
    x = da.asarray(host, device=cl_place)
    want, want_err = _outcome(lambda: host[key])
    got, got_err = _outcome(lambda: x[key])
    assert got_err == want_err, (got_err, want_err)
    if want_err is None:
        assert_same(got, want)
    assert x[()].shape == shape


# -- masks through NumPy on host-backed devices (``darray.lazy.host.usable``) ----------------------

@pytest.fixture
def host_place(cl_place, monkeypatch):
    """The OpenCL place with the host path on (conftest turns it off), skipped where not host-backed."""
    from darray.lazy import host
    from darray.place import runtime

    if not runtime(cl_place).host_backed:
        pytest.skip(f"{cl_place} is not host-backed: no host path")
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    return cl_place


def _kernels(p) -> list[str]:
    """The names of the device commands a profile saw (host runs have stream -1)."""
    return [r.name for r in p.launches if r.stream != -1 and r.name != "bounds_guard"]  # (guards: DARRAY_CHECK_BOUNDS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), dtype=st.sampled_from([np.dtype(t) for t in ("bool", "int8", "uint16", "float32", "float64",
                                                                     "complex64")]))
def test_masks_on_the_host_path_match_numpy(host_place, data, dtype):
    from helpers import viewed

    base, view = data.draw(viewed(dtype, 1, 3))
    host = view(base)
    mask = data.draw(st.sampled_from(["random", "none", "all"]))
    m = (data.draw(arrays(np.bool_, host.shape)) if mask == "random"
         else np.full(host.shape, mask == "all"))
    fill = data.draw(arrays(dtype, (int(m.sum()),)))
    x = view(da.asarray(base, device=host_place))
    dm = da.asarray(m, device=host_place)
    with da.profile() as p:
        got = x[dm]
        nz = da.nonzero(dm)
        found = (bool(da.any(dm)), bool(da.all(dm)), da.any(dm, axis=0))
    assert _kernels(p) == []
    assert_same(got, host[m])
    assert_same(x[dm], host[m])  # outside a profile: at once on this thread (host.call)
    for g, w in zip(nz, np.nonzero(m)):
        assert_same(g, w)
    assert found[:2] == (m.any(), m.all())
    assert_same(found[2], m.any(axis=0))
    want = host.copy()
    want[m] = fill
    x[dm] = da.asarray(fill, device=host_place)
    assert_same(x, want)
    want[m] = want.flat[0] if want.size else 0
    x[dm] = want.flat[0].item() if want.size else 0
    assert_same(x, want)


def test_mask_assignment_of_the_wrong_size_on_the_host_path(host_place):
    x = da.asarray(np.arange(6.0), device=host_place)
    mask = da.asarray(np.array([1, 0, 1, 0, 1, 0], bool), device=host_place)
    with pytest.raises(ValueError, match="setitem"):
        x[mask] = da.asarray(np.ones(2), device=host_place)
    x[mask] = da.asarray(np.array([7.0, 8.0, 9.0]), device=host_place)  # the next call works
    assert_same(x, np.array([7.0, 1, 8, 3, 9, 5]))


def test_pending_masks_and_values_on_the_host_path(host_place):
    """A mask and values that are pending graphs (one of them inexact: a kernel) are computed
    first; an assignment keeps earlier expressions seeing the old values."""
    base = np.linspace(-2, 2, 9)
    x = da.asarray(base, device=host_place)
    before = x * 2  # pending: reads x
    mask = (x > 0) & (da.sin(x) > 0.5)
    x[mask] = x[mask] ** 2
    want = base.copy()
    m = (base > 0) & (np.sin(base) > 0.5)
    want[m] = base[m] ** 2
    assert_same(x, want)
    assert_same(before, base * 2)
    assert_same(x[x < 0], base[base < 0])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), dtype=st.sampled_from([np.dtype(t) for t in ("int16", "float64", "complex64")]))
def test_integer_index_assignment_on_the_host_path_matches_numpy(host_place, data, dtype):
    from helpers import viewed

    base, view = data.draw(viewed(dtype, 1, 3, elements={"allow_nan": False} if dtype.kind != "i" else None))
    want = view(base).copy()
    axis = data.draw(st.integers(0, want.ndim - 1))
    n = want.shape[axis]
    idx = data.draw(arrays(np.int32, (data.draw(st.integers(0, 5)),),
                           elements=st.integers(-n, n - 1) if n else st.just(0)))
    assume(n or not idx.size)
    idx = np.unique(idx % n) if n else idx  # distinct places: NumPy's last-wins is not darray's rule
    key = (slice(None),) * axis + (idx,)
    x = view(da.asarray(base, device=host_place))
    with da.profile() as p:
        x[(*key[:-1], da.asarray(idx, device=host_place))] = 3
    assert _kernels(p) == []
    want[key] = 3
    assert_same(x, want)


def test_integer_index_out_of_bounds_on_the_host_path(host_place):
    x = da.asarray(np.arange(5.0), device=host_place)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        x[da.asarray(np.array([1, 7]), device=host_place)] = 1.0
    x[da.asarray(np.array([-1, 0]), device=host_place)] = da.asarray(np.array([8.0, 9.0]), device=host_place)
    assert_same(x, np.array([9.0, 1, 2, 3, 8]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), dtype=st.sampled_from([np.dtype(t) for t in ("bool", "int16", "float64", "complex64")]))
def test_gathers_on_the_host_path_match_numpy(host_place, data, dtype):
    """Integer and mixed keys (index arrays on several axes, adjacent or not, ints, masks of part of
    the axes, negative indices) over views: NumPy's result and layout, and no kernel."""
    from helpers import viewed

    base, view = data.draw(viewed(dtype, 1, 3))
    host = view(base)
    key = []
    for n in host.shape:
        kind = data.draw(st.sampled_from(["slice", "array", "int", "mask"] if n else ["slice"]))
        if kind == "slice":
            key.append(slice(None, None, data.draw(st.sampled_from([1, -1, 2]))))
        elif kind == "int":
            key.append(data.draw(st.integers(-n, n - 1)))
        elif kind == "mask":
            key.append(data.draw(arrays(np.bool_, (n,))))
        else:
            key.append(data.draw(arrays(np.int64, (data.draw(st.integers(0, 4)),), elements=st.integers(-n, n - 1))))
    key = tuple(key)
    try:
        want = host[key]
    except IndexError:  # index arrays that do not broadcast: NumPy's error, darray's too
        with pytest.raises(IndexError):
            view(da.asarray(base, device=host_place))[key]
        return
    x = view(da.asarray(base, device=host_place))
    dkey = tuple(da.asarray(k, device=host_place) if isinstance(k, np.ndarray) else k for k in key)
    with da.profile() as p:
        got = x[dkey]
    assert _kernels(p) == []
    assert_same(got, want)


def test_gather_out_of_bounds_on_the_host_path(host_place):
    x = da.asarray(np.arange(12.0).reshape(3, 4), device=host_place)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        x[:, da.asarray(np.array([0, 4]), device=host_place)]
    assert_same(x[da.asarray(np.array([-1, 0]), device=host_place), 1], np.array([9.0, 1.0]))  # the next call works


# -- random index expressions: darray raises exactly when NumPy does, with NumPy's class -----------

class _Dev:
    """A key entry to give darray as a DArray (NumPy gets ``value``)."""

    def __init__(self, value: np.ndarray) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"DArray({self.value!r})"


@st.composite
def _entries(draw, shape: tuple[int, ...]):
    """One key entry: ints (in and out of bounds), slices (steps, a zero step), None, Ellipsis, bool
    scalars, masks (matching and mismatching shapes), integer arrays (lists, NumPy arrays and
    DArrays; empty; various shapes), float arrays and scalars."""
    n = shape[0] if shape else 2
    ints = st.integers(-n - 2, n + 1)
    kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "bool", "mask", "ints", "ints", "float"]))
    if kind == "int":
        return draw(st.one_of(ints, ints.map(np.int64), st.integers(0, n + 1).map(np.uint8)))
    if kind == "slice":
        return slice(draw(st.none() | ints), draw(st.none() | ints), draw(st.none() | st.integers(-3, 3)))
    if kind == "none":
        return None
    if kind == "ellipsis":
        return Ellipsis
    if kind == "bool":
        return draw(st.sampled_from([True, False, np.True_, np.False_]))
    form = draw(st.sampled_from(["list", "numpy", "darray"]))
    if kind == "mask":
        rank = draw(st.integers(1, max(1, len(shape))))
        mshape = (tuple(shape[:rank]) if draw(st.booleans()) and len(shape) >= rank
                  else draw(hnp.array_shapes(min_dims=rank, max_dims=rank, min_side=0, max_side=4)))
        value = draw(arrays(np.bool_, mshape))
    else:
        ishape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
        dtype = np.float64 if kind == "float" else draw(st.sampled_from([np.int64, np.int32, np.uint8]))
        elements = (st.integers(0, n + 1) if dtype == np.uint8 else ints) if kind != "float" else \
            st.sampled_from([0.0, 1.0, 0.5])
        value = draw(arrays(dtype, ishape, elements=elements))
        if kind == "float" and draw(st.booleans()):
            return 1.0
    if form == "list":
        return value.tolist()
    return _Dev(value) if form == "darray" and value.ndim else value


@st.composite
def _cases(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4))
    entries = draw(st.lists(_entries(shape), min_size=0, max_size=5))
    key = entries[0] if len(entries) == 1 and draw(st.booleans()) else tuple(entries)
    return shape, key


def _for(key, place, numpy: bool):
    def conv(p):
        if isinstance(p, _Dev):
            return p.value if numpy else da.asarray(p.value, device=place)
        return p

    return tuple(conv(p) for p in key) if isinstance(key, tuple) else conv(key)


def _error_class(fn):
    try:
        fn()
    except (IndexError, ValueError, TypeError) as err:
        return type(err)
    return None


@pytest.mark.parametrize("host_limit", [0, 8, 1 << 20])  # host path off; small work only; all of it
@settings(max_examples=200, deadline=None)
@given(case=_cases(), data=st.data())
def test_random_keys_raise_as_numpy(any_place, host_limit, case, data):
    """Random index expressions over arrays of rank 0-4: ``x[key]`` and ``x[key] = value`` raise when
    NumPy does, with NumPy's class (never an internal error; for a bad key with a bad value, the
    class NumPy raises first), else give NumPy's result; a failed assignment writes nothing and the
    next call works."""
    from darray.lazy import host as host_path

    shape, key = case
    nkey = _for(key, any_place, numpy=True)
    base = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    old = host_path.LIMIT
    host_path.LIMIT = host_limit
    try:
        want_err = _error_class(lambda: base[nkey])
        if want_err is None and base[nkey].ndim > MAX_RANK:
            want_err = ValueError  # darray's rank limit
        x = da.asarray(base, device=any_place)
        got = None

        def get():
            nonlocal got
            got = x[_for(key, any_place, numpy=False)]

        got_err = _error_class(get)
        event(f"get: {want_err.__name__ if want_err else 'result'}")
        assert got_err is want_err or (want_err and got_err and issubclass(got_err, want_err)), \
            (shape, key, got_err, want_err)
        if want_err is None:
            assert_same(got, base[nkey])
        # assignment: a scalar, or values of the selection's shape (leading ones added), or of any
        # shape: a bad key and a bad value together raise what NumPy raises first
        sel_shape = base[nkey].shape if want_err is None else ()
        shapes_ = [st.just(sel_shape), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)]
        if len(sel_shape) + 2 <= MAX_RANK:
            shapes_.append(st.just((1, 1) + sel_shape))
        value = data.draw(st.one_of(st.integers(-50, 50), arrays(np.int32, st.one_of(*shapes_),
                                                                 elements=st.integers(-50, 50))), label="value")
        want = base.copy()

        def put_np():
            want[nkey] = value

        want_err = _error_class(put_np)
        if want_err is None and np.ndim(base[nkey]) > MAX_RANK:
            want_err = ValueError
        x = da.asarray(base, device=any_place)
        got_err = _error_class(lambda: x.__setitem__(_for(key, any_place, numpy=False), value))
        assert got_err is want_err or (want_err and got_err and issubclass(got_err, want_err)), \
            (shape, key, got_err, want_err)
        if want_err is not None:
            assert_same(x, base)  # nothing written
        elif np.ndim(value) == 0 or not _repeats(base, nkey):
            assert_same(x, want)
        assert_same(x[()], x.get())  # the next call works
    finally:
        host_path.LIMIT = old


_BAD_BOTH = [  # (key, value shape): a bad key, a bad value, or both
    ((5,), (3,)), ((0, 9), (2,)), ((np.array([0, 5]),), (3, 4)), ((np.array([[0, 1]]), np.array([0, 9])), (3,)),
    ((slice(None), np.array([0, 4])), (3, 3)), ((np.array([0, 1]),), (1, 1, 4)), ((1,), (1, 1, 4)),
    ((np.array([0, 9]),), (1, 1, 4)), ((np.array([0, 1]),), (2, 1, 4)), ((slice(None),), (1, 3, 4)),
    ((0, 0), (1,)), ((0, 0), (1, 1)), ((np.int64(0), 1), (1,)), ((np.array([True, False, True]),), (1, 2, 4)),
    ((np.ones((3, 4), bool),), (1, 12)), ((np.ones((3, 4), bool),), (12,)), ((np.ones((3, 4), bool), ...), (1, 12)),
    ((np.ones((2, 4), bool),), (8,)),
]


@pytest.mark.parametrize("key,shape", _BAD_BOTH, ids=[str(k) for k in range(len(_BAD_BOTH))])
def test_bad_key_and_value_raise_as_numpy(any_place, key, shape):
    """``x[key] = value`` with a bad key, a bad value shape or both: NumPy's class (the value's shape
    checked before fancy indices' bounds; an array's extra leading ones dropped; no sequence into one
    element; one mask of x's rank takes a 0-d or 1-d value only), else NumPy's result."""
    host = np.arange(12.0).reshape(3, 4)
    value = np.arange(float(np.prod(shape))).reshape(shape)
    want = host.copy()
    err = _error_class(lambda: want.__setitem__(key, value))
    x = da.asarray(host, device=any_place)
    dkey = tuple(da.asarray(k, device=any_place) if isinstance(k, np.ndarray) else k for k in key)
    got = _error_class(lambda: x.__setitem__(dkey, da.asarray(value, device=any_place)))
    assert got is err or (err and got and issubclass(got, err)), (got, err)
    assert_same(x, host if err else want)
