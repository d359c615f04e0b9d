"""``darray.linalg``'s decompositions and solvers (``darray/ops/decomp.py``) against NumPy, on
each place: results on the input's place, NumPy's values and dtypes, NumPy's errors."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

import darray as da

_RNG = np.random.default_rng(7)
_X = _RNG.standard_normal((2, 3, 3))
_SPD = _X @ np.swapaxes(_X, -1, -2) + 3 * np.eye(3)
_R = _RNG.standard_normal((4, 3)).astype(np.float32)

CASES = [
    ("cholesky", lambda L: L.cholesky(_SPD)), ("cholesky-upper", lambda L: L.cholesky(_SPD, upper=True)),
    ("det", lambda L: L.det(_X)), ("eigvalsh", lambda L: L.eigvalsh(_SPD)), ("inv", lambda L: L.inv(_X)),
    ("matrix_rank", lambda L: L.matrix_rank(_R)), ("pinv", lambda L: L.pinv(_R)),
    ("solve", lambda L: L.solve(_SPD, _X)), ("svdvals", lambda L: L.svdvals(_R)),
    ("slogdet", lambda L: tuple(L.slogdet(_X))), ("eigh-values", lambda L: L.eigh(_SPD)[0]),
    ("qr-complete-R", lambda L: L.qr(_R, mode="complete")[1]), ("svd-S", lambda L: L.svd(_R)[1]),
    ("cross", lambda L: L.cross(_X, _X[:, ::-1])), ("cross-axis0", lambda L: L.cross(_R[:3], _R[1:], axis=0)),
    ("cross-(0,3)x(3,)", lambda L: L.cross(_R[:0, :3], _R[0, :3])),
    ("cross-(3,)x(4,3)", lambda L: L.cross(_R[1, :3], _R[:, :3])),
    ("cross-(2,1,3)x(4,3)", lambda L: L.cross(_X[:, :1], _R[:, :3].astype(np.float64))),
    ("cross-axis0-(3,2)x(3,)", lambda L: L.cross(_R[:3, :2], _R[0, :3], axis=0)),
    ("cross-axis-2-(2,3,3)x(3,3)", lambda L: L.cross(_X, _X[0, :, ::-1], axis=-2)),
    ("matrix_power-3", lambda L: L.matrix_power(_X, 3)), ("matrix_power-0", lambda L: L.matrix_power(_X, 0)),
    ("matrix_power--2", lambda L: L.matrix_power(_X, -2)),
]


@pytest.mark.parametrize("body", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_against_numpy(body, any_place) -> None:
    want = body(np.linalg)
    with da.place.use(any_place):
        got = body(da.linalg)
    for g, w in zip(got, want) if isinstance(want, tuple) else ((got, want),):
        assert g.device == any_place
        assert_same(g, w, rtol=1e-5 if np.asarray(w).dtype == np.float32 else 1e-10, atol=1e-5)


def test_factorisations_reconstruct(any_place) -> None:
    x = da.asarray(_R, device=any_place)
    q, r = da.linalg.qr(x)
    assert_same(q @ r, _R, rtol=1e-5, atol=1e-5)
    u, s, vh = da.linalg.svd(x, full_matrices=False)
    assert_same((u * s[None, :]) @ vh, _R, rtol=1e-5, atol=1e-5)
    w, v = da.linalg.eigh(da.asarray(_SPD, device=any_place))
    assert_same(v @ (w[..., None] * da.linalg.matrix_transpose(v)), _SPD, rtol=1e-10, atol=1e-10)


def test_errors() -> None:
    with pytest.raises(np.linalg.LinAlgError, match="darray inv"):
        da.linalg.inv(da.zeros((2, 2)))
    with pytest.raises(ValueError, match="square"):
        da.linalg.det(da.ones((2, 3)))
    with pytest.raises(ValueError, match="size 3"):
        da.linalg.cross(da.ones((2, 2)), da.ones((2, 2)))
    for a, b, axis in (((2, 3), (4, 3), -1), ((3, 2), (1, 3, 1), -1), ((4, 3, 2), (3, 2), 1)):
        with pytest.raises(ValueError):
            np.linalg.cross(np.ones(a), np.ones(b), axis=axis)
        with pytest.raises(ValueError, match="darray cross"):
            da.linalg.cross(da.ones(a), da.ones(b), axis=axis)
    assert_same(da.linalg.cross(da.ones((0, 3)), da.ones(3)), np.linalg.cross(np.ones((0, 3)), np.ones(3)))
    with pytest.raises(TypeError, match="integer"):
        da.linalg.matrix_power(da.eye(2), 1.5)
    with pytest.raises(ValueError, match="mode"):
        da.linalg.qr(da.eye(2), mode="r")
