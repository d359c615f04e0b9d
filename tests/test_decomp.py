"""``darray.linalg``'s decompositions and solvers (``darray/ops/decomp.py``) against NumPy, on
each place: results on the input's place, NumPy's values and dtypes, NumPy's errors."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, check_outcome, viewed
from hypothesis import given
from hypothesis import strategies as st

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


_DTYPES = ["bool", "int8", "int64", "uint8", "float16", "float32", "float64", "complex64", "complex128"]
_UPLO = ["L", "U", "l", "u", "x", "LU", None, 1]
_HERMITIAN = {  # body(xp, a) of a stack of square matrices a (neither Hermitian nor symmetric: UPLO matters)
    "eigh": lambda xp, a, uplo: tuple(xp.linalg.eigh(a, UPLO=uplo)),
    "eigh-positional": lambda xp, a, uplo: tuple(xp.linalg.eigh(a, uplo)),
    "eigvalsh": lambda xp, a, uplo: xp.linalg.eigvalsh(a, UPLO=uplo),
    "eigvalsh-default": lambda xp, a, uplo: xp.linalg.eigvalsh(a),
}


def _matrices(dtype: str, square: bool) -> st.SearchStrategy:
    """(base, view) of stacks of matrices (rank 1-4: 1-d input too; empty sides; strided, reversed,
    transposed) whose values are small integers."""
    elements = st.booleans() if dtype == "bool" else st.integers(0 if dtype == "uint8" else -4, 4)
    return viewed(dtype, 1, 4, 4, elements).map(lambda bv: (bv[0], _Square(bv[1]) if square else bv[1]))


class _Square:
    """A view recipe, then its last two axes cut to a square."""

    def __init__(self, view) -> None:
        self.view = view

    def __call__(self, x):
        y = self.view(x)
        n = min(y.shape[-2:]) if y.ndim >= 2 else 0
        return y[..., :n, :n] if y.ndim >= 2 else y


@pytest.mark.parametrize("name", sorted(_HERMITIAN))
@given(data=st.data())
def test_eigh_uplo_as_numpy(any_place, name, data) -> None:
    """eigh and eigvalsh for each ``UPLO`` (lowercase accepted, others NumPy's ValueError) over every
    input dtype and layout: NumPy's eigenvalues and eigenvectors and dtypes, or its exception class."""
    dtype = data.draw(st.sampled_from(_DTYPES), label="dtype")
    base, view = data.draw(_matrices(dtype, square=True), label="base, view")
    uplo = data.draw(st.sampled_from(_UPLO), label="UPLO")
    check_outcome(lambda xp, a: _HERMITIAN[name](xp, a, uplo), base, place=any_place, view=view,
                  rtol=1e-6, atol=1e-6)


@given(data=st.data())
def test_svd_options_as_numpy(any_place, data) -> None:
    """svd for each ``full_matrices``, ``compute_uv`` and ``hermitian`` (on any matrix: NumPy's
    eigh-based answer then) over every input dtype and layout, 1-d input too (NumPy's LinAlgError)."""
    dtype = data.draw(st.sampled_from(_DTYPES), label="dtype")
    hermitian = data.draw(st.booleans(), label="hermitian")
    base, view = data.draw(_matrices(dtype, square=hermitian), label="base, view")
    full, uv = data.draw(st.booleans(), label="full_matrices"), data.draw(st.sampled_from([True, False, 0, 1]))

    def body(xp, a):
        out = xp.linalg.svd(a, full_matrices=full, compute_uv=uv, hermitian=hermitian)
        return tuple(out) if uv else out

    check_outcome(body, base, place=any_place, view=view, rtol=1e-6, atol=1e-6)


def test_linalg_shape_errors_are_numpys() -> None:
    """A 1-d or non-square argument: NumPy's LinAlgError (a ValueError) naming the function."""
    for name, body in [("svd", lambda xp: xp.linalg.svd(xp.ones(3))),
                       ("eigh", lambda xp: xp.linalg.eigh(xp.ones((2, 3)))),
                       ("det", lambda xp: xp.linalg.det(xp.ones(2))),
                       ("matrix_power", lambda xp: xp.linalg.matrix_power(xp.ones(2), 2)),
                       ("matrix_power", lambda xp: xp.linalg.matrix_power(xp.ones((2, 3)), 2))]:
        with pytest.raises(np.linalg.LinAlgError):
            body(np)
        with pytest.raises(np.linalg.LinAlgError, match=f"darray {name}"):
            body(da)
    assert_same(da.linalg.matrix_power(da.eye(2), True), np.linalg.matrix_power(np.eye(2), True))
