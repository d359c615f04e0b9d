"""Manipulation functions against NumPy (darray.ops.manipulation, darray.ops.arrange).

Every function runs, on both places, over random ranks 0-4, sizes (empty included), dtypes
and input layouts: contiguous, strided, transposed, negative-step, broadcast and lazy
(a pending elementwise result). Each call is made with NumPy and with darray; the results
must match exactly (shape, dtype, bits), or both must raise, darray with NumPy's class.
Random arguments stray out of range on purpose (bad axes, unequal sections...).
Views must share their input's allocation exactly where NumPy's share memory, and writes
through them must show in the base.

Compile budget: every (dtypes, collapsed rank, layout) is one OpenCL copy kernel (cached on
disk afterwards), so the OpenCL place draws one dtype per function from a rotation of
``DTYPES`` and the CPU place draws from all of them.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers import assert_same, shapes
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
from darray import CPUPlace

DTYPES = [np.dtype(t) for t in ("bool", "int8", "int32", "int64", "uint8", "float32", "float64", "complex64")]
Body = Callable[[Any, Any], Any]  # body(xp, x): one call, made with xp=numpy and xp=darray


def _every(step: int) -> Callable[[Any, Any, tuple], Any]:
    return lambda xp, a, shape: a[(slice(None, None, step),) * a.ndim] if a.ndim else a


VIEWS: dict[str, tuple[Callable[[tuple], tuple], Callable[[Any, Any, tuple], Any]]] = {
    # name: (the base's shape for a view of shape s, the view of the base)
    "contiguous": (lambda s: s, lambda xp, a, s: a),
    "strided": (lambda s: tuple(2 * n for n in s), _every(2)),
    "transposed": (lambda s: s[::-1], lambda xp, a, s: a.T),
    "reversed": (lambda s: s, _every(-1)),
    "broadcast": (lambda s: s[1:], lambda xp, a, s: xp.broadcast_to(a, s)),
    "lazy": (lambda s: s, lambda xp, a, s: xp.where(True, a, a)),  # pending on OpenCL places
}


# -- comparing -----------------------------------------------------------------------------

def same(got: Any, want: Any) -> None:
    """Same structure (arrays, or tuples/lists of them) and identical arrays."""
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (type(got), len(got), len(want))
        for g, w in zip(got, want):
            same(g, w)
        return
    assert isinstance(got, da.DArray)
    assert_same(got, want, rtol=0.0, atol=0.0)


def compare(body: Body, host: Any, x: Any) -> Any:
    """``body`` with NumPy on ``host`` and with darray on ``x``: equal results, or NumPy's
    exception class raised by darray with a message naming the op. Returns darray's result."""
    try:
        want = body(np, host)
    except (ValueError, TypeError, IndexError) as err:
        with pytest.raises(type(err), match="darray "):
            body(da, x)
        return None
    got = body(da, x)
    same(got, want)
    if isinstance(x, da.DArray):
        shares_like_numpy(got, want, x, host)
    return got


def shares_like_numpy(got: Any, want: Any, x: da.DArray, host: np.ndarray) -> None:
    """Each non-empty result is a view of ``x``'s allocation exactly where NumPy's shares memory
    (NumPy scalars, which some NumPy functions give for 0-d results, are not compared)."""
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want):
            shares_like_numpy(g, w, x, host)
    elif isinstance(want, np.ndarray) and want.size and host.size:
        assert (got._alloc is x._alloc) == np.shares_memory(want, host), "view where NumPy copies, or the reverse"


def operand(data: st.DataObject, place: Any, dtype: np.dtype, shape: tuple[int, ...], label: str = "x",
            view: str | None = None) -> tuple[np.ndarray, da.DArray]:
    """A drawn array of ``shape`` as NumPy and darray, seen through a drawn layout (``VIEWS``)."""
    names = [v for v in VIEWS if v != "broadcast" or shape]
    view = view or data.draw(st.sampled_from(names), label=f"{label} view")
    base_shape, make = VIEWS[view]
    host = data.draw(hnp.arrays(dtype, base_shape(shape)), label=label)
    return make(np, host, shape), make(da, da.asarray(host, device=place), shape)


