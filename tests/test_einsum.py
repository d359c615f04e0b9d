"""einsum and einsum_path against NumPy's: explicit and implicit outputs, ellipses, repeated labels,
the interleaved form, several operands, views and both places."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

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
