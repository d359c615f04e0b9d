"""Linear algebra against NumPy: matmul over every shape mode, layout, dtype and both OpenCL
paths (GEMM kernel, host BLAS on mapped buffers), tensordot, vecdot, dot, outer, trace,
diagonal, matrix_transpose, vector_norm, matrix_norm, and bad input."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da
from darray.ops import _gemm

MATMUL_DTYPES = [np.dtype(t) for t in ("float32", "float64", "int32", "int64", "uint8", "complex64", "complex128",
                                       "bool")]
LAYOUTS = ("c", "t", "s", "r")  # contiguous, last two axes transposed, strided (step 2), reversed (step -1)


@pytest.fixture(params=["host", "kernel"])
def path(request, monkeypatch):
    """Each matmul path in turn (``_gemm.SETTING``: DARRAY_MATMUL as read at import)."""
    monkeypatch.setattr(_gemm, "SETTING", request.param)
    return request.param


def data(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, 8, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-8, 8, shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)
    return rng.uniform(-1, 1, shape).astype(dtype)


def on_device(host: np.ndarray, layout: str, place) -> da.DArray:
    """A DArray equal to ``host`` whose memory layout is ``layout`` (a view where not 'c')."""
    if layout == "t" and host.ndim >= 2:
        return da.asarray(np.ascontiguousarray(np.swapaxes(host, -1, -2)), device=place).mT
    if layout == "s" and host.ndim >= 1:
        big = np.zeros(host.shape[:-1] + (2 * host.shape[-1] + 1,), host.dtype)
        big[..., 1::2] = host
        return da.asarray(big, device=place)[..., 1::2]
    if layout == "r" and host.ndim >= 1:
        return da.asarray(np.ascontiguousarray(host[::-1]), device=place)[::-1]
    return da.asarray(host, device=place)


def close(got, want: np.ndarray, k: int = 1) -> None:
    got = got.get() if isinstance(got, da.DArray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        eps = np.finfo(want.dtype).eps
        np.testing.assert_allclose(got, want, rtol=max(1e-4 if eps > 1e-10 else 1e-10, 64 * eps),
                                   atol=16 * eps * max(k, 1))
    else:
        np.testing.assert_array_equal(got, want)


@st.composite
def matmul_cases(draw, dtypes=tuple(MATMUL_DTYPES)):
    mode = draw(st.sampled_from(["1x1", "1x2", "2x1", "2x2", "nd"]))
    m, k, n = (draw(st.integers(0, 40)) for _ in range(3))
    a_shape = (k,) if mode in ("1x1", "1x2") else (m, k)
    b_shape = (k,) if mode in ("1x1", "2x1") else (k, n)
    if mode == "nd":
        batch = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
        a_batch = [d if draw(st.booleans()) else 1 for d in batch][draw(st.integers(0, len(batch))):]
        b_batch = [d if draw(st.booleans()) else 1 for d in batch][draw(st.integers(0, len(batch))):]
        a_shape, b_shape = tuple(a_batch) + a_shape, tuple(b_batch) + b_shape
        if len(a_shape) == 2 and len(b_shape) == 2:
            a_shape = (2,) + a_shape
    return (a_shape, b_shape, draw(st.sampled_from(dtypes)), draw(st.sampled_from(LAYOUTS)),
            draw(st.sampled_from(LAYOUTS)), draw(st.integers(0, 2**32 - 1)))


# -- matmul --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["host", "kernel"])
@given(case=matmul_cases())
def test_matmul_matches_numpy(cl_place, mode, case):
    a_shape, b_shape, dtype, la, lb, seed = case
    rng = np.random.default_rng(seed)
    a, b = data(rng, a_shape, dtype), data(rng, b_shape, dtype)
    want = np.matmul(a, b)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_gemm, "SETTING", mode)
        close(da.matmul(on_device(a, la, cl_place), on_device(b, lb, cl_place)), want, a_shape[-1])
        close(on_device(a, la, cl_place) @ on_device(b, lb, cl_place), want, a_shape[-1])


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_matmul_local_memory_variant(cl_place, monkeypatch, dtype):
    """The tiled (GPU) kernel, forced on whatever device runs the tests."""
    monkeypatch.setattr(_gemm, "SETTING", "kernel")
    monkeypatch.setattr(_gemm, "FORCE_TILED", (4, 4, 8))
    rng = np.random.default_rng(1)
    dt = np.dtype(dtype)
    for a_shape, b_shape, la, lb in [((17, 9), (9, 23), "c", "c"), ((3, 16, 16), (16, 5), "t", "s"),
                                     ((2, 1, 5, 7), (3, 7, 8), "r", "t"), ((33,), (33, 4), "c", "c")]:
        a, b = data(rng, a_shape, dt), data(rng, b_shape, dt)
        close(on_device(a, la, cl_place) @ on_device(b, lb, cl_place), a @ b, a_shape[-1])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_matmul_long_inner_dimension(cl_place, path, dtype):
    rng = np.random.default_rng(2)
    dt = np.dtype(dtype)
    a, b = data(rng, (67, 300), dt), data(rng, (300, 45), dt)
    close(da.asarray(a, device=cl_place) @ da.asarray(b, device=cl_place), a @ b, 300)
    big = data(rng, (3, 130, 70), dt)  # crosses the host path's size threshold under auto too
    close(da.asarray(big, device=cl_place) @ da.asarray(big, device=cl_place).mT, big @ np.swapaxes(big, -1, -2), 70)


@pytest.mark.parametrize("pair", [("int32", "float32"), ("int8", "uint8"), ("bool", "int32"),
                                  ("float32", "complex64"), ("int64", "uint64"), ("float32", "float64")])
def test_matmul_promotes_like_numpy(cl_place, path, pair):
    rng = np.random.default_rng(3)
    a, b = data(rng, (4, 6), np.dtype(pair[0])), data(rng, (6, 5), np.dtype(pair[1]))
    close(da.asarray(a, device=cl_place) @ da.asarray(b, device=cl_place), a @ b, 6)
    close(da.matmul(da.asarray(b.T, device=cl_place), a.T), b.T @ a.T, 6)  # a NumPy operand too


def test_matmul_batch_dims_that_do_not_collapse(cl_place, path):
    """Three batch dims with mixed broadcasting: the kernel loops over the outer ones."""
    rng = np.random.default_rng(13)
    a, b = data(rng, (2, 1, 3, 4, 5), np.dtype("float32")), data(rng, (1, 4, 1, 5, 6), np.dtype("float32"))
    close(on_device(a, "s", cl_place) @ on_device(b, "t", cl_place), a @ b, 5)
    c, d = data(rng, (3, 4, 4, 5), np.dtype("int32")), data(rng, (4, 5, 6), np.dtype("int32"))
    close(on_device(c, "r", cl_place) @ da.asarray(d, device=cl_place), c @ d, 5)  # a negative batch stride


@pytest.mark.parametrize("a_shape,b_shape", [((3, 0), (0, 4)), ((0, 3), (3, 4)), ((3, 4), (4, 0)), ((0,), (0,)),
                                             ((2, 0, 3, 5), (5, 2)), ((2, 3, 0), (0,)), ((0,), (0, 2))])
def test_matmul_empty(cl_place, path, a_shape, b_shape):
    a, b = np.ones(a_shape, np.float32), np.ones(b_shape, np.float32)
    close(da.asarray(a, device=cl_place) @ da.asarray(b, device=cl_place), a @ b)


def test_matmul_pending_inputs_and_lazy_consumers(cl_place, path):
    rng = np.random.default_rng(4)
    a, b = data(rng, (20, 30), np.dtype("float32")), data(rng, (30, 10), np.dtype("float32"))
    x, y = da.asarray(a, device=cl_place), da.asarray(b, device=cl_place)
    c = (x * 2 + 1) @ (y - 0.5)
    d = c * 3 + 1  # an elementwise consumer of the matmul's output
    close(d, ((a * 2 + 1) @ (b - 0.5)) * 3 + 1, 30)
    # writes into an input after the matmul leave its result unchanged
    c2 = x @ y
    x[...] = 0
    close(c2, a @ b, 30)
    close(x @ y, np.zeros((20, 10), np.float32))


def test_matmul_orders_with_other_streams(cl_place, path):
    """Inputs written on another stream, the result read on a third: events order everything."""
    rng = np.random.default_rng(14)
    a = data(rng, (96, 64), np.dtype("float32"))
    x = da.asarray(a, device=cl_place)
    with da.stream(place=cl_place):
        y = (x * 2).eval()
    z = y @ y.mT
    with da.stream(place=cl_place):
        w = (z + 1).eval()
    close(w, (a * 2) @ (a * 2).T + 1, 64)


def test_matmul_setting_is_checked_at_call_time(cl_place, monkeypatch):
    calls = []
    for name in ("run_host", "run_kernel"):
        real = getattr(_gemm, name)
        monkeypatch.setattr(_gemm, name, lambda *a, _real=real, _n=name: (calls.append(_n), _real(*a))[1])
    x = da.asarray(np.ones((4, 4), np.float32), device=cl_place)
    for mode, want in (("host", "run_host"), ("kernel", "run_kernel"), ("host", "run_host")):
        monkeypatch.setattr(_gemm, "SETTING", mode)
        close(x @ x, np.full((4, 4), 4, np.float32))
        assert calls[-1] == want
    monkeypatch.setattr(_gemm, "SETTING", "auto")
    x @ x
    assert _gemm.choose(cl_place, np.dtype("int32"), 1 << 30) == "kernel" or not _gemm.host.on(cl_place)
    monkeypatch.setattr(_gemm, "SETTING", "blas")
    with pytest.raises(ValueError, match="DARRAY_MATMUL"):
        x @ x


def test_matmul_bad_input(cl_place):
    x = da.asarray(np.ones((2, 3), np.float32), device=cl_place)
    with pytest.raises(ValueError, match=r"\(2,3\).*\(2,3\)"):
        x @ x
    with pytest.raises(ValueError, match="0-d"):
        da.matmul(x, da.asarray(np.float32(2), device=cl_place))
    with pytest.raises(ValueError, match="0-d"):
        da.matmul(2.0, x)
    with pytest.raises(ValueError, match="broadcast"):
        da.matmul(da.ones((2, 2, 3), device=cl_place), da.ones((3, 3, 4), device=cl_place))
    with pytest.raises(ValueError, match="places"):
        x @ da.asarray(np.ones((3, 2), np.float32), device="cpu")
    y = x @ x.mT  # the device and the pool are fine afterwards
    close(y, np.full((2, 2), 3, np.float32))


def test_matmul_cpu_place():
    rng = np.random.default_rng(5)
    a, b = data(rng, (2, 3, 4), np.dtype("float64")), data(rng, (4, 5), np.dtype("int32"))
    close(da.asarray(a, device="cpu") @ da.asarray(b, device="cpu"), a @ b, 4)
    close(da.matmul(da.asarray(a[0, 0], device="cpu"), da.asarray(b, device="cpu")), a[0, 0] @ b, 4)


# -- tensordot, dot, vecdot, outer ---------------------------------------------------------------
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 3), sizes=st.lists(st.integers(0, 4), min_size=5, max_size=5),
       dtype=st.sampled_from(["float32", "int64", "complex64"]))
def test_tensordot_int_axes(any_place, seed, n, sizes, dtype):
    rng = np.random.default_rng(seed)
    free_a, common, free_b = sizes[:2], sizes[2:2 + n], sizes[4:]
    a, b = data(rng, tuple(free_a + common), np.dtype(dtype)), data(rng, tuple(common + free_b), np.dtype(dtype))
    close(da.tensordot(da.asarray(a, device=any_place), da.asarray(b, device=any_place), axes=n),
          np.tensordot(a, b, axes=n), math.prod(common))


@pytest.mark.parametrize("axes", [([1, 0], [0, 2]), ([-1], [1]), ((2,), (0,)), (1, 1), ([], [])])
def test_tensordot_axis_pairs(any_place, axes):
    rng = np.random.default_rng(6)
    a, b = data(rng, (3, 4, 2), np.dtype("float64")), data(rng, (4, 2, 3), np.dtype("float64"))
    if axes == ([-1], [1]) or axes == (1, 1):
        b = data(rng, (3, 2, 5), np.dtype("float64"))
        axes = ([-1], [1]) if axes == (1, 1) else axes
    if axes == ((2,), (0,)):
        b = data(rng, (2, 5), np.dtype("float64"))
    close(da.tensordot(da.asarray(a, device=any_place), da.asarray(b, device=any_place), axes=axes),
          np.tensordot(a, b, axes=axes), 12)


def test_tensordot_errors(cl_place):
    x = da.ones((2, 3), device=cl_place)
    with pytest.raises(ValueError, match="shape-mismatch"):
        da.tensordot(x, x, axes=([0], [1]))
    with pytest.raises(ValueError):
        da.tensordot(x, x, axes=3)
    with pytest.raises(ValueError):
        da.tensordot(x, x, axes=([0, 1], [0]))


@pytest.mark.parametrize("a_shape,b_shape", [((), (3,)), ((4,), ()), ((5,), (5,)), ((2, 5), (5,)), ((5,), (5, 3)),
                                             ((2, 5), (5, 3)), ((2, 3, 5), (5,)), ((5,), (2, 5, 3)),
                                             ((2, 3, 5), (4, 5, 2)), ((2, 5), (3, 5, 4))])
def test_dot_matches_numpy(any_place, a_shape, b_shape):
    rng = np.random.default_rng(7)
    for dtype in ("float32", "int32"):
        a, b = data(rng, a_shape, np.dtype(dtype)), data(rng, b_shape, np.dtype(dtype))
        close(da.dot(da.asarray(a, device=any_place), da.asarray(b, device=any_place)), np.dot(a, b), 5)
    x = da.asarray(data(rng, (3,), np.dtype("float32")), device=any_place)
    close(da.dot(x, 2), np.dot(x.get(), 2))
    with pytest.raises(ValueError, match="not aligned"):
        da.dot(da.ones((2, 3), device=any_place), da.ones((4, 2), device=any_place))


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), shapes=st.sampled_from([((5,), (5,)), ((3, 5), (5,)), ((2, 1, 4), (3, 4)),
                                                                ((4, 3), (4, 3)), ((0, 3), (1, 3)), ((3, 0), (3, 0))]),
       axis=st.sampled_from([-1, -2, 0]), dtype=st.sampled_from(["float32", "int32", "complex128", "bool", "float64"]))
def test_vecdot_matches_numpy(any_place, seed, shapes, axis, dtype):
    rng = np.random.default_rng(seed)
    a, b = data(rng, shapes[0], np.dtype(dtype)), data(rng, shapes[1], np.dtype(dtype))
    try:
        want = np.vecdot(a, b, axis=axis)
    except (ValueError, np.exceptions.AxisError):
        with pytest.raises(ValueError):
            da.vecdot(da.asarray(a, device=any_place), da.asarray(b, device=any_place), axis=axis)
        return
    got = da.vecdot(da.asarray(a, device=any_place), da.asarray(b, device=any_place), axis=axis)
    close(got, want, 5)
    close(da.linalg.vecdot(da.asarray(a, device=any_place), da.asarray(b, device=any_place), axis=axis), want, 5)


@pytest.mark.parametrize("n", [7, 255, 256, 257, 4097])
@pytest.mark.parametrize("view", ["reversed", "stepped", "transposed"])
def test_vecdot_of_views_and_pending_operands(any_place, n, view):
    """Views and pending operands, reduced along the last axis (fused into the sum) or another."""
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal((3, 2 * n)).astype(np.float32), rng.standard_normal((3, 2 * n)).astype(np.float32)
    pick = {"reversed": lambda x: x[:, ::-1][:, :n], "stepped": lambda x: x[:, ::2],
            "transposed": lambda x: x[:, :n].T}[view]
    da_, db = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
    for axis in (-1, 0):
        want = np.vecdot(pick(a) * 2, pick(b), axis=axis)
        close(da.vecdot(pick(da_) * 2, pick(db), axis=axis), want, 5)  # a pending first operand
        close(da.vecdot(pick(da_), pick(db) + 1, axis=axis), np.vecdot(pick(a), pick(b) + 1, axis=axis), 5)


def test_outer_and_matrix_transpose(any_place):
    rng = np.random.default_rng(8)
    a, b = data(rng, (2, 3), np.dtype("int16")), data(rng, (4,), np.dtype("float32"))
    x, y = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
    close(da.outer(x, y), np.outer(a, b))
    close(da.linalg.outer(y, y), np.linalg.outer(b, b))
    with pytest.raises(ValueError, match="1-D"):
        da.linalg.outer(x, y)
    t = da.matrix_transpose(x)
    close(t, np.matrix_transpose(a))
    c = data(rng, (2, 3, 4), np.dtype("float32"))
    close(da.linalg.matrix_transpose(da.asarray(c, device=any_place)), np.matrix_transpose(c))
    with pytest.raises(ValueError, match="2 dimensions"):
        da.matrix_transpose(y)


# -- diagonal, trace --------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (0, 3), (2, 0, 2)])
@pytest.mark.parametrize("offset", [0, 1, -2, 7, -7])
def test_diagonal_and_trace(any_place, shape, offset):
    rng = np.random.default_rng(9)
    a = data(rng, shape, np.dtype("int32"))
    x = da.asarray(a, device=any_place)
    d = da.linalg.diagonal(x, offset=offset)
    close(d, np.linalg.diagonal(a, offset=offset))
    if d.size:
        assert d._data() is x._data()  # a view: no copy
    close(da.linalg.trace(x, offset=offset), np.trace(a, offset=offset, axis1=-2, axis2=-1))
    close(da.trace(x, offset), np.trace(a, offset))  # the main namespace: NumPy's axes 0 and 1
    close(da.linalg.trace(x, offset=offset, dtype=da.float64), np.trace(a, offset, -2, -1, dtype=np.float64))
    # views of views: a transposed, strided input
    v = on_device(a, "t", any_place)
    close(da.linalg.diagonal(v, offset=offset), np.linalg.diagonal(a, offset=offset))


def test_diagonal_errors(any_place):
    with pytest.raises(ValueError, match="2 dimensions"):
        da.linalg.diagonal(da.ones((3,), device=any_place))
    with pytest.raises(ValueError, match="two dimensions"):
        da.trace(da.ones((3,), device=any_place))


# -- norms ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ord", [2, 1, math.inf, -math.inf, 0, 3, -1.5, 0.5])
def test_vector_norm(any_place, ord):
    rng = np.random.default_rng(10)
    a = data(rng, (3, 4, 5), np.dtype("float32"))
    x = da.asarray(a, device=any_place)
    for axis, keepdims in ((None, False), ((0, 2), True), (1, False)):
        want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
        close(da.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord), want, 60)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int32"])
def test_vector_norm_dtypes(any_place, dtype):
    rng = np.random.default_rng(12)
    a = data(rng, (4, 6), np.dtype(dtype))
    x = da.asarray(a, device=any_place)
    for ord in (2, 1, math.inf, 0):
        for axis in (None, -1):
            close(da.linalg.vector_norm(x, axis=axis, ord=ord), np.linalg.vector_norm(a, axis=axis, ord=ord), 24)


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64"])
def test_matrix_norm(any_place, ord, dtype):
    rng = np.random.default_rng(11)
    a = data(rng, (2, 4, 3), np.dtype(dtype))
    x = da.asarray(a, device=any_place)
    for keepdims in (False, True):
        close(da.linalg.matrix_norm(x, keepdims=keepdims, ord=ord),
              np.linalg.matrix_norm(a, keepdims=keepdims, ord=ord), 12)
    close(da.linalg.matrix_norm(x[0], ord=ord), np.linalg.matrix_norm(a[0], ord=ord), 12)


def test_norm_errors(any_place):
    x = da.ones((3, 3), device=any_place)
    with pytest.raises(ValueError, match="norm order"):
        da.linalg.matrix_norm(x, ord="bad")
    with pytest.raises(ValueError, match="norm order"):
        da.linalg.vector_norm(x, ord="fro")
    with pytest.raises(ValueError, match="2 dimensions"):
        da.linalg.matrix_norm(da.ones((3,), device=any_place))


def test_linalg_namespace():
    from darray.ops import decomp, linalg_np  # the decompositions and solvers (tests/test_decomp.py)

    names = {"matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "diagonal", "trace", "vector_norm",
             "matrix_norm", *decomp.__all__, *linalg_np.__all__}
    assert set(da.linalg.__all__) == names
    assert all(callable(getattr(da.linalg, n)) for n in names)
    for n in ("matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "dot", "trace", "linalg"):
        assert n in da.__all__ and hasattr(da, n)