def pick_dtype(data: st.DataObject, place: Any, name: str) -> np.dtype:
    """Any dtype on the CPU place; on OpenCL two per function, rotating over ``DTYPES``."""
    k = sum(map(ord, name))
    choices = DTYPES if isinstance(place, CPUPlace) else [DTYPES[k % 8], DTYPES[(k + 3) % 8]]
    return data.draw(st.sampled_from(choices), label="dtype")


def axis(data: st.DataObject, ndim: int, label: str = "axis", stray: int = 1) -> int:
    """An axis of ``ndim`` (negative ones too), ``stray`` beyond the range at either end."""
    return data.draw(st.integers(-ndim - stray, ndim - 1 + stray), label=label)


# -- one-array functions: arguments drawn per example -------------------------------------

Args = tuple[tuple, dict]  # the arguments after the array: positional, keyword


def _reshape(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    target = list(data.draw(st.permutations(shape), label="sizes"))
    if data.draw(st.booleans(), label="insert 1"):
        target.insert(data.draw(st.integers(0, len(target)), label="at"), 1)
    if target and data.draw(st.booleans(), label="use -1"):
        target[data.draw(st.integers(0, len(target) - 1), label="-1 at")] = -1
    return (tuple(target),), {}


def _axes(data: st.DataObject, ndim: int, label: str = "axes") -> Any:
    """None, one axis or a tuple of distinct axes."""
    return data.draw(st.one_of(st.none(), st.integers(-ndim, max(ndim - 1, 0)),
                               st.lists(st.integers(0, max(ndim - 1, 0)), max_size=ndim, unique=True).map(tuple)),
                     label=label)


def _moveaxis(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    n = len(shape)
    src = data.draw(st.lists(st.integers(-n, max(n - 1, 0)), max_size=n, unique=True), label="source")
    dst = data.draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=len(src), max_size=len(src), unique=True),
                    label="destination")
    return (src, dst), {}


def _split(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    how = data.draw(st.one_of(st.integers(1, 4), st.lists(st.integers(-2, 6), max_size=3).map(sorted)), label="ios")
    return (how,), {"axis": axis(data, len(shape), stray=0) if shape else 0}


def _pad(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    mode = data.draw(st.sampled_from(["constant", "edge", "reflect", "symmetric"]), label="mode")
    pairs = st.tuples(st.integers(0, 3), st.integers(0, 3))
    width = data.draw(st.one_of(st.integers(0, 3), pairs, st.lists(pairs, min_size=len(shape), max_size=len(shape))),
                      label="pad_width")
    if mode != "constant":
        return (width, mode), {}
    return (width,), {"constant_values": data.draw(st.one_of(st.integers(0, 1), pairs), label="constant_values")}


def _repeat(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    ax = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)), label="axis") if shape else None
    n = int(np.prod(shape)) if ax is None else shape[ax]
    counts = data.draw(st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), min_size=n, max_size=n)),
                       label="repeats")
    return (counts,), {"axis": ax}


