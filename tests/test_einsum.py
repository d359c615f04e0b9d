"""einsum and einsum_path against NumPy's: explicit and implicit outputs, ellipses, repeated labels,
the interleaved form, several operands, views and both places."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from helpers import View, arrays, assert_same, tolerance, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

RNG = np.random.default_rng(5)
A, B, C = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 5)), RNG.standard_normal((5, 3))
T, S = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((4, 4))
CASES = [("ij,jk->ik", A, B), ("ij,jk", A, B), ("ij,jk,ki->", A, B, C), ("ij,jk,kl->il", A, B, C), ("ii->i", S),
         ("ii", S), ("ij->ji", A), ("bij,bjk->bik", T, RNG.standard_normal((2, 4, 3))), ("...j,j->...", T, A[0]),
         ("i,i", A[0], A[0]), ("ij,ij->ij", A, A), ("i,j->ij", A[0], B[0]), ("ijk->", T), ("...ij->...ji", T),
         ("iij->j", RNG.standard_normal((3, 3, 2))), ("ij,jk->ki", A.astype(np.int32), B.astype(np.int32)),
         ("bij->b", T), ("b...,b->b...", T, T[:, 0, 0])]


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy(place, case) -> None:
    spec, *arrays = case
    got = da.einsum(spec, *[da.asarray(a, device=place) for a in arrays])
    assert_same(got, np.einsum(spec, *arrays), rtol=1e-10, atol=1e-10)


def test_views_interleaved_out_and_path() -> None:
    x = da.asarray(T)[:, ::-1, ::2]
    assert_same(da.einsum("bij,bkj->bik", x, x), np.einsum("bij,bkj->bik", T[:, ::-1, ::2], T[:, ::-1, ::2]),
                rtol=1e-10, atol=1e-10)
    assert_same(da.einsum(da.asarray(A), [0, 1], da.asarray(B), [1, 2], [0, 2]), np.einsum(A, [0, 1], B, [1, 2],
                                                                                          [0, 2]),
                rtol=1e-10, atol=1e-10)
    out = da.empty((3, 5))
    assert da.einsum("ij,jk", da.asarray(A), da.asarray(B), out=out) is out
    assert_same(da.einsum("ij,jk", da.asarray(A), da.asarray(B), dtype=np.float32, casting="same_kind"),
                np.einsum("ij,jk", A, B, dtype=np.float32, casting="same_kind"), rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="cast"):
        da.einsum("ij,jk", da.asarray(A), da.asarray(B), dtype=np.float32)
    path, text = da.einsum_path("ij,jk,kl->il", da.asarray(A), da.asarray(B), da.asarray(C))
    want, _ = np.einsum_path("ij,jk,kl->il", A, B, C)
    assert path == want and "Optimized" in text
    with pytest.raises(ValueError, match="einsum"):
        da.einsum("ij,jk->iz", da.asarray(A), da.asarray(B))
    with pytest.raises(ValueError, match="einsum"):
        da.einsum("ijk", da.asarray(A))
    assert isinstance(np.einsum("ij,jk", da.asarray(A), da.asarray(B)), da.DArray)


def test_broadcast_interleaved_letters_and_empty_sums() -> None:
    """Found by the hypothesis test: size-1 dimensions broadcast (labelled and '...'), the interleaved
    form's 0..25 are NumPy's A..Z (so implicit outputs order as NumPy's), a sum of no terms is 0."""
    for spec, ops in [("ij,jk", (A[:, :1], B[:1])), ("...i,...i", (T[:, :1], A)), ("i,j->", (np.array([np.nan]),
                                                                                           np.ones(0)))]:
        assert_same(da.einsum(spec, *map(da.asarray, ops)), np.einsum(spec, *ops), rtol=1e-12, atol=1e-12)
    assert_same(da.einsum(da.asarray(A), [0, 27]), np.einsum(A, [0, 27]))
    with pytest.raises(ValueError, match="einsum.*broadcast"):
        da.einsum("ij,jk", da.asarray(A), da.asarray(A))
    assert_same(da.einsum("ij,jk", da.asarray(A), da.asarray(B)), A @ B, rtol=1e-12, atol=1e-12)

# Hypothesis: random subscripts over a few labels (upper case too: the interleaved form's 0..25 are
# A..Z), each label one size (sometimes 0), sometimes 1 in an operand (broadcast), repeated labels in
# an operand (diagonals), sometimes '...' (broadcast ellipsis dimensions), explicit or implicit output.
LABELS = "abcB"
DTYPES = ["int8", "uint8", "int32", "int64", "float32", "float64"]
# Floats: moderate values, -0.0 and NaN. No infinities: an einsum's result with inf depends on the
# contraction order (inf * (0 + 1) is inf, inf * 0 + inf * 1 is NaN), which NumPy's paths differ in too.
FLOATS = st.one_of(st.floats(-4, 4, width=32), st.sampled_from([np.nan, -0.0]))


@st.composite
def _operand(draw, shape: tuple[int, ...], dtype: str) -> tuple[np.ndarray, View]:
    """A base array and a view recipe (strided, reversed, offset, transposed) that gives ``shape``."""
    axes = tuple(draw(st.permutations(range(len(shape)))))
    inner = [shape[axes.index(k)] for k in range(len(shape))]  # the sliced shape before transposing
    steps = [draw(st.sampled_from([1, 1, 2, -1, -2])) for _ in inner]
    starts = [draw(st.integers(0, 2)) if s > 0 else 0 for s in steps]
    base_shape = tuple(b + (n - 1) * s + 1 if s > 0 and n else b if s > 0 else n * -s
                       for n, s, b in zip(inner, steps, starts))
    elements = FLOATS if dtype.startswith("float") else None
    base = draw(arrays(dtype, base_shape, elements=elements))
    keys = tuple(slice(b, None, s) if s > 0 else slice(None, None, s) for s, b in zip(steps, starts))
    return base, View(keys, axes)


@st.composite
def einsum_cases(draw) -> tuple[str, list[tuple[np.ndarray, View]], list[list[Any]], Any]:
    """(subscripts, operands as (base, view), the interleaved form's sublists, optimize=)."""
    optimize = draw(st.sampled_from([False, True, "greedy", "optimal"]))
    size = {c: draw(st.sampled_from([0, 1, 2, 2, 3, 4])) for c in LABELS}
    ell = draw(st.one_of(st.none(), st.lists(st.integers(1, 3), max_size=2)))
    dtype = draw(st.sampled_from(DTYPES))
    terms, shapes = [], []
    for _ in range(draw(st.integers(1, 3))):
        labels = draw(st.lists(st.sampled_from(LABELS), max_size=3))
        shape = [1 if labels.count(c) == 1 and draw(st.integers(0, 5)) == 0 else size[c] for c in labels]
        if ell is not None and draw(st.booleans()):
            k = draw(st.integers(0, len(labels)))
            dims = [1 if draw(st.integers(0, 3)) == 0 else n for n in ell[len(ell) - draw(st.integers(0, len(ell))):]]
            labels, shape = [*labels[:k], "...", *labels[k:]], [*shape[:k], *dims, *shape[k:]]
        terms.append(labels)
        shapes.append(tuple(shape))
    dtypes = [draw(st.sampled_from([dtype, dtype, *DTYPES])) for _ in terms]
    operands = [draw(_operand(s, d)) for s, d in zip(shapes, dtypes)]
    used = sorted({c for t in terms for c in t if c != "..."})
    output = None
    if draw(st.booleans()):
        output = draw(st.permutations(used))[:draw(st.integers(0, len(used)))]
        if any("..." in t for t in terms):  # NumPy requires '...' in an explicit output when operands have it
            output.insert(draw(st.integers(0, len(output))), "...")
    spec = ",".join("".join(t) for t in terms) + ("" if output is None else "->" + "".join(output))
    number = {c: (ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26) for c in LABELS}
    sublists = [[Ellipsis if c == "..." else number[c] for c in t] for t in [*terms, *([output] if output else [])]]
    return spec, operands, sublists, optimize


def _einsum_args(spec: str, views: list, sublists: list, interleaved: bool) -> list:
    if not interleaved:
        return [spec, *views]
    pairs = [v for view, sub in zip(views, sublists) for v in (view, sub)]
    return pairs + sublists[len(views):]


@pytest.mark.parametrize("place", [None, "cpu"])
@given(case=einsum_cases(), interleaved=st.booleans(), use_out=st.booleans(),
       dtype=st.sampled_from([None, None, "float64"]))
def test_einsum_property(place, case, interleaved, use_out, dtype) -> None:
    spec, operands, sublists, optimize = case
    np_views = [view(base) for base, view in operands]
    da_views = [view(da.asarray(base, device=place)) for base, view in operands]
    kw: dict[str, Any] = {} if dtype is None else {"dtype": dtype}
    # The reference is NumPy's own loop (optimize=False): every product summed in the requested dtype.
    # NumPy's optimized paths differ from it: each pairwise step computes in that pair's dtype (uint8 *
    # int32 wraps in int32 before a float64 operand joins; a trace of int8 wraps under dtype=float64),
    # and an empty sum (0) times NaN is NaN there. darray gives the same result for every optimize=.
    want = np.einsum(*_einsum_args(spec, np_views, sublists, interleaved), **kw)
    out = da.empty(want.shape, dtype=want.dtype, device=place) if use_out else None
    if use_out:  # (NumPy refuses an out= of a one-operand view's dtype where dtype= casts beyond it)
        try:
            np.einsum(*_einsum_args(spec, np_views, sublists, interleaved), out=np.empty_like(want), **kw)
        except TypeError:
            with pytest.raises(TypeError, match="einsum"):
                da.einsum(*_einsum_args(spec, da_views, sublists, interleaved), out=out, optimize=optimize, **kw)
            return
    got = da.einsum(*_einsum_args(spec, da_views, sublists, interleaved), out=out, optimize=optimize, **kw)
    assert out is None or got is out
    assert got.place == da.place.parse(place)
    # The same sum in another order: a tolerance of the dtype times the sum of the terms' magnitudes.
    bound = np.einsum(spec, *[np.abs(v.astype(np.float64)) for v in np_views])
    tol = tolerance(want.dtype)
    scale = float(np.nan_to_num(bound, nan=1.0).max(initial=1.0)) if tol["atol"] else 0.0
    assert_same(got, want, rtol=tol["rtol"], atol=tol["atol"] * max(scale, 1.0))
    path, text = da.einsum_path(spec, *da_views, optimize="greedy")
    assert (path, text) == np.einsum_path(spec, *np_views, optimize="greedy")


@given(data=st.data(), dtype=st.sampled_from([None, "int64", "float32", "int8"]))
def test_one_operand_views_keep_their_dtype(data, dtype) -> None:
    """One operand whose labels all reach the output ('ij', 'ij->ji', 'ii->i', '...'): NumPy's view of
    it in its own dtype whatever ``dtype=`` says; writing through the result writes the operand."""
    kind = data.draw(st.sampled_from(["uint16", "int8", "float32", "bool", "complex64"]))
    base, view = data.draw(viewed(kind, min_dims=1, max_dims=3, max_side=4))
    x_np = view(base.copy())
    n = x_np.ndim
    labels = list("abc"[:n])
    if n >= 2 and x_np.shape[0] == x_np.shape[1] and data.draw(st.booleans()):
        labels[1] = labels[0]  # a diagonal
    distinct = list(dict.fromkeys(labels))
    spec = "".join(labels) + ("" if data.draw(st.booleans()) and labels == distinct
                              else "->" + "".join(data.draw(st.permutations(distinct))))
    kw = {} if dtype is None else {"dtype": dtype}
    x_da = view(da.asarray(base.copy()))
    want, got = np.einsum(spec, x_np, **kw), da.einsum(spec, x_da, **kw)
    assert_same(got, want)
    assert want.size == 0 or np.shares_memory(want, x_np)
    if want.size:
        got[(0,) * got.ndim] = 1
        want[(0,) * want.ndim] = 1
        assert_same(x_da, x_np)
