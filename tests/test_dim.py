"""Tests for darray.dim, checked against NumPy views of np.arange buffers."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

from darray.dim import (
    MAX_NBYTES,
    MAX_RANK,
    Dim,
    broadcast_shapes,
    check_nbytes,
    collapse,
    normalize_axes,
    normalize_axis,
)

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ----------------------------------------------------------------------------- helpers

@st.composite
def shapes(draw, min_rank: int = 0, max_rank: int = MAX_RANK) -> tuple[int, ...]:
    rank = draw(st.integers(min_rank, max_rank))
    hi = 5 if rank <= 3 else 3 if rank <= 6 else 2
    return tuple(draw(st.lists(st.integers(0, hi), min_size=rank, max_size=rank)))


def offsets(shape, strides, offset=0) -> np.ndarray:
    """Element index of every element of a view, in C order, shaped like the view."""
    out = np.full(shape, offset, dtype=np.int64)
    for i, (n, s) in enumerate(zip(shape, strides)):
        idx = [1] * len(shape)
        idx[i] = n
        out = out + np.arange(n, dtype=np.int64).reshape(idx) * s
    return out


def make_base(shape):
    base = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64)
    return base, base.reshape(shape)


def check(dim: Dim, view: np.ndarray, base: np.ndarray) -> None:
    """Dim must describe ``view`` (a view of ``base``): shape, strides, offset, values."""
    assert isinstance(dim, Dim)
    assert dim.shape == view.shape
    assert type(dim.shape) is tuple and all(type(n) is int for n in dim.shape)
    isz = view.itemsize
    np_strides = tuple(s // isz for s in view.strides)
    if view.size:
        assert dim.strides == np_strides
        off = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // isz
        assert dim.offset == off
        idx = offsets(dim.shape, dim.strides, dim.offset)
        np.testing.assert_array_equal(base[idx], view)
        lo, hi = dim.span()
        assert (lo, hi) == (int(idx.min()), int(idx.max()) + 1)
    else:
        assert dim.span() == (dim.offset, dim.offset)
    assert dim.size == view.size and dim.ndim == view.ndim
    assert dim.is_c_contiguous == view.flags.c_contiguous
    assert dim.is_f_contiguous == view.flags.f_contiguous


@st.composite
def basic_keys(draw, shape):
    """A valid basic index for ``shape`` (result rank stays <= MAX_RANK)."""
    key, d, nd, out_rank, has_ellipsis = [], 0, len(shape), 0, False
    while True:
        kinds = ["stop", "slice", "int", "none"] if d < nd else ["stop", "none"]
        kind = draw(st.sampled_from(kinds + ([] if has_ellipsis else ["ellipsis"])))
        if kind == "int" and shape[d] == 0:
            kind = "slice"
        if kind == "none" and out_rank + (nd - d) >= MAX_RANK:
            kind = "stop"
        if kind == "stop":
            if has_ellipsis:  # the Ellipsis already took its share: spell out the rest
                key.extend([slice(None)] * (nd - d))
            break
        if kind == "none":
            key.append(None)
            out_rank += 1
        elif kind == "ellipsis":
            k = draw(st.integers(0, nd - d))
            key.append(Ellipsis)
            has_ellipsis, d, out_rank = True, d + k, out_rank + k
        elif kind == "int":
            n = shape[d]
            i = draw(st.integers(-n, n - 1))
            key.append(draw(st.sampled_from([int, int, np.int64, np.int32]))(i))
            d += 1
        else:
            n = shape[d]
            bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
            step = st.one_of(st.none(), st.integers(-3, 3).filter(bool))
            key.append(slice(draw(bound), draw(bound), draw(step)))
            d += 1
            out_rank += 1
    if len(key) == 1 and draw(st.booleans()):
        return key[0]
    return tuple(key)


@st.composite
def reshape_targets(draw, shape):
    """A shape with the same size, often a regrouping of ``shape``'s dims."""
    size = int(np.prod(shape, dtype=np.int64))
    if size == 0:
        rank = draw(st.integers(1, 4))
        new = draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank))
        new[draw(st.integers(0, rank - 1))] = 0
        return tuple(new)
    factors = []
    for n in shape:
        p, m = 2, n
        while m > 1:
            while m % p == 0:
                factors.append(p)
                m //= p
            p += 1
    if draw(st.booleans()):
        factors = draw(st.permutations(factors))
    new, cur = [], 1
    for f in factors:
        cur *= f
        if draw(st.booleans()):
            new.append(cur)
            cur = 1
    if cur != 1 or not new:
        new.append(cur)
    while len(new) < MAX_RANK and draw(st.booleans()):
        new.insert(draw(st.integers(0, len(new))), 1)
    new = new[:MAX_RANK] if len(new) > MAX_RANK else new
    if int(np.prod(new)) != size:   # too many factors for MAX_RANK: merge the tail
        new = new[:MAX_RANK - 1] + [size // int(np.prod(new[:MAX_RANK - 1]))]
    if draw(st.booleans()):
        new[draw(st.integers(0, len(new) - 1))] = -1
    return tuple(new)


def np_index(arr: np.ndarray, key) -> np.ndarray:
    """``arr[key]`` as a view even when NumPy would return a scalar."""
    out = arr[key]
    if not isinstance(out, np.ndarray):
        out = arr[(key if isinstance(key, tuple) else (key,)) + (Ellipsis,)]
    return out


def np_reshape_view(view: np.ndarray, shape) -> np.ndarray | None:
    try:
        return view.reshape(shape, copy=False)
    except ValueError:
        return None


# ----------------------------------------------------------------------------- tests

@SETTINGS
@given(shapes())
def test_contiguous(shape):
    base, arr = make_base(shape)
    check(Dim.contiguous(shape), arr, base)
    check(Dim.contiguous(list(shape)), arr, base)
    assert Dim.contiguous(shape, offset=3).offset == 3


def test_contiguous_int_and_numpy_sizes():
    assert Dim.contiguous(5) == Dim((5,), (1,), 0)
    d = Dim.contiguous((np.int64(2), np.int32(3)))
    assert d == Dim((2, 3), (3, 1)) and all(type(n) is int for n in d.shape)
    assert Dim.contiguous(()).size == 1 and Dim.contiguous(()).ndim == 0
    assert hash(Dim.contiguous((2, 3))) == hash(Dim((2, 3), (3, 1), 0))


@SETTINGS
@given(shapes(), st.data())
def test_getitem(shape, data):
    base, arr = make_base(shape)
    dim = Dim.contiguous(shape)
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(basic_keys(arr.shape))
        arr, dim = np_index(arr, key), dim.getitem(key)
        check(dim, arr, base)


@SETTINGS
@given(shapes(), st.data())
def test_shares_is_numpys_exact_answer(shape, data):
    """``Dim.shares`` of two views of one buffer (sliced with any step and sign, transposed,
    broadcast) is NumPy's ``shares_memory``, also across item sizes (a float64 view against an int8
    one of the same bytes)."""
    base, arr = make_base(shape)
    views = []
    for _ in range(2):
        v, d = arr, Dim.contiguous(shape)
        key = data.draw(basic_keys(arr.shape))
        v, d = np_index(v, key), d.getitem(key)
        if data.draw(st.booleans()):
            v, d = v.T, d.transpose()
        views.append((v, d))
    (a, da_), (b, db) = views
    assert da_.shares(db, 8, 8) == np.shares_memory(a, b)
    if b.ndim and b.strides[-1] == 8 and b.size:  # the same bytes as int8 (one more axis of 8)
        b8 = b.view(np.int8)
        d8 = Dim(b8.shape, tuple(s for s in b8.strides), db.offset * 8)
        assert da_.shares(d8, 8, 1) == np.shares_memory(a, b8)


@SETTINGS
@given(shapes(), st.data())
def test_view_chains(shape, data):
    """Random chains of view ops (views of views) match NumPy at every step."""
    base, arr = make_base(shape)
    dim = Dim.contiguous(shape)
    for _ in range(data.draw(st.integers(1, 5))):
        nd = arr.ndim
        ops = ["getitem", "transpose", "reshape", "broadcast_to"]
        ops += ["swapaxes", "perm", "squeeze"] if nd else []
        ops += ["expand_dims"] if nd < MAX_RANK else []
        op = data.draw(st.sampled_from(ops))
        if op == "getitem":
            key = data.draw(basic_keys(arr.shape))
            arr, dim = np_index(arr, key), dim.getitem(key)
        elif op == "transpose":
            arr, dim = arr.T, dim.transpose()
        elif op == "perm":
            axes = data.draw(st.permutations(range(nd)))
            axes = [a - nd if data.draw(st.booleans()) else a for a in axes]
            arr, dim = arr.transpose(axes), dim.transpose(axes)
        elif op == "swapaxes":
            a, b = data.draw(st.integers(-nd, nd - 1)), data.draw(st.integers(-nd, nd - 1))
            arr, dim = arr.swapaxes(a, b), dim.swapaxes(a, b)
        elif op == "expand_dims":
            ax = data.draw(st.integers(-nd - 1, nd))
            arr, dim = np.expand_dims(arr, ax), dim.expand_dims(ax)
        elif op == "squeeze":
            ones = [i for i, n in enumerate(arr.shape) if n == 1]
            ax = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(ones), unique=True)
                                     .map(tuple))) if ones else None
            arr, dim = arr.squeeze(ax), dim.squeeze(ax)
        elif op == "broadcast_to":
            extra = data.draw(st.lists(st.integers(0, 3), max_size=MAX_RANK - nd))
            target = tuple(extra) + tuple(data.draw(st.integers(0, 3)) if n == 1 else n
                                          for n in arr.shape)
            arr, dim = np.broadcast_to(arr, target), dim.broadcast_to(target)
        else:
            target = data.draw(reshape_targets(arr.shape))
            view, new = np_reshape_view(arr, target), dim.reshape(target)
            event("reshape: copy needed" if view is None else "reshape: view")
            if view is None:
                assert new is None
                break
            assert new is not None
            arr, dim = view, new
        check(dim, arr, base)