def _diff(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    ends = data.draw(st.sampled_from([{}, {"prepend": 1}, {"append": 0}, {"prepend": True, "append": 2}]),
                     label="prepend, append")  # numpy.diff's "none" is a sentinel, not None
    return (), {"n": data.draw(st.integers(0, 3), label="n"), "axis": axis(data, len(shape), stray=0) if shape else -1,
                **ends}


def _broadcast_to(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    lead = data.draw(st.lists(st.integers(0, 3), max_size=4 - len(shape)), label="leading")
    return (tuple(lead) + tuple(data.draw(st.integers(0, 3), label="size") if n == 1 else n for n in shape),), {}


def _roll(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    shift = data.draw(st.one_of(st.integers(-7, 7), st.tuples(st.integers(-3, 3), st.integers(-3, 3))), label="shift")
    axes = st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1),
                     st.tuples(st.integers(0, len(shape) - 1), st.just(-1)))
    return (shift,), {"axis": data.draw(axes, label="axis") if shape else None}


def _draw(label: str, strategy: Callable[[tuple[int, ...]], st.SearchStrategy], keyword: str | None = None
          ) -> Callable[[st.DataObject, tuple[int, ...]], Args]:
    """One argument drawn from ``strategy(shape)``: positional, or the keyword ``keyword``."""
    def draw(data: st.DataObject, shape: tuple[int, ...]) -> Args:
        value = data.draw(strategy(shape), label=label)
        return ((), {keyword: value}) if keyword else ((value,), {})
    return draw


def _none(data: st.DataObject, shape: tuple[int, ...]) -> Args:
    return (), {}


ONE: dict[str, Callable[[st.DataObject, tuple[int, ...]], Args]] = {
    "reshape": _reshape,
    "ravel": _none,
    "permute_dims": _draw("axes", lambda s: st.permutations(range(len(s))).map(tuple)),
    "transpose": _none,
    "matrix_transpose": _none,
    "swapaxes": lambda d, s: ((axis(d, len(s)), axis(d, len(s), "axis2")), {}),
    "moveaxis": _moveaxis,
    "squeeze": lambda d, s: ((), {"axis": _axes(d, len(s)) if s else None}),
    "expand_dims": _draw("axis", lambda s: st.one_of(st.integers(-len(s) - 2, len(s) + 1),
                                                     st.tuples(st.integers(-2, 1), st.integers(2, 3)))),
    "broadcast_to": _broadcast_to,
    "flip": lambda d, s: ((), {"axis": _axes(d, len(s))}),
    "unstack": lambda d, s: ((), {"axis": axis(d, len(s))}),
    "split": _split,
    "array_split": _split,
    "roll": _roll,
    "tile": _draw("reps", lambda s: st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=3).map(tuple))),
    "repeat": _repeat,
    "tril": _draw("k", lambda s: st.integers(-3, 3), "k"),
    "triu": _draw("k", lambda s: st.integers(-3, 3), "k"),
    "pad": _pad,
    "diff": _diff,
}


def call(name: str, args: tuple, kwargs: dict) -> Body:
    """The body calling ``xp.<name>(x, *args, **kwargs)``."""
    return lambda xp, x: getattr(xp, name)(x, *args, **kwargs)


@pytest.mark.parametrize("name", list(ONE))
@settings(max_examples=max(4, settings.default.max_examples // 3))
@given(data=st.data())
def test_one_array(any_place, name, data):
    """Each function over a drawn dtype, rank 0-4 shape (empty sizes too) and layout."""
    dtype = pick_dtype(data, any_place, name)
    shape = data.draw(shapes(0, 4, 0, 4), label="shape")
    host, x = operand(data, any_place, dtype, shape)
    compare(call(name, *ONE[name](data, shape)), host, x)


# -- functions of several arrays -----------------------------------------------------------

@given(data=st.data())
def test_concat_and_stack(any_place, data):
    """Arrays of mixed dtypes (promoted as NumPy does) and layouts, joined along drawn axes."""
    k = data.draw(st.integers(1, 3), label="count")
    shape = data.draw(shapes(0, 4, 0, 3), label="shape")
    ax = axis(data, len(shape) + 1) if data.draw(st.booleans(), label="stack") else None
    if ax is None:  # concat: sizes differ along the axis (axis None: anything goes)
        cat_axis = data.draw(st.one_of(st.none(), st.integers(-len(shape) - 1, len(shape))), label="axis")
        sizes = data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k), label="sizes")
        shapes_ = [shape[:cat_axis] + (n,) + shape[cat_axis + 1:] if cat_axis is not None and -len(shape) <= cat_axis
                   < len(shape) else shape for n in sizes]
        def body(xp: Any, xs: Any) -> Any:
            return xp.concat(xs, axis=cat_axis)
    else:
        shapes_ = [shape] * k
        def body(xp: Any, xs: Any) -> Any:
            return xp.stack(xs, axis=ax)
    choices = DTYPES if isinstance(any_place, CPUPlace) else DTYPES[4:7]
    ops = [operand(data, any_place, data.draw(st.sampled_from(choices), label=f"dtype{i}"), s, f"x{i}")
           for i, s in enumerate(shapes_)]
    compare(body, [h for h, _ in ops], [x for _, x in ops])


@given(data=st.data())
def test_broadcast_arrays_and_meshgrid(any_place, data):
    shapes_ = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=3), label="shapes")
    dtype = pick_dtype(data, any_place, "broadcast_arrays")
    ops = [operand(data, any_place, dtype, s, f"x{i}") for i, s in enumerate(shapes_.input_shapes)]
    compare(lambda xp, xs: xp.broadcast_arrays(*xs), [h for h, _ in ops], [x for _, x in ops])


@given(data=st.data())
def test_meshgrid(any_place, data):
    """meshgrid of 0-3 inputs (mixed dtypes, ranks 0-2, empty, strided, reversed, transposed, lazy) for
    each ``indexing`` (a bad one too), ``sparse`` and ``copy``: NumPy's container (a list for sparse
    views), shapes, dtypes and values; each output a view of its input exactly where NumPy's is."""
    k = data.draw(st.integers(0, 3), label="meshgrid count")
    indexing = data.draw(st.sampled_from(["xy", "ij", "yx"]), label="indexing")
    sparse, copy = data.draw(st.booleans(), label="sparse"), data.draw(st.booleans(), label="copy")
    ops = [operand(data, any_place, pick_dtype(data, any_place, f"meshgrid{i}"),
                   data.draw(shapes(0, 2, 0, 3), label=f"s{i}"), f"v{i}") for i in range(k)]
    hosts, xs = [h for h, _ in ops], [x for _, x in ops]
    got = compare(lambda xp, vs: xp.meshgrid(*vs, indexing=indexing, sparse=sparse, copy=copy), hosts, xs)
    if got is not None:
        want = np.meshgrid(*hosts, indexing=indexing, sparse=sparse, copy=copy)
        for g, w, x, h in zip(got, want, xs, hosts):
            if w.size and x._node is None:  # (a pending input has no allocation to share)
                assert (g._alloc is x._alloc) == np.shares_memory(w, h), "view where NumPy copies, or the reverse"


REPS = st.one_of(st.integers(-1, 3), st.sampled_from([1.0, 2.0, 2.5, True, False, None, "2", 1j, np.float64(1),
                                                     np.int8(2), np.array(2), np.array([[2]]), np.array([[1, 1]])]),
                 st.lists(st.sampled_from([0, 1, 2, 1.0, True, 2.0, -1]), max_size=4).map(tuple))


@given(data=st.data())
def test_tile_counts_as_numpy(any_place, data):
    """tile's ``reps`` read as NumPy reads them, for arrays (views) and Python input: counts equal to
    1 (1.0, True) copy an array, other non-integers are a TypeError, a negative one a ValueError."""
    reps = data.draw(REPS, label="reps")
    if data.draw(st.booleans(), label="python input"):
        value = data.draw(st.sampled_from([5, [1, 2], [[1.5], [2.5]]]), label="value")
        compare(lambda xp, v: xp.tile(v, reps), value, value)
        return
    shape = data.draw(shapes(0, 3, 0, 3), label="shape")
    host, x = operand(data, any_place, pick_dtype(data, any_place, "tile"), shape)
    compare(lambda xp, v: xp.tile(v, reps), host, x)


# -- ranks 0 and 9 -------------------------------------------------------------------------

RANK9: list[tuple[str, Body]] = [
    ("reshape", lambda xp, x: xp.reshape(x, (4, 2, -1))),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (8, 0, 7, 1, 6, 2, 5, 3, 4))),
    ("flip", lambda xp, x: xp.flip(x, axis=(1, 3, 8))),
    ("squeeze", lambda xp, x: xp.squeeze(x)),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, 0)),  # rank 10
    ("concat", lambda xp, x: xp.concat([x, x[:, :, :, ::-1]], axis=3)),
    ("stack", lambda xp, x: xp.stack([x, x])),  # rank 10
    ("roll", lambda xp, x: xp.roll(x, (1, -1, 1), axis=(0, 3, 8))),
    ("tile", lambda xp, x: xp.tile(x, (2, 1, 1, 3, 1, 1, 1, 1, 2))),
    ("repeat", lambda xp, x: xp.repeat(x, 2, axis=5)),
    ("tril", lambda xp, x: xp.tril(x, k=-1)),
    ("pad", lambda xp, x: xp.pad(x, 1, mode="reflect")),
    ("diff", lambda xp, x: xp.diff(x, axis=3, n=2)),
    ("split", lambda xp, x: xp.split(x, [1], axis=8)),
]