@SETTINGS
@given(shapes(min_rank=1, max_rank=5), st.data())
def test_reshape_noncontiguous(shape, data):
    """Reshape of strided/transposed views: a view exactly when NumPy gives one."""
    base, arr = make_base(shape)
    dim = Dim.contiguous(shape)
    key = tuple(slice(None, None, data.draw(st.sampled_from([1, 2, -1, -2]))) for _ in shape)
    arr, dim = np_index(arr, key), dim.getitem(key)
    if data.draw(st.booleans()):
        axes = data.draw(st.permutations(range(len(shape))))
        arr, dim = arr.transpose(axes), dim.transpose(axes)
    target = data.draw(reshape_targets(arr.shape))
    view, new = np_reshape_view(arr, target), dim.reshape(target)
    event("reshape: copy needed" if view is None else "reshape: view")
    assert (view is None) == (new is None)
    if view is not None:
        check(new, view, base)


@pytest.mark.parametrize("shape,key,axes,target", [
    ((2, 3, 4), (slice(None), slice(None, None, 2)), None, (2, 8)),       # copy
    ((2, 3, 4), (slice(None), slice(None, None, 2)), None, (4, 4)),       # copy
    ((2, 3, 4), (slice(None), slice(None, None, 2)), None, (2, 2, 2, 2)),  # view
    ((2, 3, 4), (slice(None), slice(None, None, 2)), None, (1, 2, 1, 2, 4, 1)),
    ((2, 3, 4), (slice(None, None, -1),), None, (6, 4)),                   # view
    ((2, 3, 4), (slice(None, None, -1),), None, (24,)),                    # copy
    ((3, 2), (), (1, 0), (6,)),                                            # copy
    ((3, 2), (), (1, 0), (2, 3, 1)),                                       # view
    ((4, 6), (slice(None, None, 2), slice(1, None, 2)), (1, 0), (3, 2, 1)),
    ((4, 6), (slice(None, None, 2), slice(1, None, 2)), (1, 0), (-1,)),
    ((5, 1, 3), (slice(None), 0, slice(None, None, 3)), None, (5,)),
    ((1, 4, 1, 3), (Ellipsis, slice(None, None, -1)), (3, 2, 1, 0), (3, 2, 2)),
])
def test_reshape_cases(shape, key, axes, target):
    base, arr = make_base(shape)
    dim = Dim.contiguous(shape).getitem(key).transpose(axes)
    arr = arr[key].transpose(axes)
    view, new = np_reshape_view(arr, target), dim.reshape(target)
    assert (view is None) == (new is None)
    if view is not None:
        check(new, view, base)