@pytest.mark.parametrize("name, body", RANK9, ids=[n for n, _ in RANK9])
def test_rank_9(any_place, name, body):
    """A transposed rank-9 input; a rank-10 result is darray's ValueError naming the limit."""
    host = np.arange(2 * 1 * 3 * 2 * 1 * 2 * 1 * 2 * 3, dtype=np.int32).reshape(2, 1, 3, 2, 1, 2, 1, 2, 3)
    perm = (0, 1, 2, 3, 4, 5, 6, 8, 7)
    x = da.asarray(host, device=any_place).transpose(perm)
    want = body(np, host.transpose(perm))
    if isinstance(want, np.ndarray) and want.ndim > da.MAX_RANK:
        with pytest.raises(ValueError, match=f"darray {name}: .*at most 9 dimensions"):
            body(da, x)
    else:
        compare(body, host.transpose(perm), x)


ZERO_D = ["reshape", "ravel", "transpose", "squeeze", "expand_dims", "broadcast_to", "flip", "roll", "tile",
          "repeat", "pad"]


@pytest.mark.parametrize("name", ZERO_D)
@settings(max_examples=3)
@given(data=st.data())
def test_zero_d(any_place, name, data):
    host, x = operand(data, any_place, np.dtype("float32"), ())
    compare(call(name, *ONE[name](data, ())), host, x)


# -- views and copies ----------------------------------------------------------------------

VIEW_OPS: list[tuple[str, Body]] = [
    ("reshape", lambda xp, x: xp.reshape(x, (4, 6))),
    ("reshape-of-slice", lambda xp, x: xp.reshape(x[:, 1:3], (2, 2, 2, 2))),
    ("ravel", lambda xp, x: xp.ravel(x)),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (1, 2, 0))),
    ("transpose", lambda xp, x: xp.transpose(x)),
    ("matrix_transpose", lambda xp, x: xp.matrix_transpose(x)),
    ("swapaxes", lambda xp, x: xp.swapaxes(x, 0, -1)),
    ("moveaxis", lambda xp, x: xp.moveaxis(x, 0, -1)),
    ("squeeze", lambda xp, x: xp.squeeze(x[:, :1], axis=1)),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, (0, 2))),
    ("flip", lambda xp, x: xp.flip(x, axis=(0, 2))),
    ("unstack", lambda xp, x: xp.unstack(x, axis=1)[2]),
    ("split", lambda xp, x: xp.split(x, 2, axis=2)[1]),
    ("array_split", lambda xp, x: xp.array_split(x, 3, axis=1)[0]),
    ("broadcast_arrays", lambda xp, x: xp.broadcast_arrays(x, x[:1])[0]),
]


@pytest.mark.parametrize("name, body", VIEW_OPS, ids=[n for n, _ in VIEW_OPS])
def test_views_write_through(any_place, name, body):
    """A view shares the input's allocation; writes through it show in the base as in NumPy."""
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = da.asarray(host, device=any_place)
    v, w = body(da, x), body(np, host)
    assert v._alloc is x._alloc and np.shares_memory(w, host)
    values = -np.arange(w.size, dtype=np.float32).reshape(w.shape)
    v[...] = da.asarray(values, device=any_place)
    w[...] = values
    assert_same(x, host)
    assert_same(v, w)


def test_broadcast_to_is_a_view(any_place):
    x = da.asarray(np.arange(3, dtype=np.int8), device=any_place)
    v = da.broadcast_to(x, (4, 3))
    assert v._alloc is x._alloc and v.strides == (0, 1)
    assert not v.flags.writeable and not v[1:].flags.writeable  # read-only, as NumPy's
    x[1] = 9
    assert_same(v, np.broadcast_to(np.array([0, 9, 2], np.int8), (4, 3)))


@pytest.mark.parametrize("name, body", [
    ("reshape-transposed", lambda xp, x: xp.reshape(x.T, (-1,))),
    ("ravel-strided", lambda xp, x: xp.ravel(x[:, ::2])),
    ("reshape-copy", lambda xp, x: xp.reshape(x, (6, 4), copy=True)),
    ("concat", lambda xp, x: xp.concat([x])),
    ("stack", lambda xp, x: xp.stack([x])),
    ("roll-0", lambda xp, x: xp.roll(x, 0)),
    ("tile-1", lambda xp, x: xp.tile(x, 1)),
    ("repeat-1", lambda xp, x: xp.repeat(x, 1, axis=0)),
    ("pad-0", lambda xp, x: xp.pad(x, 0)),
    ("diff-1", lambda xp, x: xp.diff(x)),
    ("meshgrid", lambda xp, x: xp.meshgrid(x[0, 0])[0]),
])
def test_copies(any_place, name, body):
    """Results NumPy copies are new arrays here too: writing into them leaves the input alone."""
    host = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    x = da.asarray(host, device=any_place)
    got, want = body(da, x), body(np, host)
    assert got._alloc is not x._alloc and not np.shares_memory(want, host)
    got[...] = 0
    assert_same(x, host)


def test_reshape_method_and_copy_false(any_place):
    host = np.arange(24, dtype=np.int16).reshape(4, 6)
    x = da.asarray(host, device=any_place)
    assert_same(x.reshape(2, 12), host.reshape(2, 12))
    assert_same(x.reshape((3, -1)), host.reshape((3, -1)))
    assert x.reshape(6, 4, copy=False)._alloc is x._alloc
    with pytest.raises(ValueError, match="darray reshape: .*copy"):
        x.T.reshape(-1, copy=False)
    with pytest.raises(ValueError, match="copy"):
        np.reshape(host.T, -1, copy=False)
    assert_same(x.T.reshape(-1), host.T.reshape(-1))
    assert_same(x.ravel(), host.ravel())
    assert_same(x.flatten(), host.flatten())
    assert_same(x.transpose(1, 0), host.transpose(1, 0))
    assert_same(x.T, host.T)
    assert_same(x.mT, host.mT)


def test_lazy_inputs_stay_correct(cl_place):
    """A pending chain as input: materialised once, later writes into the input leave the result alone."""
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = da.asarray(host, device=cl_place)
    y = x * 2 + 1
    assert y._node is not None or not importlib.import_module("darray.lazy.evaluate").ENABLED  # DARRAY_LAZY=0
    parts = da.concat([y, da.flip(y, axis=0)], axis=1), da.diff(y, axis=0), da.tril(y)
    x[...] = 0
    want = host * 2 + 1
    same(parts, (np.concat([want, want[::-1]], axis=1), np.diff(want, axis=0), np.tril(want)))


def test_other_inputs(any_place):
    """NumPy arrays and lists are copied to the place of the darray arguments."""
    x = da.asarray(np.ones((2, 2), np.float32), device=any_place)
    got = da.concat([x, np.zeros((1, 2), np.float32), [[5.0, 6.0]]])
    assert got.place == any_place
    assert_same(got, np.concat([np.ones((2, 2), np.float32), np.zeros((1, 2), np.float32), [[5.0, 6.0]]]))
    with da.place.use(any_place):
        assert_same(da.reshape([[1, 2], [3, 4]], -1), np.array([1, 2, 3, 4]))


def test_repeat_and_tile_take_darray_counts(any_place):
    """Counts as a DArray (what SciPy and scikit-learn pass), equal and unequal, 0-d too."""
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = da.asarray(host, device=any_place)
    for counts, axis in (([1, 0, 3], 1), ([2, 2], 0), (2, None), ([4, 0, 1, 2, 1, 0], None)):
        got = da.repeat(x, da.asarray(counts, device=any_place), axis=axis)
        assert_same(got, np.repeat(host, np.asarray(counts), axis=axis))
    assert_same(da.tile(x, da.asarray([2, 1], device=any_place)), np.tile(host, [2, 1]))


# -- bad input -----------------------------------------------------------------------------