@SETTINGS
@given(st.lists(shapes(max_rank=5), min_size=0, max_size=4), st.data())
def test_broadcast_shapes(shape_list, data):
    # Make them mostly compatible: replace a random subset of sizes with 1.
    shape_list = [tuple(1 if data.draw(st.booleans()) else n for n in s) for s in shape_list]
    try:
        expected = np.broadcast_shapes(*shape_list)
    except ValueError:
        with pytest.raises(ValueError, match="operands could not be broadcast together"):
            broadcast_shapes(*shape_list)
        return
    assert broadcast_shapes(*shape_list) == expected


def _layout_strides(draw, shape):
    """Strides of a random layout over ``shape``: permuted, stepped, flipped, broadcast."""
    nd = len(shape)
    perm = draw(st.permutations(range(nd)))
    steps = [draw(st.sampled_from([1, 1, 2, -1])) for _ in range(nd)]
    phys = Dim.contiguous(tuple(shape[p] * abs(steps[p]) for p in perm))
    strides = [0] * nd
    for j, p in enumerate(perm):
        strides[p] = phys.strides[j] * steps[p]
    return tuple(0 if draw(st.integers(0, 5)) == 0 else s for s in strides)


@SETTINGS
@given(shapes(), st.integers(1, 3), st.data())
def test_collapse(shape, n_ops, data):
    strides = [_layout_strides(data.draw, shape) for _ in range(n_ops)]
    new_shape, new_strides = collapse(shape, *strides)
    assert len(new_strides) == n_ops
    if 0 in shape:
        assert new_shape == (0,) and new_strides == [(1,)] * n_ops
        return
    assert int(np.prod(new_shape)) == int(np.prod(shape))
    assert 1 not in new_shape and len(new_shape) <= len(shape)
    for s, ns in zip(strides, new_strides):
        assert len(ns) == len(new_shape)
        np.testing.assert_array_equal(offsets(shape, s).ravel(), offsets(new_shape, ns).ravel())
    for i in range(len(new_shape) - 1):  # maximal: no adjacent pair mergeable for all
        assert not all(ns[i] == ns[i + 1] * new_shape[i + 1] for ns in new_strides)


def test_collapse_examples():
    assert collapse((2, 3, 4), (12, 4, 1), (0, 0, 1)) == ((6, 4), [(4, 1), (0, 1)])
    assert collapse((2, 3, 4), (12, 4, 1)) == ((24,), [(1,)])
    assert collapse((), (), ()) == ((), [(), ()])
    assert collapse((1, 1), (5, 7)) == ((), [()])
    assert collapse((2, 0, 3), (0, 3, 1), (3, 3, 1)) == ((0,), [(1,), (1,)])
    assert collapse((3, 1, 4), (4, 99, 1)) == ((12,), [(1,)])
    assert collapse((3, 4), (1, 3)) == ((3, 4), [(1, 3)])
    with pytest.raises(ValueError):
        collapse((2, 3), (1,))


@SETTINGS
@given(shapes(min_rank=1), st.data())
def test_normalize_axis(shape, data):
    nd = len(shape)
    ax = data.draw(st.integers(-nd - 3, nd + 3))
    if -nd <= ax < nd:
        assert normalize_axis(ax, nd) == ax % nd
    else:
        with pytest.raises(AxisError) as ei:
            normalize_axis(ax, nd, "sum")
        assert isinstance(ei.value, ValueError) and isinstance(ei.value, IndexError)
        with pytest.raises(AxisError) as en:
            np.sum(np.zeros(shape), axis=ax)
        assert str(ei.value) == "sum: " + str(en.value)