BAD: list[tuple[str, Body]] = [
    ("reshape", lambda xp, x: xp.reshape(x, (5, 5))),
    ("reshape", lambda xp, x: xp.reshape(x, (-1, -1))),
    ("reshape", lambda xp, x: xp.reshape(x.T, (24,), copy=False)),
    ("reshape", lambda xp, x: xp.reshape(x[:0], (0, 2**62))),  # too big, though of size 0 (NumPy's rule)
    ("broadcast_to", lambda xp, x: xp.broadcast_to(x[0, 0, :1], (2**62,))),
    ("broadcast_arrays", lambda xp, x: xp.broadcast_arrays(x[:, :1, :0].reshape(2, 1, 0, 1),
                                                          xp.ones((1, 2**31, 0, 2**31), dtype=bool))),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (0, 0, 1))),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (0, 1, 3))),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (0, 1))),
    ("matrix_transpose", lambda xp, x: xp.matrix_transpose(x[0, 0])),
    ("swapaxes", lambda xp, x: xp.swapaxes(x, 0, 3)),
    ("moveaxis", lambda xp, x: xp.moveaxis(x, (0, 1), 0)),
    ("moveaxis", lambda xp, x: xp.moveaxis(x, 0, -4)),
    ("squeeze", lambda xp, x: xp.squeeze(x, axis=0)),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, 4)),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, (1, 1))),
    ("broadcast_to", lambda xp, x: xp.broadcast_to(x, (3, 4))),
    ("broadcast_arrays", lambda xp, x: xp.broadcast_arrays(x, x[:, :2])),
    ("flip", lambda xp, x: xp.flip(x, axis=3)),
    ("flip", lambda xp, x: xp.flip(x, axis=(0, 0))),
    ("concat", lambda xp, x: xp.concat([x, x[:, :, :2]], axis=1)),
    ("concat", lambda xp, x: xp.concat([x, x[0]])),
    ("concat", lambda xp, x: xp.concat([x[0, 0, 0], x[0, 0, 0]])),
    ("concat", lambda xp, x: xp.concat([])),
    ("concat", lambda xp, x: xp.concat([x, x], axis=-4)),
    ("stack", lambda xp, x: xp.stack([x, x[:1]])),
    ("stack", lambda xp, x: xp.stack([x, x], axis=4)),
    ("stack", lambda xp, x: xp.stack([])),
    ("unstack", lambda xp, x: xp.unstack(x, axis=3)),
    ("split", lambda xp, x: xp.split(x, 5, axis=2)),
    ("array_split", lambda xp, x: xp.array_split(x, 0)),
    ("split", lambda xp, x: xp.split(x, 2, axis=-4)),
    ("array_split", lambda xp, x: xp.array_split(x, -1)),
    ("roll", lambda xp, x: xp.roll(x, 1, axis=3)),
    ("roll", lambda xp, x: xp.roll(x, (1, 2, 3), axis=(0, 1))),
    ("tile", lambda xp, x: xp.tile(x, (2, -1))),
    ("repeat", lambda xp, x: xp.repeat(x, -1)),
    ("repeat", lambda xp, x: xp.repeat(x, [1, 2, -1], axis=1)),
    ("repeat", lambda xp, x: xp.repeat(x, [1, 2], axis=1)),
    ("repeat", lambda xp, x: xp.repeat(x, 2, axis=3)),
    ("repeat", lambda xp, x: xp.repeat(x, xp.asarray([1.0, 2.0, 1.0]), axis=1)),
    ("tril", lambda xp, x: xp.tril(x[0, 0, 0])),
    ("triu", lambda xp, x: xp.triu(x, k="1")),
    ("meshgrid", lambda xp, x: xp.meshgrid(x[0, 0], indexing="yx")),
    ("pad", lambda xp, x: xp.pad(x, -1)),
    ("pad", lambda xp, x: xp.pad(x, 1.5)),
    ("pad", lambda xp, x: xp.pad(x, ((1, 2), (3, 4)))),
    ("pad", lambda xp, x: xp.pad(x, 1, mode="wrapped")),
    ("pad", lambda xp, x: xp.pad(x[:, :0], 1, mode="edge")),
    ("pad", lambda xp, x: xp.pad(x.astype(np.int8), 1, constant_values=300)),
    ("diff", lambda xp, x: xp.diff(x, n=-1)),
    ("diff", lambda xp, x: xp.diff(x[0, 0, 0])),
    ("diff", lambda xp, x: xp.diff(x, axis=3)),
    ("diff", lambda xp, x: xp.diff(x, prepend=x[:, :1])),
]


@pytest.mark.parametrize("name, body", BAD, ids=[f"{n}-{k}" for k, (n, _) in enumerate(BAD)])
def test_bad_input(any_place, name, body):
    """NumPy's exception class (AxisError where NumPy raises it), a message naming the op; the
    next call works."""
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = da.asarray(host, device=any_place)
    with pytest.raises(Exception) as want:
        body(np, host)
    with pytest.raises(want.type, match=f"darray {name}"):
        body(da, x)
    assert_same(da.concat([x, x], axis=-1), np.concat([host, host], axis=-1))


def test_concat_across_places(cl_place):
    with pytest.raises(ValueError, match="darray concat: .*different places"):
        da.concat([da.ones(2, device=cl_place), da.ones(2, device="cpu")])