def test_normalize_axes():
    assert normalize_axes(None, 3) == (0, 1, 2)
    assert normalize_axes(-1, 3) == (2,)
    assert normalize_axes(np.int64(1), 3) == (1,)
    assert normalize_axes((0, -1), 3) == (0, 2)
    assert normalize_axes([], 3) == ()
    with pytest.raises(ValueError, match="sum.*repeated axis"):
        normalize_axes((0, -3), 3, "sum")
    with pytest.raises(AxisError, match="sum"):
        normalize_axes((0, 3), 3, "sum")
    with pytest.raises(TypeError):
        normalize_axis(1.0, 3)


# ----------------------------------------------------------------------------- errors

def test_rank_limit():
    with pytest.raises(ValueError, match=r"at most 9 dimensions \(rank 9\); got rank 10"):
        Dim((1,) * 10, (1,) * 10)
    with pytest.raises(ValueError, match="got rank 10 for shape"):
        Dim.contiguous((1,) * 10)
    with pytest.raises(ValueError, match="at most 9"):
        broadcast_shapes((1,) * 10, (2,))
    with pytest.raises(ValueError, match="at most 9"):
        Dim.contiguous((1,) * 9).expand_dims(0)
    with pytest.raises(ValueError, match="at most 9"):
        Dim.contiguous((2,) * 9).getitem(None)
    with pytest.raises(ValueError, match="at most 9"):
        Dim.contiguous(2).broadcast_to((1,) * 10)
    with pytest.raises(ValueError, match="at most 9"):
        Dim.contiguous(1).reshape((1,) * 10)
    assert Dim.contiguous((1,) * 9).ndim == 9


def test_bad_shapes():
    with pytest.raises(ValueError, match=r"negative.*\(2,-1\)"):
        Dim.contiguous((2, -1))
    with pytest.raises(ValueError, match="negative"):
        Dim((-2,), (1,))
    with pytest.raises(TypeError):
        Dim.contiguous((True, 2))
    with pytest.raises(TypeError):
        Dim.contiguous(True)
    with pytest.raises(TypeError):
        Dim.contiguous((2.0, 3))
    with pytest.raises(TypeError):
        Dim.contiguous(None)
    with pytest.raises(ValueError, match="same length"):
        Dim((2, 3), (1,))
    with pytest.raises(TypeError):
        Dim((2,), (1.5,))


@pytest.mark.parametrize("key", [[0], np.array([0]), np.array([True]), True, np.bool_(False),
                                 np.array(True), np.array(1.0), 1.0, np.float64(1), "a",
                                 (0, [1]), (slice(None), 2.5), {0: 1}])
def test_getitem_rejects_advanced(key):
    dim = Dim.contiguous((3, 4))
    with pytest.raises(IndexError, match="only integers, slices.*Ellipsis.*None"):
        dim.getitem(key)


@pytest.mark.parametrize("shape,key", [((3,), 5), ((3,), -4), ((2, 3), (0, 3)),
                                       ((2, 3), (..., -4)), ((2, 0), (None, 0, 0))])
def test_getitem_out_of_range(shape, key):
    with pytest.raises(IndexError) as np_err:
        np.zeros(shape)[key]
    with pytest.raises(IndexError) as ours:
        Dim.contiguous(shape).getitem(key)
    assert str(ours.value) == str(np_err.value)


def test_getitem_misc_errors():
    assert str(pytest.raises(IndexError, Dim.contiguous(3).getitem, 5).value) == \
        "index 5 is out of bounds for axis 0 with size 3"
    with pytest.raises(IndexError, match="too many indices"):
        Dim.contiguous((2, 3)).getitem((0, 0, 0))
    with pytest.raises(IndexError, match="too many indices"):
        Dim.contiguous(()).getitem(0)
    with pytest.raises(IndexError, match="single ellipsis"):
        Dim.contiguous((2, 3)).getitem((..., ...))
    with pytest.raises(ValueError, match="step cannot be zero"):
        Dim.contiguous(3).getitem(slice(None, None, 0))
    d = Dim.contiguous((2, 3))
    assert d.getitem(()) == d and d.getitem(...) == d
    assert d.getitem(np.array(1)) == Dim((3,), (1,), 3)


def test_reshape_errors():
    d = Dim.contiguous((2, 3))
    with pytest.raises(ValueError, match="one unknown"):
        d.reshape((-1, -1))
    with pytest.raises(ValueError, match=r"\(2,3\).*\(4,\)"):
        d.reshape(4)
    with pytest.raises(ValueError, match=r"\(2,3\).*\(4,-1\)"):
        d.reshape((4, -1))
    with pytest.raises(ValueError, match="negative"):
        d.reshape((-2, -3))
    with pytest.raises(ValueError):
        Dim.contiguous((0, 3)).reshape((-1, 0))
    assert d.reshape(-1) == Dim((6,), (1,))
    assert Dim.contiguous((0, 3)).reshape(-1).shape == (0,)
    assert d.transpose().reshape(6) is None


def test_manipulation_errors():
    d = Dim.contiguous((2, 1, 3))
    with pytest.raises(ValueError, match="squeeze"):
        d.squeeze(0)
    with pytest.raises(AxisError):
        d.squeeze(3)
    with pytest.raises(ValueError):
        d.transpose((0, 1))
    with pytest.raises(ValueError, match="repeated"):
        d.transpose((0, 0, 1))
    with pytest.raises(AxisError):
        d.transpose((0, 1, 3))
    with pytest.raises(AxisError):
        d.swapaxes(0, 3)
    with pytest.raises(AxisError):
        d.expand_dims(4)
    with pytest.raises(ValueError, match=r"\(2,1,3\).*\(2,2,4\)"):
        d.broadcast_to((2, 2, 4))
    with pytest.raises(ValueError, match=r"\(2,1,3\).*\(1,3\)"):
        d.broadcast_to((1, 3))
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes "
                                         r"\(2,3\) \(4,\)$"):
        broadcast_shapes((2, 3), (4,))
    with pytest.raises(ValueError, match=r"\(2,3\) \(1,\) \(4,\)$"):
        broadcast_shapes((2, 3), 1, (4,))
    assert broadcast_shapes() == ()
    assert broadcast_shapes(3, (2, 1)) == (2, 3)


@pytest.mark.parametrize("shape,dtype", [((2**62,), "int8"), ((2**62,), "float64"), ((0, 2**62), "int16"),
                                         ((0, 2**62), "bool"), ((2**31, 0, 2**31), "float32"), ((2**63,), "bool"),
                                         ((0, 2**64), "bool"), ((3, 0, 5), "complex128"), ((), "float64")], ids=str)
def test_check_nbytes_is_numpys_rule(shape, dtype):
    """Too big exactly where NumPy says so: the nonzero sizes times the itemsize past 2**63 - 1
    (a zero-length axis does not save ``(0, 2**62)`` float64); ValueError naming the op."""
    try:
        np.empty(shape, dtype)  # NumPy's verdict (2**62 int8 passes its check, then fails to allocate)
        too_big = False
    except MemoryError:
        too_big = False
    except ValueError:
        too_big = True
    if too_big:
        with pytest.raises(ValueError, match=r"darray op: array is too big; shape .* bytes"):
            check_nbytes(shape, np.dtype(dtype).itemsize, "op")
    else:
        check_nbytes(shape, np.dtype(dtype).itemsize, "op")
    assert MAX_NBYTES == np.iinfo(np.intp).max
